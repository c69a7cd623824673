"""Roulette's exact laws (s. 68-74), written from the by-law and the standard layout, apart from the
device engine (games/roulette.py): the layout is a grid of 12 rows x 3 columns of 1-36 with the
zero (and the double zero) above it; every inside wager is a set of cells the layout groups, every
outside wager a set of numbers, and a wager on n of the N pockets wins with chance n/N (s. 72); the
double and the triple of s. 72.1 need their number on 2 and 3 consecutive spins, (1/N)^2 and (1/N)^3.
Pocket 37 is 00. tools/certify/table.py turns the laws into figures."""
from __future__ import annotations

from fractions import Fraction

from tools.certify.table_law import Law, paid

RED_NUMBERS = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
ROWS = [[3 * r + 1, 3 * r + 2, 3 * r + 3] for r in range(12)]
DOUBLE_ZERO = 37


def _name(p: int) -> str:
    return "00" if p == DOUBLE_ZERO else str(p)


def _key(wid: str, cells: tuple[int, ...] | list[int]) -> str:
    return "%s:%s" % (wid, "-".join(_name(p) for p in sorted(cells)))


def inside_sets(zeros: int) -> dict[str, list[tuple[int, ...]]]:
    """The numbers of every inside wager the layout offers, per wager."""
    splits = []
    for r in range(12):
        for c in range(3):
            n = ROWS[r][c]
            if c < 2:
                splits.append((n, ROWS[r][c + 1]))  # side by side
            if r < 11:
                splits.append((n, ROWS[r + 1][c]))  # one above the other
    corners = [(ROWS[r][c], ROWS[r][c + 1], ROWS[r + 1][c], ROWS[r + 1][c + 1]) for r in range(11) for c in range(2)]
    streets = [tuple(row) for row in ROWS]
    six = [tuple(ROWS[r] + ROWS[r + 1]) for r in range(11)]
    if zeros == 1:  # the zero touches 1, 2 and 3
        splits += [(0, 1), (0, 2), (0, 3)]
        streets += [(0, 1, 2), (0, 2, 3)]
    else:  # 0 over 1 and 2, 00 over 2 and 3, and the two zeros together
        splits += [(0, 1), (0, 2), (2, DOUBLE_ZERO), (3, DOUBLE_ZERO), (0, DOUBLE_ZERO)]
        streets += [(0, 1, 2), (0, 2, DOUBLE_ZERO), (2, 3, DOUBLE_ZERO)]
    pockets = [(p,) for p in range(36 + zeros)]
    return {"straight": pockets, "split": splits, "street": streets, "corner": corners, "six_line": six,
            "double": pockets, "triple": pockets}


def outside_sets() -> dict[str, dict[str, set[int]]]:
    nums = range(1, 37)
    return {"column": {"column:%d" % c: {n for n in nums if (n - c) % 3 == 0} for c in (1, 2, 3)},
            "dozen": {"dozen:%d" % d: set(range(12 * d - 11, 12 * d + 1)) for d in (1, 2, 3)},
            "low": {"low": set(range(1, 19))}, "high": {"high": set(range(19, 37))},
            "even": {"even": {n for n in nums if n % 2 == 0}}, "odd": {"odd": {n for n in nums if n % 2}},
            "red": {"red": set(RED_NUMBERS)}, "black": {"black": set(nums) - RED_NUMBERS}}


def covered(wid: str, zeros: int) -> dict[str, set[int]]:
    """{stake key: the pockets it wins on} for every selection of wager wid."""
    if wid == "first_four":
        return {"first_four": {0, 1, 2, 3}}
    if wid == "first_five":
        return {"first_five": {0, DOUBLE_ZERO, 1, 2, 3}}
    inside = inside_sets(zeros)
    if wid in inside:
        return {_key(wid, s): set(s) for s in inside[wid]}
    return {k: v for k, v in outside_sets()[wid].items()}


def laws(raw: dict, wagers: dict) -> dict[str, dict[str, object]]:
    """{wager: {stake key: law(credits) -> Law}}; wagers: {id: (n, d) payout} of the offered ones."""
    zeros = raw["zeros"]
    pockets = 36 + zeros
    spins = {"double": 2, "triple": 3}
    out: dict[str, dict[str, object]] = {}
    for wid, (n, d) in wagers.items():
        k = spins.get(wid, 1)
        # spins to decide it: one, and one more each time the number came up with spins to go
        rounds = sum((Fraction(1, pockets) ** i for i in range(k)), Fraction(0))
        out[wid] = {key: _law(Fraction(len(cells), pockets) ** k, n, d, rounds)
                    for key, cells in covered(wid, zeros).items()}
    return out


def _law(p: Fraction, n: int, d: int, rounds: Fraction):
    def law(credits: int) -> Law:
        back = paid(credits, n, d)
        return Law(credits, [(p, back, back > credits), (1 - p, 0, False)], rounds)
    return law
