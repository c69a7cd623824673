"""Caribbean Stud Poker (jeton-caribbean/1, by-law s. 67.10-67.21): exact figures by full enumeration.

A round is the player's five cards, the dealer's up card and the dealer's four other cards:
2,598,960 x 47 x 163,185 = 19,933,230,517,200 equally likely deals. The raise decision depends on
the player's hand and the up card; for each, the dealer's hands holding the up card are counted by
outcome (does not open: below A-K-4-3-2; opens and the player wins, ties, loses) by inclusion and
exclusion over the player's cards in one sweep over the 7,462 strengths (tools/certify/
dealer_counts.py), for one player hand per suit class (134,459) and each of its 47 up cards. The
optimal decision raises where the raise's expectation beats the fold's loss of the ante (a tie of
the two folds). The built-in strategy is the device's: a pair or better raises, below ace-king folds,
and ace-king is asked of the device's own rule (games/caribbean.py ak_raise) for every ace-king rank
set and up card rank, the only things that rule reads (tests/host/test_certify_caribbean.py checks
the device's auto() against this on sampled deals). The supplemental wager depends on the player's
hand alone.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from games import caribbean as dev
from tools.certify import cards
from tools.certify.cardtable import Report, Wager, law
from tools.certify.dealer_counts import below_counts

N_HIDDEN = 163185  # C(46, 4): the dealer's four hidden cards, the up card and the player's five known
# C5 category (tools/certify/cards.py) -> the model's pay-table names
C5_NAMES = ("ace_king", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
            "four_of_a_kind", "straight_flush", "royal_flush")


def _odds(table: list[int], names: tuple[str, ...], cat: np.ndarray) -> np.ndarray:
    out = np.zeros(len(cat), dtype=np.int64)
    for c, nm in enumerate(C5_NAMES):
        if nm in names:
            out[cat == c] = table[names.index(nm)]
    return out


def analyse(game: dev.CaribbeanGame) -> dict:
    """Per suit class of the player's hand (a representative, its size) and each of its 47 up cards
    (ascending positions): the dealer's hidden hands by outcome (does not open, player wins, ties,
    loses; out of 163,185), whether raising is optimal and whether the device raises."""
    m = game.m
    binom = cards.binom_table(52, 5)
    hands = cards.subsets(52, 5).astype(np.int64)
    strength, cat = cards.strength5(hands)
    s = cards.dense(strength)
    ak = (cat == 0) & ((hands >> 2) == 12).any(axis=1) & ((hands >> 2) == 11).any(axis=1)
    q = int(s[ak].min())  # the dealer opens with A-K-4-3-2 or better
    cls, reps, sizes = cards.suit_classes(hands, binom)
    players = hands[reps]
    ps = s[reps]
    thresholds = np.stack([np.full(len(reps), q), ps, ps + 1], axis=1)
    below = below_counts(52, hands, s, players, thresholds, up=True)  # (classes, 47, 3)
    nq, lo, le = below[:, :, 0], below[:, :, 1], below[:, :, 2]
    opens = (ps >= q)[:, None]
    win = np.where(opens, lo - nq, 0)
    tie = np.where(opens, le - lo, 0)
    lose = N_HIDDEN - nq - win - tie
    counts = np.stack([nq, win, tie, lose], axis=2)  # (classes, 47, 4)
    pcat = cat[reps]
    pay = _odds(m.pays["raise"], dev.HANDS, pcat)
    a = m.pays["ante"]
    # credits paid back per credit of ante when raising (ante 1, raise 2), by outcome
    back = np.stack([np.full(len(reps), 1 + a + 2), 1 + a + 2 * (1 + pay), np.full(len(reps), 1 + 2),
                     np.zeros(len(reps), dtype=np.int64)], axis=1)  # (classes, 4)
    total_back = (counts * back[:, None, :]).sum(axis=2)  # (classes, 47)
    raise_opt = total_back - 3 * N_HIDDEN > -N_HIDDEN
    ups = cards.complement(52, players)
    # the device's decision: by category, and ace-king high by its own rule on (ranks, up rank)
    auto = np.zeros_like(raise_opt)
    auto[pcat >= 1] = True
    ranks = -np.sort(-(players >> 2), axis=1)
    akp = np.flatnonzero(ak[reps])
    rule = {}
    for i in akp:
        key = tuple(int(r) for r in ranks[i])
        for j in range(47):
            u = int(ups[i, j] >> 2)
            if (key, u) not in rule:
                rule[(key, u)] = bool(dev.ak_raise(list(key), u))
            auto[i, j] = rule[(key, u)]
    return {"reps": reps, "sizes": sizes, "players": players, "ups": ups, "counts": counts, "back": back,
            "category": pcat, "raise": raise_opt, "auto": auto, "qualify": q, "ak_rules": len(rule),
            "strength": ps}


def ante_law(an: dict, raises: np.ndarray):
    counts, back, sizes = an["counts"], an["back"], an["sizes"]
    w = sizes[:, None]  # each class stands for `size` player hands
    trip = [(1, 0, int((w * ~raises).sum()) * N_HIDDEN)]
    for k in range(4):
        n = counts[:, :, k] * w * raises
        for b in np.unique(back[:, k]):
            trip.append((3, int(b), int(n[back[:, k] == b].sum())))
    return law(trip)


def certify(raw: dict) -> Report:
    game = dev.CaribbeanGame(raw)
    m = game.m
    an = analyse(game)
    w = {"ante": Wager(m.names["ante"], m.section["ante"] + ", " + m.section["raise"],
                       ante_law(an, an["raise"]), ante_law(an, an["auto"]), True)}
    feasible = np.where(an["counts"] > 0, an["back"][:, None, :], 0).max(axis=(1, 2))  # per class
    risk = 3
    if "progressive" in m.pays:
        odds = _odds(m.pays["progressive"], dev.PROGRESSIVE, an["category"])
        n = an["sizes"] * 47 * N_HIDDEN
        pr = law([(1, 1 + o, int(n[odds == o].sum())) for o in np.unique(odds) if o] +
                 [(1, 0, int(n[odds == 0].sum()))])
        w["progressive"] = Wager(m.names["progressive"], m.section["progressive"], pr, pr, False)
        feasible = feasible + np.where(odds > 0, 1 + odds, 0)
        risk += 1
    opt, auto = an["raise"], an["auto"]
    weight = an["sizes"][:, None] * np.ones((1, 47), dtype=np.int64)
    differ = int((weight * (opt != auto)).sum())
    ante = w["ante"]
    loss = (1 - ante.optimal.rtp) * ante.optimal.total
    info = {"optimal strategy: total loss over the 19,933,230,517,200 deals, in antes": str(loss),
            "built-in strategy: total loss": str((1 - ante.builtin.rtp) * ante.builtin.total),
            "built-in strategy differs from the optimal on": "%d of 122,151,120 (hand, up card) pairs" % differ,
            "built-in strategy costs": "%s of the ante" % (ante.optimal.rtp - ante.builtin.rtp)}
    return Report(raw, game.FORMAT, game.id, list(game.bets), w, Fraction(int(feasible.max())), Fraction(risk), info,
                  analysis=an)
