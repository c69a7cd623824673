"""War's exact certification (tools/certify/war.py) against the published table and a count
written here from the by-law alone.

Published (the Wizard of Odds' Casino War house edges by decks, as reproduced by its companion site
for Macau and by i-online-casinos.com): six decks 2.33 % going to war with the bonus on a tie after
a tie (the by-law's s. 67.39 (3): both wagers paid 1 to 1), 2.88 % without it (the raise alone wins),
3.70 % surrendering every tie, 18.65 % on the tie wager; eight decks 2.34 %, 2.90 %, 3.73 %, 17.83 %.
"""
from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest

from games.model_json import read
from tools.certify import cardtable

MODEL = "games/models/war-97.json"


def model(decks: int, war: dict, tie: bool = True, surrender: bool = False) -> dict:
    m = copy.deepcopy(read(MODEL))
    m["decks"] = decks
    m["wagers"]["war"]["pays"] = war
    if tie:
        m["wagers"]["tie"] = {"name": {"fr": "Égalité", "en": "Tie"}, "pays": 10, "section": "s. 67.40"}
    return m


def by_hand(decks: int, win: int, tie: int) -> tuple[Fraction, Fraction, Fraction]:
    # written from s. 67.38-67.40: the probabilities of the first two cards, then of the war cards
    n, N = 4 * decks, 52 * decks
    p_tie = Fraction(n - 1, N - 1)
    p_win = (1 - p_tie) / 2
    # war cards after a tie of rank r: n - 2 cards of rank r left, n of each other rank, N - 2 in all
    m = N - 2
    same = Fraction((n - 2) * (n - 3) + 12 * n * (n - 1), m * (m - 1))
    w_win = (1 - same) / 2
    war = w_win * win + same * tie - w_win * 2
    edge_war = -(p_win - p_win + p_tie * war)  # the first card's win and loss cancel
    edge_surrender = p_tie / 2
    edge_tie = 1 - p_tie * 11
    return edge_war, edge_surrender, edge_tie


@pytest.mark.parametrize("decks,bonus,plain,surrender,tie", [(6, 2.33, 2.88, 3.70, 18.65), (8, 2.34, 2.90, 3.73, 17.83)])
def test_house_edges_as_published(decks: int, bonus: float, plain: float, surrender: float, tie: float) -> None:
    rep = cardtable.certify(model(decks, {"win": 1, "tie": 2}))
    w = rep.wagers["wager"]
    assert round(float(1 - w.optimal.rtp) * 100, 2) == bonus
    assert rep.strategy["optimal strategy"] == "go to war on a tie"
    assert round(float(1 - Fraction(rep.strategy["surrendering every tie instead"].split()[1])) * 100, 2) == surrender
    assert round(float(1 - rep.wagers["tie"].optimal.rtp) * 100, 2) == tie
    no_bonus = cardtable.certify(model(decks, {"win": 1, "tie": 1})).wagers["wager"]
    assert round(float(1 - no_bonus.optimal.rtp) * 100, 2) == plain
    e_war, e_sur, e_tie = by_hand(decks, 1, 2)
    assert 1 - w.optimal.rtp == e_war and 1 - rep.wagers["tie"].optimal.rtp == e_tie
    assert Fraction(rep.strategy["surrendering every tie instead"].split()[1]) == 1 - e_sur


def test_the_tie_wager_is_refused_by_name() -> None:
    bad = cardtable.below_floor(cardtable.certify(model(6, {"win": 1, "tie": 2})))
    assert bad and all(b.startswith("wager tie (Tie, s. 67.40), bet 2: ") for b in bad)
    assert "81.3505 % is below the 83 % floor" in bad[0]


def test_certificate_is_the_shipped_one() -> None:
    rep = cardtable.certify(read(MODEL))
    with open("games/certs/war-97.json", encoding="utf-8") as fh:
        assert cardtable.cert_mismatches(rep, json.load(fh)) == []
    assert rep.round_award == 4 and rep.round_risk == 2
