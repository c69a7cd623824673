# A board built from a pin map over MicroPython's `machine` module (pyboard, rp2, esp32 profiles).
# Untested on hardware so far: the profiles record the wiring; the interface is the one in hal.py.
# tests/device/test_board_profiles.py boots the whole firmware on each profile over a stand-in
# `machine` module.
#
# Wiring convention of every profile: inputs are pulled up. Buttons, keys and the pulse acceptor's
# open-collector lines pull their line to ground when active (active low); a door switch is closed
# while the door is shut and opens the loop when it opens (active high: a cut wire reads "open").
import os
import time

from board import calendar_clock, hal
from board.compat import sleep_ms, ticks_ms
from board.counter_file import CounterFile
from board.secret_file import SecretFile

try:
    import machine
except ImportError:  # host: only the maps are importable
    machine = None


# where the key and counter files go: the working directory at boot is the MCU's internal flash
# on every profile (/flash on a pyboard, / on rp2 and esp32)
KEYSTORE = ""
ACTIVE_LOW = hal.BUTTONS + hal.KEYS + hal.COIN_PULSE


class Input:
    """A pulled-up switch as the firmware sees it: value() 1 = pressed / on / open, and edges named
    by hal.IRQ_RISING / IRQ_FALLING. Each port numbers machine.Pin.IRQ_* its own way (stm32
    0x10110000 / 0x10210000, rp2 8 / 4, esp32 1 / 2), so hal's numbers are translated here."""

    def __init__(self, pin, active_low):
        self._pin = pin
        self._inv = 1 if active_low else 0
        self._handler = None

    def value(self):
        return self._pin.value() ^ self._inv

    def irq(self, handler=None, trigger=hal.IRQ_RISING | hal.IRQ_FALLING):
        P = machine.Pin
        rise, fall = (P.IRQ_FALLING, P.IRQ_RISING) if self._inv else (P.IRQ_RISING, P.IRQ_FALLING)
        t = (rise if trigger & hal.IRQ_RISING else 0) | (fall if trigger & hal.IRQ_FALLING else 0)
        self._handler = handler
        self._pin.irq(self._edge if handler else None, t)

    def _edge(self, pin):
        self._handler(self)  # IRQ context: the handler reads the logical level, nothing allocated


def _input(profile, name):
    return Input(machine.Pin(profile.PINS[name], machine.Pin.IN, machine.Pin.PULL_UP), name in ACTIVE_LOW)


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
        self._image = getattr(profile, "IMAGE", None)
        self.IMAGE = self._image[0] if self._image else None  # its file in a release manifest
        self.ENTROPY = profile.ENTROPY
        self.nvram = nvram
        self.pins = {}
        for name in hal.INPUTS:
            self.pins[name] = _input(profile, name)
        self.lamps = {}
        for name in hal.LAMPS:
            self.lamps[name] = Lamp(m.Pin(profile.PINS[name], m.Pin.OUT, value=0))
        self.uarts = {}
        for role, spec in profile.UARTS.items():
            uid, baud, tx, rx = spec[:4]
            kw = {"baudrate": baud, "timeout": 0}
            if tx is not None:
                kw["tx"] = m.Pin(tx)
                kw["rx"] = m.Pin(rx)
            if len(spec) > 4:
                kw.update(spec[4])  # e.g. the SAS port's bits=9 and rxbuf
            self.uarts[role] = m.UART(uid, **kw)
        # a 9-bit SAS port: two bytes a character, the wakeup bit in the second (firmware/sas/machine.py)
        sas = profile.UARTS.get("sas")
        self.SAS_NINE_BIT = sas is not None and len(sas) > 4 and sas[4].get("bits") == 9
        # meter coils and pulse-acceptor lines exist where the profile wires them
        self.meters = {}
        for name in hal.METERS:
            if name in profile.PINS:
                self.meters[name] = Lamp(m.Pin(profile.PINS[name], m.Pin.OUT, value=0))
        for name in hal.COIN_PULSE:
            if name in profile.PINS:
                self.pins[name] = _input(profile, name)
        self._monday = getattr(profile, "RTC_MONDAY", None)
        if self._monday is not None:
            self.set_clock = self._set_rtc  # SAS 7F (firmware/sas/control.py): only where an RTC is set
        self.door_latch = None  # no battery-backed latch driver yet (see board/doors.py)
        self.display = NullDisplay()
        # Critical memory's key and anti-rollback counter, apart from the FRAM: files on the MCU's
        # own flash (untested on hardware). A board with an OTP key or RTC backup registers
        # should give those instead (docs/critical-memory.md).
        self._secret = SecretFile(KEYSTORE + "jeton.key", os.urandom)
        self._counters = {"books": CounterFile(KEYSTORE + "jeton.ctr"),
                          "security": CounterFile(KEYSTORE + "jeton-security.ctr"),
                          "coupons": CounterFile(KEYSTORE + "jeton-coupons.ctr")}

    def image(self):
        """The firmware as the flash holds it (board/flash_image.py), from the profile's IMAGE."""
        if self._image is None:
            raise NotImplementedError("%s: no IMAGE in the profile" % self.NAME)
        from board.flash_image import MappedImage, PartitionImage

        where = self._image[1]
        if where == "running":
            import esp32

            return PartitionImage(esp32.Partition(esp32.Partition.RUNNING))
        return MappedImage(where)

    def machine_secret(self):
        return self._secret.get()

    def rollback_counter(self, which="books"):
        return self._counters[which]

    def floor(self, which):
        """The release, configuration and enrolment floors: files beside the key and the counters."""
        if which not in hal.FLOORS:
            raise ValueError("no floor %r (%s)" % (which, ", ".join(hal.FLOORS)))
        return CounterFile(KEYSTORE + "jeton-%s.flr" % which)

    def _set_rtc(self, utc):
        """The calendar clock (board/calendar_clock.py reads it through time.time()) set to utc,
        seconds since 1970: the port's RTC counts from its own epoch (EPOCH), weekdays from RTC_MONDAY."""
        t = time.gmtime(utc - calendar_clock.EPOCH)
        machine.RTC().datetime((t[0], t[1], t[2], t[6] + self._monday, t[3], t[4], t[5], 0))

    def ticks_ms(self):
        return ticks_ms()

    def reset(self):
        machine.reset()  # a fresh heap; critical memory carries the cabinet over

    def idle(self, ms):
        # UART FIFOs and pin IRQs keep working while we sleep; short naps keep the loop responsive
        sleep_ms(min(ms, 5))
