"""Crazy Four Poker (jeton-crazy-four/1, by-law s. 67.75-67.87): exact figures by full enumeration.

A round is the player's five cards and the dealer's five from the other 47: 2,598,960 x 1,533,939
equally likely deals; each hand is its best four cards. Every 4-card hand is ranked once and every
5-card hand takes its best 4-card subset's rank, on one scale for both. For one player hand per suit
class (134,459), the dealer's hands are counted by outcome (does not open: below K-4-3-2; opens and
the player wins, ties, loses) by inclusion and exclusion over the player's cards in one sweep over
the strengths (tools/certify/dealer_counts.py, without an up card). The optimal decision is the
best of folding, playing 1 x and, with a pair of aces or better, 3 x (a tie takes the smaller
wager); the built-in strategy is the device's auto(), asked for every class's representative (it
reads the best four cards only, the same for every member of a class). Queens Up depends on the
player's hand alone.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from games import crazy_four as dev
from tools.certify import cards
from tools.certify.cardtable import Report, Wager, law
from tools.certify.dealer_counts import below_counts

N_DEALER = 1533939  # C(47, 5)
SUPER_CAT = {7: "four_of_a_kind", 6: "straight_flush", 5: "three_of_a_kind", 4: "flush", 3: "straight"}
QUEENS_CAT = {7: "four_of_a_kind", 6: "straight_flush", 5: "three_of_a_kind", 4: "flush", 3: "straight", 2: "two_pair"}


def best4(hands5: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(strength on the 4-card scale, category, the best four's ranks highest first) of each 5-card
    hand: the best of its five 4-card subsets."""
    h4 = cards.subsets(52, 4).astype(np.int64)
    s4, c4 = cards.strength4(h4)
    d4 = cards.dense(s4)
    b4 = cards.binom_table(52, 4)
    best = np.full(len(hands5), -1, dtype=np.int64)
    arg = np.zeros(len(hands5), dtype=np.int64)
    for drop in range(5):
        idx = cards.colex(hands5[:, [i for i in range(5) if i != drop]], b4)
        v = d4[idx]
        better = v > best
        best = np.where(better, v, best)
        arg = np.where(better, idx, arg)
    return best, c4[arg], -np.sort(-(h4[arg] >> 2), axis=1)


def pays(table: list, names: tuple[str, ...], cat: np.ndarray, top: np.ndarray, pair_rank: np.ndarray,
         which: dict) -> np.ndarray:
    """Odds per hand (Fractions allowed: a published 3 to 2) from a pay table over names."""
    out = np.zeros(len(cat), dtype=object)
    out[:] = 0
    for c, nm in which.items():
        if nm in names:
            out[cat == c] = table[names.index(nm)]
    if "four_aces" in names:
        out[(cat == 7) & (top == 12)] = table[names.index("four_aces")]
    for r, nm in ((12, "pair_aces"), (11, "pair_kings"), (10, "pair_queens")):
        if nm in names:
            out[(cat == 1) & (pair_rank == r)] = table[names.index(nm)]
    return out


def deals(base: dict | None = None) -> dict:
    """What the pays do not change: per suit class of the player's hand, its representative, size,
    strength and best four, and the dealer's hands by outcome (from `base` when given)."""
    if base is not None:
        return base
    hands = cards.subsets(52, 5).astype(np.int64)
    s, cat, ranks = best4(hands)
    q = int(s[(cat == 0) & (ranks[:, 0] == 11)].min())  # K-4-3-2, the least hand that opens
    aces = int(s[(cat == 1) & (ranks[:, 0] == 12) & (ranks[:, 1] == 12)].min())  # 3 x from a pair of aces
    cls, reps, sizes = cards.suit_classes(hands, cards.binom_table(52, 5))
    players = hands[reps]
    ps = s[reps]
    below = below_counts(52, hands, s, players, np.stack([np.full(len(reps), q), ps, ps + 1], axis=1), up=False)
    nq, lo, le = below[:, 0], below[:, 1], below[:, 2]
    opens = ps >= q
    win = np.where(opens, lo - nq, 0)
    tie = np.where(opens, le - lo, 0)
    lose = N_DEALER - nq - win - tie
    return {"reps": reps, "sizes": sizes, "players": players, "strength": ps, "category": cat[reps],
            "ranks": ranks[reps], "counts": np.stack([nq, win, tie, lose], axis=1), "qualify": q, "aces": aces}


def analyse(game: dev.CrazyFourGame, super_pays: list | None = None, base: dict | None = None) -> dict:
    """The figures of every decision, per suit class; super_pays: another Super Bonus table (a
    published 3 to 2 as a Fraction); base: the pay-independent part of an earlier analysis."""
    m = game.m
    d = deals(base)
    reps, players, ps, aces = d["reps"], d["players"], d["strength"], d["aces"]
    nq, win, tie, lose = (d["counts"][:, i] for i in range(4))
    pcat, pranks = d["category"], d["ranks"]
    pair_rank = np.full(len(reps), -1, dtype=np.int64)  # a pair's rank: the rank that comes twice
    for i in range(3):
        pair_rank = np.where((pcat == 1) & (pranks[:, i] == pranks[:, i + 1]), pranks[:, i], pair_rank)
    table = super_pays if super_pays is not None else m.pays["super_bonus"]
    sb = pays(table, dev.SUPER, pcat, pranks[:, 0], pair_rank, SUPER_CAT)
    a, p = m.pays["ante"], m.pays["play"]
    out = dict(d)
    out.update({"super": sb, "pair_rank": pair_rank, "top": pranks[:, 0], "base": d})
    # per class, what each decision pays back in all over the dealer's hands, per credit of ante:
    # (wagered, returned) pairs by outcome for k = 0 (fold), 1, 3
    backs = {}
    for k in (1, 3):
        back_ante = np.array([1, 1 + a, 1, 0], dtype=object)
        back_play = np.array([k * (1 + p), k * (1 + p), k, 0], dtype=object)
        backs[k] = back_ante + back_play
    out["backs"] = backs
    ev = {0: np.full(len(reps), Fraction(-2), dtype=object)}
    for k in (1, 3):
        total = (out["counts"] * backs[k]).sum(axis=1)
        sb_back = np.where(sb != 0, (1 + sb) * N_DEALER, (nq + win + tie))  # pushes but on a loss
        ev[k] = np.array([Fraction(int(t) if not isinstance(t, Fraction) else t) for t in total], dtype=object)
        ev[k] = (ev[k] + sb_back) / N_DEALER - (2 + k)
    can3 = ps >= aces
    choice = np.where(ev[1] > ev[0], 1, 0)
    choice = np.where(can3 & (ev[3] > np.where(choice == 1, ev[1], ev[0])), 3, choice)
    out["optimal"] = choice
    out["ev"] = ev
    auto = np.zeros(len(reps), dtype=np.int64)
    for i, r in enumerate(players):
        d = game.auto({"ante": game.bets[0]}, [int(c) for c in r] + [0] * 5, [])
        auto[i] = (0, 1, 3)[d]
    out["auto"] = auto
    return out


def ante_law(an: dict, choice: np.ndarray):
    counts, sizes, sb = an["counts"], an["sizes"], an["super"]
    trip = [(2, 0, int(sizes[choice == 0].sum()) * N_DEALER)]
    for k in (1, 3):
        sel = choice == k
        for o in range(4):
            for odds in set(sb[sel].tolist()):
                which = sel & (sb == odds)
                n = int((counts[which, o] * sizes[which]).sum())
                sb_back = (1 + odds) if odds else (0 if o == 3 else 1)
                trip.append((2 + k, an["backs"][k][o] + sb_back, n))
    return law(trip, units=2)


def certify(raw: dict) -> Report:
    game = dev.CrazyFourGame(raw)
    m = game.m
    an = analyse(game)
    opt, auto, sizes = an["optimal"], an["auto"], an["sizes"]
    w = {"ante": Wager(m.names["ante"], "%s, %s, %s" % (m.section["ante"], m.section["super_bonus"], m.section["play"]),
                       ante_law(an, opt), ante_law(an, auto), True)}
    per_class = np.zeros(len(sizes), dtype=object)
    for o in range(4):
        feasible = an["counts"][:, o] > 0
        sb_back = np.where(an["super"] != 0, 1 + an["super"], 0 if o == 3 else 1)
        per_class = np.maximum(per_class, np.where(feasible, an["backs"][3][o] + sb_back, 0))
    risk = 5
    if "queens_up" in m.pays:
        qu = pays(m.pays["queens_up"], dev.QUEENS, an["category"], an["top"], an["pair_rank"], QUEENS_CAT)
        n = sizes * N_DEALER
        ql = law([(1, 1 + o, int(n[qu == o].sum())) for o in set(qu.tolist()) if o] + [(1, 0, int(n[qu == 0].sum()))])
        w["queens_up"] = Wager(m.names["queens_up"], m.section["queens_up"], ql, ql, False)
        per_class = per_class + np.where(qu != 0, 1 + qu, 0)
        risk += 1
    differ = int(sizes[opt != auto].sum())
    ps = an["strength"]
    weakest = int(np.argmin(np.where(opt >= 1, ps, 1 << 40)))
    may3 = ps >= an["aces"]
    words = "-".join("23456789TJQKA"[r] for r in best4(an["players"][[weakest]])[2][0])
    info = {"optimal strategy": "play 3 x on %s of the %d hands of a pair of aces or better; play 1 x from %s, "
                                "%s" % ("all" if (opt[may3] == 3).all() else int(sizes[opt == 3].sum()), int(sizes[may3].sum()),
                                        words, "every stronger hand" if ((opt >= 1) == (ps >= ps[weakest])).all()
                                        else "some hands of the same best four folding, by the fifth card"),
            "built-in strategy differs from the optimal on": "%d of 2,598,960 hands" % differ,
            "built-in strategy costs": "%s per credit placed" % (w["ante"].optimal.rtp - w["ante"].builtin.rtp)}
    return Report(raw, game.FORMAT, game.id, list(game.bets), w, Fraction(max(per_class)), Fraction(risk), info,
                  analysis=an)
