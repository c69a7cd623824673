"""3 Card Poker (jeton-three-card/1, by-law s. 67.22-67.32): exact figures by full enumeration.

Every deal is the player's three cards and the dealer's three from the other 49: 22,100 x 18,424 =
407,170,400 equally likely deals. The player's hands are grouped by suit symmetry (1,755 classes);
for each class the dealer's 18,424 hands are counted by outcome (the dealer does not open: below
Q-3-2; he opens and the player wins, ties, loses), vectorised over the dealer's hands. Playing is
optimal where its expectation beats the fold's loss of the ante; the optimal set is derived here and
reported as the weakest hand played (the published "Q-6-4 or better" is checked against it in
tests/host/test_certify_three_card.py, not assumed). The built-in strategy is the device's own
auto() (games/three_card.py), asked for every one of the 22,100 hands. Pair or plus depends on the
player's three cards alone.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from games import three_card as dev
from tools.certify import cards
from tools.certify.cardtable import Report, Wager, law

N_DEALER = 18424  # C(49, 3)
# C3 categories (tools/certify/cards.py) -> the model's pay-table names
C3_NAMES = {1: "pair", 2: "flush", 3: "straight", 4: "three_of_a_kind", 5: "straight_flush"}


def _odds(table: list[int], names: tuple[str, ...], cat: np.ndarray) -> np.ndarray:
    out = np.zeros(len(cat), dtype=np.int64)
    for c, nm in C3_NAMES.items():
        if nm in names:
            out[cat == c] = table[names.index(nm)]
    return out


def hand_name(codes) -> str:
    """'Q-6-4': the ranks, highest first (the strategies read ranks, never suits)."""
    from games.cards import RANKS

    return "-".join(RANKS[c >> 2] for c in sorted((int(c) for c in codes), reverse=True))


def analyse(game: dev.ThreeCardGame) -> dict:
    """Per player hand (the 22,100 of tools/certify/cards.py subsets(52, 3), in colex order): its
    cards, strength, C3 category, the dealer's hands by outcome (does not open, player wins, ties,
    loses: counts out of 18,424), the ante bonus odds, whether playing is optimal and whether the
    device's auto() plays it."""
    m = game.m
    binom = cards.binom_table(52, 3)
    hands = cards.subsets(52, 3)
    strength, cat = cards.strength3(hands.astype(np.int64))
    s = cards.dense(strength)
    # the dealer opens with Q-3-2 or better: the least strength of a queen-high hand
    queen_high = (cat == 0) & ((hands.max(axis=1) >> 2) == 10)
    q = int(s[queen_high].min())
    cls, reps, sizes = cards.suit_classes(hands.astype(np.int64), binom)
    hmask = cards.masks(hands)
    # per class: dealer hands not sharing a card with the representative, by outcome
    counts = np.zeros((len(reps), 4), dtype=np.int64)
    for i, r in enumerate(reps):
        d = s[(hmask & hmask[r]) == 0]
        ps = s[r]
        nq = int((d < q).sum())
        if ps >= q:
            win = int(((d >= q) & (d < ps)).sum())
            tie = int((d == ps).sum())
        else:
            win = tie = 0
        counts[i] = (nq, win, tie, N_DEALER - nq - win - tie)
    hc = counts[np.searchsorted(reps, cls)]  # each hand's row: its class's
    bonus = _odds(m.extra["ante"].get("bonus") or [0, 0, 0], dev.BONUS, cat)
    a, p = m.pays["ante"], m.pays["play"]
    # credits paid back per credit of ante when playing, by outcome (the dealer does not open, the
    # player wins, ties, loses): the ante's and the play's, the ante bonus added apart (s. 67.29-67.31)
    back = np.array([1 + a, 1 + a, 1, 0]) + np.array([1, 1 + p, 1, 0])
    total_back = hc @ back + bonus * N_DEALER  # summed over the dealer's hands
    # playing wagers 2 credits, folding 1 and gets nothing back: play where the mean net result
    # beats the fold's -1, i.e. total_back - 2 n > -n over the n dealer hands
    play_opt = total_back - 2 * N_DEALER > -N_DEALER
    auto = np.array([game.auto({"ante": 1}, [int(c) for c in h] + [0, 0, 0], []) == dev.PLAY for h in hands])
    return {"hands": hands, "strength": s, "category": cat, "counts": hc, "back": back, "bonus": bonus,
            "play": play_opt, "auto": auto, "qualify": q}


def ante_law(an: dict, plays: np.ndarray):
    """The law of one credit of ante (with its play) when the hands in `plays` are played."""
    hc, back, bonus = an["counts"], an["back"], an["bonus"]
    trip = [(1, 0, int((~plays).sum()) * N_DEALER)]
    for k in range(4):
        for b in np.unique(bonus):
            sel = plays & (bonus == b)
            trip.append((2, int(back[k] + b), int(hc[sel, k].sum())))
    return law(trip)


def certify(raw: dict) -> Report:
    game = dev.ThreeCardGame(raw)  # the device's loader: every refusal in the device's words
    m = game.m
    an = analyse(game)
    hands, s, cat = an["hands"], an["strength"], an["category"]
    w = {"ante": Wager(m.names["ante"], m.section["ante"] + ", " + m.section["play"],
                       ante_law(an, an["play"]), ante_law(an, an["auto"]), True)}
    # the most one round pays back per credit of each wager: the best outcome each hand can meet
    per_hand = np.zeros(len(hands), dtype=np.int64)
    for k in range(4):
        per_hand = np.maximum(per_hand, np.where(an["counts"][:, k] > 0, an["back"][k] + an["bonus"], 0))
    risk = 2
    if "pair_plus" in m.pays:
        odds = _odds(m.pays["pair_plus"], dev.HANDS, cat)
        pp = law([(1, 1 + o, int((odds == o).sum()) * N_DEALER) for o in np.unique(odds) if o] +
                 [(1, 0, int((odds == 0).sum()) * N_DEALER)])
        w["pair_plus"] = Wager(m.names["pair_plus"], m.section["pair_plus"], pp, pp, False)
        per_hand = per_hand + np.where(odds > 0, 1 + odds, 0)
        risk += 1
    play_opt, auto = an["play"], an["auto"]
    # the optimal strategy in words: the weakest hand it plays, and whether every stronger hand plays
    weakest = int(np.argmin(np.where(play_opt, s, 1 << 40)))
    monotone = bool((play_opt == (s >= s[weakest])).all())
    info = {"optimal strategy": "play %s or better%s" % (
                hand_name(hands[weakest]), "" if monotone else " (not a threshold: some stronger hands fold)"),
            "built-in strategy differs from the optimal on": "%d of 22100 hands" % int((play_opt != auto).sum()),
            "built-in strategy costs": "%s of the ante" % (w["ante"].optimal.rtp - w["ante"].builtin.rtp)}
    return Report(raw, game.FORMAT, game.id, list(game.bets), w, Fraction(int(per_hand.max())), Fraction(risk), info,
                  analysis=an)
