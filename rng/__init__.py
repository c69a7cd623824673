# Jeton RNG: the one public interface every outcome comes through.
#
#   src = rng.open_source("emulated")        # raw entropy of the board (see rng/sources.py)
#   gen = rng.open_generator(src)           # outcome generator: gen.randbits(k) -> int in [0, 2**k)
#   rng.below(gen, n); rng.weighted(gen, w); rng.shuffle(gen, seq); rng.deal(gen, n, k)
#
# Games see only the scaling functions and a generator object; which generator sits behind
# open_generator() is decided here and nowhere else.
from rng.scale import below, weighted, shuffle, deal  # noqa: F401  (public API)
from rng.sources import open_source  # noqa: F401


class SourceGenerator:
    """Outcome generator reading straight from the hardware source.

    Stand-in until the SP 800-90A HMAC_DRBG lands (issue 3): replace open_generator() only.
    """

    def __init__(self, source):
        self._src = source
        self._buf = bytearray(8)

    def randbits(self, k):
        if k <= 0:
            return 0
        n = (k + 7) >> 3
        buf = self._buf if n <= 8 else bytearray(n)
        mv = memoryview(buf)[:n]
        self._src.readinto(mv)
        v = int.from_bytes(bytes(mv), "big")
        return v >> ((n << 3) - k)


def open_generator(source):
    return SourceGenerator(source)
