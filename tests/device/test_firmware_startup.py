# The power-up (firmware/startup.py boot) on the emulated board, as firmware/main.py runs it: what a
# power-up that finds a RAM error still reads from the world.
# mp-heap: 1024K  (the whole boot in the test's heap: the game, the console, the 128 KB part's maps)
import gc

from devtest import tmpdir

from board import emulated
from firmware import config, startup, states
from firmware.main import NVRAM_SIZE

SAVED = [n for n in dir(config) if n.isupper()]


def power_up(d, juris):
    gc.collect()
    b = emulated.Board(d, 0, 0, 0, nvram_size=NVRAM_SIZE)  # port 0: any free one
    return b, startup.boot(b, ("sept-royal-87",), None, None, None, juris, None)


def unplug(b):
    for link in b._links:
        link.srv.close()
    b.nvram.close()


def test_a_ram_error_at_power_up_keeps_the_configuration_s_tilt_through_the_clear():
    # `make fuzz` (issue 22.9's rules): a power-up found a RAM error (nvram.bin deleted) and a refused
    # configuration (vlt asked for, no signed configuration) at once: the config tilt was not set,
    # so after the technician's RAM clear the cabinet stood idle with no game, and the player's
    # PLAY raised AttributeError ('NoneType' object has no attribute 'bets'): a supervisor restart
    was = [getattr(config, n) for n in SAVED]
    d = tmpdir("ramboot")
    try:
        b, cab = power_up(d, None)  # a sound first power-up: the books formatted, the counter ahead
        assert cab.state == states.IDLE and not cab.ram_error
        unplug(b)
        with open(d + "/nvram.bin", "wb") as f:
            f.write(bytes(NVRAM_SIZE))  # the part blank on a machine that used it
        b, cab = power_up(d, "vlt")
        try:
            assert cab.ram_error and cab.state == states.RAMERROR
            assert cab.handle(states.RAMCLEAR, "boss")
            assert "config" in cab.tilts and cab.state == states.TILT, (cab.state, cab.tilts)
            assert not cab.handle(states.PLAY) and not cab.handle(states.BET) and not cab.want_money()
        finally:
            unplug(b)
    finally:
        for n, v in zip(SAVED, was):
            setattr(config, n, v)
