"""Caribbean Stud's exact certification (tools/certify/caribbean.py) against the published totals,
digit for digit, and against direct enumeration.

The Wizard of Odds ("Caribbean Stud Poker", strategy statistics over all 19,933,230,517,200 deals of
the player's five cards, the dealer's up card and his four others, pays 100/50/20/7/5/4/3/2/1/1 as
the by-law's s. 67.20) publishes the total loss in antes: 1,041,372,912,372 under the optimal
strategy (house edge 5.224 %, element of risk 2.555 %) and 1,041,417,758,724 under its "three rules
of thumb" (5.225 %, 2.554 %), the cabinet's built-in strategy (games/caribbean.py ak_raise). The
certifier must give both, exactly. It takes 20-45 s on this 2-core host: one run for the module.
"""
from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import numpy as np
import pytest

from games import hand5
from games.cardtable_games import load
from games.caribbean import QUALIFY
from games.model_json import read
from tools.certify import cardtable
from tools.par import certified

MODEL = "games/models/caribbean-94.json"
DEALS = 19_933_230_517_200


@pytest.fixture(scope="module")
def run() -> tuple[cardtable.Report, dict]:
    rep = certified(cardtable.certify, read(MODEL))  # once for this code (the release's PAR sheet asks too)
    return rep, rep.analysis


def test_total_loss_as_published(run) -> None:
    rep, an = run
    ante = rep.wagers["ante"]
    assert ante.optimal.total == ante.builtin.total == DEALS
    assert (1 - ante.optimal.rtp) * DEALS == 1_041_372_912_372
    assert (1 - ante.builtin.rtp) * DEALS == 1_041_417_758_724
    assert round(float(1 - ante.optimal.rtp) * 100, 3) == 5.224
    assert round(float(1 - ante.optimal.rtp_wagered) * 100, 3) == 2.555
    assert round(float(1 - ante.builtin.rtp_wagered) * 100, 3) == 2.554
    assert rep.round_award == 204 and rep.round_risk == 3


def test_dealer_counts_by_direct_enumeration(run) -> None:
    rep, an = run
    rnd = random.Random(94)
    for _ in range(3):
        i = rnd.randrange(len(an["reps"]))
        j = rnd.randrange(47)
        p = [int(c) for c in an["players"][i]]
        u = int(an["ups"][i, j])
        pv = hand5.value(p)
        got = [0, 0, 0, 0]
        rest = [c for c in range(52) if c not in p and c != u]
        for four in itertools.combinations(rest, 4):
            dv = hand5.value(list(four) + [u])
            got[0 if dv < QUALIFY else 1 if pv > dv else 2 if pv == dv else 3] += 1
        assert got == an["counts"][i, j].tolist(), (p, u)


def test_the_devices_decisions_are_the_certified_ones(run) -> None:
    # the built-in figure counts the device's own decisions: auto() on sampled (hand, up card) pairs,
    # in every suit relabelling, decides as the certifier's table
    rep, an = run
    g = load(MODEL)
    rnd = random.Random(11)
    ak = np.flatnonzero((an["category"] == 0) & (an["strength"] >= 0))
    picks = [(int(i), rnd.randrange(47)) for i in rnd.sample(range(len(an["reps"])), 300)]
    picks += [(int(i), rnd.randrange(47)) for i in rnd.sample(list(ak), 300)]
    for i, j in picks:
        p = [int(c) for c in an["players"][i]]
        u = int(an["ups"][i, j])
        for perm in rnd.sample(list(itertools.permutations(range(4))), 3):
            mp = [(c & ~3) | perm[c & 3] for c in p]
            mu = (u & ~3) | perm[u & 3]
            filler = [c for c in range(52) if c not in mp and c != mu][:4]
            assert g.auto({"ante": 1}, mp + filler + [mu], []) == int(an["auto"][i, j]), (p, u)


def test_certificate_is_the_shipped_one(run) -> None:
    rep, an = run
    with open("games/certs/caribbean-94.json", encoding="utf-8") as fh:
        assert cardtable.cert_mismatches(rep, json.load(fh)) == []
    assert rep.wagers["ante"].optimal.rtp == 1 - Fraction(1_041_372_912_372, DEALS)
