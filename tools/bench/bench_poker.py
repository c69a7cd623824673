"""Video poker: the host solver's seconds per pay table (wall and CPU), against a numpy reference
measured in the same run (sorting 2,598,960 int64, the size of the solver's hand arrays); device
figures under the MicroPython unix port: ms per deal (shuffle), draw, evaluation and auto-hold
suggestion, and the heap one hand allocates.
"""
from __future__ import annotations

import glob
import json
import os
import subprocess
import time

import numpy as np

from tools.bench import LCG_SOURCE, cli
from tools.certify.poker_report import certify_poker

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MPY = os.path.join(ROOT, ".venv", "bin", "micropython")
MP_SCRIPT = """
import gc, sys, time
from games.poker import load
from games.poker_hand import award
""" + LCG_SOURCE + """g = load(sys.argv[1]); gen = G(); n = int(sys.argv[2]); bet = g.bets[-1]
gc.collect()
a0 = gc.mem_alloc()
deck = g.shuffle(gen); h = g.suggest(deck[:5]); o = g.evaluate(bet, list(deck) + [h])
heap = gc.mem_alloc() - a0
decks = []
t = time.ticks_us()
for _ in range(n): decks.append(g.shuffle(gen))
deal = time.ticks_diff(time.ticks_us(), t) / n
t = time.ticks_us()
for d in decks: g.draw(d, 0b10101)
draw = time.ticks_diff(time.ticks_us(), t) / n
t = time.ticks_us()
for d in decks: award(g.m, d[:5])
ev = time.ticks_diff(time.ticks_us(), t) / n
t = time.ticks_us()
for d in decks: g.suggest(d[:5])
sug = time.ticks_diff(time.ticks_us(), t) / n
print(deal, draw, ev, sug, heap)
"""


def poker_models() -> list[str]:
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "games", "models", "*.json"))):
        with open(path, encoding="utf-8") as fh:
            if json.load(fh).get("format") == "jeton-poker/1":
                out.append(path)
    return out


def _reference() -> float:
    x = np.random.default_rng(1).integers(0, 1 << 52, 2598960)
    t = time.perf_counter()
    for _ in range(5):
        np.sort(x)
    return (time.perf_counter() - t) / 5


def _device(rel: str, n: int = 200) -> list[float] | None:
    if not os.path.exists(MPY):
        return None
    env = dict(os.environ, MICROPYPATH=".frozen:" + ROOT)
    script = os.path.join(ROOT, "var", "bench_poker_mp.py")
    os.makedirs(os.path.dirname(script), exist_ok=True)
    with open(script, "w") as fh:
        fh.write(MP_SCRIPT)
    r = subprocess.run([MPY, "-X", "heapsize=128K", script, rel, str(n)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=600)
    return [float(x) for x in r.stdout.split()] if r.returncode == 0 else None


def main() -> None:
    ref = _reference()
    print(f"reference: numpy sort of 2,598,960 int64 in {ref * 1000:.0f} ms")
    print(f"{'model':18} {'solve s':>7} {'CPU s':>6} {'x ref':>6} {'deal ms':>8} {'draw ms':>8} {'eval ms':>8} "
          f"{'hold ms':>8} {'heap/hand':>9}")
    solves = []
    for path in poker_models():
        with open(path, encoding="utf-8") as fh:
            raw = json.load(fh)
        rep = certify_poker(raw)
        solves.append((rep["seconds"], rep["cpu_seconds"], rep["seconds"] / ref))
        dev = _device(os.path.relpath(path, ROOT))
        d = ["-"] * 5 if dev is None else ["%.2f" % (v / 1000) for v in dev[:4]] + ["%d B" % dev[4]]
        print(f"{raw['id']:18} {rep['seconds']:7.2f} {rep['cpu_seconds']:6.2f} {rep['seconds'] / ref:6.0f} "
              f"{d[0]:>8} {d[1]:>8} {d[2]:>8} {d[3]:>8} {d[4]:>9}")
    print("device: MicroPython unix port, 128K heap; hold = the built-in strategy's suggestion (32 holds)")
    if solves:
        w, c, x = (max(t[i] for t in solves) for i in range(3))
        print(f"solver, slowest of {len(solves)} pay tables: {w:.2f} s wall, {c:.2f} s CPU, {x:.0f} x ref "
              f"(target <= 5 s wall: {'met' if w <= 5 else 'NOT met'}); load average {os.getloadavg()[0]:.1f} "
              f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    cli(__doc__, "python -m tools.bench.bench_poker")
    main()
