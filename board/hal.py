# The hardware abstraction: the firmware talks to a board only through the methods and attributes
# of `Board` below. Profiles: board/emulated.py (unix port, host-driven), board/pyboard.py,
# board/rp2.py, board/esp32.py (pin maps over board/machine_board.py).
from board.compat import const

IRQ_FALLING = const(1)
IRQ_RISING = const(2)

BUTTONS = ("bet_one", "bet_max", "play", "cashout")
DOORS = ("door_main", "door_logic", "door_cashbox")
KEYS = ("key_audit", "key_reset")
INPUTS = BUTTONS + DOORS + KEYS
LAMPS = ("lamp_play", "lamp_cashout", "lamp_tower", "lamp_bet")
# pulse coin acceptor outputs (board/coin_pulse.py): one line per coin value, or line 1 alone
COIN_PULSE = ("coin_pulse_1", "coin_pulse_2", "coin_pulse_3", "coin_pulse_4")
# electromechanical meters (board/meters_em.py)
METERS = ("meter_in", "meter_out", "meter_drop", "meter_jackpot", "meter_games")
# numbers that never go back, kept apart from the NVRAM part with the anti-rollback counters (floor())
FLOORS = ("release", "config", "enrol")


class Board:
    """What every board provides. A profile subclasses it and implements each method; the ones it
    leaves out raise NotImplementedError, naming the contract it missed.

    Attributes a profile sets:
      NAME        "emulated" | "pyboard" | "rp2" | "esp32" (shown at boot and by `version`)
      ENTROPY     the entropy source kind for rng.open_source(): "emulated", "stm32", "rp2", "esp32"
      nvram       battery-backed / persistent memory: size, read(off, n) -> bytes, write(off, data)
      display     show(screen: dict) -> None (whatever the cabinet's display is)
      door_latch  None, or a battery-backed "door opened while off" latch: read() -> names, clear()
                  (board/doors.py)
      touch       None, or a touch screen's presses: take() -> (word, n) or None (board/touch.py)
    A profile whose calendar clock the central system may set (SAS 7F) also gives
    set_clock(utc): the clock (board/calendar_clock.py) set to utc, seconds since 1970, kept through
    power cuts: the emulated board, and a profile with RTC_MONDAY (pyboard: board/machine_board.py).
    """

    NAME = None
    ENTROPY = None
    IMAGE = None  # the firmware image's name in a release manifest, when image() can read it back
    nvram = None
    display = None
    door_latch = None
    touch = None

    def uart(self, role):
        """Byte stream for role "cctalk" or "console": read(n) -> bytes|None,
        readinto(buf) -> n|None, write(buf) -> n, any() -> bytes waiting."""
        raise NotImplementedError("%s: uart(role)" % self.NAME)

    def pin(self, name):
        """Input `name` (INPUTS, and COIN_PULSE where fitted): value() -> 0/1,
        irq(handler, trigger) calling handler(pin) on IRQ_RISING / IRQ_FALLING edges."""
        raise NotImplementedError("%s: pin(name)" % self.NAME)

    def lamp(self, name):
        """Output `name` (LAMPS): value(v)."""
        raise NotImplementedError("%s: lamp(name)" % self.NAME)

    def entropy_source(self):
        """Optional: the noise wire rng.open_source(ENTROPY) reads instead of the chip's own (the
        emulated board's, which the host can make fail), or None: the chip's source."""
        return None

    def meter_names(self):
        """The electromechanical meter coils fitted (a subset of METERS, maybe empty). Optional: a
        board without coils keeps soft meters only (no EM meters, console `hardmeters` says so)."""
        return ()

    def meter(self, name):
        """Coil of a meter in meter_names(): value(v), 1 = energised."""
        raise NotImplementedError("%s: meter(name)" % self.NAME)

    def idle(self, ms):
        """Wait up to ms for I/O or time to pass: the main loop's only place to sleep."""
        raise NotImplementedError("%s: idle(ms)" % self.NAME)

    def ticks_ms(self):
        """Monotonic millisecond clock (wraps on devices: compare with ticks_diff)."""
        raise NotImplementedError("%s: ticks_ms()" % self.NAME)

    def machine_secret(self):
        """32 bytes that key the MAC sealing critical memory (firmware/critmem.py), made once from
        the machine's entropy and kept neither in the firmware image nor in the NVRAM part."""
        raise NotImplementedError("%s: machine_secret()" % self.NAME)

    def rollback_counter(self, which="books"):
        """The anti-rollback counter of one critical memory ("books": the ledger's; "security": the
        accounts and security log, firmware/audit.py; "coupons": the coupon memory,
        firmware/coupon_store.py), a memory apart from the NVRAM part:
        read() -> int, or None when it was never written; write(n), never lower (board/counter_file.py)."""
        raise NotImplementedError("%s: rollback_counter()" % self.NAME)

    def floor(self, which):
        """A number that never goes back, kept where the anti-rollback counters are (not on the
        NVRAM part: wiping or replacing that part leaves it): "release" the highest release number
        that ran here (firmware/authenticate.py), "config" the number of the operator's last
        configuration accepted (firmware/operator_config.py), "enrol" the number of the last
        enrolment of an administrator (0: the first one, made with the audit key;
        firmware/enrolment.py). read() -> int, or None when never written; write(n), never lower
        (board/counter_file.py). ValueError for a name not in FLOORS."""
        raise NotImplementedError("%s: floor()" % self.NAME)

    def reset(self):
        """A real board reset (a fresh heap); critical memory carries the cabinet over."""
        raise NotImplementedError("%s: reset()" % self.NAME)

    def detach(self):
        """Let go of what a cabinet gave the board (its drivers' IRQ handlers, the screen last
        shown): a restart (firmware/main.py supervise) drops the failed cabinet as a watchdog
        reset would, and what the board kept of it would stay in the heap the new one boots in."""
        if self.display is not None:
            self.display.last = None

    def image(self):
        """The firmware image as stored, opened for reading back from its first byte to its last:
        readinto(buf) -> n (0 at the end), close(). What `verify SEED` and the boot check hash.
        Emulated board: the firmware file that runs. A board: its flash, e.g. esp32.Partition.RUNNING
        or rp2.Flash read with readblocks (not written yet: untested without hardware)."""
        raise NotImplementedError("%s: image()" % self.NAME)

    def release_file(self, name):
        """The signed release record kept beside the image, opened for reading ("rb"): name is
        "SHA256SUMS" or "SHA256SUMS.sig"; OSError when absent. A board keeps them on its file
        system (the root, beside main.py)."""
        return open(name, "rb")


class WiredBoard(Board):
    """A board whose wires are dicts filled by its __init__: uarts, pins, lamps, meters."""

    def _wire(self, wires, kind, name):
        w = wires.get(name)
        if w is None:
            raise ValueError("board %s has no %s %r" % (self.NAME, kind, name))
        return w

    def uart(self, role):
        return self._wire(self.uarts, "UART", role)

    def pin(self, name):
        return self._wire(self.pins, "input", name)

    def lamp(self, name):
        return self._wire(self.lamps, "lamp", name)

    def meter_names(self):
        return tuple(n for n in METERS if n in self.meters)

    def meter(self, name):
        return self._wire(self.meters, "meter coil", name)

    def detach(self):
        for p in self.pins.values():
            p.irq(None)
        Board.detach(self)
