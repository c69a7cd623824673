# Reel engine on fixed draws: the same outcomes under CPython and MicroPython, equal to the awards
# the host's independent brute-force evaluator computed (tests/fixtures/games/vectors.json, checked
# against tools/certify/brute.py by tests/host/test_certify_vectors.py).
import json

import games
from devtest import raises


class Counter:
    """randbits(k) from a 31-bit LCG: the same sequence on CPython and MicroPython."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def randbits(self, k):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 7) & ((1 << k) - 1)


def _vectors():
    with open("tests/fixtures/games/vectors.json") as f:
        return json.load(f)


def test_fixed_draws_match_independent_awards():
    cache = {}
    n = feats = 0
    for v in _vectors():
        g = cache.get(v["model"])
        if g is None:
            cache.clear()  # one model in memory at a time: the heap is the firmware's
            g = cache[v["model"]] = games.load(v["model"])
        o = g.play(Counter(v["seed"]), v["bet"])
        assert o.draws == v["draws"], (v["model"], v["seed"])
        assert o.award == v["award"], (v["model"], v["seed"], o.award, v["award"])
        assert o.triggered == v["triggered"]
        r = g.evaluate(v["bet"], v["draws"])  # recall: replay from the recorded draws
        assert r.award == o.award and r.stops == o.stops and r.window == o.window and r.wins == o.wins
        feats += len(o.free) > 0
        n += 1
    assert n >= 80 and feats >= 12


def test_outcome_parts_add_up():
    g = games.load("games/models/aurore-93.json")
    for seed in range(1, 60):
        o = g.play(Counter(seed), 40)
        base = sum(c for _, _, c in o.wins)
        assert o.award == base + sum(a for _, _, a in o.free)
        assert len(o.draws) == 5 * (1 + len(o.free))
        assert len(o.window) == 3 and len(o.window[0]) == 5
        d = o.to_dict()
        assert d["award"] == o.award and d["draws"] == o.draws


def test_replay_rejects_bad_draws():
    g = games.load("games/models/sept-royal-88.json")
    with raises(ValueError):
        g.evaluate(1, [0, 0])
    with raises(ValueError):
        g.evaluate(1, [0, 0, 0, 0])
    with raises(ValueError):
        g.evaluate(1, [0, 0, 99])
    with raises(ValueError):
        g.play(Counter(1), 7)  # bet not offered


def test_describe_french_and_english():
    g = games.load("games/models/aurore-89.json")
    fr = g.describe("fr")
    en = g.describe("en")
    assert fr[0] == "Aurore boréale" and en[0] == "Northern Lights"
    assert "20, 40, 100" in fr[1] and "20 lignes" in fr[1] and "20 lines" in en[1]
    assert any("tours gratuits" in x for x in fr) and any("free spins" in x for x in en)
    assert any("2500" in x for x in fr)  # 5 wilds pay 2500 per coin at the lowest bet


def test_real_generator_plays_every_shipped_model():
    import os
    import rng

    gen = rng.open_generator(rng.open_source("emulated"))
    for name in sorted(os.listdir("games/models")):
        g = games.load("games/models/" + name)
        for bet in g.bets:
            o = g.play(gen, bet)
            assert g.evaluate(bet, o.draws).award == o.award
