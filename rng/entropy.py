# Health-tested entropy input: every raw sample of the source goes through the SP 800-90B
# continuous tests before the DRBG sees it. The first failure is latched: the source never
# produces again in this power cycle (no retry, no fallback to a weaker source).
from rng.failure import RngFailure
from rng.health import STARTUP_SAMPLES, HealthTests

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


_CHUNK = const(64)  # start-up read size: bounds the RAM the start-up test needs


class EntropyInput:
    def __init__(self, source):
        self.source = source
        self.h_num, self.h_den = source.H
        self.health = HealthTests(source.SAMPLE_BITS, self.h_num, self.h_den)
        self.failure = None
        self._chunk = bytearray(_CHUNK)

    def samples_for(self, bits):
        """Samples needed for `bits` of min-entropy at the claimed H: ceil(bits / H)."""
        return -(-bits * self.h_den // self.h_num)

    def startup(self):
        """SP 800-90B 4.3: run the health tests over the first 1024 samples, then discard them."""
        left = STARTUP_SAMPLES
        buf = self._chunk
        try:
            while left > 0:
                n = min(left, _CHUNK)
                mv = memoryview(buf)[:n]
                self._read(mv)
                left -= n
        except RngFailure as e:
            if e.reason in ("rct", "apt"):
                e = RngFailure("startup", e.reason + ": " + e.detail)
            self.failure = e
            raise e

    def _read(self, mv):
        self.check()
        try:
            self.source.readinto(mv)
            self.health.feed(mv)
        except RngFailure as e:
            self.failure = e
            raise
        except OSError as e:  # a driver I/O error is a source failure too, never ignored
            self.failure = RngFailure("source_error", repr(e))
            raise self.failure

    def readinto(self, mv):
        """Fill mv with health-tested samples (raises the latched failure forever after one)."""
        self._read(mv)

    def check(self):
        if self.failure is not None:
            raise self.failure
