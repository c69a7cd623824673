"""Boston Poker's exact certification (tools/certify/boston.py) against the published Bonus table,
direct counts and the device's settlements.

Published: the Bonus on the first three cards at 40/30/6/4/1 (the by-law's s. 67.59) has a house
edge of 2.3 %, 7.3 % with a flush at 3 to 1 (Mark Pilarski, "Poker, Beantown style", Casino City
Times, 29 July 2005). The main game is certified from the by-law's own rules (docs/games.md); no
published house edge for its ante table is quoted here.
"""
from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest

from games import boston as dev
from games.cardtable_games import load
from games.model_json import read
from tools.certify import cards, cardtable
from tools.par import certified

MODEL = "games/models/boston-93.json"


@pytest.fixture(scope="module")
def rep() -> cardtable.Report:
    return certified(cardtable.certify, read(MODEL))  # once for this code (the release's PAR sheet asks too)


def test_bonus_as_published(rep) -> None:
    assert round(float(1 - rep.wagers["bonus"].optimal.rtp) * 100, 1) == 2.3
    m = copy.deepcopy(read(MODEL))
    m["wagers"]["bonus"]["pays"]["flush"] = 3
    g = dev.BostonGame(m)
    h3 = cards.subsets(52, 3).astype(np.int64)
    from games import hand3
    back = sum(1 + [40, 30, 6, 3, 1][dev._BONUS[hand3.category(hand3.value([int(c) for c in h]))]]
               if dev._BONUS[hand3.category(hand3.value([int(c) for c in h]))] >= 0 else 0 for h in h3)
    assert round((1 - back / 22100) * 100, 1) == 7.3 and g.m.pays["bonus"][3] == 3


def test_the_second_bet_is_always_worth_it(rep) -> None:
    an = rep.analysis
    assert an["play"].all() and an["auto"].all()
    assert rep.strategy["optimal strategy"] == "the second bet on 22100 of the 22,100 first hands, folding 0"


def test_dealer_counts_against_a_direct_count(rep) -> None:
    an = rep.analysis
    hands = an["hands"]
    strength, cat = cards.strength5(hands)
    s = cards.dense(strength)
    m = cards.masks(hands)
    rnd = random.Random(63)
    for i in rnd.sample(range(len(hands)), 40):
        d = s[(m & m[i]) == 0]
        assert (int((d < s[i]).sum()), int((d == s[i]).sum())) == (int(an["win"][i]), int(an["tie"][i]))


def test_every_settlement_of_the_device_is_the_certifiers(rep) -> None:
    an = rep.analysis
    g = load(MODEL)
    index = {tuple(h): i for i, h in enumerate(an["hands"].tolist())}
    strength, cat = cards.strength5(an["hands"])
    s = cards.dense(strength)
    rnd = random.Random(5)
    for _ in range(3000):
        deal = rnd.sample(range(52), 10)
        p = tuple(sorted(deal[i] for i in dev.PLAYER))
        d = tuple(sorted(deal[i] for i in dev.DEALER))
        ip, idd = index[p], index[d]
        what = "win" if s[ip] > s[idd] else "tie" if s[ip] == s[idd] else "lose"
        o = g.evaluate({"ante": 1}, deal + [dev.PLAY])
        assert o.award == an["back"][what] + an["odds"][ip], (deal, o.to_dict())


def test_certificate_is_the_shipped_one(rep) -> None:
    with open("games/certs/boston-93.json", encoding="utf-8") as fh:
        assert cardtable.cert_mismatches(rep, json.load(fh)) == []
    assert rep.round_award == 1050 and rep.round_risk == 6
