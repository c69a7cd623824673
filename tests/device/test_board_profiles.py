# Every real-board profile (pyboard, rp2, esp32) boots the whole firmware, as firmware/main.py does
# on that platform: firmware.startup.boot, the cabinet loop, a coin, a game, a cash-out and a power
# cycle. The unix port has no machine.Pin/UART/I2C, so a stand-in `machine` module hands out:
# - input lines with pull-ups and edge IRQs numbered as the port numbers them,
# - the ccTalk UART as a single-wire bus with a coin acceptor (address 2) and a hopper (address 3),
# - a byte-exact fake 64 KB I2C FRAM part (fakes_nvram) for critical memory,
# - where the profile has a SAS port (pyboard), the stm32 port's 9-bit UART (fakes_stm32_uart),
# and the platform's entropy hardware (pyb.rng, machine.mem32, network) stands in as well.
# mp-heap: 1024K  (the 128 KB fake FRAM part lives in RAM; since the parts' modules come in after the boot
# check, 768K no longer finds one 128 KB piece for it beside the firmware compiled from source)
import gc
import os
import sys

from devtest import raises, tmpdir
from fakes_board import Acceptor, Clock, Hopper, Wire
from fakes_nvram import FakeI2C, I2CFramChip
from fakes_rng import Mem32
from fakes_stm32_uart import Stm32Uart

from board import hal

# (IRQ_RISING, IRQ_FALLING) of each port's machine.Pin (MicroPython ports/stm32/pin.c:
# GPIO_MODE_IT_RISING / _FALLING of the STM32 HAL; ports/rp2/machine_pin.c: 8 / 4;
# ports/esp32/machine_pin.c: GPIO_INTR_POSEDGE 1 / GPIO_INTR_NEGEDGE 2). None equals hal's 2 / 1.
IRQ = {"pyboard": (0x10110000, 0x10210000), "rp2": (8, 4), "esp32": (1, 2)}
ROSC_RANDOMBIT = 0x4006001C  # RP2040 datasheet 2.17.8, the register rng/sources.py reads
TOKEN = 4  # a $1 token at 25 cents a credit (firmware/config.py COINS["CA100T"], DENOM_CENTS)
# The fake 128 KB FRAM part's cells, taken once at import while the heap is whole: each test's new
# part wipes them (a fresh clone's make test s39c: after the first boot from source no 128 KB piece
# was left in 1024K, in one checkout and not in another)
PART = bytearray(131072)


class Line:
    """machine.Pin stand-in. An input floats to its pull unless the outside world drives it
    (drive(0): a switch closed to ground; drive(None): released); outputs count their rising edges."""

    IN = 0
    OUT = 1
    PULL_UP = 2
    IRQ_RISING = 0
    IRQ_FALLING = 0
    lines = {}

    def __init__(self, ident, mode=None, pull=None, value=None):
        self.ident = ident
        self.mode = mode
        self.pull = pull
        self.driven = None
        self.out = 1 if value else 0
        self.rises = 0
        self.handler = None
        self.trigger = 0
        if mode is not None:
            Line.lines[ident] = self

    def value(self, v=None):
        if v is None:
            if self.mode == Line.OUT:
                return self.out
            if self.driven is not None:
                return self.driven
            return 1 if self.pull == Line.PULL_UP else 0
        v = 1 if v else 0
        if v and not self.out:
            self.rises += 1
        self.out = v

    def irq(self, handler=None, trigger=0):
        self.handler = handler
        self.trigger = trigger

    def drive(self, level):
        before = self.value()
        self.driven = level
        now = self.value()
        edge = Line.IRQ_RISING if now else Line.IRQ_FALLING
        # stm32's numbers share bits: an edge fires only when its whole code is in the trigger
        if now != before and self.handler and self.trigger & edge == edge:
            self.handler(self)


class Console:
    """The console UART: nothing typed; what the firmware writes is kept."""

    def __init__(self):
        self.out = bytearray()

    def any(self):
        return 0

    def readinto(self, buf):
        return None

    def write(self, buf):
        self.out += buf
        return len(buf)


class Machine:
    """Just enough of `machine` (and the entropy hardware) for board/machine_board.py and rng."""

    Pin = Line

    def __init__(self, name, cctalk_uid, sas_uid=None):
        Line.IRQ_RISING, Line.IRQ_FALLING = IRQ[name]
        Line.lines = {}
        self.cctalk_uid = cctalk_uid
        self.sas_uid = sas_uid
        self.sas = None
        self.rtc = Rtc()
        self.wire = Wire()
        self.acceptor = Acceptor()
        self.hopper = Hopper()
        self.wire.devices = {2: self.acceptor, 3: self.hopper}
        self.console = Console()
        self.uart_args = {}
        self.chip = None
        self.resets = 0
        self.mem32 = Mem32()
        self.mem32.hooks[ROSC_RANDOMBIT] = lambda: os.urandom(1)[0] & 1

    def UART(self, uid, **kw):
        self.uart_args[uid] = kw
        if uid == self.sas_uid:
            if self.sas is None:  # the port's UART object outlives a soft reset's board
                self.sas = Stm32Uart(uid, **kw)
            return self.sas
        return self.wire if uid == self.cctalk_uid else self.console

    def RTC(self):
        return self.rtc

    def I2C(self, bus, **kw):
        if self.chip is None:  # the part keeps its cells across power cycles
            self.chip = I2CFramChip(131072, 0x50, mem=PART)
        return FakeI2C(self.chip)

    def reset(self):
        self.resets += 1

    # pyb.rng() (stm32): 30 random bits
    def rng(self):
        b = os.urandom(4)
        return (b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24) & 0x3FFFFFFF


class Rtc:
    """machine.RTC: what was set, as the port's datetime tuple."""

    def __init__(self):
        self.set = []

    def datetime(self, t=None):
        if t is None:
            raise NotImplementedError("the tests only set it")
        self.set.append(tuple(t))


class Network:
    """`network` for the ESP32 source: the RF is on once the station interface is active."""

    STA_IF = 0

    def __init__(self):
        self.on = False

    def WLAN(self, which):
        return self

    def active(self, on=None):
        if on is not None:
            self.on = on
        return self.on


def fresh_keystore():
    return tmpdir("keystore") + "/"


class Installed:
    """The stand-ins in sys.modules while a test runs (and machine_board pointed at them)."""

    def __init__(self, name):
        self.profile = __import__("board." + name, None, None, ("NAME",))
        sas = self.profile.UARTS.get("sas")
        self.machine = Machine(name, self.profile.UARTS["cctalk"][0], sas[0] if sas else None)

    def __enter__(self):
        import board.machine_board as mb

        self.mb = mb
        self.kept = mb.machine
        mb.machine = self.machine  # the module may be imported already, with the unix (or no) machine
        self.kept_keystore = mb.KEYSTORE
        mb.KEYSTORE = fresh_keystore()  # a new MCU: no key, no anti-rollback counter yet
        sys.modules["machine"] = self.machine
        sys.modules["pyb"] = self.machine
        sys.modules["network"] = Network()
        return self

    def __exit__(self, *exc):
        self.mb.machine = self.kept
        self.mb.KEYSTORE = self.kept_keystore
        for name in ("machine", "pyb", "network"):
            sys.modules.pop(name, None)

    def line(self, name):
        return Line.lines[self.profile.PINS[name]]


def power_up(inst, clock, make=None, games=None):
    """Boot the firmware as firmware/main.py does on the profile's platform, on a hand-driven clock
    (games: the command line's --games)."""
    from firmware import main
    from firmware.startup import boot

    gc.collect()
    board = make() if make else main.make_board(main.DEFAULTS, inst.profile.NAME)
    for door in hal.DOORS:
        inst.line(door).drive(0)  # doors shut: their switches close the loop
    board.ticks_ms = clock
    board.idle = lambda ms: clock.advance(max(ms, 1))
    return board, boot(board, games, None, None)


def steps(cab, n, until=None):
    for _ in range(n):
        cab.step()
        if until is not None and until():
            return True
    return False


def press(inst, cab, name, hold=60):
    line = inst.line(name)
    line.drive(0)
    steps(cab, hold // 20 + 1)
    line.drive(None)
    steps(cab, 3)


def session(name):
    """Boot, a token, a game, a cash-out, a power cycle: returns what each side saw."""
    with Installed(name) as inst:
        m = inst.machine
        clock = Clock()
        board, cab = power_up(inst, clock)
        seen = {"board": board.NAME, "entropy": board.ENTROPY, "em": cab.em, "state": cab.state,
                "meter_names": board.meter_names(), "lamps_low": [board.lamp(n).value() for n in hal.LAMPS]}
        led = cab.ledger
        # the security memory builds its records in the ledger memory's buffers (firmware/audit.py)
        seen["one_buffer"] = cab.audit is not None and cab.audit.mem._jbuf is led.mem._jbuf \
            and cab.audit.mem._saved is led.mem._saved
        assert steps(cab, 100, lambda: m.acceptor.master == 1), "acceptor never enabled"
        m.acceptor.event(1, 1)  # a $1 token in position 1
        assert steps(cab, 100, lambda: led.credits > 0), "token never credited"
        seen["credits"] = led.credits
        press(inst, cab, "play")
        assert steps(cab, 200, lambda: led.meters["games_played"] == 1 and cab.state != "spin"), cab.state
        press(inst, cab, "cashout")
        assert steps(cab, 400, lambda: led.credits == 0 or cab.state == "handpay"), cab.state
        if cab.state == "handpay":  # the part smaller than a token
            press(inst, cab, "key_reset")
            assert steps(cab, 100, lambda: cab.state == "idle"), cab.state
        seen["meters"] = dict(led.meters)
        seen["after"] = (cab.state, led.credits)
        seen["coins_out"] = m.hopper.out
        board = cab = led = None
        gc.collect()
        board, cab = power_up(inst, clock)  # power cycle: critical memory is on the FRAM part
        seen["again"] = dict(cab.ledger.meters)
        seen["again_state"] = cab.state
        seen["resets"] = m.resets
        return seen


def check_session(name):
    s = session(name)
    assert s["board"] == name and s["entropy"] == __import__("board." + name, None, None, ("NAME",)).ENTROPY
    # no meter coils on these profiles: soft meters only, and no probe of coils that are not there
    assert s["em"] is None and s["meter_names"] == ()
    assert s["state"] == "idle", s["state"]  # pulled-up keys and buttons read off, shut doors shut
    assert s["lamps_low"] == [0, 0, 0, 0]
    assert s["credits"] == TOKEN
    assert s["one_buffer"]
    m = s["meters"]
    assert s["after"] == ("idle", 0)
    assert m["acceptor_in"] == TOKEN and m["games_played"] == 1
    # what physically left the hopper is what the books say it paid; the rest was paid by hand
    assert m["hopper_out"] == TOKEN * s["coins_out"]
    assert m["cashout"] == m["hopper_out"] + m["cancelled"] == TOKEN - m["coin_in"] + m["coin_out"]
    for k in m:
        if k != "power_resets":
            assert s["again"][k] == m[k], k
    assert s["again"]["power_resets"] == m["power_resets"] + 1
    assert s["again_state"] == "idle" and s["resets"] == 0


def test_pyboard_boots_takes_a_token_plays_and_cashes_out():
    check_session("pyboard")


def test_rp2_boots_takes_a_token_plays_and_cashes_out():
    check_session("rp2")


def test_esp32_boots_takes_a_token_plays_and_cashes_out():
    check_session("esp32")


def test_a_boot_gives_the_cabinet_its_parts_and_its_configuration_and_leaves_the_defaults_alone():
    # issue 24.3: settings.apply wrote the operator's overrides into firmware/config.py with setattr;
    # the cabinet and its parts now read the Config the boot settled on, made once
    from firmware import config
    from firmware.coin_in import CoinIn
    from firmware.hopper_out import HopperOut
    from firmware.play import GamePlay

    with Installed("pyboard") as inst:
        board, cab = power_up(inst, Clock(), games=("trefle-90",))
        assert cab.config.GAMES == ("trefle-90",) and cab.game.id == "trefle-90"
        assert config.GAMES == ("sept-royal-87",)  # the module keeps its defaults
        assert type(cab.gameplay) is GamePlay and cab.gameplay.config is cab.config
        assert type(cab.coins) is CoinIn and cab.coins.config is cab.config
        assert type(cab.money_out) is HopperOut and cab.money_out.hopper is not None  # casino: by hopper
        assert cab.gameplay.screen is cab.money_out.screen is cab.screen
        assert cab.console is not None and cab.console.cab is cab and cab.bills is None


def test_wiring_of_each_profile():
    for name in ("pyboard", "rp2", "esp32"):
        with Installed(name) as inst:
            from firmware import main

            board = main.make_board(main.DEFAULTS, name)
            p = inst.profile
            assert inst.machine.uart_args[p.UARTS["cctalk"][0]]["baudrate"] == 9600  # ccTalk's standard rate
            assert p.UARTS["console"][0] != p.UARTS["cctalk"][0]
            wired = [p.PINS[n] for n in hal.INPUTS + hal.LAMPS]
            assert len(set(wired)) == len(wired), "two functions on one pin"
            for n in hal.INPUTS:
                assert Line.lines[p.PINS[n]].pull == Line.PULL_UP, n
            assert board.nvram.size == p.FRAM["size"] == 131072  # the ledger and the security memory
            # the firmware as its release names it, read back from the board's flash (board/flash_image.py)
            assert board.IMAGE == "firmware/firmware-%s.bin" % name
            t = board.ticks_ms()
            board.idle(1)  # the board's own clock and sleep run on both runtimes
            assert isinstance(t, int) and board.ticks_ms() - t >= 1
            board = None
            gc.collect()


def test_a_door_opening_is_seen_through_the_port_s_own_irq_numbers():
    for name in ("esp32", "pyboard"):  # esp32 numbers its edges the other way round from hal
        with Installed(name) as inst:
            clock = Clock()
            cab = power_up(inst, clock)[1]
            inst.line("door_main").drive(None)  # the door opens: its switch releases the line
            steps(cab, 5)
            assert cab.state == "door" and cab.ledger.meters["door_main"] == 1, name
            inst.line("door_main").drive(0)
            assert steps(cab, 10, lambda: cab.state == "idle"), name
            cab = None
            gc.collect()


def test_detach_takes_the_cabinet_s_handlers_off_the_port_s_pins():
    # firmware/main.py supervise: the failed cabinet's drivers must not stay reachable from the pins
    with Installed("esp32") as inst:
        board = power_up(inst, Clock())[0]
        line = inst.line("door_main")
        assert line.handler is not None
        board.detach()
        assert line.handler is None and board.pin("door_main")._handler is None
        assert board.display.last is None
        board = None
        gc.collect()


def test_the_audit_key_is_active_low():
    with Installed("rp2") as inst:
        cab = power_up(inst, Clock())[1]
        assert not cab.audit_mode()  # released: the pull-up reads 1, the key is off
        inst.line("key_audit").drive(0)
        steps(cab, 5)
        assert cab.audit_mode() and cab.state == "service"  # the key on, nothing owed
        cab = None
        gc.collect()


class _WithCoils:
    """The pyboard profile with two meter coils fitted (Y5, Y6): a profile wires any subset."""

    def __init__(self):
        import board.pyboard as p

        self.NAME, self.ENTROPY, self.UARTS, self.FRAM = p.NAME, p.ENTROPY, p.UARTS, p.FRAM
        self.PINS = dict(p.PINS)
        self.PINS["meter_in"] = "Y5"
        self.PINS["meter_games"] = "Y6"


def test_a_profile_with_some_meter_coils_drives_exactly_those():
    with Installed("pyboard") as inst:
        profile = _WithCoils()
        inst.profile = profile
        m = inst.machine

        def make():
            from board.machine_board import MachineBoard, open_fram

            return MachineBoard(profile, open_fram(profile))

        board, cab = power_up(inst, Clock(), make)
        assert board.meter_names() == ("meter_in", "meter_games")
        assert sorted(cab.em.coils) == ["meter_games", "meter_in"]
        assert steps(cab, 100, lambda: m.acceptor.master == 1)
        m.acceptor.event(1, 1)
        assert steps(cab, 100, lambda: cab.ledger.credits > 0)
        press(inst, cab, "play")
        led = cab.ledger
        assert steps(cab, 300, lambda: led.meters["games_played"] == 1 and not cab.em.busy())
        assert inst.line("meter_games").rises == 1
        assert inst.line("meter_in").rises == led.meters["coin_in"] > 0
        board = cab = led = None
        gc.collect()


def test_a_coil_the_board_lacks_is_named():
    with Installed("esp32"):
        from firmware import main

        board = main.make_board(main.DEFAULTS, "esp32")
        with raises(ValueError) as e:
            board.meter("meter_in")
        assert str(e.value) == "board esp32 has no meter coil 'meter_in'"
        board = None
        gc.collect()


def test_an_unknown_profile_is_refused_with_the_choices():
    from firmware import main

    with raises(SystemExit) as e:
        main.load_profile("stm32")
    assert str(e.value.args[0]) == "no board profile 'stm32' (emulated, esp32, pyboard, rp2)"


def test_the_base_board_names_each_missing_contract():
    b = hal.Board()
    for call in (lambda: b.uart("cctalk"), lambda: b.pin("play"), lambda: b.lamp("lamp_play"),
                 lambda: b.meter("meter_in"), lambda: b.idle(1), lambda: b.ticks_ms(), lambda: b.reset(),
                 lambda: b.floor("release")):
        with raises(NotImplementedError):
            call()
    assert b.meter_names() == () and b.door_latch is None and b.entropy_source() is None


def test_each_profile_keeps_its_floors_on_the_mcu_flash_apart_from_the_fram():
    # the release, configuration and enrolment floors (hal.Board.floor) are files beside the machine
    # key and the anti-rollback counters, never on the FRAM part: a wiped part keeps them
    import os

    for name in ("pyboard", "rp2", "esp32"):
        with Installed(name) as inst:
            from firmware import main

            board = main.make_board(main.DEFAULTS, name)
            for which in hal.FLOORS:
                f = board.floor(which)
                assert f.read() is None  # a new MCU
                f.write(5)
                with raises(ValueError):
                    f.write(4)  # never lower
            assert sorted(n for n in os.listdir(inst.mb.KEYSTORE) if n.endswith(".flr")) == [
                "jeton-config.flr", "jeton-enrol.flr", "jeton-release.flr"]
            with raises(ValueError):
                board.floor("books")  # not a floor: the anti-rollback counters are rollback_counter()
            board = None
            gc.collect()


# --- the pyboard's SAS port: 9-bit characters on the stm32 UART ---------------------------------------
# Each character as the UART has it: 0x100 | byte when its 9th (wakeup) bit is set. The polls' and
# replies' CRCs (CRC-16/KERMIT, least significant byte first: SAS 6.02 s. 2.2.3, 5.1) were computed
# with crccheck's CrcKermit (check value of "123456789" 0x2189), not with board/sas_crc.py.
WAKE = 0x100
# PYBV11's fixed UART and I2C pins (MicroPython ports/stm32/boards/PYBV11/mpconfigboard.h, pins.csv:
# UART1 B6/B7 = X9/X10, UART2 A2/A3 = X3/X4, UART3 B10/B11 = Y9/Y10, UART4 A0/A1 = X1/X2, UART6 C6/C7 =
# Y1/Y2; I2C1 B6/B7, I2C2 B10/B11)
PYB_UART_PINS = {1: ("X9", "X10"), 2: ("X3", "X4"), 3: ("Y9", "Y10"), 4: ("X1", "X2"), 6: ("Y1", "Y2")}
PYB_I2C_PINS = {1: ("X9", "X10"), 2: ("Y9", "Y10")}


def test_the_pyboard_s_sas_port_is_a_9_bit_uart():
    from board.sas_link import RX_MAX

    with Installed("pyboard") as inst:
        from firmware import main

        board = main.make_board(main.DEFAULTS, "pyboard")
        p = inst.profile
        uid = p.UARTS["sas"][0]
        kw = inst.machine.uart_args[uid]
        # SAS 6.02 s. 1.2: 19.2 kbaud, a 9th bit (stm32: bits=9 only with parity=None)
        assert kw["baudrate"] == 19200 and kw["bits"] == 9 and kw["parity"] is None and kw["timeout"] == 0
        assert kw["rxbuf"] >= RX_MAX  # the longest poll taken fits the ring (characters)
        assert board.SAS_NINE_BIT and inst.machine.sas.nine
        board = None
        gc.collect()


def test_no_pyboard_pin_serves_two_roles():
    # every UART's pins, the FRAM's I2C bus and each switch and lamp on a pin of its own (the
    # profile once had the console's UART(3) on the FRAM bus's Y9/Y10); the meter coils a cabinet
    # may add (_WithCoils: Y5, Y6) too
    import board.pyboard as p

    roles = {}
    for role, pin in list(p.PINS.items()) + [("meter_in", "Y5"), ("meter_games", "Y6")]:
        roles.setdefault(pin, []).append(role)
    for role, spec in p.UARTS.items():
        for pin in PYB_UART_PINS[spec[0]]:
            roles.setdefault(pin, []).append(role)
    for pin in PYB_I2C_PINS[p.FRAM["i2c"]]:
        roles.setdefault(pin, []).append("fram")
    shared = {pin: names for pin, names in roles.items() if len(names) > 1}
    assert not shared, shared


def test_the_other_profiles_have_no_sas_port():
    # rp2 and esp32: no stick parity, no 9th bit (docs/sas.md "Wire and framing")
    for name in ("rp2", "esp32"):
        with Installed(name):
            from firmware import main

            board = main.make_board(main.DEFAULTS, name)
            assert "sas" not in board.uarts and not board.SAS_NINE_BIT
            board = None
            gc.collect()


def _answer(inst, cab, chars, passes=1):
    """The host's characters on the line, then the cabinet's passes: what the machine wrote back."""
    u = inst.machine.sas
    u.take()
    u.arrive(chars)
    steps(cab, passes)
    return u.take()


def test_the_pyboard_answers_sas_polls_framed_by_the_wakeup_bit():
    with Installed("pyboard") as inst:
        clock = Clock()
        cab = power_up(inst, clock)[1]
        u = inst.machine.sas
        assert cab.sas is not None and cab.sas.link.nine_bit
        steps(cab, 3)
        # link down since power-up: the chirp is our address with the 9th bit set, the one character
        # the machine ever sends with it
        clock.advance(300)
        steps(cab, 1)
        assert u.take() == [WAKE | 0x01]
        # general poll 0x80 | address: one exception code back, its 9th bit clear
        got = _answer(inst, cab, [WAKE | 0x81])
        assert cab.sas.link.up, got
        # the power-up's exceptions, then none (Table A-1: 18 AC power lost, 17 applied; 00 no activity)
        assert got == [0x18] and _answer(inst, cab, [WAKE | 0x81]) == [0x17]
        assert _answer(inst, cab, [WAKE | 0x81]) == [0x00]
        # a long poll with its CRC: 2D, hand-paid cancelled credits of game 0000 (type S, 2 BCD)
        assert _answer(inst, cab, [WAKE | 0x01, 0x2D, 0x00, 0x00, 0xFF, 0xE0]) == [
            0x01, 0x2D, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x73, 0xCC]
        # the same poll to address 2: not ours, never answered
        link = cab.sas.link
        polls = link.polls
        assert _answer(inst, cab, [WAKE | 0x02, 0x2D, 0x00, 0x00, 0x32, 0xC5]) == []
        assert link.polls == polls and link.crc_errors == 0
        # a wakeup bit in the middle of a message: the cut one is dropped, the new one framed from
        # its address (1A, current credits: none)
        broken = link.broken
        assert _answer(inst, cab, [WAKE | 0x01, 0x2D, 0x00, WAKE | 0x01, 0x1A]) == [
            0x01, 0x1A, 0x00, 0x00, 0x00, 0x00, 0xC3, 0xFC]
        assert link.broken == broken + 1 and link.polls == polls + 1
        # a message to another machine longer than one read of the link (32 characters), then ours in
        # the same burst: its wakeup bit frames it wherever the reads split the burst
        other = [WAKE | 0x02, 0x7C, 38] + [0x41] * 38 + [0x12, 0x34]
        assert _answer(inst, cab, other + [WAKE | 0x01, 0x1A]) == [0x01, 0x1A, 0x00, 0x00, 0x00, 0x00, 0xC3, 0xFC]
        # a bad CRC: ignored
        assert _answer(inst, cab, [WAKE | 0x01, 0x2D, 0x00, 0x00, 0xFF, 0xE1]) == []
        assert link.crc_errors == 1 and u.lost == 0
        cab = link = None
        gc.collect()


def test_the_stm32_uart_stand_in_keeps_to_the_port_s_rules():
    # what the fake itself promises (ports/stm32/uart.c, machine_uart.c), apart from the firmware
    u = Stm32Uart(6, baudrate=19200, bits=9, parity=None, rxbuf=4)
    assert u.timeout_char == 2  # 13000 // 19200 + 2
    buf = bytearray(4)
    assert u.readinto(buf) is None  # nothing: EAGAIN
    u.arrive([0x1A5, 0x03C])
    with raises(OSError):
        u.readinto(bytearray(3))  # an odd size on a 9-bit UART: EIO
    assert u.readinto(buf) == 4 and bytes(buf) == b"\xa5\x01\x3c\x00"  # little-endian uint16s
    u.arrive(range(0x100, 0x108))
    assert u.any() == 5 and u.lost == 3  # the ring's 4, one in the data register, the rest overrun
    assert u.write(b"\x81\x01\x02\xfe") == 4 and u.take() == [0x181, 0x002]  # masked to 9 bits
    with raises(ValueError):
        Stm32Uart(1, bits=9, parity=0)  # 10 bits with the parity
    # 8 data bits and a parity: a 9-bit frame, read as 8 bits; 7 and a parity: 7
    assert Stm32Uart(1, bits=8, parity=0).mask == 0xFF and not Stm32Uart(1, bits=8, parity=0).nine
    assert Stm32Uart(1, bits=7, parity=1).mask == 0x7F


def test_the_pyboard_s_rtc_is_the_clock_sas_7f_sets():
    # 2025-11-28 00:00:00 UTC, 1,764,288,000 s after 1970, was a Friday: the stm32 RTC's weekday 5
    # (pyb.RTC docs: 1-7 for Monday to Sunday); subseconds are not set (ports/stm32/rtc.c)
    from board import calendar_clock

    with Installed("pyboard") as inst:
        from firmware import main

        board = main.make_board(main.DEFAULTS, "pyboard")
        board.set_clock(1764288000)
        board.set_clock(1764288000 + 86400 * 2 + 3600 * 23 + 60 * 59 + 58)  # the Sunday, 23:59:58
        assert inst.machine.rtc.set == [(2025, 11, 28, 5, 0, 0, 0, 0), (2025, 11, 30, 7, 23, 59, 58, 0)]
        assert calendar_clock.EPOCH == 0  # the unix port's time counts from 1970, as the test's date does
        # the stm32 port's counts from 2000 (py/mpconfig.h MICROPY_EPOCH_IS_2000): the same date
        import time

        mb = inst.mb
        kept = mb.time, calendar_clock.EPOCH

        class Port2000:
            @staticmethod
            def gmtime(s):
                return time.gmtime(s + calendar_clock.Y2K)

        mb.time, calendar_clock.EPOCH = Port2000, calendar_clock.Y2K
        try:
            board.set_clock(1764288000)
        finally:
            mb.time, calendar_clock.EPOCH = kept
        assert inst.machine.rtc.set[-1] == (2025, 11, 28, 5, 0, 0, 0, 0)
        board = None
        gc.collect()
    for name in ("rp2", "esp32"):  # no SAS port: nothing sets their clock
        with Installed(name):
            from firmware import main

            board = main.make_board(main.DEFAULTS, name)
            assert getattr(board, "set_clock", None) is None
            board = None
            gc.collect()
