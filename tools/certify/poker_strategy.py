"""Compile a video poker model's built-in strategy ("auto-hold") from the exact analysis.

    python -m tools.certify.poker_strategy MODEL [--write]

The strategy is an ordered list of hold patterns (games/poker_hold.py); the device holds, of the 32
holds of a deal, the one whose pattern is listed first. Compiled for the highest bet level:
1. the optimal hold of every deal (tools/certify/poker.py) names the patterns worth listing (a
   pattern never optimal is left out: it is never held);
2. they start ordered by the mean expected value of their holds over the deals where they are
   optimal;
3. passes of adjacent swaps and single moves keep every change that raises the strategy's return
   (evaluated over all deals, in floating point: only the ordering is chosen here; the certifier
   computes the chosen strategy's return exactly).
--write stores the list in the model's "strategy" key (so the math hash covers it).
"""
from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from games.poker_model import PokerModel
from tools.certify.poker import Analysis, _reduced

PASSES = 2


class _Eval:
    def __init__(self, a: Analysis, num: np.ndarray):
        den = np.array(a.den, dtype=np.float64)
        self.ev = num / den  # (deals, 32)
        self.w = a.weight.astype(np.float64)
        self.ids = a.pattern_ids
        self.npat = len(a.pattern_names)
        self.rows = np.arange(len(num))

    def value(self, order: list[int]) -> float:
        pos = np.full(self.npat, len(order), dtype=np.int64)
        pos[np.array(order, dtype=np.int64)] = np.arange(len(order))
        score = pos[self.ids] * 32 + np.arange(32)
        best = score.argmin(axis=1)
        best = np.where(score[self.rows, best] >= len(order) * 32, 0, best)
        return float(self.w @ self.ev[self.rows, best])


def compile_strategy(raw: dict, passes: int = PASSES, log=None) -> list[str]:
    m = PokerModel(raw)
    a = Analysis(m)
    num = a.ev_numerators(list(_reduced(m.pays[-1])))
    best = a.best_holds(num)
    rows = np.arange(len(num))
    opt = a.pattern_ids[rows, best]
    ev = num[rows, best] / np.array(a.den, dtype=np.float64)[best]
    cand = np.unique(opt)
    w = a.weight.astype(np.float64)
    mean = {int(p): float((ev[opt == p] * w[opt == p]).sum() / w[opt == p].sum()) for p in cand}
    order = sorted(mean, key=lambda p: (-mean[p], a.pattern_names[p]))
    e = _Eval(a, num)
    cur = e.value(order)
    opt_val = float(w @ ev)
    if log:
        log("optimal %.6f, initial order %.6f (%d patterns)" % (opt_val, cur, len(order)))
    for _ in range(passes):
        improved = False
        for i in range(len(order)):
            item = order[i]
            rest = order[:i] + order[i + 1:]
            best_j, best_v = i, cur
            for j in range(max(0, i - 3), min(len(order), i + 4)):
                if j == i:
                    continue
                v = e.value(rest[:j] + [item] + rest[j:])
                if v > best_v + 1e-9:
                    best_j, best_v = j, v
            if best_j != i:
                order = rest[:best_j] + [item] + rest[best_j:]
                cur = best_v
                improved = True
        if log:
            log("pass: %.6f" % cur)
        if not improved:
            break
    return [a.pattern_names[p] for p in order]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.certify.poker_strategy", description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("--write", action="store_true", help="store the strategy in the model file")
    a = ap.parse_args(argv)
    with open(a.model, encoding="utf-8") as fh:
        raw = json.load(fh)
    raw.pop("strategy", None)
    st = compile_strategy(raw, log=lambda s: print(s, file=sys.stderr))
    if a.write:
        raw["strategy"] = st
        with open(a.model, "w", encoding="utf-8") as fh:
            json.dump(raw, fh, indent=1, ensure_ascii=False)
            fh.write("\n")
    else:
        print(json.dumps(st, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
