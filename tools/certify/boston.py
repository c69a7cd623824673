"""Boston Poker (jeton-boston/1, by-law s. 67.51-67.63): exact figures by full enumeration.

A round is the player's five cards (three seen before the decision, two after) and the dealer's five
from the other 47: every 5-card hand of the player, split 10 ways into the three first cards and
the two later ones, against 1,533,939 dealer hands: 22,100 x 1,176 x 1,533,939 equally likely deals.
For one player hand per suit class (134,459) the dealer's hands are counted below and equal to it by
inclusion and exclusion in one sweep over the strengths (tools/certify/dealer_counts.py, no up
card); each 5-card hand's paid-back total is scattered onto its ten 3-card subsets, which gives the
exact worth of the second bet for each of the 22,100 first hands. The built-in strategy is the
device's own rule (games/boston.py fold_three), asked for every 3-card hand. The Bonus depends on the
first three cards alone.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

from games import boston as dev
from tools.certify import cards
from tools.certify.cardtable import Report, Wager, law
from tools.certify.dealer_counts import below_counts

N_DEALER = 1533939  # C(47, 5)
C5_ANTE = {9: "royal_flush", 8: "straight_flush", 7: "four_of_a_kind", 6: "full_house", 5: "flush",
           4: "straight", 3: "three_of_a_kind", 2: "two_pair"}
C3_BONUS = {5: "straight_flush", 4: "three_of_a_kind", 3: "straight", 2: "flush", 1: "pair"}
SPLITS = list(itertools.combinations(range(5), 3))  # the three first cards among the five


def analyse(game: dev.BostonGame) -> dict:
    m = game.m
    hands = cards.subsets(52, 5).astype(np.int64)
    strength, cat = cards.strength5(hands)
    s = cards.dense(strength)
    cls, reps, sizes = cards.suit_classes(hands, cards.binom_table(52, 5))
    below = below_counts(52, hands, s, hands[reps], np.stack([s[reps], s[reps] + 1], axis=1), up=False)
    row = np.searchsorted(reps, cls)
    lo, le = below[row, 0], below[row, 1]
    win, tie, lose = lo, le - lo, N_DEALER - le
    # the ante's table: two pairs from min_two_pair up (the higher pair)
    odds = np.zeros(len(hands), dtype=np.int64)
    for c, nm in C5_ANTE.items():
        odds[cat == c] = m.pays["ante"][dev.ANTE.index(nm)]
    ranks = hands >> 2
    same = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    high_pair = np.where(same == 2, ranks, -1).max(axis=1)
    odds[(cat == 2) & (high_pair < m.extra["ante"].get("min_two_pair", 8))] = 0
    f, sec = m.pays["first"], m.pays["second"]
    # per credit of ante, played: wagered 5 (ante 1, first 2, second 2); paid back by outcome
    back = {"win": 1 + 2 * (1 + f) + 2 * (1 + sec), "tie": 5, "lose": 0}
    total = win * back["win"] + tie * back["tie"] + odds * N_DEALER  # over the dealer's hands, per hand
    b3 = cards.binom_table(52, 3)
    ev3 = np.zeros(22100, dtype=np.int64)
    for sp in SPLITS:
        ev3 += np.bincount(cards.colex(hands[:, list(sp)], b3), weights=total, minlength=22100).astype(np.int64)
    # playing wagers 5 and pays back ev3 / (1,176 N) on the mean; folding wagers 3 and pays nothing
    play = ev3 - 5 * 1176 * N_DEALER > -3 * 1176 * N_DEALER
    h3 = cards.subsets(52, 3)
    auto = np.array([game.auto({"ante": 1}, [int(c) for c in h] + [0] * 7, []) == dev.PLAY for h in h3])
    return {"hands": hands, "win": win, "tie": tie, "lose": lose, "odds": odds, "back": back, "ev3": ev3,
            "play": play, "auto": auto, "b3": b3, "h3": h3}


def ante_law(an: dict, plays: np.ndarray):
    hands, odds = an["hands"], an["odds"]
    tally: dict[tuple[int, int], int] = {(3, 0): 0}
    for sp in SPLITS:
        p = plays[cards.colex(hands[:, list(sp)], an["b3"])]
        tally[(3, 0)] += int((~p).sum()) * N_DEALER
        for what in ("win", "tie", "lose"):
            n = an[what] * p
            for o in np.unique(odds[p]):
                k = (5, an["back"][what] + int(o))
                tally[k] = tally.get(k, 0) + int(n[odds == o].sum())
    return law(((w, r, c) for (w, r), c in tally.items()), units=3)


def certify(raw: dict) -> Report:
    game = dev.BostonGame(raw)
    m = game.m
    an = analyse(game)
    w = {"ante": Wager(m.names["ante"], "%s, %s, %s" % (m.section["ante"], m.section["first"], m.section["second"]),
                       ante_law(an, an["play"]), ante_law(an, an["auto"]), True)}
    top = an["back"]["win"] + int(an["odds"].max())
    risk = 5
    if "bonus" in m.pays:
        h3 = an["h3"]
        s3, c3 = cards.strength3(h3.astype(np.int64))
        bo = np.zeros(len(h3), dtype=np.int64)
        for c, nm in C3_BONUS.items():
            bo[c3 == c] = m.pays["bonus"][dev.BONUS.index(nm)]
        n = 1176 * N_DEALER
        bl = law([(1, 1 + o, int((bo == o).sum()) * n) for o in np.unique(bo) if o] + [(1, 0, int((bo == 0).sum()) * n)])
        w["bonus"] = Wager(m.names["bonus"], m.section["bonus"], bl, bl, False)
        top += 1 + int(bo.max())
        risk += 1
    play, auto = an["play"], an["auto"]
    info = {"optimal strategy": "the second bet on %d of the 22,100 first hands, folding %d" % (
                int(play.sum()), int((~play).sum())),
            "built-in strategy differs from the optimal on": "%d of 22,100 hands" % int((play != auto).sum()),
            "built-in strategy costs": "%s per credit placed" % (w["ante"].optimal.rtp - w["ante"].builtin.rtp)}
    return Report(raw, game.FORMAT, game.id, list(game.bets), w, Fraction(top), Fraction(risk), info, analysis=an)
