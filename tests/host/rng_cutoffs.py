"""Exact SP 800-90B section 4.4 health-test cutoffs, integer arithmetic only (host side).

rng/health.py carries the resulting constants; tests/host/test_rng_cutoffs.py recomputes every one
of them with these functions. alpha = 2**-ALPHA_LOG2: 2**-40, the low end of the range SP 800-90B
section 4.4 allows (2**-40 <= alpha <= 2**-20; docs/rng.md says why); every function also takes
another exponent, for the standard's own examples at 2**-20.
"""
from __future__ import annotations

from math import comb

ALPHA_LOG2 = 40  # alpha = 2**-40
K = 96  # bits of the rational bracket around an irrational p = 2**-H


def rct_cutoff(h_num: int, h_den: int, alpha_log2: int = ALPHA_LOG2) -> int:
    """4.4.1: C = 1 + ceil(-log2(alpha) / H), H = h_num / h_den bits per sample."""
    return 1 + -(-alpha_log2 * h_den // h_num)


def iroot_floor(x: int, n: int) -> int:
    """floor(x ** (1/n)) for integers x >= 0, n >= 1."""
    lo, hi = 0, 1 << (x.bit_length() // n + 1)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if mid**n <= x:
            lo = mid
        else:
            hi = mid - 1
    return lo


def p_bracket(h_num: int, h_den: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """p = 2**(-h_num/h_den) as rationals (a/2**K, b/2**K) with a/2**K <= p <= b/2**K."""
    if h_den == 1:
        return (1, 1 << h_num), (1, 1 << h_num)  # exact
    # p * 2**K = 2**((K*den - num) / den): floor of the den-th root of 2**(K*den - num)
    a = iroot_floor(1 << (K * h_den - h_num), h_den)
    exact = a**h_den == 1 << (K * h_den - h_num)
    return (a, 1 << K), ((a if exact else a + 1), 1 << K)


def binom_tail_above(n: int, p: tuple[int, int], x: int) -> tuple[int, int]:
    """P(X > x) for X ~ Binomial(n, p_num/p_den), as an exact fraction (num, den)."""
    pn, pd = p
    qn = pd - pn
    num = sum(comb(n, i) * pn**i * qn ** (n - i) for i in range(x + 1, n + 1))
    return num, pd**n


def qbinom(n: int, p: tuple[int, int], alpha_log2: int = ALPHA_LOG2) -> int:
    """Smallest x with P(X <= x) >= 1 - alpha, i.e. P(X > x) <= alpha (R's qbinom)."""
    pn, pd = p
    qn = pd - pn
    total = pd**n
    tail = 0  # P(X > x) * pd**n, accumulated from the top
    for x in range(n, -1, -1):
        # invariant: tail = P(X > x)
        if tail << alpha_log2 > total:
            return x + 1
        tail += comb(n, x) * pn**x * qn ** (n - x)
    return 0


def apt_window(sample_bits: int) -> int:
    """4.4.2: W = 1024 for non-binary samples, 512 for binary ones."""
    return 512 if sample_bits == 1 else 1024


def apt_cutoff(sample_bits: int, h_num: int, h_den: int, alpha_log2: int = ALPHA_LOG2) -> int:
    """Corrected APT cutoff C = 2 + qbinom(1 - alpha, W - 1, 2**-H), with failure when B >= C.

    B counts the window's first sample (1) plus its matches among the W - 1 later samples, so
    P(B >= C) = P(Binomial(W - 1, p) >= C - 1) = P(X > qbinom) <= alpha.
    """
    w = apt_window(sample_bits)
    lo, hi = p_bracket(h_num, h_den)
    c_lo, c_hi = qbinom(w - 1, lo, alpha_log2), qbinom(w - 1, hi, alpha_log2)
    if c_lo != c_hi:
        raise ArithmeticError("bracket too wide for an exact cutoff")
    return 2 + c_hi


def apt_false_positive(sample_bits: int, h_num: int, h_den: int, c: int, upper: bool = True) -> float:
    """P(B >= c) under the claimed p (bracket end), as a float for reporting."""
    w = apt_window(sample_bits)
    lo, hi = p_bracket(h_num, h_den)
    num, den = binom_tail_above(w - 1, hi if upper else lo, c - 2)
    return num / den
