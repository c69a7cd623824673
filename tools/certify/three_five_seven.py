"""3-5-7 Poker (jeton-three-five-seven/1, by-law s. 67.41-67.50): exact figures by full enumeration.

No dealer's hand is beaten: each wager is paid by its table on its own cards. The 3-card wager: the
22,100 three-card hands. The 5-card wager: the player's three and the dealer's first two, any five
cards: the 2,598,960 five-card hands. The 7-card wager and its one decision (s. 67.47: withdraw it
after seeing three cards, losing half): for one three-card hand per suit class (1,755 of them) the
211,876 sets of the dealer's four cards from the other 49 are valued, which gives the exact worth
of the wager kept for each of the 22,100 first hands; withdrawing returns half. So 22,100 x 211,876
= C(52, 7) x 35 equally likely deals.

The five- and seven-card hands are classified here from the ranks held at least once to four times
and the ranks per suit (table lookups), apart from the device's games/hand5.py
(tests/host/test_certify_three_five_seven.py compares the two): s. 67.41 lets an ace complete
A-2-3-4-5 as a straight flush only (wheel=False, the shipped reading); wheel=True counts the
mixed-suit A-2-3-4-5 as a straight, as the game is published.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from games import three_five_seven as dev
from tools.certify import cards
from tools.certify.cardtable import Report, Wager, law

N3, N5, N4 = 22100, 2598960, 211876  # C(52, 3), C(52, 5), C(49, 4)
C3_PAY = {5: "straight_flush", 4: "three_of_a_kind", 3: "straight", 2: "flush", 1: "pair"}
C5_PAY = {9: "royal_flush", 8: "straight_flush", 7: "four_of_a_kind", 6: "full_house", 5: "flush",
          4: "straight", 3: "three_of_a_kind", 2: "two_pair", 1: "pair"}
WHEEL = 0x100F  # A, 2, 3, 4, 5
_POP = np.array([bin(i).count("1") for i in range(1 << 13)], dtype=np.int8)
_HIGH = np.array([i.bit_length() - 1 for i in range(1 << 13)], dtype=np.int8)  # the highest rank, -1 for none


def _run(m: int, wheel: bool) -> bool:
    return any((m >> lo) & 0x1F == 0x1F for lo in range(9)) or (wheel and m & WHEEL == WHEEL)


# whether a 13-bit rank mask holds five ranks in a row, without and with A-2-3-4-5
_RUNS = (np.array([_run(i, False) for i in range(1 << 13)]), np.array([_run(i, True) for i in range(1 << 13)]))


def classify(at_least: tuple, smasks: np.ndarray, wheel: bool) -> tuple[np.ndarray, np.ndarray]:
    """(category as cards.C5 numbers them, the rank of the highest pair or -1) of the best five of each
    hand of 5 to 7 cards, from its ranks held at least once, twice, three and four times (four 13-bit
    masks) and its ranks per suit (n, 4)."""
    m1, m2, m3, m4 = at_least
    pop = _POP[smasks]
    flush = np.where(pop >= 5, smasks, 0)
    # the flush suit's ranks (one suit at most in 7 cards; four columns, not a reduction along a short axis)
    fm = np.maximum(np.maximum(flush[:, 0], flush[:, 1]), np.maximum(flush[:, 2], flush[:, 3]))
    sf = _RUNS[1][fm]  # s. 67.41: the ace completes the straight flush A-2-3-4-5
    royal = fm & 0x1F00 == 0x1F00
    pairs = _POP[m2]
    cat = np.select([royal, sf, m4 != 0, (m3 != 0) & (pairs >= 2), fm != 0, _RUNS[1 if wheel else 0][m1],
                     m3 != 0, pairs >= 2, pairs == 1], [9, 8, 7, 6, 5, 4, 3, 2, 1], 0)
    return cat, _HIGH[m2]


def tallies(rows: np.ndarray) -> tuple[tuple, np.ndarray]:
    """(the ranks held at least 1, 2, 3, 4 times as 13-bit masks, ranks per suit (n, 4) as 13-bit
    masks) of rows of card codes."""
    r = rows.astype(np.int64) >> 2
    s = rows.astype(np.int64) & 3
    n = np.arange(rows.shape[0])
    counts = np.zeros((rows.shape[0], 13), dtype=np.int8)
    smasks = np.zeros((rows.shape[0], 4), dtype=np.int64)
    for i in range(rows.shape[1]):
        counts[n, r[:, i]] += 1
        smasks[n, s[:, i]] |= 1 << r[:, i]
    bits = 1 << np.arange(13, dtype=np.int64)
    return tuple(((counts >= k) * bits).sum(axis=1) for k in (1, 2, 3, 4)), smasks


def combined(p: tuple, q: tuple) -> tuple:
    """The at-least masks of two disjoint hands together (a rank held i times in one, j in the other)."""
    p1, p2, p3, p4 = p
    q1, q2, q3, q4 = q
    return (p1 | q1, p2 | q2 | p1 & q1, p3 | q3 | p2 & q1 | p1 & q2,
            p4 | q4 | p3 & q1 | p2 & q2 | p1 & q3)


def _odds(cat: np.ndarray, high: np.ndarray, table: dict, pays: list, names: tuple, low: int,
          low_cat: int) -> np.ndarray:
    """X of X to 1 per hand (0: lost); a hand of low_cat whose highest pair is under low pays nothing."""
    odds = np.zeros(len(cat), dtype=np.int64)
    for c, nm in table.items():
        if nm in names:
            odds[cat == c] = pays[names.index(nm)]
    odds[(cat == low_cat) & (high < low)] = 0
    return odds


def seven_table(game: dev.ThreeFiveSevenGame, wheel: bool = False) -> dict:
    """For every three-card hand's suit class: its size and the number of dealer's four-card sets for
    each X of X to 1 the 7-card wager is paid (0: lost)."""
    m = game.m
    h3 = cards.subsets(52, 3).astype(np.int64)
    cls, reps, sizes = cards.suit_classes(h3, cards.binom_table(52, 3))
    h4 = cards.subsets(52, 4)
    a4, s4 = tallies(h4)
    b4 = cards.masks(h4)
    a3, s3 = tallies(h3[reps])
    b3 = cards.masks(h3[reps])
    pays = m.pays["seven"]
    levels = sorted(set(pays) | {0})
    low = m.extra["seven"].get("min_two_pair", 8)
    table = np.zeros((len(reps), len(levels)), dtype=np.int64)
    for i in range(len(reps)):
        keep = b4 & b3[i] == 0
        cat, high = classify(combined(tuple(a[i] for a in a3), tuple(a[keep] for a in a4)), s4[keep] | s3[i], wheel)
        cat[cat == 1] = 0  # no pair is paid on the 7-card wager
        odds = _odds(cat, high, C5_PAY, pays, dev.SEVEN, low, 2)
        table[i] = np.bincount(np.searchsorted(levels, odds), minlength=len(levels))  # odds are levels
    return {"reps": reps, "sizes": sizes, "levels": levels, "counts": table, "h3": h3, "cls": cls}


def five_odds(game: dev.ThreeFiveSevenGame, wheel: bool = False) -> np.ndarray:
    """X of X to 1 the 5-card wager pays on each of the 2,598,960 five-card hands (0: lost)."""
    m = game.m
    at_least, sm = tallies(cards.subsets(52, 5))
    cat, high = classify(at_least, sm, wheel)
    return _odds(cat, high, C5_PAY, m.pays["five"], dev.FIVE, m.extra["five"].get("min_pair", 4), 1)


def three_odds(game: dev.ThreeFiveSevenGame) -> np.ndarray:
    _, c3 = cards.strength3(cards.subsets(52, 3).astype(np.int64))
    odds = np.zeros(len(c3), dtype=np.int64)
    for c, nm in C3_PAY.items():
        odds[c3 == c] = game.m.pays["three"][dev.THREE.index(nm)]
    return odds


def _paid(odds: np.ndarray, weight: int = 1):
    return [(1, 1 + o if o else 0, int((odds == o).sum()) * weight) for o in np.unique(odds)]


def seven_law(t: dict, withdraw: np.ndarray):
    """The 7-card wager's law when the classes marked in withdraw are withdrawn (half back)."""
    out = []
    for i, size in enumerate(t["sizes"]):
        if withdraw[i]:
            out.append((1, Fraction(1, 2), int(size) * N4))
            continue
        for x, n in zip(t["levels"], t["counts"][i]):
            out.append((1, 1 + x if x else 0, int(size) * int(n)))
    return law(out)


def certify(raw: dict) -> Report:
    game = dev.ThreeFiveSevenGame(raw)
    m = game.m
    o3, o5 = three_odds(game), five_odds(game)
    w = {"three": Wager(m.names["three"], m.section["three"], law(_paid(o3)), law(_paid(o3)), False),
         "five": Wager(m.names["five"], m.section["five"], law(_paid(o5)), law(_paid(o5)), False)}
    top, risk = 1 + int(o3.max()) + 1 + int(o5.max()), 2
    info = {}
    an = {"three": o3, "five": o5}
    if "seven" in m.pays:
        t = seven_table(game)
        back = (t["counts"] * (1 + np.array(t["levels"])) * (np.array(t["levels"]) > 0)).sum(axis=1)
        withdraw = 2 * back < N4  # kept, the wager returns back / N4 on the mean; withdrawn, 1/2
        h3 = t["h3"][t["reps"]]
        auto = np.array([game.auto({"three": 2, "five": 2, "seven": 2}, [int(c) for c in h] + [0] * 4, [])
                         == dev.WITHDRAW for h in h3])
        opt, blt = seven_law(t, withdraw), seven_law(t, auto)
        w["seven"] = Wager(m.names["seven"], m.section["seven"], opt, blt, True)
        top += 1 + max(t["levels"])
        risk += 1
        worst = int(back.min())
        info = {"optimal strategy": "withdraw the 7-card wager on %d of the 22,100 first hands" % int(
                    (withdraw * t["sizes"]).sum()),
                "the least the 7-card wager kept returns": "%s of it (withdrawn: 1/2), on %d first hands" % (
                    Fraction(worst, N4), int(t["sizes"][back == worst].sum())),
                "built-in strategy differs from the optimal on": "%d of 22,100 hands" % int(
                    ((withdraw != auto) * t["sizes"]).sum()),
                "built-in strategy costs": "%s per credit" % (opt.rtp - blt.rtp)}
        an["seven"] = t
        an["back"] = back
    return Report(raw, game.FORMAT, game.id, list(game.bets), w, Fraction(top), Fraction(risk), info, analysis=an)
