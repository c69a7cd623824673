"""3-5-7 Poker's exact certification (tools/certify/three_five_seven.py) against published figures,
a brute force with the device's evaluator and the device's settlements.

Published: the 3-card wager's table (the Wizard of Odds, "3-5-7 Poker", last updated December 11,
2002, "3-Card Hand Return Table": 48 straight flushes, 52 three of a kind, 720 straights, 1,096 flushes,
3,744 pairs and 16,440 nothing of 22,100 hands; return -0.034931 at the by-law's 40/25/6/4/1). The
five- and seven-card hands' standard frequencies (2,598,960 five-card hands: 4 royal flushes, 36
straight flushes, 624 four of a kind, 3,744 full houses, 5,108 flushes, 10,200 straights, 54,912
three of a kind, 123,552 two pairs, 1,098,240 pairs; 133,784,560 seven-card hands: 4,324 royal
flushes, 37,260 straight flushes, 224,848 four of a kind, 3,473,184 full houses, 4,047,644 flushes:
Wikipedia, "Poker probability"). The Wizard's page advises never to withdraw the 7-card wager; with
the by-law's pays and either reading of the ace-to-five, withdrawing is worth more on some hands
(below): the figures here are exact, the advice is not.
"""
from __future__ import annotations

import json
import random
from fractions import Fraction

import numpy as np
import pytest

from games import hand5
from games import three_five_seven as dev
from games.cardtable_games import load
from games.model_json import read
from tools.certify import cards, cardtable
from tools.certify import three_five_seven as t
from tools.par import cardtable_sheet, certified

MODEL = "games/models/three-five-seven-94.json"


@pytest.fixture(scope="module")
def rep() -> cardtable.Report:
    return certified(cardtable.certify, read(MODEL))  # once for this code (the release's PAR sheet asks too)


def test_three_card_wager_as_published(rep) -> None:
    o3 = rep.analysis["three"]
    assert [int((o3 == x).sum()) for x in (40, 25, 6, 4, 1, 0)] == [48, 52, 720, 1096, 3744, 16440]
    assert rep.wagers["three"].optimal.rtp == Fraction(5332, 5525)
    assert round(float(rep.wagers["three"].optimal.rtp - 1), 6) == -0.034932  # published -0.034931 (rounded parts)


def test_five_card_hands_as_published() -> None:
    g = load(MODEL)
    # the published count of straights takes A-2-3-4-5 of mixed suits for one: 1,020 of them
    pays = (500, 100, 40, 12, 9, 6, 4, 3, 1, 0)
    sixes_up = 1098240 // 13 * 9  # a pair of sixes to aces: 9 of the 13 ranks
    published = [4, 36, 624, 3744, 5108, 10200, 54912, 123552, sixes_up]
    published.append(2598960 - sum(published))  # nothing paid
    assert [int((t.five_odds(g, True) == x).sum()) for x in pays] == published
    shipped = t.five_odds(g)  # s. 67.41: those 1,020 are nothing
    assert [int((shipped == x).sum()) for x in pays] == published[:5] + [9180] + published[6:9] + [published[9] + 1020]


def test_seven_card_hands_as_published(rep) -> None:
    tb = rep.analysis["seven"]
    assert int(tb["sizes"].sum()) == 22100 and len(tb["reps"]) == 1755  # three-card hands, their suit classes
    total = (tb["counts"] * tb["sizes"][:, None]).sum(axis=0)
    assert int(total.sum()) == 133784560 * 35  # every 7 cards, split 35 ways into the player's three
    by = dict(zip(tb["levels"], (int(x) for x in total)))
    assert [by[x] for x in (100, 20, 7, 5, 4)] == [35 * n for n in (4324, 37260, 224848, 3473184, 4047644)]


def test_withdrawing_as_derived(rep) -> None:
    # 7-3-2 of three suits: the device's own best_of_7 over all 211,876 sets of the dealer's four
    # (a pure-Python run, 3 minutes) returns 88,669 credits kept (98,173 counting the mixed-suit wheel
    # as a straight): less than the 105,938 a withdrawal keeps
    tb, back = rep.analysis["seven"], rep.analysis["back"]
    h3 = tb["h3"][tb["reps"]]
    i = next(k for k, h in enumerate(h3) if sorted(c >> 2 for c in h) == [0, 1, 5] and len({c & 3 for c in h}) == 3)
    assert int(back[i]) == 88669 == int(back.min())
    withdraw = 2 * back < t.N4
    assert int((withdraw * tb["sizes"]).sum()) == 240
    # the device's table is the certifier's derivation: the built-in strategy is the optimum
    for k, h in enumerate(h3):
        r = sorted((int(c) >> 2 for c in h), reverse=True)
        listed = len({int(c) & 3 for c in h}) == 3 and (r[0] * 13 + r[1]) * 13 + r[2] in dev.WITHDRAW_RANKS
        assert listed == bool(withdraw[k]), r
    assert rep.wagers["seven"].optimal.rtp == rep.wagers["seven"].builtin.rtp == Fraction(1112002783, 1170614900)
    assert rep.strategy["built-in strategy differs from the optimal on"] == "0 of 22,100 hands"


def test_the_certifiers_hands_are_the_devices() -> None:
    g = load(MODEL)
    rnd = random.Random(357)
    rows = np.array([rnd.sample(range(52), 7) for _ in range(4000)], dtype=np.int64)
    for wheel in (False, True):
        at, sm = t.tallies(rows)
        cat, high = t.classify(at, sm, wheel)
        o7 = t._odds(np.where(cat == 1, 0, cat), high, t.C5_PAY, g.m.pays["seven"], dev.SEVEN, 8, 2)
        at, sm = t.tallies(rows[:, :5])
        cat, high = t.classify(at, sm, wheel)
        o5 = t._odds(cat, high, t.C5_PAY, g.m.pays["five"], dev.FIVE, 4, 1)
        for k, row in enumerate(rows.tolist()):
            i = dev.seven_index(hand5.best_of_7(row, wheel), 8)
            assert o7[k] == (g.m.pays["seven"][i] if i >= 0 else 0), row
            i = dev.five_index(hand5.value(row[:5], wheel), 4)
            assert o5[k] == (g.m.pays["five"][i] if i >= 0 else 0), row


def test_every_settlement_of_the_device_is_the_certifiers(rep) -> None:
    g = load(MODEL)
    b3, b5 = cards.binom_table(52, 3), cards.binom_table(52, 5)
    o3, o5 = rep.analysis["three"], rep.analysis["five"]
    rnd = random.Random(7)
    for _ in range(2000):
        deal = rnd.sample(range(52), 7)
        o = g.evaluate({"three": 2, "five": 2}, deal)
        i3 = int(cards.colex(np.array([sorted(deal[:3])]), b3)[0])
        i5 = int(cards.colex(np.array([sorted(deal[:5])]), b5)[0])
        assert o.returned == {"three": 2 * (1 + o3[i3]) if o3[i3] else 0, "five": 2 * (1 + o5[i5]) if o5[i5] else 0}


def test_certificate_and_par_sheet(rep) -> None:
    with open("games/certs/three-five-seven-94.json", encoding="utf-8") as fh:
        assert cardtable.cert_mismatches(rep, json.load(fh)) == []
    assert rep.round_award == 643 and rep.round_risk == 3
    raw = read(MODEL)
    blocks = cardtable_sheet.blocks(rep, raw)
    table = next(b for b in blocks if b[0] == "table" and b[1].startswith("seven, optimal: every outcome"))
    assert 1 + sum(Fraction(r[3]) * (Fraction(r[1]) - Fraction(r[0])) for r in table[3]) == rep.wagers["seven"].optimal.rtp
    assert sum(Fraction(r[3]) for r in table[3]) == 1
    assert cardtable_sheet.cert_check(rep) == []
