"""Monte-Carlo: the vectorised evaluator's games/s (sim.montecarlo, every core) against the device
engine's (games/reels.py under CPython, one process) measured in the same run on the same model.

Also per CPU-second, the device engine's and the workers': on a loaded machine the wall-clock
figures fall with the share of the cores each run gets, the CPU figures do not ("x cores": per
CPU-second times the cores). Target (issue 14): 10^6 games/s on 2 cores.
"""
from __future__ import annotations

import glob
import os
import time

from games import load
from games.model import read
from sim import montecarlo
from sim.mc_stream import GameGen, Streams, key_for
from tools.bench import cli
from tools.progress import bar

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGET = 1_000_000
GAMES = 2_000_000  # per model, vectorised
DEVICE_GAMES = 2000  # per model, device engine (the reference)


def device_rate(path: str, n: int = DEVICE_GAMES) -> tuple[float, float]:
    """Device engine (games/sec wall clock, games per CPU-second) on the same kind of draws
    (rng.below / rng.weighted over a GameGen)."""
    g = load(path)
    st = Streams(key_for(1), 0, n)
    bet = g.bets[0]
    t, c = time.perf_counter(), time.process_time()
    for i in range(n):
        g.play(GameGen(st, i), bet)
    return n / (time.perf_counter() - t), n / (time.process_time() - c)


def main() -> None:
    # every shipped reel game, jeton-reels/1 and /2 (keno and video poker are not reel games)
    paths = sorted(p for p in glob.glob(os.path.join(ROOT, "games", "models", "*.json"))
                   if read(p).get("format", "jeton-reels/1").startswith("jeton-reels/"))
    cores = os.cpu_count() or 1
    print(f"{'model':16} {'device g/s':>10} {'vector g/s':>11} {'x device':>9} "
          f"{'device g/CPU-s':>14} {'vector g/CPU-s':>14} {'x device':>9} {'x cores':>10}  RTP")
    worst = worst_cpu = None
    for path in bar(paths, desc="bench montecarlo", unit="model"):
        ref, ref_cpu = device_rate(path)
        r = montecarlo.run(path, GAMES, workers=cores, seed=1, progress=False)
        wall = r["games_per_s"]
        cpu = r["games"] / r["cpu_seconds"]
        worst = wall if worst is None else min(worst, wall)
        worst_cpu = cpu * cores if worst_cpu is None else min(worst_cpu, cpu * cores)
        print(f"{os.path.basename(path)[:-5]:16} {ref:10.0f} {wall:11.0f} {wall / ref:9.0f} "
              f"{ref_cpu:14.0f} {cpu:14.0f} {cpu / ref_cpu:9.0f} {cpu * cores:10.0f}  "
              f"{'agrees' if r['agrees'] else 'DISAGREES'}")
    print(f"slowest model: {worst:.0f} games/s wall clock with {cores} workers "
          f"({'meets' if worst >= TARGET else 'below'} the 10^6 target on this run); "
          f"{worst_cpu:.0f} games/s for {cores} cores fully given to it "
          f"({'meets' if worst_cpu >= TARGET else 'below'} the target)")


if __name__ == "__main__":
    cli(__doc__, "python -m tools.bench.bench_montecarlo")
    main()
