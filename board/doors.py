# Doors (main, logic, cash box) and key switches (audit, reset): debounced levels.
# A door is a level, not a press: its state changes only after the raw input has stayed at the
# new level for debounce_ms (contact bounce and induced spikes never reach the firmware). Edges
# are latched by the pin IRQ so that an opening shorter than one main-loop pass is still seen
# (it then reports open, and closed once the contact has settled).
#
# Doors opened while the cabinet was off: at boot, check_boot() compares
#   - the levels now (a door open at power-up), and
#   - the levels the firmware saved while running (save what levels() returns on every change),
#   - and, where the hardware has one, a battery-backed latch (latch.read() -> names opened
#     while unpowered; latch.clear()). Pyboard/STM32: RTC tamper input on VBAT; the emulated
#     board: a file the host writes (board/emulated.py DoorLatch). Without a latch, a door that
#     was opened and closed again while off cannot be detected: document it in the audit log.
# Events (3-tuples): ("door", name, 1 open | 0 closed), ("key", name, 1 on | 0 off),
# ("door_while_off", name, 0).
from board import hal
from board.compat import ticks_diff, ticks_ms


class Switch:
    def __init__(self, pin, debounce_ms=50, active_high=True, clock=ticks_ms):
        self.pin = pin
        self.clock = clock
        self.debounce_ms = debounce_ms
        self.active = 1 if active_high else 0
        self.state = 1 if pin.value() == self.active else 0
        self._raw = self.state
        self._since = clock()
        self._t_on = 0
        self._on = False
        self._pulse = False  # an activation >= debounce_ms came and went between two scans
        pin.irq(self._on_edge, hal.IRQ_RISING | hal.IRQ_FALLING)

    def _on_edge(self, pin):
        # IRQ context: a timestamp and two flags, nothing allocated
        now = self.clock()
        if pin.value() == self.active:
            self._t_on = now
            self._on = True
        elif self._on:
            self._on = False
            if ticks_diff(now, self._t_on) >= self.debounce_ms:
                self._pulse = True

    def update(self, now):
        """True when the debounced state changed."""
        raw = 1 if self.pin.value() == self.active else 0
        if self._pulse:
            self._pulse = False
            if self.state == 0 and raw == 0:
                # opened and closed again between two scans: report the opening now and the
                # closing on a later scan, so the firmware sees both
                self.state = 1
                self._raw = 0
                self._since = now
                return True
        if raw != self._raw:
            self._raw = raw
            self._since = now
            return False
        if raw != self.state and ticks_diff(now, self._since) >= self.debounce_ms:
            self.state = raw
            return True
        return False


class Doors:
    def __init__(self, board, names=hal.DOORS + hal.KEYS, debounce_ms=50, active_high=True,
                 clock=ticks_ms):
        self.clock = clock
        self.switches = {}
        for name in names:
            self.switches[name] = Switch(board.pin(name), debounce_ms, active_high, clock)

    def scan(self, out, now=None):
        if now is None:
            now = self.clock()
        for name, sw in self.switches.items():
            if sw.update(now):
                out.append(("key" if name.startswith("key_") else "door", name, sw.state))

    def is_open(self, name):
        return self.switches[name].state == 1

    def any_open(self):
        for name in hal.DOORS:
            sw = self.switches.get(name)
            if sw and sw.state:
                return True
        return False

    def levels(self):
        """{name: 0|1} for the firmware to persist on every change."""
        d = {}
        for name, sw in self.switches.items():
            d[name] = sw.state
        return d

    def check_boot(self, out, saved=None, latch=None):
        """Append ("door_while_off", name, 0) for each door opened while the power was off."""
        seen = {}
        if latch is not None:
            for name in latch.read():
                seen[name] = 1
            latch.clear()
        for name in hal.DOORS:
            sw = self.switches.get(name)
            if sw is None:
                continue
            if sw.state and not (saved and saved.get(name)):
                seen[name] = 1  # open now, closed (or unknown) when we went down
        for name in hal.DOORS:
            if name in seen:
                out.append(("door_while_off", name, 0))
        return len(seen)
