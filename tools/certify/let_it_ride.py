"""Let It Ride Poker (jeton-let-it-ride/1, by-law s. 67.1-67.9): exact figures by full enumeration.

A round is the player's three cards and the two community cards in the order they are shown:
22,100 x 49 x 48 = 51,979,200 equally likely deals, i.e. every 5-card hand with each of its 20
choices of the two community cards in order. Each wager still riding is paid by the final hand
alone, so the first wager is worth riding when the hand's pays summed over the 1,176 ways to complete
the three cards are positive, the second when they are over the 48 ways to complete the four cards
(both sums by scattering every 5-card hand onto its 3- and 4-card subsets); a sum of exactly zero is
taken back (optimal either way: less is at risk). The built-in strategy is the device's own rules
(games/let_it_ride.py ride3, ride4), asked for every one of the 22,100 three-card and 270,725
four-card hands. The bonus depends on the final hand alone.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

from games import let_it_ride as dev
from tools.certify import cards
from tools.certify.cardtable import Report, Wager, law

# C5 category (tools/certify/cards.py) -> the model's pay-table names
C5_NAMES = (None, "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
            "four_of_a_kind", "straight_flush", "royal_flush")
ORDERS = [(c4, c5) for c5 in range(5) for c4 in range(5) if c4 != c5]  # the two community cards, in order


def _odds(table: list[int], names: tuple[str, ...], cat: np.ndarray) -> np.ndarray:
    out = np.zeros(len(cat), dtype=np.int64)
    for c, nm in enumerate(C5_NAMES):
        if nm in names:
            out[cat == c] = table[names.index(nm)]
    return out


def analyse(game: dev.LetItRideGame) -> dict:
    m = game.m
    hands = cards.subsets(52, 5).astype(np.int64)
    strength, cat = cards.strength5(hands)
    odds = _odds(m.pays["ride"], dev.HANDS, cat)
    ranks = hands >> 2
    same = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    pair_rank = np.where(same == 2, ranks, -1).max(axis=1)
    low_pair = (cat == 1) & (pair_rank < m.extra["ride"].get("min_pair", dev.TEN))
    odds[low_pair] = 0
    net = np.where(odds > 0, odds, -1)  # one riding wager's net result, per credit
    b3, b4 = cards.binom_table(52, 3), cards.binom_table(52, 4)
    ev3 = np.zeros(22100, dtype=np.int64)
    ev4 = np.zeros(270725, dtype=np.int64)
    for c in itertools.combinations(range(5), 3):
        ev3 += np.bincount(cards.colex(hands[:, list(c)], b3), weights=net, minlength=22100).astype(np.int64)
    for c in itertools.combinations(range(5), 4):
        ev4 += np.bincount(cards.colex(hands[:, list(c)], b4), weights=net, minlength=270725).astype(np.int64)
    h3, h4 = cards.subsets(52, 3), cards.subsets(52, 4)
    auto3 = np.array([dev.ride3([int(x) for x in h]) for h in h3])
    auto4 = np.array([dev.ride4([int(x) for x in h]) for h in h4])
    return {"hands": hands, "category": cat, "odds": odds, "ev3": ev3, "ev4": ev4,
            "ride3": ev3 > 0, "ride4": ev4 > 0, "auto3": auto3, "auto4": auto4, "b3": b3, "b4": b4}


def ride_law(an: dict, r3: np.ndarray, r4: np.ndarray):
    """The law of one credit of each of the three wagers (per credit of the stake) when the first
    rides on the 3-card hands r3 and the second on the 4-card hands r4."""
    hands, odds = an["hands"], an["odds"]
    tally: dict[tuple[int, int], int] = {}
    for c4, c5 in ORDERS:
        three = [i for i in range(5) if i not in (c4, c5)]
        k = 1 + r3[cards.colex(hands[:, three], an["b3"])].astype(np.int64)
        k += r4[cards.colex(hands[:, sorted(three + [c4])], an["b4"])]
        back = np.where(odds > 0, k * (1 + odds), 0)
        key = k * 1_000_000 + back
        u, n = np.unique(key, return_counts=True)
        for kk, nn in zip(u.tolist(), n.tolist()):
            tally[(kk // 1_000_000, kk % 1_000_000)] = tally.get((kk // 1_000_000, kk % 1_000_000), 0) + nn
    return law(((w, r, n) for (w, r), n in tally.items()), units=3)


def certify(raw: dict) -> Report:
    game = dev.LetItRideGame(raw)
    m = game.m
    an = analyse(game)
    w = {"ride": Wager(m.names["ride"], m.section["ride"], ride_law(an, an["ride3"], an["ride4"]),
                       ride_law(an, an["auto3"], an["auto4"]), True)}
    top = 3 * (1 + int(an["odds"].max()))
    risk = 3
    if "bonus" in m.pays:
        bo = _odds(m.pays["bonus"], dev.BONUS, an["category"])
        bl = law([(1, 1 + o, int((bo == o).sum()) * 20) for o in np.unique(bo) if o] +
                 [(1, 0, int((bo == 0).sum()) * 20)])
        w["bonus"] = Wager(m.names["bonus"], m.section["bonus"], bl, bl, False)
        top = int((3 * np.where(an["odds"] > 0, 1 + an["odds"], 0) + np.where(bo > 0, 1 + bo, 0)).max())
        risk += 1
    d3 = int((an["ride3"] != an["auto3"]).sum())
    d4 = int((an["ride4"] != an["auto4"]).sum())
    ride = w["ride"]
    info = {"optimal strategy": "first wager rides on %d of 22,100 three-card hands, the second on %d of "
                                "270,725 four-card hands (%d and %d hands where riding is worth exactly "
                                "nothing are taken back)" % (int(an["ride3"].sum()), int(an["ride4"].sum()),
                                                             int((an["ev3"] == 0).sum()), int((an["ev4"] == 0).sum())),
            "built-in strategy differs from the optimal on": "%d three-card and %d four-card hands" % (d3, d4),
            "built-in strategy costs": "%s per credit placed" % (ride.optimal.rtp - ride.builtin.rtp)}
    return Report(raw, game.FORMAT, game.id, list(game.bets), w, Fraction(top), Fraction(risk), info, analysis=an)
