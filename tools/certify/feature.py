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
    """Per free spin, grouped by extra spins a: P(a), E[w;a], E[w^2;a], P(w=0;a).

    Kept as integer sums over the free cycle (`sums[a]` = [count, sum w, sum w^2, count w = 0],
    all over `cycle`), from which the Fractions of `by_a` are made: the capped recursion runs on
    the integers (a common denominator cycle**L per level), the same values without a gcd per step.
    """

    def __init__(self, m: Model, dist: dict[tuple[int, int], int], cycle: int):
        self.cycle = cycle
        self.sums: dict[int, list[int]] = {}
        for (w, sc), c in dist.items():
            row = self.sums.setdefault(m.retrigger[sc], [0, 0, 0, 0])
            row[0] += c
            row[1] += c * w
            row[2] += c * w * w
            if w == 0:
                row[3] += c
        self.by_a: dict[int, list[Fraction]] = {a: [Fraction(x, cycle) for x in row] for a, row in self.sums.items()}
        self._capped: dict[int, tuple] = {}  # cap -> the recursion's last integer tables


class Moments:
    def __init__(self, mean: Fraction, second: Fraction, p_zero: Fraction):
        self.mean, self.second, self.p_zero = mean, second, p_zero


def feature_moments(m: Model, law: SpinLaw, initial: int) -> Moments:
    if m.cap is None:
        return _uncapped(law, initial)
    return _capped(law, min(initial, m.cap), m.cap)


def _capped(law: SpinLaw, s: int, cap: int) -> Moments:
    # tables indexed by r for the current L = r + h; r = 0 is the end of the feature. Level L's
    # tables hold the moments times cycle**L (integers); one pass serves every initial count s
    t = law._capped.get(cap)
    if t is None:
        d = law.cycle
        V, Q, Z = [0], [0], [1]
        items = list(law.sums.items())
        scale = 1  # cycle ** (L - 1)
        for L in range(1, cap + 1):
            nV, nQ, nZ = [0], [0], [scale * d]
            for r in range(1, L + 1):
                h = L - r
                v = q = z = 0
                for a, (c, s1, s2, c0) in items:
                    j = r - 1 + (a if a < h else h)  # spins left after this one; total L - 1
                    vj = V[j]
                    v += s1 * scale + c * vj
                    q += s2 * scale + 2 * s1 * vj + c * Q[j]
                    z += c0 * Z[j]
                nV.append(v)
                nQ.append(q)
                nZ.append(z)
            V, Q, Z = nV, nQ, nZ
            scale *= d
        t = law._capped[cap] = (V, Q, Z, scale)
    V, Q, Z, den = t
    return Moments(Fraction(V[s], den), Fraction(Q[s], den), Fraction(Z[s], den))


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
