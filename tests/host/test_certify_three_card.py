"""3 Card Poker's exact certification (tools/certify/three_card.py) against published figures and
against a count written here from the by-law alone.

Published (house edge per credit of the wager staked):
- ante and play with the ante bonus 5-4-1 (the by-law's s. 67.31): 3.37 % of the ante, 2.01 % of the
  total action (John Grochowski, "The Three Card Poker problem", Casino City Times, 28 December 2017);
- pair or plus 40-30-6-4-1 (the by-law's s. 67.32, the game's original table): 2.32 %; 40-30-6-3-1:
  7.28 % (the same, and "Three Card Poker and Pair Plus", 8 July 2021); 40-25-6-4-1: 3.5 %;
  35-25-6-4-1: 4.6 % ("By Any Other Name", Casino City Times);
- the optimal strategy plays Q-6-4 or better (the Wizard of Odds, Three Card Poker): derived here,
  not assumed: the certifier reports the weakest hand its exact expectations play.
"""
from __future__ import annotations

import copy
import itertools
import random
from fractions import Fraction

import pytest

from games.cardtable_games import load
from games.model_json import read
from tools.certify import cardtable, three_card

MODEL = "games/models/three-card-96.json"


@pytest.fixture(scope="module")
def rep() -> cardtable.Report:
    return cardtable.certify(read(MODEL))


def variant(pp: dict) -> dict:
    m = copy.deepcopy(read(MODEL))
    m["wagers"]["pair_plus"]["pays"] = pp
    return m


def test_ante_and_play_as_published(rep) -> None:
    ante = rep.wagers["ante"]
    assert ante.optimal.rtp == Fraction(19671831, 20358520)
    assert round(float(1 - ante.optimal.rtp) * 100, 2) == 3.37
    assert round(float(1 - ante.optimal.rtp_wagered) * 100, 2) == 2.01
    assert ante.builtin.counts == ante.optimal.counts  # Q-6-4 is the optimum: the same law
    assert ante.optimal.total == 22100 * 18424


def test_optimal_strategy_is_derived_as_queen_six_four(rep) -> None:
    assert rep.strategy["optimal strategy"] == "play Q-6-4 or better"
    assert rep.strategy["built-in strategy differs from the optimal on"] == "0 of 22100 hands"


@pytest.mark.parametrize("pays,edge", [
    ({"straight_flush": 40, "three_of_a_kind": 30, "straight": 6, "flush": 4, "pair": 1}, 2.32),
    ({"straight_flush": 40, "three_of_a_kind": 30, "straight": 6, "flush": 3, "pair": 1}, 7.28),
    ({"straight_flush": 40, "three_of_a_kind": 25, "straight": 6, "flush": 4, "pair": 1}, 3.5),
    ({"straight_flush": 35, "three_of_a_kind": 25, "straight": 6, "flush": 4, "pair": 1}, 4.6)])
def test_pair_plus_pay_tables_as_published(pays: dict, edge: float) -> None:
    pp = cardtable.certify(variant(pays)).wagers["pair_plus"].optimal
    assert round(float(1 - pp.rtp) * 100, len(str(edge).split(".")[1])) == edge


def _value(cs) -> tuple:
    # written here from s. 67.23-67.24 alone: (category, ranks to compare), higher is better
    r = sorted((c >> 2 for c in cs), reverse=True)
    flush = len({c & 3 for c in cs}) == 1
    straight = (r[0] - r[2] == 2 and len(set(r)) == 3) or r == [12, 1, 0]
    top = 1 if r == [12, 1, 0] else r[0]
    if straight and flush:
        return (5, top)
    if r[0] == r[2]:
        return (4, r[0])
    if straight:
        return (3, top)
    if flush:
        return (2, *r)
    if r[0] == r[1] or r[1] == r[2]:
        pair = r[1]
        return (1, pair, r[2] if r[0] == r[1] else r[0])
    return (0, *r)


def test_dealer_counts_of_sampled_hands_by_direct_enumeration() -> None:
    an = three_card.analyse(load(MODEL))
    rnd = random.Random(2026)
    queen = (0, 10, 1, 0)  # Q-3-2: the least hand that opens
    for i in rnd.sample(range(22100), 40) + [int(an["hands"].tolist().index([0, 4, 8]))]:
        p = [int(c) for c in an["hands"][i]]
        pv = _value(p)
        got = [0, 0, 0, 0]
        for d in itertools.combinations([c for c in range(52) if c not in p], 3):
            dv = _value(d)
            k = 0 if dv < queen else 1 if pv > dv else 2 if pv == dv else 3
            got[k] += 1
        assert got == an["counts"][i].tolist(), (p, got)


def test_every_settlement_of_the_device_is_the_certifiers() -> None:
    # the device's evaluate() on random deals pays what the certifier's law counts for that outcome
    g = load(MODEL)
    an = three_card.analyse(g)
    rnd = random.Random(7)
    index = {tuple(h): i for i, h in enumerate(an["hands"].tolist())}
    for _ in range(3000):
        deal = rnd.sample(range(52), 6)
        i = index[tuple(sorted(deal[:3]))]
        pv, dv = _value(deal[:3]), _value(deal[3:])
        k = 0 if dv < (0, 10, 1, 0) else 1 if pv > dv else 2 if pv == dv else 3
        o = g.evaluate({"ante": 1}, deal + [1])
        assert o.award == an["back"][k] + an["bonus"][i], (deal, o.to_dict())
        assert g.auto({"ante": 1}, deal, []) == int(an["auto"][i])


def test_certificate_is_the_shipped_one(rep) -> None:
    import json

    with open("games/certs/three-card-96.json", encoding="utf-8") as fh:
        assert cardtable.cert_mismatches(rep, json.load(fh)) == []
    assert rep.round_award == 50 and rep.round_risk == 3
