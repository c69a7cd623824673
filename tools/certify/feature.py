"""Free-spin feature: exact moments of the feature total, retriggers and cap included.

A feature plays i.i.d. free spins; each yields credits w and extra spins a (from the scatters it
shows). With a cap the state is (spins left r, headroom h under the cap) and every spin lowers
r + h by one, so a recursion over r + h = 1..cap is exact. Without a cap each spin's subtree is an
independent copy (a branching process) and the moments have closed forms.
"""
from __future__ import annotations

from fractions import Fraction

from games.model import Model


class SpinLaw:
    """Per free spin, grouped by extra spins a: P(a), E[w;a], E[w^2;a], P(w=0;a)."""

    def __init__(self, m: Model, dist: dict[tuple[int, int], int], cycle: int):
        self.by_a: dict[int, list[Fraction]] = {}
        for (w, sc), c in dist.items():
            a = m.retrigger[sc]
            p = Fraction(c, cycle)
            row = self.by_a.setdefault(a, [Fraction(0)] * 4)
            row[0] += p
            row[1] += p * w
            row[2] += p * w * w
            if w == 0:
                row[3] += p


class Moments:
    def __init__(self, mean: Fraction, second: Fraction, p_zero: Fraction):
        self.mean, self.second, self.p_zero = mean, second, p_zero


def feature_moments(m: Model, law: SpinLaw, initial: int) -> Moments:
    if m.cap is None:
        return _uncapped(law, initial)
    return _capped(law, min(initial, m.cap), m.cap)


def _capped(law: SpinLaw, s: int, cap: int) -> Moments:
    # tables indexed by r for the current L = r + h; r = 0 is the end of the feature
    V = [Fraction(0)]
    Q = [Fraction(0)]
    Z = [Fraction(1)]
    items = list(law.by_a.items())
    for L in range(1, cap + 1):
        nV, nQ, nZ = [Fraction(0)], [Fraction(0)], [Fraction(1)]
        for r in range(1, L + 1):
            h = L - r
            v = q = z = Fraction(0)
            for a, (p, m1, m2, z0) in items:
                e = min(a, h)
                j = r - 1 + e  # spins left after this one; headroom h - e, total L - 1
                v += m1 + p * V[j]
                q += m2 + 2 * m1 * V[j] + p * Q[j]
                z += z0 * Z[j]
            nV.append(v)
            nQ.append(q)
            nZ.append(z)
        V, Q, Z = nV, nQ, nZ
    return Moments(V[s], Q[s], Z[s])


def _uncapped(law: SpinLaw, s: int) -> Moments:
    ea = sum(p * a for a, (p, *_rest) in law.by_a.items())
    if ea >= 1:
        raise ValueError("uncapped retriggers: expected extra spins per spin >= 1, the feature never ends")
    ew = sum(r[1] for r in law.by_a.values())
    ew2 = sum(r[2] for r in law.by_a.values())
    ewa = sum(r[1] * a for a, r in law.by_a.items())
    eaa = sum(r[0] * a * (a - 1) for a, r in law.by_a.items())
    ey = ew / (1 - ea)  # one spin and all the spins it spawns
    ey2 = (ew2 + 2 * ewa * ey + eaa * ey * ey) / (1 - ea)
    zero_retrig = sum(r[3] for a, r in law.by_a.items() if a)
    if zero_retrig:
        raise ValueError("uncapped feature with a retrigger that can pay nothing: P(no win) is not rational")
    z = law.by_a.get(0, [Fraction(0)] * 4)[3]
    return Moments(s * ey, s * ey2 + s * (s - 1) * ey * ey, z ** s)


def expected_spins(m: Model, law: SpinLaw, initial: list[int]) -> dict[int, Fraction]:
    """Expected free spins played from each initial count, retriggers and cap included: the mean
    recursion of _capped with every spin counting 1, whose last table serves every initial count."""
    pa = [(a, row[0]) for a, row in law.by_a.items()]
    if m.cap is None:
        ea = sum(p * a for a, p in pa)
        return {s: s / (1 - ea) for s in initial}
    V = [Fraction(0)]
    for L in range(1, m.cap + 1):
        V = [Fraction(0)] + [sum(p * (1 + V[r - 1 + min(a, L - r)]) for a, p in pa) for r in range(1, L + 1)]
    return {s: V[min(s, m.cap)] for s in initial}
