"""Let It Ride's exact certification (tools/certify/let_it_ride.py) against published figures and
direct enumeration.

Published (the Wizard of Odds, "Let it Ride - FAQ"): the house edge is 3.506 % with the pays of the
by-law's s. 67.8 (1000/200/50/11/8/5/3/2/1), 3.737 % when the royal flush pays 500 to 1; with four
cards a low pair (nines or less) is worth -45.83 % of a wager (its 48 completions: two trips at
3 to 1, six two pairs at 2 to 1, 40 losers). The by-law's supplemental wager (s. 67.9: $20,000 /
2,000 / 200 / 100 / 50 / 25 for $1) returns 45.45 % and is refused by name (tests of the CLI:
test_certify_cardtable.py).
"""
from __future__ import annotations

import copy
import itertools
import json
import random
from fractions import Fraction

import numpy as np
import pytest

from games import hand5
from games.let_it_ride import LetItRideGame, pay_index
from games.model_json import read
from tools.certify import cards, cardtable
from tools.par import certified

MODEL = "games/models/let-it-ride-98.json"


@pytest.fixture(scope="module")
def rep() -> cardtable.Report:
    return certified(cardtable.certify, read(MODEL))  # once for this code (the release's PAR sheet asks too)


def test_house_edge_as_published(rep) -> None:
    ride = rep.wagers["ride"]
    assert round(float(ride.optimal.house_edge_per_unit) * 100, 3) == 3.506  # per one of the three wagers
    assert ride.optimal.rtp == 1 - ride.optimal.house_edge_per_unit / 3  # per credit placed: the three
    assert ride.builtin.counts == ride.optimal.counts
    assert ride.optimal.total == 22100 * 49 * 48
    m = copy.deepcopy(read(MODEL))
    m["wagers"]["ride"]["pays"]["royal_flush"] = 500
    assert round(float(cardtable.certify(m).wagers["ride"].optimal.house_edge_per_unit) * 100, 3) == 3.737


def test_expectations_by_direct_enumeration(rep) -> None:
    an = rep.analysis
    pays = read(MODEL)["wagers"]["ride"]["pays"]
    g = LetItRideGame(read(MODEL))
    table = [pays.get(n, 0) for n in ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
                                      "straight", "three_of_a_kind", "two_pair", "pair")]

    def net(five):  # one riding wager, per credit: the device's evaluator and the model's table
        i = pay_index(hand5.value(list(five)), g.m.extra["ride"]["min_pair"])
        return table[i] if i >= 0 and table[i] else -1

    b3, b4 = cards.binom_table(52, 3), cards.binom_table(52, 4)
    rnd = random.Random(35)
    for _ in range(4):
        three = sorted(rnd.sample(range(52), 3))
        want = sum(net(three + list(two)) for two in itertools.combinations([c for c in range(52) if c not in three], 2))
        assert want == an["ev3"][cards.colex(np.array([three]), b3)[0]]
    for _ in range(40):
        four = sorted(rnd.sample(range(52), 4))
        want = sum(net(four + [c]) for c in range(52) if c not in four)
        assert want == an["ev4"][cards.colex(np.array([four]), b4)[0]]
    low_pair = sorted([7 * 4, 7 * 4 + 1, 3 * 4 + 2, 0 * 4 + 3])  # 9c 9d 5h 2s
    ev = Fraction(int(an["ev4"][cards.colex(np.array([low_pair]), b4)[0]]), 48)
    assert ev == Fraction(2 * 3 + 6 * 2 - 40, 48) and round(float(ev) * 100, 2) == -45.83


def test_optimal_rules_and_the_devices_rules(rep) -> None:
    an = rep.analysis
    assert int(an["ride3"].sum()) == 1608 and int((an["ev3"] == 0).sum()) == 0
    assert int(an["ride4"].sum()) == 40865 and int((an["ev4"] == 0).sum()) == 2268
    assert (an["auto3"] == an["ride3"]).all() and (an["auto4"] == an["ride4"]).all()


def test_certificate_is_the_shipped_one(rep) -> None:
    with open("games/certs/let-it-ride-98.json", encoding="utf-8") as fh:
        assert cardtable.cert_mismatches(rep, json.load(fh)) == []
    assert rep.round_award == 3003 and rep.round_risk == 3
