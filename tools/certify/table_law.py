"""The law of one table-game wager at one stake: what it puts at risk and the exact chance of each
amount it returns (per resolved wager). The families' laws (tools/certify/roulette.py, craps.py,
sicbo.py, wheel.py, baccarat.py) are written from the by-law; tools/certify/table.py turns them into
the certified figures."""
from __future__ import annotations

import math
from fractions import Fraction


def paid(credits: int, n: int, d: int) -> int:
    """Credits a winning wager returns at n to d: the stake and n/d of it, rounded down to a whole credit
    (docs/game-format.md "Table games": the house never pays a fraction of a credit)."""
    return credits + credits * n // d


class Law:
    """risk: credits the wager puts at risk (its stake and any commission paid with it); outcomes:
    [(probability, credits returned, won)], probabilities adding up to 1, won when it returns more
    than its stake (a win that rounds to nothing returns the stake: a push); rolls: the expected rounds
    (rolls, spins) to decide it when more than one can (craps, roulette's double), else 1."""

    def __init__(self, risk: int, outcomes: list[tuple[Fraction, int, bool]], rolls: Fraction = Fraction(1)):
        total = sum((p for p, _, _ in outcomes), Fraction(0))
        if total != 1:
            raise ValueError("a law's chances add up to %s, not 1" % total)
        self.risk = risk
        self.outcomes = [(p, r, w) for p, r, w in outcomes if p]
        self.rolls = rolls

    @property
    def rtp(self) -> Fraction:
        return sum((p * r for p, r, _ in self.outcomes), Fraction(0)) / self.risk

    @property
    def hit(self) -> Fraction:
        return sum((p for p, _, w in self.outcomes if w), Fraction(0))

    @property
    def variance(self) -> Fraction:
        """Of the return per credit at risk."""
        mean = self.rtp
        return sum((p * (Fraction(r, self.risk) - mean) ** 2 for p, r, _ in self.outcomes), Fraction(0))

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    @property
    def max_award(self) -> int:
        return max(r for _, r, _ in self.outcomes)

    def returns(self) -> dict[int, Fraction]:
        """credits returned -> probability."""
        out: dict[int, Fraction] = {}
        for p, r, _ in self.outcomes:
            out[r] = out.get(r, Fraction(0)) + p
        return dict(sorted(out.items()))
