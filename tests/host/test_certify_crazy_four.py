"""Crazy Four Poker's exact certification (tools/certify/crazy_four.py) against the published
figures and direct enumeration.

Published (the Wizard of Odds, "Crazy 4 Poker", analysis by Stanley Ko for Shufflemaster): with the
game's own Super Bonus table (four aces 200, four of a kind 30, straight flush 15, three of a kind 2,
flush 3 to 2, straight 1) and optimal play the element of risk is 1.09 %; the house edge on the ante
is 3.42 % (the same analysis, as commonly quoted). The by-law's s. 67.85 pays the flush 3 to 1: the
same game then returns 103.20 % per credit of ante, the player's edge. Both are certified here; the
shipped model is the by-law's, as it reads (docs/games.md).
"""
from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pytest

from games import hand4
from games.cardtable_games import load
from games.crazy_four import QUALIFY
from games.model_json import read
from tools.certify import cardtable, crazy_four
from tools.par import certified

MODEL = "games/models/crazy-four-92.json"


@pytest.fixture(scope="module")
def rep() -> cardtable.Report:
    return certified(cardtable.certify, read(MODEL))  # once for this code (the release's PAR sheet asks too)


def test_published_figures_with_the_games_own_table(rep) -> None:
    an = crazy_four.analyse(load(MODEL), [200, 30, 15, 2, Fraction(3, 2), 1], rep.analysis["base"])
    lw = crazy_four.ante_law(an, an["optimal"])
    assert round(float(lw.house_edge_per_unit) * 100, 2) == 3.42  # per credit of ante
    assert lw.rtp == 1 - lw.house_edge_per_unit / 2  # per credit placed: the ante and the Super Bonus
    assert round(float(1 - lw.rtp_wagered) * 100, 2) == 1.09


def test_the_by_laws_table_gives_the_player_the_edge(rep) -> None:
    ante = rep.wagers["ante"]
    assert round(float(1 - ante.optimal.house_edge_per_unit) * 100, 2) == 103.20
    assert ante.builtin.rtp < ante.optimal.rtp  # K-Q-8-4 differs on a few hands
    assert rep.strategy["built-in strategy differs from the optimal on"] == "1440 of 2,598,960 hands"
    assert round(float(rep.wagers["queens_up"].optimal.rtp) * 100, 4) == 92.4256


def test_dealer_counts_by_direct_enumeration(rep) -> None:
    an = rep.analysis
    rnd = random.Random(67)
    for i in rnd.sample(range(len(an["reps"])), 2):
        p = [int(c) for c in an["players"][i]]
        pv = hand4.best(p)
        got = [0, 0, 0, 0]
        for d in itertools.combinations([c for c in range(52) if c not in p], 5):
            dv = hand4.best(list(d))
            got[0 if dv < QUALIFY else 1 if pv > dv else 2 if pv == dv else 3] += 1
        assert got == an["counts"][i].tolist(), p


def test_the_devices_decisions_are_the_certified_ones(rep) -> None:
    an = rep.analysis
    g = load(MODEL)
    rnd = random.Random(4)
    for i in rnd.sample(range(len(an["reps"])), 400):
        p = [int(c) for c in an["players"][i]]
        for perm in rnd.sample(list(itertools.permutations(range(4))), 2):
            mp = [(c & ~3) | perm[c & 3] for c in p]
            rnd.shuffle(mp)
            assert (0, 1, 3)[g.auto({"ante": 1}, mp + [0] * 5, [])] == an["auto"][i]


def test_certificate_is_the_shipped_one(rep) -> None:
    with open("games/certs/crazy-four-92.json", encoding="utf-8") as fh:
        assert cardtable.cert_mismatches(rep, json.load(fh)) == []
    assert rep.round_award == 260 and rep.round_risk == 6
