"""jeton-reels/2 (per-reel pay groups, multiplier wilds, both-ways pays): the certifier, the brute
force, the device's integer recomputation and the engine agree, and agree with returns worked out
by hand below from docs/game-format.md."""
from __future__ import annotations

import copy
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from games import exact
from games.model import Model, ModelError
from games.reels import ReelGame
from tools.certify import brute, certify_model

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "games"
MODELS = ROOT / "games" / "models"

# 3 reels, 1 row, 1 line, bet 1. X is a wild that doubles where it stands in for a member.
RWB = {"format": "jeton-reels/2", "id": "t-rwb", "name": {"fr": "t", "en": "t"}, "rows": 1, "bets": [1],
       "lines": [[0, 0, 0]], "wilds": {"X": 2}, "symbols": ["R", "W", "B", "X"],
       "reels": [{"strip": ["R", "B", "X"]}, {"strip": ["W", "B", "X"]}, {"strip": ["B", "R", "X"]}],
       "pays": [{"name": "RWB", "reels": [["R"], ["W"], ["B"]], "pays": {"3": 10}},
                {"name": "ANY", "symbols": ["R", "W", "B"], "pays": {"3": 1}}]}


def _load(p: Path) -> dict:
    return json.loads(p.read_text(encoding="utf-8"))


def _all_agree(raw: dict) -> list[Fraction]:
    cert = certify_model(raw)
    m = Model(raw)
    out = []
    for bi, bet in enumerate(raw["bets"]):
        rtp, hit, second = brute.figures(raw, bi)
        f = cert["bets"][bet]
        assert (f.rtp, f.hit, f.second) == (rtp, hit, second), (raw["id"], bet)
        assert Fraction(*exact.rtp(m, bi)) == rtp, (raw["id"], bet)
        out.append(rtp)
    return out


def test_per_reel_group_and_multiplier_wild_worked_by_hand() -> None:
    # 27 equally likely lines. RWB matches when reel 1 is R or X, reel 2 W or X, reel 3 B or X:
    # 8 lines, x wilds among them in C(3, x) ways, paying 10 * 2**x: 10 + 3*20 + 3*40 + 80 = 270.
    # ANY matches every line, paying 2**x: of the 19 other lines 7 have no X, 9 one, 3 two:
    # 7 + 18 + 12 = 37. Return 307/27.
    assert _all_agree(RWB) == [Fraction(307, 27)]


def test_multiplier_wilds_multiply_each_other_and_not_in_their_own_group() -> None:
    raw = copy.deepcopy(RWB)
    raw["symbols"].append("Y")
    raw["wilds"]["Y"] = 3
    raw["reels"][1]["strip"][2] = "Y"  # reel 2: W B Y
    raw["pays"].insert(0, {"name": "WILDS", "reels": [["X"], ["Y"], ["X"]], "pays": {"3": 100}})
    g = ReelGame(raw)
    # X Y X: WILDS pays 100 (they are its members, no multiplier); RWB would pay 10 * 2 * 3 * 2 = 120
    o = g.evaluate(1, [2, 2, 2])
    assert o.award == 120 and o.wins == [(0, "3 RWB", 120)]
    # R Y X: RWB 10 * 3 * 2
    assert g.evaluate(1, [0, 2, 2]).award == 60
    # B Y R: only ANY, 1 * 3
    assert g.evaluate(1, [1, 2, 1]).award == 3
    # every line enumerated here from the rules (a wild multiplies where it stands in for a member)
    total = 0
    for a in ("R", "B", "X"):
        for b in ("W", "B", "Y"):
            for c in ("B", "R", "X"):
                k = (2 if a == "X" else 1) * (3 if b == "Y" else 1) * (2 if c == "X" else 1)
                pay = 10 * k if a in "RX" and b in "WY" and c in "BX" else k
                if (a, b, c) == ("X", "Y", "X"):
                    pay = max(pay, 100)
                total += pay
    # by hand: the 8 RWB lines pay 10 x their multipliers, (1 + 2)(1 + 3)(1 + 2) x 10 = 360 (X Y X
    # pays 120, not WILDS' 100); the other 19 pay their multipliers, (1+1+2)(1+1+3)(1+1+2) - 36 = 44
    assert total == 404
    assert _all_agree(raw) == [Fraction(total, 27)]


def test_both_ways_worked_by_hand() -> None:
    raw = {"format": "jeton-reels/2", "id": "t-both", "name": {"fr": "t", "en": "t"}, "rows": 1, "bets": [1],
           "lines": [[0, 0, 0]], "symbols": ["A", "B"], "both_ways": True,
           "reels": [{"strip": ["A", "B"]}] * 3, "pays": [{"name": "A", "symbols": ["A"], "pays": {"2": 1, "3": 5}}]}
    # left to right: AAA 5, AAB 1; right to left: BAA 1 (AAA spans the line: paid once). 7 of 8
    assert _all_agree(raw) == [Fraction(7, 8)]
    g = ReelGame(raw)
    assert g.evaluate(1, [0, 0, 0]).wins == [(0, "3 A", 5)]
    assert g.evaluate(1, [1, 0, 0]).wins == [(0, "2 A (R-L)", 1)]
    one_way = dict(raw, both_ways=False)
    assert _all_agree(one_way) == [Fraction(6, 8)]


def test_version_1_refuses_the_keys_of_version_2() -> None:
    # issue 23.10: a version-2 key in a version-1 model was ignored, so the model was certified as
    # another (plain) game than its author wrote; now it is refused, naming the key and the format
    raw = copy.deepcopy(RWB)
    raw["format"] = "jeton-reels/1"
    del raw["pays"][0]  # version 1 has no per-reel groups
    del raw["wilds"]
    raw["wild"] = "X"
    assert certify_model(raw)["bets"][1].rtp == Fraction(27, 27)  # the plain model is fine
    for key, value in (("wilds", {"X": 5}), ("both_ways", True)):
        with pytest.raises(ModelError, match='jeton-reels/1: key "%s" is a key of jeton-reels/2' % key):
            Model(dict(raw, **{key: value}))
    per_reel = copy.deepcopy(RWB)
    per_reel["format"] = "jeton-reels/1"
    del per_reel["wilds"]
    with pytest.raises(ModelError, match=r'pays\[0\]: key "reels" is a key of jeton-reels/2'):
        Model(per_reel)


@pytest.mark.parametrize("name", ["mini2.json", "mini2-plain.json"])
def test_fixture_models_all_four_agree(name: str) -> None:
    # mini2: both ways, x2/x3 wilds, per-reel groups, scatter, free spins with retrigger and cap,
    # a coin-dependent top award; mini2-plain: per-reel groups only (the reel-by-reel DP path)
    raw = _load(FIX / name)
    assert Model(raw).general == (name == "mini2.json")
    rtps = _all_agree(raw)
    # mini2's WILDS pay is a list per bet (not proportional): its two bets differ
    assert (rtps[0] != rtps[1]) == (name == "mini2.json")


class _Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def randbits(self, k: int) -> int:
        return self.r.getrandbits(k)


@pytest.mark.parametrize("path", [FIX / "mini2.json", MODELS / "tricolore-88.json", MODELS / "tricolore-92.json"])
def test_engine_awards_equal_the_brute_force(path: Path) -> None:
    raw = _load(path)
    g = ReelGame(raw)
    gen = _Gen(7)
    for bet in raw["bets"]:
        for _ in range(400):
            o = g.play(gen, bet)
            assert o.award == brute.replay(raw, bet, o.draws), (raw["id"], o.draws)


@pytest.mark.parametrize("ident", ["tricolore-88", "tricolore-92"])
def test_shipped_tricolore_certified_equals_brute_force(ident: str) -> None:
    raw = _load(MODELS / (ident + ".json"))
    m = Model(raw)
    assert m.v2 and m.general and max(m.wmult) == 3
    assert any("reels" in p for p in raw["pays"])
    rtps = _all_agree(raw)
    shipped = _load(ROOT / "games" / "certs" / (ident + ".json"))
    assert [Fraction(shipped["rtp"][str(b)]) for b in raw["bets"]] == rtps
    assert min(rtps) >= Fraction(83, 100)


def _bad(**change) -> dict:
    raw = copy.deepcopy(RWB)
    raw.update(change)
    return raw


@pytest.mark.parametrize("raw, words", [
    (_bad(wilds={"Q": 2}), "wilds: bad symbol"),
    (_bad(wilds={"X": 0}), "multiplier of X must be a positive integer"),
    (_bad(wilds=["X"]), "wilds must be an object"),
    (_bad(both_ways="yes"), "both_ways must be true or false"),
    (_bad(pays=[{"name": "RWB", "reels": [["R"], ["W"]], "pays": {"3": 10}}]), "one member list per reel"),
    (_bad(pays=[{"name": "RWB", "reels": [["R"], [], ["B"]], "pays": {"3": 10}}]), "reel 2 has no member"),
    (_bad(pays=[{"name": "RWB", "reels": [["R"], ["W"], ["B"]], "symbols": ["R"], "pays": {"3": 10}}]),
     "symbols or reels, not both"),
    (_bad(progressive={"pay": "3 RWB", "bet": 1, "rate": "1/100"}), "not with multiplier wilds"),
    (_bad(format="jeton-reels/4"), "unknown format"),  # version 3 (true ways) exists: test_certify_ways.py
])
def test_invalid_version_2_models_are_refused_by_name(raw: dict, words: str) -> None:
    with pytest.raises(ModelError, match=words):
        Model(raw)
