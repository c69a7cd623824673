"""Red Dog's exact certification (tools/certify/red_dog.py) against the published figures and every
ordered deal of one deck evaluated here.

Published: the Wizard of Odds ("Red Dog"), six decks: the chance that the third card falls inside a
spread k is 24 k / 310 (0.077419 for a spread of 1 ... 0.851613 for 11) and raising is favourable
from a spread of 7, "regardless of the number of decks"; house edges 3.155 % (one deck), 3.077 %
(two), 2.88 % (four), 2.80 % (six), 2.75 % (eight) (oddsshark.com, "Red Dog odds", and the
online-betting-guide's 3.155 % for one deck).
"""
from __future__ import annotations

import copy
import itertools
import json
from fractions import Fraction

import pytest

from games.cardtable_games import load
from games.model_json import read
from tools.certify import cardtable, red_dog

MODEL = "games/models/red-dog-97.json"


def model(decks: int) -> dict:
    m = copy.deepcopy(read(MODEL))
    m["decks"] = decks
    return m


@pytest.mark.parametrize("decks,edge", [(1, 3.155), (2, 3.077), (4, 2.88), (6, 2.80), (8, 2.75)])
def test_house_edges_as_published(decks: int, edge: float) -> None:
    rep = cardtable.certify(model(decks))
    w = rep.wagers["wager"]
    assert round(float(1 - w.optimal.rtp) * 100, len(str(edge).split(".")[1])) == edge
    assert rep.strategy["optimal strategy"] == "raise on a spread of 7 or more"
    assert w.builtin.counts == w.optimal.counts


def test_six_deck_spreads_as_published() -> None:
    published = {1: 0.077419, 2: 0.154839, 3: 0.232258, 4: 0.309677, 5: 0.387097, 6: 0.464516,
                 7: 0.541935, 8: 0.619355, 9: 0.696774, 10: 0.774194, 11: 0.851613}
    g = load(MODEL)
    rows = red_dog.analyse(g)["rows"]
    for k, p in published.items():
        i, j, kk, opt, auto, no, yes = next(r for r in rows if r[2] == k)
        win = Fraction(no[0][2], no[0][2] + no[1][2])
        assert win == Fraction(24 * k, 310) and round(float(win), 6) == p
        assert opt == (k >= 7)


def test_one_deck_by_every_ordered_deal() -> None:
    # 52 x 51 x 50 deals, each settled by the device's evaluate() with the built-in decision
    g = load(MODEL.replace("red-dog-97", "red-dog-97"))
    m = model(1)
    from games.red_dog import RedDogGame

    g = RedDogGame(m)
    tally: dict[tuple[int, int], int] = {}
    for deal in itertools.permutations(range(52), 3):
        stake = {"wager": 1}
        made = [] if g.pending(stake, list(deal), []) is None else [g.auto(stake, list(deal), [])]
        o = g.evaluate(stake, list(deal) + made)
        tally[(o.bet, o.award)] = tally.get((o.bet, o.award), 0) + 1
    rep = cardtable.certify(m)
    want = {(int(w), int(r)): c for (w, r), c in rep.wagers["wager"].builtin.counts.items()}
    assert tally == want


def test_certificate_is_the_shipped_one() -> None:
    rep = cardtable.certify(read(MODEL))
    with open("games/certs/red-dog-97.json", encoding="utf-8") as fh:
        assert cardtable.cert_mismatches(rep, json.load(fh)) == []
