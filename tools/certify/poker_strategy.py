"""Compile a video poker model's built-in strategy ("auto-hold") from the exact analysis.

    python -m tools.certify.poker_strategy MODEL [--write]

The strategy is an ordered list of hold patterns (games/poker_hold.py); the device holds, of the 32
holds of a deal, the one whose pattern is listed first. Compiled for the highest bet level:
1. the optimal hold of every deal (tools/certify/poker.py) names the patterns worth listing (a
   pattern never optimal is left out: it is never held);
2. they start ordered by the mean expected value of their holds over the deals where they are
   optimal;
3. passes of single moves (a pattern moved up to 8 places) keep every change that raises the strategy's return
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

PASSES = 4
WINDOW = 8  # places a pattern may move in one step


class _Eval:
    """The strategy's value over all deals (floating point, weights x expected value), updated
    incrementally: moving one pattern in the list changes the choice only in the deals where that
    pattern is one of the 32 holds (the others keep their relative order)."""

    def __init__(self, a: Analysis, num: np.ndarray, order: list[int]):
        self.ev = num / np.array(a.den, dtype=np.float64)  # (deals, 32)
        self.w = a.weight.astype(np.float64)
        self.ids = a.pattern_ids
        self.npat = len(a.pattern_names)
        self.holders: dict[int, np.ndarray] = {}
        present = np.zeros((len(num), self.npat), dtype=bool)
        present[np.arange(len(num))[:, None], self.ids] = True
        for p in order:
            self.holders[p] = np.nonzero(present[:, p])[0]
        self.set(order)

    def _choose(self, rows: np.ndarray, pos: np.ndarray, size: int) -> np.ndarray:
        score = pos[self.ids[rows]] * 32 + np.arange(32)
        best = score.argmin(axis=1)
        best = np.where(score[np.arange(len(rows)), best] >= size * 32, 0, best)
        return self.ev[rows, best]

    def set(self, order: list[int]) -> float:
        self.order = list(order)
        self.pos = np.full(self.npat, len(order), dtype=np.int64)
        self.pos[np.array(order, dtype=np.int64)] = np.arange(len(order))
        rows = np.arange(len(self.w))
        self.val = self._choose(rows, self.pos, len(order))
        self.total = float(self.w @ self.val)
        return self.total

    def try_move(self, item: int, new_order: list[int]) -> tuple[float, np.ndarray]:
        pos = np.full(self.npat, len(new_order), dtype=np.int64)
        pos[np.array(new_order, dtype=np.int64)] = np.arange(len(new_order))
        rows = self.holders[item]
        v = self._choose(rows, pos, len(new_order))
        return self.total + float(self.w[rows] @ (v - self.val[rows])), v


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
    e = _Eval(a, num, order)
    cur = e.total
    if log:
        log("optimal %.6f, initial order %.6f (%d patterns)" % (float(w @ ev), cur, len(order)))
    for _ in range(passes):
        improved = False
        for item in list(order):
            i = order.index(item)
            rest = order[:i] + order[i + 1:]
            best_j, best_v = i, cur
            for j in range(max(0, i - WINDOW), min(len(order), i + WINDOW + 1)):
                if j == i:
                    continue
                v, _ = e.try_move(item, rest[:j] + [item] + rest[j:])
                if v > best_v + 1e-9:
                    best_j, best_v = j, v
            if best_j != i:
                order = rest[:best_j] + [item] + rest[best_j:]
                cur = e.set(order)
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
