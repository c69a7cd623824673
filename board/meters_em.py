# Electromechanical (hard) meters: one coil per meter, one pulse per count.
#
# What is persisted (through the firmware's store: load() -> dict|None, save(dict, then=None)) is, per
# meter, [done, inflight]: `done` = pulses whose coil has been released, `inflight` = 1 while a
# pulse is being driven. The firmware sets each meter's target (its soft meter in meter units)
# with target(); pending = target - done. Pending pulses therefore live in the soft meters the
# ledger already commits atomically: no second copy can disagree with them.
#
# One pulse: save [done, 1] -> coil on -> wait on_ms -> save [done + 1, 0], and the coil is
# released the moment that record is committed (the store calls `then` between its commit point
# and the rest of its writes) -> wait off_ms (spacing: on_ms + off_ms bounds the rate).
# A meter counts a complete stroke on release; a stroke cut short by the power loss does not
# count. A power cut
#   - before the first save's commit: nothing happened, the pulse is still pending;
#   - after it, before the second's (the coil on): at boot an inflight pulse is taken as NOT
#     counted and is driven again: exact;
#   - after the second save's commit: exact, except for a cut between that commit and the release
#     a few microseconds later (two adjacent writes: one pulse behind at worst). Releasing first
#     and saving after would leave the whole save's time as the window instead (one pulse ahead:
#     a power-cut campaign found it about once in 100-300 cuts). Boards with a power-fail
#     interrupt and hold-up close the window by finishing the pulse and the save.
# The firmware must never lower a target: a meter only goes forward.
from board.compat import const, ticks_diff, ticks_ms

MODULO = const(10000000)  # 7-digit counters


class EmMeters:
    def __init__(self, coils, store, on_ms=50, off_ms=50, max_rate=None, modulo=MODULO, clock=ticks_ms):
        """coils: {name: output with value(v)}; max_rate: pulses per second the meters accept;
        clock: the board's ms clock, the one service(now) is given."""
        if max_rate and on_ms + off_ms < 1000 // max_rate:
            off_ms = 1000 // max_rate - on_ms  # never faster than the meter can count
        self.coils = coils
        self.store = store
        self.clock = clock
        self.on_ms = on_ms
        self.off_ms = off_ms
        self.modulo = modulo
        st = store.load() or {}
        self.state = {}
        self.recovered = []  # meters whose pulse was cut by the power loss (driven again)
        for name in coils:
            done, inflight = st.get(name, (0, 0))
            if inflight:
                self.recovered.append(name)
            self.state[name] = [done, 0]
            coils[name].value(0)
        self.targets = {}
        self.mismatch = {}
        self._phase = {}  # name -> (0 idle | 1 on | 2 off, since)
        self._releasers = {}  # name -> () releasing its coil: made once, nothing allocated per stroke
        for name in coils:
            self._phase[name] = [0, 0]
            self._releasers[name] = self._releaser(coils[name])
        if self.recovered:
            store.save(self.state)

    @staticmethod
    def _releaser(coil):
        def release():
            coil.value(0)

        return release

    def done(self, name):
        return self.state[name][0]

    def target(self, name, total):
        """Set the meter's target count (the soft meter, in pulses)."""
        self.targets[name] = total % self.modulo

    def pending(self, name):
        if name not in self.targets:
            return 0
        p = (self.targets[name] - self.state[name][0]) % self.modulo
        if p > self.modulo // 2:  # hard ahead of soft: never pulse, report
            self.mismatch[name] = self.modulo - p
            return 0
        self.mismatch.pop(name, None)
        return p

    def busy(self):
        for name in self.coils:
            if self._phase[name][0] or self.pending(name):
                return True
        return False

    def service(self, now=None):
        """Advance every meter; returns ms until the next thing to do (for board.idle)."""
        if now is None:
            now = ticks_ms()
        wait = 1000
        for name in self.coils:
            ph = self._phase[name]
            if ph[0] == 1:
                left = self.on_ms - ticks_diff(now, ph[1])
                if left > 0:
                    wait = min(wait, left)
                    continue
                st = self.state[name]
                st[0] = (st[0] + 1) % self.modulo
                st[1] = 0
                self.store.save(self.state, self._releasers[name])  # released once on record
                # the spacing runs from the release, which came at the commit, not from `now`
                ph[0], ph[1] = 2, self.clock()
                wait = min(wait, self.off_ms)
            elif ph[0] == 2:
                left = self.off_ms - ticks_diff(now, ph[1])
                if left > 0:
                    wait = min(wait, left)
                    continue
                ph[0] = 0
            if ph[0] == 0 and self.pending(name):
                self.state[name][1] = 1
                self.store.save(self.state)  # inflight is on record before the coil moves
                self.coils[name].value(1)
                # the stroke's width runs from the coil going on, after the commit: timed from `now`,
                # a slow commit (13-17 ms on a Cortex-M3, longer on a loaded host) ate into it, and
                # a stroke too short for the meter counted nothing (make powercut: meter_games 141
                # vs soft 142)
                ph[0], ph[1] = 1, self.clock()
                wait = min(wait, self.on_ms)
        return wait
