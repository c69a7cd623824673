"""Recompute every health-test cutoff the device code carries (rng/health.py) with exact integer
binomial arithmetic (tests/host/rng_cutoffs.py), and check the cutoffs do what SP 800-90B asks:
false-positive probability at most alpha = 2**-20, and no smaller cutoff would do."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import rng_cutoffs as rc  # noqa: E402

from rng.health import CUTOFFS  # noqa: E402
from rng.sources import Esp32Urandom, HostUrandom, Rp2040Rosc, Rp2350Trng, Stm32Rng  # noqa: E402


@pytest.mark.parametrize("key", sorted(CUTOFFS))
def test_device_constants_recomputed(key):
    bits, num, den = key
    rct, w, apt = CUTOFFS[key]
    assert rct == rc.rct_cutoff(num, den)
    assert w == rc.apt_window(bits)
    assert apt == rc.apt_cutoff(bits, num, den)
    assert apt <= w  # a cutoff above the window could never fire


@pytest.mark.parametrize("key", sorted(CUTOFFS))
def test_cutoffs_meet_alpha_and_are_tight(key):
    bits, num, den = key
    rct, w, apt = CUTOFFS[key]
    alpha = 2.0**-20
    lo, hi = rc.p_bracket(num, den)
    # RCT: P(C identical in a row) = p**(C-1) <= 2**-(H (C-1)) <= alpha, and C - 1 would not do
    assert num * (rct - 1) >= 20 * den
    assert num * (rct - 2) < 20 * den
    # APT with B >= C failing: P(Binomial(W-1, p) >= C - 1) <= alpha, even at the upper end of p
    n_, d_ = rc.binom_tail_above(w - 1, hi, apt - 2)
    assert n_ << 20 <= d_
    # ...and with C - 1 the false-positive rate would exceed alpha (lower end of p)
    n_, d_ = rc.binom_tail_above(w - 1, lo, apt - 3)
    assert n_ << 20 > d_
    assert rc.apt_false_positive(bits, num, den, apt) <= alpha


def test_sources_all_have_constants():
    for cls in (HostUrandom, Stm32Rng, Esp32Urandom, Rp2040Rosc, Rp2350Trng):
        assert (cls.SAMPLE_BITS, *cls.H) in CUTOFFS


def test_known_values():
    # SP 800-90B 4.4.1 example: H = 2 -> RCT C = 1 + ceil(20/2) = 11
    assert rc.rct_cutoff(2, 1) == 11
    assert rc.rct_cutoff(1, 2) == 41
    # the irrational p = 2**-0.5 is bracketed tightly enough to give one exact answer
    lo, hi = rc.p_bracket(1, 2)
    assert lo[0] ** 2 < (lo[1] ** 2) // 2 < hi[0] ** 2
