# Pulse coin acceptor (parallel / pulse output): each accepted coin is a pulse on a line.
# - "lines" mode: one line per coin value; a valid pulse on line i is coin position i + 1.
# - "count" mode: one line; a coin is a train of pulses, value = number of pulses, the train
#   ends after `gap_ms` without a pulse.
# Pulse-width validation: shorter than `glitch_ms` is noise (ignored, counted in .glitches);
# between glitch_ms and min_ms, or longer than max_ms, is a bad pulse: reported as a fault and
# never credited (a line held active is a stuck line, a jam or a stringing attempt).
# Edges are timestamped in the pin IRQ into a preallocated ring: the handler allocates nothing.
#
# Events appended by poll(out), 3-tuples: ("coin", position or pulse count, 0),
# ("fault", line + 1, width_ms) for a bad pulse or a stuck line (width so far).
from board import hal
from board.compat import const, ticks_diff, ticks_ms

RING = const(32)  # edges; 4 lines x 4 coins between two polls is far beyond a real acceptor


class PulseAcceptor:
    def __init__(self, pins, mode="lines", glitch_ms=20, min_ms=25, max_ms=100, gap_ms=150,
                 active_high=True, clock=ticks_ms):
        if mode not in ("lines", "count"):
            raise ValueError("mode must be 'lines' or 'count'")
        if not glitch_ms <= min_ms <= max_ms:
            raise ValueError("need glitch_ms <= min_ms <= max_ms")
        self.pins = pins
        self.mode = mode
        self.glitch_ms = glitch_ms
        self.min_ms = min_ms
        self.max_ms = max_ms
        self.gap_ms = gap_ms
        self.active = 1 if active_high else 0
        self.clock = clock  # ticks_ms, or a test's clock
        n = len(pins)
        self._line = bytearray(RING)
        self._level = bytearray(RING)
        self._t = [0] * RING
        self._head = 0  # written by the IRQ
        self._tail = 0  # read by poll()
        self.overruns = 0
        self.glitches = 0
        self._rise = [None] * n  # start of the active phase per line
        self._stuck = bytearray(n)
        self._train = 0
        self._last_pulse = 0
        for i in range(n):
            pins[i].irq(self._handler(i), hal.IRQ_RISING | hal.IRQ_FALLING)

    def _handler(self, line):
        def on_edge(pin):
            # IRQ context: three stores and an index, nothing allocated
            h = self._head
            nxt = (h + 1) % RING
            if nxt == self._tail:
                self.overruns += 1
                return
            self._line[h] = line
            self._level[h] = 1 if pin.value() == self.active else 0
            self._t[h] = self.clock()
            self._head = nxt
        return on_edge

    def poll(self, out, now=None):
        if now is None:
            now = self.clock()
        added = 0
        while self._tail != self._head:
            i = self._tail
            line = self._line[i]
            t = self._t[i]
            if self._level[i]:
                if self._rise[line] is None:
                    self._rise[line] = t
            elif self._rise[line] is not None:
                width = ticks_diff(t, self._rise[line])
                self._rise[line] = None
                stuck = self._stuck[line]
                self._stuck[line] = 0
                if width < self.glitch_ms:
                    self.glitches += 1
                elif width < self.min_ms or width > self.max_ms:
                    if not stuck:
                        out.append(("fault", line + 1, width))
                        added += 1
                elif self.mode == "lines":
                    out.append(("coin", line + 1, 0))
                    added += 1
                else:
                    self._train += 1
                    self._last_pulse = t
            self._tail = (i + 1) % RING
        for line in range(len(self.pins)):
            r = self._rise[line]
            if r is not None and not self._stuck[line] and ticks_diff(now, r) > self.max_ms:
                self._stuck[line] = 1  # reported once, while it lasts
                out.append(("fault", line + 1, ticks_diff(now, r)))
                added += 1
        if self._train and self._rise[0] is None and ticks_diff(now, self._last_pulse) >= self.gap_ms:
            out.append(("coin", self._train, 0))
            self._train = 0
            added += 1
        return added
