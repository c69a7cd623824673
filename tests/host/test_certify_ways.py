"""jeton-reels/3, true ways (issue 28 item 2): the worked example of docs/game-format.md whose return
is worked out by hand there; the certifier's figures (games/exact.py's products of per-reel sums,
tools/certify/ways.py's reel-by-reel distribution) against the brute force of tools/certify/brute.py,
which walks every stop combination and every path through the window one by one; the engine's award
against the brute force's on every stop combination; and the model reader's refusals, by name."""
from __future__ import annotations

import copy
import itertools
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from games import exact
from games.model import Model, ModelError
from games.reels import ReelGame
from tools.certify import brute, certify_model
from tools.certify import ways as ways_cert

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests/fixtures/games/ways-mini.json"


def _mini() -> dict:
    return json.loads(MINI.read_text())


def test_worked_example_by_hand() -> None:
    # docs/game-format.md, version 3, worked by hand there: 27 stop combinations; over the cycle
    # A pays 32 ways of 3 x 10 + 12 ways of 2 x 1, K 64 ways of 3 x 2: 460 coins, 540 credits bet
    cert = certify_model(_mini(), jobs=1)
    for bet in (20, 40):
        assert cert["bets"][bet].rtp == Fraction(23, 27)
    m = Model(_mini())
    assert ways_cert.entries(m, m.base, 0) == {(0, 3): 32, (0, 2): 12, (1, 3): 64}
    # every wild pair alone on reels 1 and 2 paying as A: 16 ways of 2 A, not 12 (464 / 540)
    raw = _mini()
    raw["ways"]["wild_alone"] = True
    assert certify_model(raw, jobs=1)["bets"][20].rtp == Fraction(116, 135)


def test_windows_worked_by_hand() -> None:
    # docs/game-format.md, version 3: three windows of the worked example at 1 coin (bet 20)
    g = ReelGame(_mini())
    for stops, award in (([1, 1, 0], 42), ([1, 1, 2], 7), ([2, 2, 2], 16)):
        assert g.evaluate(20, stops).award == award, stops
        assert g.evaluate(40, stops).award == 2 * award
    names = sorted(w[1] for w in g.evaluate(20, [1, 1, 2]).wins)
    assert names == ["2 A", "3 K"]
    assert all(w[0] == -2 for w in g.evaluate(20, [1, 1, 2]).wins)


def _random_model(seed: int) -> dict:
    """A small jeton-reels/3 model: 3 or 4 reels, 1 to 3 rows, a wild, often a multiplier wild and
    a per-reel group, a wilds group, a scatter with free spins; wild_alone either way."""
    r = random.Random(seed)
    nr, rows = r.randint(3, 4), r.randint(1, 3)
    syms = ["A", "B", "C", "W", "X", "S"]
    wilds = {"X": r.choice([2, 3])} if r.random() < 0.6 else None
    reels = []
    for _ in range(nr):
        strip = [r.choice(syms) for _ in range(r.randint(3, 5))]
        reels.append({"strip": strip, "weights": [r.randint(1, 3) for _ in strip]} if r.random() < 0.5
                     else {"strip": strip})
    pays = []
    for g in "ABC":
        table = {str(n): r.randint(1, 9) * n for n in range(1 if r.random() < 0.2 else 2, nr + 1) if r.random() < 0.8}
        pays.append({"name": g, "symbols": [g], "pays": table or {str(nr): 20}})
    pays.append({"name": "AB", "reels": [r.sample(["A", "B", "C"], 2) for _ in range(nr)], "pays": {str(nr - 1): 3}})
    pays.append({"name": "WILDS", "symbols": ["W"] + (["X"] if wilds and r.random() < 0.5 else []),
                 "pays": {str(nr): 40}})
    cost = r.choice([1, 5, 25])
    raw = {"format": "jeton-reels/3", "id": "ways-rand-%d" % seed, "name": {"fr": "x", "en": "x"},
           "symbols": syms, "wild": "W", "scatter": "S", "rows": rows,
           "ways": {"cost": cost, "wild_alone": r.random() < 0.5}, "bets": [cost, 3 * cost], "reels": reels,
           "pays": pays, "scatter_pays": {"2": 2, "3": 5}}
    if r.random() < 0.5:
        raw["free_spins"] = {"award": {"2": 2}, "retrigger": {"2": 1}, "cap": 4, "multiplier": 2}
    if wilds:
        raw["wilds"] = wilds
    return raw


@pytest.mark.parametrize("seed", range(12))
def test_certified_figures_equal_the_brute_force(seed: int) -> None:
    raw = _random_model(seed)
    cert = certify_model(raw, jobs=1)  # raises if games/exact.py's return differs from the programme's
    for bi, bet in enumerate(raw["bets"]):
        f = cert["bets"][bet]
        assert (f.rtp, f.hit, f.second) == brute.figures(raw, bi)


@pytest.mark.parametrize("seed", range(12))
def test_engine_awards_equal_the_brute_force_on_every_stop(seed: int) -> None:
    raw = _random_model(seed)
    raw.pop("free_spins", None)  # one spin: every stop combination (the feature is replayed below)
    g = ReelGame(copy.deepcopy(raw))
    for bi, bet in enumerate(raw["bets"]):
        for stops in itertools.product(*[range(len(x["strip"])) for x in raw["reels"]]):
            assert g.evaluate(bet, list(stops)).award == brute.replay(raw, bet, list(stops)), stops


def test_play_and_recall_with_free_spins() -> None:
    from tests.device.fakes_rng import Lcg

    features = 0
    for seed in range(12):
        raw = _random_model(seed)
        if "free_spins" not in raw:
            continue
        g = ReelGame(copy.deepcopy(raw))
        for s in range(1, 200):
            o = g.play(Lcg(s), raw["bets"][-1])
            assert g.evaluate(o.bet, o.draws).award == o.award == brute.replay(raw, o.bet, o.draws)
            features += len(o.free) > 0
    assert features >= 20


def test_device_return_is_the_certified_one_and_needs_no_enumeration() -> None:
    # a 5x4 1024-ways game of 64-stop strips (17 billion stop combinations): the device's
    # recomputation sums products of per-reel sums, so it visits stops x rows per reel and group
    r = random.Random(7)
    syms = ["A", "K", "Q", "J", "T", "W"]
    raw = {"format": "jeton-reels/3", "id": "ways-wide-90", "name": {"fr": "x", "en": "x"}, "symbols": syms,
           "wild": "W", "rows": 4, "ways": {"cost": 50}, "bets": [50, 100],
           "reels": [{"strip": [r.choice(syms) for _ in range(64)]} for _ in range(5)],
           "pays": [{"name": s, "symbols": [s], "pays": {"3": 1, "4": 2, "5": 5}} for s in syms[:5]]}
    m = Model(raw)
    work = [0]
    exact.line_sum(m, m.base, 0, work)
    assert work[0] == 5 * 5 * 64 * 4
    # the same game on 3 reels of 6 stops is small enough for the brute force
    small = dict(raw, reels=[{"strip": x["strip"][:6]} for x in raw["reels"][:3]])
    small["pays"] = [{"name": s, "symbols": [s], "pays": {"2": 1, "3": 3}} for s in syms[:5]]
    num, den = exact.rtp(Model(small), 0)
    assert Fraction(num, den) == brute.figures(small, 0)[0]


@pytest.mark.parametrize("change, words", [
    (lambda m: m.__setitem__("lines", [[0, 0, 0]]), 'jeton-reels/3: unknown key "lines"'),
    (lambda m: m.__setitem__("both_ways", True), 'jeton-reels/3: unknown key "both_ways"'),
    (lambda m: m.__setitem__("progressive", {}), 'jeton-reels/3: unknown key "progressive"'),
    (lambda m: m.pop("ways"), "ways must be an object"),
    (lambda m: m.__setitem__("ways", {"cost": 0}), "ways: cost must be a positive integer"),
    (lambda m: m.__setitem__("ways", {"cost": 20, "cascade": 1}), 'ways: unknown key "cascade"'),
    (lambda m: m.__setitem__("ways", {"cost": 20, "wild_alone": 0}), "ways: wild_alone must be true or false"),
    (lambda m: m.__setitem__("bets", [20, 30]), "bet 30 is not a whole number of coins of 20 credits (ways: cost)"),
    (lambda m: m.__setitem__("format", "jeton-reels/2"),
     'jeton-reels/2: key "ways" is a key of jeton-reels/3 (the model says jeton-reels/2)'),
    (lambda m: m.__setitem__("format", "jeton-reels/4"), 'unknown format "jeton-reels/4"'),
])
def test_bad_ways_models_are_refused_by_name(change, words: str) -> None:
    raw = _mini()
    change(raw)
    with pytest.raises(ModelError) as e:
        Model(raw)
    assert words in str(e.value)


def test_a_model_past_the_programme_bounds_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ways_cert, "MAX_STATES", 3)
    raw = _random_model(3)
    with pytest.raises(ModelError) as e:
        certify_model(raw, jobs=1)
    assert "tools/certify/ways.py MAX_STATES" in str(e.value)


def test_par_sheet_states_the_ways() -> None:
    # tools.par drew pay lines from the model's first line and failed (IndexError) on a ways model
    from tools.par import build

    cert, blocks = build(str(MINI), None)
    text = [b[1] for b in blocks if b[0] == "p"]
    assert ("8 ways (2 rows on 3 reels), 20 credits per coin; every winning way of every group pays, left to right "
            "from reel 1; wilds alone pay only as themselves.") in text
    assert not [b for b in blocks if b[0] == "h2" and b[1] == "Pay lines"]
