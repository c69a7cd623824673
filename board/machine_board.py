# A board built from a pin map over MicroPython's `machine` module (pyboard, rp2, esp32 profiles).
# Untested on hardware so far: the profiles record the wiring; the interface is the one in hal.py.
import time

from board import hal

try:
    import machine
except ImportError:  # host: only the maps are importable
    machine = None


class Lamp:
    def __init__(self, pin):
        self._pin = pin

    def value(self, v=None):
        return self._pin.value() if v is None else self._pin.value(v)


class NullDisplay:
    """Placeholder until a display driver exists for this board: shows nothing, loses nothing."""

    last = None

    def show(self, screen):
        self.last = screen


def open_fram(profile):
    """The profile's FRAM as the board's NVRAM (verified writes: a failing part is never silent)."""
    from board.nvram_fram import I2CFram

    f = profile.FRAM
    kw = {"freq": f["freq"]}
    if f["scl"] is not None:
        kw["scl"] = machine.Pin(f["scl"])
        kw["sda"] = machine.Pin(f["sda"])
    return I2CFram(machine.I2C(f["i2c"], **kw), f["size"], f["addr"], verify=True)


class MachineBoard(hal.WiredBoard):
    def __init__(self, profile, nvram):
        m = machine
        self.NAME = profile.NAME
        self.ENTROPY = profile.ENTROPY
        self.nvram = nvram
        self.pins = {}
        for name in hal.INPUTS:
            self.pins[name] = m.Pin(profile.PINS[name], m.Pin.IN, m.Pin.PULL_UP)
        self.lamps = {}
        for name in hal.LAMPS:
            self.lamps[name] = Lamp(m.Pin(profile.PINS[name], m.Pin.OUT, value=0))
        self.uarts = {}
        for role, (uid, baud, tx, rx) in profile.UARTS.items():
            kw = {"baudrate": baud, "timeout": 0}
            if tx is not None:
                kw["tx"] = m.Pin(tx)
                kw["rx"] = m.Pin(rx)
            self.uarts[role] = m.UART(uid, **kw)
        # meter coils and pulse-acceptor lines exist where the profile wires them
        self.meters = {}
        for name in hal.METERS:
            if name in profile.PINS:
                self.meters[name] = Lamp(m.Pin(profile.PINS[name], m.Pin.OUT, value=0))
        for name in hal.COIN_PULSE:
            if name in profile.PINS:
                self.pins[name] = m.Pin(profile.PINS[name], m.Pin.IN, m.Pin.PULL_UP)
        self.door_latch = None  # no battery-backed latch driver yet (see board/doors.py)
        self.display = NullDisplay()

    def ticks_ms(self):
        return time.ticks_ms()

    def reset(self):
        machine.reset()  # a fresh heap; critical memory carries the cabinet over

    def idle(self, ms):
        # UART FIFOs and pin IRQs keep working while we sleep; short naps keep the loop responsive
        time.sleep_ms(min(ms, 5))
