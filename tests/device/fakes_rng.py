"""Fake noise sources and hardware for the RNG device tests, and the seeded stand-in for the
generator the game tests draw from (helpers only, no tests here). Importable under MicroPython."""
import hashlib


class CounterSource:
    """Deterministic full-entropy-looking bytes: SHA-256(seed || counter) blocks. Passes health
    tests; the same seed gives the same stream, so generator behaviour is reproducible."""

    NAME = "counter"
    SAMPLE_BITS = 8
    H = (7, 1)

    def __init__(self, seed=b"jeton"):
        self.seed = seed
        self.ctr = 0
        self.block = b""
        self.reads = 0  # samples handed out

    def readinto(self, buf):
        n = len(buf)
        for i in range(n):
            if not self.block:
                self.block = hashlib.sha256(self.seed + self.ctr.to_bytes(8, "big")).digest()
                self.ctr += 1
            buf[i] = self.block[0]
            self.block = self.block[1:]
        self.reads += n
        return n


class StuckSource(CounterSource):
    """Good for `good` samples, then repeats one value forever."""

    def __init__(self, good=0, value=0xA5):
        CounterSource.__init__(self)
        self.good = good
        self.value = value

    def readinto(self, buf):
        n = len(buf)
        for i in range(n):
            if self.reads < self.good:
                tmp = bytearray(1)
                CounterSource.readinto(self, tmp)
                buf[i] = tmp[0]
            else:
                buf[i] = self.value
                self.reads += 1
        return n


class CyclingSource(CounterSource):
    """Never repeats a value twice in a row (RCT passes) but cycles through `period` values:
    each value has probability 1/period, far above 2**-H: only the APT can see it."""

    def __init__(self, period=8, good=0):
        CounterSource.__init__(self)
        self.period = period
        self.good = good
        self.i = 0

    def readinto(self, buf):
        n = len(buf)
        for j in range(n):
            if self.reads < self.good:
                tmp = bytearray(1)
                CounterSource.readinto(self, tmp)
                buf[j] = tmp[0]
            else:
                buf[j] = (self.i % self.period) * 17
                self.i += 1
                self.reads += 1
        return n


class Mem32:
    """machine.mem32 stand-in: a dict of registers, with optional read hooks addr -> fn()."""

    def __init__(self):
        self.regs = {}
        self.hooks = {}
        self.writes = []

    def __getitem__(self, addr):
        if addr in self.hooks:
            return self.hooks[addr]()
        return self.regs.get(addr, 0)

    def __setitem__(self, addr, value):
        self.writes.append((addr, value))
        self.regs[addr] = value


class Lcg:
    """randbits(k) from a 31-bit LCG (the ANSI C rand() constants): the same sequence on CPython and
    MicroPython, so a game test's draws are reproducible from its seed (tests/fixtures/games/vectors.json
    names the seed of each vector)."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def randbits(self, k):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 7) & ((1 << k) - 1)
