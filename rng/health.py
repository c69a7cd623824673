# Continuous health tests on raw noise-source samples, NIST SP 800-90B section 4.4, alpha = 2**-40
# (the low end of the range 4.4 allows: a board tests 12 to 160 million samples a year, docs/rng.md):
# Repetition Count Test (4.4.1) and Adaptive Proportion Test (4.4.2), plus the start-up test
# (4.3: the same tests over the first 1024 samples, which are then discarded).
# Cutoffs are constants computed exactly on the host (tests/host/rng_cutoffs.py); the host test
# tests/host/test_rng_cutoffs.py recomputes every row of CUTOFFS. Nothing is computed here.
from rng.failure import RngFailure

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


STARTUP_SAMPLES = const(1024)

# (sample_bits, H numerator, H denominator) -> (RCT cutoff, APT window W, APT cutoff)
#   RCT: C = 1 + ceil(40 / H)            fail when a value repeats C times in a row
#   APT: C = 2 + qbinom(1 - 2**-40, W - 1, 2**-H)   fail when the window's first value occurs
#        C times in the window (B >= C); W = 1024 (8-bit samples) or 512 (binary samples)
CUTOFFS = {
    (8, 8, 1): (6, 1024, 27),
    (8, 7, 1): (7, 1024, 37),
    (8, 4, 1): (11, 1024, 127),
    (8, 2, 1): (21, 1024, 359),
    (1, 1, 1): (41, 512, 337),
    (1, 1, 2): (81, 512, 432),
}


class HealthTests:
    """RCT + APT over a stream of samples (one sample per byte; binary sources give 0/1).

    feed() raises RngFailure("rct"|"apt") on the first failing sample; the caller latches it.
    """

    def __init__(self, sample_bits, h_num, h_den):
        key = (sample_bits, h_num, h_den)
        if key not in CUTOFFS:
            raise ValueError("no health-test cutoffs for claim %r" % (key,))
        self.rct_cutoff, self.apt_window, self.apt_cutoff = CUTOFFS[key]
        self.h = key
        self._rct_a = -1  # no previous sample yet
        self._rct_b = 0
        self._apt_a = -1
        self._apt_b = 0
        self._apt_i = 0  # samples seen in the current window; 0: start a new one
        self.samples = 0

    def feed(self, buf, n=-1):
        if n < 0:
            n = len(buf)
        # locals: attribute lookups are slow on MicroPython
        rct_c = self.rct_cutoff
        apt_w = self.apt_window
        apt_c = self.apt_cutoff
        ra = self._rct_a
        rb = self._rct_b
        aa = self._apt_a
        ab = self._apt_b
        ai = self._apt_i
        try:
            for j in range(n):
                s = buf[j]
                # 4.4.1 Repetition Count Test
                if s == ra:
                    rb += 1
                    if rb >= rct_c:
                        raise RngFailure("rct", "value %d repeated %d times" % (s, rb))
                else:
                    ra = s
                    rb = 1
                # 4.4.2 Adaptive Proportion Test
                if ai == 0:
                    aa = s
                    ab = 1
                    ai = 1
                else:
                    if s == aa:
                        ab += 1
                        if ab >= apt_c:
                            raise RngFailure("apt", "value %d seen %d times in window" % (s, ab))
                    ai += 1
                    if ai == apt_w:
                        ai = 0
        finally:
            self._rct_a = ra
            self._rct_b = rb
            self._apt_a = aa
            self._apt_b = ab
            self._apt_i = ai
            self.samples += n
