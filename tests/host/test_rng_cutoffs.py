"""Recompute every health-test cutoff the device code carries (rng/health.py) with exact integer
binomial arithmetic (tests/host/rng_cutoffs.py), cross-check the APT cutoffs with a second,
independent computation (log-space floats from math.lgamma), and check the cutoffs do what
SP 800-90B asks: false-positive probability at most alpha = 2**-40, and no smaller cutoff would do."""
from __future__ import annotations

import math
import sys
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import rng_cutoffs as rc  # noqa: E402

from rng.generator import INSTANTIATE_BITS, SECURITY_BITS  # noqa: E402
from rng.health import CUTOFFS, STARTUP_SAMPLES  # noqa: E402
from rng.sources import Esp32Urandom, HostUrandom, Rp2040Rosc, Rp2350Trng, Stm32Rng  # noqa: E402

SOURCES = (HostUrandom, Stm32Rng, Esp32Urandom, Rp2040Rosc, Rp2350Trng)


@pytest.mark.parametrize("key", sorted(CUTOFFS))
def test_device_constants_recomputed(key):
    bits, num, den = key
    rct, w, apt = CUTOFFS[key]
    assert rc.ALPHA_LOG2 == 40
    assert rct == rc.rct_cutoff(num, den)
    assert w == rc.apt_window(bits)
    assert apt == rc.apt_cutoff(bits, num, den)
    assert apt <= w  # a cutoff above the window could never fire


@pytest.mark.parametrize("key", sorted(CUTOFFS))
def test_cutoffs_meet_alpha_and_are_tight(key):
    bits, num, den = key
    rct, w, apt = CUTOFFS[key]
    alpha = 2.0**-40
    lo, hi = rc.p_bracket(num, den)
    # RCT: P(C identical in a row) = p**(C-1) <= 2**-(H (C-1)) <= alpha, and C - 1 would not do
    assert num * (rct - 1) >= 40 * den
    assert num * (rct - 2) < 40 * den
    # APT with B >= C failing: P(Binomial(W-1, p) >= C - 1) <= alpha, even at the upper end of p
    n_, d_ = rc.binom_tail_above(w - 1, hi, apt - 2)
    assert n_ << 40 <= d_
    # ...and with C - 1 the false-positive rate would exceed alpha (lower end of p)
    n_, d_ = rc.binom_tail_above(w - 1, lo, apt - 3)
    assert n_ << 40 > d_
    assert rc.apt_false_positive(bits, num, den, apt) <= alpha


def log_binom_tail(n: int, p: float, k: int) -> float:
    """ln P(X >= k), X ~ Binomial(n, p), summed in log space from math.lgamma: a second way to the
    same tail that shares nothing with rng_cutoffs (no integers, no bracket, no quantile loop)."""
    terms = [
        math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * math.log(p) + (n - i) * math.log1p(-p)
        for i in range(k, n + 1)
    ]
    top = max(terms)
    return top + math.log(sum(math.exp(t - top) for t in terms))


@pytest.mark.parametrize("key", sorted(CUTOFFS))
def test_apt_cutoff_cross_checked_with_floats(key):
    # the cutoff is the smallest C with P(B >= C) = P(Binomial(W - 1, 2**-H) >= C - 1) <= 2**-40
    bits, num, den = key
    _, w, apt = CUTOFFS[key]
    p = 2.0 ** (-num / den)
    log_alpha = -40 * math.log(2)
    assert log_binom_tail(w - 1, p, apt - 1) <= log_alpha
    assert log_binom_tail(w - 1, p, apt - 2) > log_alpha


def test_sources_all_have_constants():
    for cls in SOURCES:
        assert (cls.SAMPLE_BITS, *cls.H) in CUTOFFS


@pytest.mark.parametrize("cls", SOURCES, ids=lambda c: c.NAME)
def test_a_stuck_source_never_completes_a_reseed(cls):
    # Detection latency: a source stuck at one value fails the RCT after C samples. C must fit in one
    # reseed's read (ceil(256 / H) samples, rng/generator.py SECURITY_BITS) and in the instantiate
    # read, so a stuck source never seeds the DRBG: it trips during the very read that finds it.
    num, den = cls.H
    rct = CUTOFFS[(cls.SAMPLE_BITS, num, den)][0]
    assert rct <= -(-SECURITY_BITS * den // num)
    assert rct <= -(-INSTANTIATE_BITS * den // num)
    assert rct <= STARTUP_SAMPLES


def test_known_values():
    # SP 800-90B 4.4.1's example (alpha = 2**-20): H = 2 -> RCT C = 1 + ceil(20/2) = 11
    assert rc.rct_cutoff(2, 1, alpha_log2=20) == 11
    # at alpha = 2**-40: 1 + ceil(40/H)
    assert rc.rct_cutoff(2, 1) == 21
    assert rc.rct_cutoff(7, 1) == 7  # 1 + ceil(5.71)
    assert rc.rct_cutoff(1, 2) == 81
    # the irrational p = 2**-0.5 is bracketed tightly enough to give one exact answer
    lo, hi = rc.p_bracket(1, 2)
    assert lo[0] ** 2 < (lo[1] ** 2) // 2 < hi[0] ** 2


# docs/rng.md "False alarms": a reseed every ~100 s (measured on the emulated cabinet, idle: 4096
# idle() requests at ~41 loop passes a second), one power-up a day; the figures its table gives.
RESEED_S = 100
YEAR_S = 365.25 * 86400
BOARD_YEAR = {HostUrandom: (5.8, 2.8e-6), Stm32Rng: (20, 1.9e-5), Esp32Urandom: (39, 3.7e-5),
              Rp2040Rosc: (155, 1.5e-4), Rp2350Trng: (20, 1.9e-5)}


def false_alarms_a_year(bits: int, num: int, den: int, alpha_log2: int) -> float:
    """Expected false alarms in a board-year for a source exactly at its claim H = num/den: the RCT's
    chance per sample 2**-(H (C - 1)) plus the APT's per window, times the samples tested."""
    pool, instantiate = -(-SECURITY_BITS * den // num), -(-INSTANTIATE_BITS * den // num)
    samples = pool * YEAR_S / RESEED_S + 365 * (STARTUP_SAMPLES + instantiate)
    rct, w, apt = rc.rct_cutoff(num, den, alpha_log2), rc.apt_window(bits), rc.apt_cutoff(bits, num, den, alpha_log2)
    n, d = rc.binom_tail_above(w - 1, rc.p_bracket(num, den)[1], apt - 2)
    return samples * 2.0 ** (-(num / den) * (rct - 1)) + samples / w * float(Fraction(n, d))


@pytest.mark.parametrize("cls", SOURCES, ids=lambda c: c.NAME)
def test_false_alarms_per_board_year(cls):
    before, after = BOARD_YEAR[cls]
    key = (cls.SAMPLE_BITS, *cls.H)
    assert false_alarms_a_year(*key, 20) == pytest.approx(before, rel=0.05)  # several a year: why alpha changed
    assert false_alarms_a_year(*key, 40) == pytest.approx(after, rel=0.05)
    assert false_alarms_a_year(*key, 40) < 2e-4  # fewer than one board in 5,000 a year
