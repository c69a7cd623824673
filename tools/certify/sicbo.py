"""Sic bo's exact laws (s. 95.18-95.24), written from the by-law apart from the device engine
(games/sicbo.py): every one of the 6^3 = 216 ordered throws of three fair dice is counted against
each wager's rule (s. 95.22), each win paid at its payout (s. 95.24). Readings where the words leave a
choice are docs/game-format.md's "Sic bo": a two of a kind on a number wins when at least two dice show
it; small and big lose on any three of a kind; totals count every throw."""
from __future__ import annotations

from fractions import Fraction
from itertools import product

from tools.certify.table_law import Law, paid

THROWS = list(product(range(1, 7), repeat=3))


def _wins(wid: str, on: tuple[int, ...], dice: tuple[int, int, int]) -> int:
    """How many times the wager wins on that throw: 0 or 1, and for a single the dice showing its face."""
    s = sum(dice)
    triple = len(set(dice)) == 1
    if wid == "single":
        return dice.count(on[0])
    if wid == "triple":
        return int(triple and dice[0] == on[0])
    if wid == "double":
        return int(dice.count(on[0]) >= 2)
    if wid == "any_triple":
        return int(triple)
    if wid == "duo":
        return int(on[0] in dice and on[1] in dice)
    if wid == "small":
        return int(4 <= s <= 10 and not triple)
    if wid == "big":
        return int(11 <= s <= 17 and not triple)
    return int(s == int(wid[len("total"):]))


def selections(wid: str) -> dict[str, tuple[int, ...]]:
    if wid in ("triple", "double", "single"):
        return {"%s:%d" % (wid, f): (f,) for f in range(1, 7)}
    if wid == "duo":
        return {"duo:%d-%d" % (a, b): (a, b) for a in range(1, 7) for b in range(a + 1, 7)}
    return {wid: ()}


def laws(raw: dict, wagers: dict) -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for wid, pays in wagers.items():
        out[wid] = {key: _law(wid, on, pays) for key, on in selections(wid).items()}
    return out


def _law(wid: str, on: tuple[int, ...], pays):
    counts: dict[int, int] = {}
    for dice in THROWS:
        k = _wins(wid, on, dice)
        counts[k] = counts.get(k, 0) + 1

    def law(c: int) -> Law:
        out = []
        for k, n in sorted(counts.items()):
            if not k:
                out.append((Fraction(n, 216), 0, False))
            else:
                pay = pays[str(k)] if isinstance(pays, dict) else pays
                back = paid(c, pay[0], pay[1])
                out.append((Fraction(n, 216), back, back > c))
        return Law(c, out)
    return law
