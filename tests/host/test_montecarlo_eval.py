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
