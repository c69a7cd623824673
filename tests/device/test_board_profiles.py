# The real-board profiles (pyboard, rp2, esp32) behind the same interface as the emulated board:
# every input, lamp and UART the firmware asks for is wired, and critical memory runs on the
# profile's I2C FRAM. The unix port has no machine.Pin/UART/I2C, so a stand-in `machine` module
# records what the profile asks of it and hands out a byte-exact fake FRAM part.
# mp-heap: 384K  (the 64 KB fake FRAM part lives in RAM)
import gc
import sys

from board import hal
from fakes_nvram import FakeI2C, I2CFramChip


class _Pin:
    IN = 0
    OUT = 1
    PULL_UP = 2

    def __init__(self, ident, mode=None, pull=None, value=None):
        self.ident = ident
        self.mode = mode
        self.v = value or 0

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v

    def irq(self, handler=None, trigger=3):
        self.handler = handler


class _Uart:
    def __init__(self, uid, **kw):
        self.uid = uid
        self.kw = kw


class _Machine:
    """Just enough of `machine` for board/machine_board.py."""

    Pin = _Pin
    UART = _Uart

    def __init__(self):
        self.chip = None

    def I2C(self, bus, **kw):
        gc.collect()
        self.chip = I2CFramChip(65536, 0x50)
        return FakeI2C(self.chip)


def build(name):
    fake = _Machine()
    sys.modules["machine"] = fake
    try:
        import board.machine_board as mb

        mb.machine = fake  # the module may already be imported with the real (or no) machine
        profile = __import__("board." + name, None, None, ("NAME",))
        return mb.MachineBoard(profile, mb.open_fram(profile)), profile, fake
    finally:
        del sys.modules["machine"]


def check_profile(name):
    board, profile, fake = build(name)
    for pin in hal.INPUTS:
        assert board.pin(pin).mode == _Pin.IN, pin
    for lamp in hal.LAMPS:
        assert board.lamp(lamp).value() == 0
    assert board.uart("cctalk").kw["baudrate"] == 9600  # ccTalk's standard rate
    assert board.uart("console").uid != board.uart("cctalk").uid
    wired = [profile.PINS[n] for n in hal.INPUTS + hal.LAMPS]
    assert len(set(wired)) == len(wired), "two functions on one pin"
    from firmware.ledger import Ledger, open_memory

    led = Ledger(open_memory(board.nvram))
    led.open()
    led.accept(8)
    again = Ledger(open_memory(board.nvram))
    again.open()
    assert again.credits == 8  # the ledger's journal and copies are on the FRAM part
    assert board.NAME == profile.NAME and board.ENTROPY == profile.ENTROPY


def test_pyboard_profile():
    check_profile("pyboard")


def test_rp2_profile():
    check_profile("rp2")


def test_esp32_profile():
    check_profile("esp32")
