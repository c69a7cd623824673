"""sim/mc_eval.py line_pays against the device engine (games/reels.py) on every window of small
models built to tie: the same credits and the same win named, as the progressive needs."""
from __future__ import annotations

import itertools

import numpy as np

from games.reels import ReelGame
from sim.mc_eval import line_pays, win_id

SYMS = ["W", "X", "Y", "Z"]


def tie_model(pays: list) -> dict:
    return {"id": "tie", "name": {"fr": "t", "en": "t"}, "rows": 1, "symbols": SYMS, "wild": "W",
            "reels": [{"strip": SYMS} for _ in range(3)], "lines": [[0, 0, 0]], "bets": [1, 2], "pays": pays}


MODELS = [
    # W W X: X runs 3 (10), Y runs 2 (10): the device names "2 Y" (the run that ended first)
    [{"name": "X", "symbols": ["X"], "pays": {"3": 10}}, {"name": "Y", "symbols": ["Y"], "pays": {"2": 10, "3": 20}}],
    # same pays, groups in the other order; and a group of two symbols that ties with both
    [{"name": "Y", "symbols": ["Y"], "pays": {"2": 10, "3": 20}}, {"name": "X", "symbols": ["X"], "pays": {"3": 10}},
     {"name": "ANY", "symbols": ["X", "Y"], "pays": {"3": 10, "2": 4}}],
    # per-bet pays, a pay for 1 (a run of one is a win), "at least n" (3 pays less than 2: keeps 2's)
    [{"name": "Z", "symbols": ["Z"], "pays": {"1": [1, 3], "2": [5, 9], "3": [4, 8]}},
     {"name": "X", "symbols": ["X"], "pays": {"2": 5}}],
]


def test_line_pays_credit_and_name_every_window_as_the_device() -> None:
    for pays in MODELS:
        raw = tie_model(pays)
        dev = ReelGame(raw)
        m = dev.m
        for bi, bet in enumerate(m.bets):
            combos = list(itertools.product(range(len(SYMS)), repeat=3))
            sym = np.array([[m.codes[SYMS[s]] for s in c] for c in combos], dtype=np.int64)
            credits, wid = line_pays(m, bi, sym)
            for c, cr, w in zip(combos, credits, wid):
                o = dev.evaluate(bet, list(c))
                want_cr = sum(x[2] for x in o.wins)
                assert cr == want_cr, (pays, bet, c)
                if o.wins:
                    assert w == win_id(m, o.wins[0][1]), (pays, bet, c, o.wins)
                else:
                    assert w == -1


# jeton-reels/2: the pays of the shipped Tricolore and the test models of
# tests/host/test_certify_reels2.py, on a one-row window with every symbol on every reel (stop =
# symbol code), so every line the game can show is evaluated once
def _every_window(raw: dict) -> dict:
    out = {k: v for k, v in raw.items() if k not in ("free_spins", "progressive", "scatter_pays")}
    syms = sorted(raw["symbols"]) if isinstance(raw["symbols"], dict) else list(raw["symbols"])
    nr = len(raw["reels"])
    return dict(out, rows=1, lines=[[0] * nr], bets=list(range(1, len(raw["bets"]) + 1)),
                reels=[{"strip": syms} for _ in range(nr)])


# four reels both ways, a wild that is a member of a group on one reel, wilds x2 and x3 together
FOUR = {"format": "jeton-reels/2", "id": "t-four", "name": {"fr": "t", "en": "t"}, "rows": 1, "bets": [1, 2],
        "lines": [[0, 0, 0, 0]], "symbols": ["A", "B", "C", "X2", "X3"], "wilds": {"X2": 2, "X3": 3},
        "both_ways": True, "reels": [{"strip": ["A"]}] * 4,
        "pays": [{"name": "AB", "reels": [["A"], ["B"], ["A", "X2"], ["B"]], "pays": {"2": 2, "3": [5, 7], "4": 20}},
                 {"name": "ANY", "symbols": ["A", "B", "C"], "pays": {"2": 1, "3": 3, "4": 9}},
                 {"name": "C", "symbols": ["C"], "pays": {"1": 1, "4": 30}}]}


def _v2_models() -> list:
    import json
    import os

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = [FOUR, dict(FOUR, both_ways=False), dict(FOUR, wilds={"X2": 1, "X3": 1}, both_ways=False)]
    for p in ("games/models/tricolore-88.json", "games/models/tricolore-92.json",
              "tests/fixtures/games/mini2.json", "tests/fixtures/games/mini2-plain.json"):
        with open(os.path.join(root, p)) as f:
            out.append(json.load(f))
    return out


def test_v2_line_pays_credit_every_window_as_the_device() -> None:
    from sim.mc_eval import VectorGame

    general = 0
    for raw in _v2_models():
        raw = _every_window(raw)
        dev = ReelGame(raw)
        m = dev.m
        general += m.general
        nsym, nr = len(m.symbols), m.nreels
        combos = list(itertools.product(range(nsym), repeat=nr))
        for bet in m.bets:
            vg = VectorGame(raw, bet)
            assert vg.lut is not None
            idx = np.array([sum(c * nsym ** i for i, c in enumerate(combo)) for combo in combos])
            got = vg.lut[idx]
            for combo, g in zip(combos, got):
                o = dev.evaluate(bet, list(combo))
                assert g == sum(w[2] for w in o.wins if w[0] >= 0), (raw["id"], bet, [m.symbols[c] for c in combo], o.wins)
    assert general == 5  # FOUR both ways and with multipliers, Tricolore x2, mini2
