"""jeton-reels/2 certification (multiplier wilds, both-ways pays): tools/certify/both_ends.py against the
window enumeration (tools/certify/enumerate.py) and the brute force (tools/certify/brute.py) on small
models, as ratios measured in the same run, and the seconds of the large 5x3 games of issue 28
(target: under 10 s for 64-stop strips), or their refusal by name.

The models are made here from a seed (random strips over 8 paying symbols, a wild, a x2 wild and a
scatter; 20 lines), so the figures mean the same on every run.
"""
from __future__ import annotations

import os
import random
import time

from games.model import Model, ModelError
from tools.bench import cli
from tools.certify import brute, certify_model
from tools.certify import enumerate as enum

LINES20 = [[1] * 5, [0] * 5, [2] * 5, [0, 1, 2, 1, 0], [2, 1, 0, 1, 2], [0, 0, 1, 0, 0], [2, 2, 1, 2, 2],
           [1, 2, 2, 2, 1], [1, 0, 0, 0, 1], [1, 0, 1, 0, 1], [1, 2, 1, 2, 1], [0, 1, 0, 1, 0], [2, 1, 2, 1, 2],
           [1, 1, 0, 1, 1], [1, 1, 2, 1, 1], [0, 1, 1, 1, 0], [2, 1, 1, 1, 2], [0, 2, 0, 2, 0], [2, 0, 2, 0, 2],
           [0, 2, 2, 2, 0]]


def model(stops: int, both_ways: bool, multiplier: bool, rows: int = 3, lines: int = 20, seed: int = 1) -> dict:
    """A 5-reel jeton-reels/2 game of `stops`-stop strips."""
    r = random.Random(seed)
    syms = ["A", "B", "C", "D", "E", "F", "G", "H", "W", "X", "S"]
    reels = [{"strip": [r.choice(syms[:8] * 3 + ["W", "X", "S"]) for _ in range(stops)]} for _ in range(5)]
    pays = [{"name": g, "symbols": [g], "pays": {"3": 5 * (i + 1), "4": 20 * (i + 1), "5": 100 * (i + 1)}}
            for i, g in enumerate(syms[:8])]
    pays.append({"name": "WILD", "symbols": ["W"], "pays": {"5": 1000}})
    lines_ = [[min(x, rows - 1) for x in line] for line in LINES20[:lines]]
    raw = {"format": "jeton-reels/2", "id": "bench-%d" % stops, "name": {"fr": "x", "en": "x"}, "symbols": syms,
           "wild": "W", "scatter": "S", "rows": rows, "lines": lines_, "bets": [len(lines_)], "reels": reels,
           "pays": pays, "scatter_pays": {"3": 5, "4": 20, "5": 100}, "both_ways": both_ways}
    if multiplier:
        raw["wilds"] = {"X": 2}
    return raw


def _seconds(fn, *args) -> float:
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


def _enumerate_all(raw: dict) -> None:
    m = Model(raw)
    for bi in range(len(m.bets)):
        enum._enumerate(m, m.base, bi)


def _brute_all(raw: dict) -> None:
    for bi in range(len(raw["bets"])):
        brute.figures(raw, bi)


def main() -> None:
    certify_model(model(4, True, True, rows=1, lines=1), 1)  # imports (numpy) out of the first figure
    print(f"{'small model':34} {'both_ends s':>11} {'enumerate s':>11} {'brute s':>8} {'x enum':>7} {'x brute':>8}")
    for stops, rows, lines, both, mult in ((6, 1, 1, True, True), (7, 1, 1, True, True), (6, 3, 5, True, True),
                                            (12, 3, 20, True, True)):
        raw = model(stops, both, mult, rows=rows, lines=lines)
        b = _seconds(certify_model, raw, 1)
        e = _seconds(_enumerate_all, raw)
        br = _seconds(_brute_all, raw) if stops ** 5 <= 20_000 else None
        name = f"5x{rows} {lines} lines {stops} stops{' both ways' if both else ''}{' x2' if mult else ''}"
        brs = "-" if br is None else "%.3f" % br
        ratio = "-" if br is None else "%.1f" % (br / b)
        print(f"{name:34} {b:11.3f} {e:11.3f} {brs:>8} {e / b:7.1f} {ratio:>8}")
    print(f"{'5x3, 20 lines (issue 28)':34} {'certify s':>11}  target < 10 s")
    for stops, both, mult in ((64, False, True), (18, True, True), (32, True, False), (64, True, False)):
        raw = model(stops, both, mult)
        name = f"{stops} stops{' both ways' if both else ''}{' x2 wild' if mult else ''}"
        t = time.perf_counter()
        try:
            certify_model(raw, jobs=1)
            s = time.perf_counter() - t
            print(f"{name:34} {s:11.2f}  {'met' if s < 10 else 'NOT met'}")
        except ModelError as e:
            print(f"{name:34} refused after {time.perf_counter() - t:.1f} s: {e}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    cli(__doc__, "python -m tools.bench.bench_reels2")
    main()
