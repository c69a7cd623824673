# The emulated board's entropy wire (board/emulated.py EntropyWire) and firmware/cabinet.py open_rng:
# a source the host makes stuck fails the real SP 800-90B health tests, at power-up (start-up test)
# and at run time (the repetition count test at the reseed the board triggers), and the generator's
# reseeds read the same wire.
from devtest import raises, tmpdir

import rng
from board.emulated import EntropyWire
from firmware.cabinet import open_rng


class Board:
    NAME = "fake"
    ENTROPY = "emulated"

    def __init__(self, wire):
        self.wire = wire

    def entropy_source(self):
        return self.wire


class Ledger:
    st = None  # a fresh machine: power-up count 0


def wire(content=None):
    d = tmpdir("entropy")
    if content is not None:
        with open(d + "/entropy", "w") as f:
            f.write(content)
    return EntropyWire(d + "/entropy")


def test_a_wire_stuck_at_power_up_fails_the_start_up_test():
    gen, failure = open_rng(Board(wire("stuck\n")), Ledger(), "m1")
    assert gen is None and failure.reason == "startup"
    gen, failure = open_rng(Board(wire("ok\n")), Ledger(), "m1")  # anything but "stuck" is healthy
    assert failure is None and 0 <= gen.randbits(8) < 256


def test_a_wire_stuck_at_run_time_trips_the_repetition_count_at_once():
    w = wire()
    gen, failure = open_rng(Board(w), Ledger(), "m1")
    assert failure is None
    gen.idle()
    reseeds = gen.reseeds
    w.set_stuck(True)  # the panel line 'entropy stuck'
    with raises(rng.RngFailure) as e:
        gen.idle()  # the failure latched at the reseed the wire asked for
    assert e.value.reason == "rct"
    with raises(rng.RngFailure):
        gen.randbits(8)  # no output after a failure
    assert gen.reseeds == reseeds  # the reseed never completed from stuck samples
    w.set_stuck(False)
    gen2, failure = open_rng(Board(w), Ledger(), "m1")  # the attendant key's fresh generator
    assert failure is None and gen2.failure is None


def test_the_wire_reads_the_host_urandom_until_stuck():
    w = wire()
    a, b = w.urandom(32), w.urandom(32)
    assert len(a) == 32 and a != b  # 2**-256 to collide
    w.set_stuck(True)
    assert w.urandom(5) == bytes([EntropyWire.STUCK] * 5)
