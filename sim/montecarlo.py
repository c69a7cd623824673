"""Monte-Carlo confirmation of a reel game's exact return.

    python -m sim.montecarlo MODEL --games N [--bet B] [--workers K] [--seed S] [--json]

Plays N games with the device engine (games.reels, the code that runs on the cabinet) across worker
processes, then reports the observed return with its confidence interval against the exact figure
(games.exact). Exit status 1 flags a disagreement beyond the 99.9 % interval.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import random
import sys
from fractions import Fraction

from tqdm import tqdm

from games import exact, load

Z = {"95": 1.959963984540054, "99.9": 3.2905267314919255}
CHUNK = 2000


class SeededGen:
    """randbits(k) from a seeded PRNG: reproducible runs (outcome RNG on a cabinet is rng/)."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def randbits(self, k: int) -> int:
        return self.r.getrandbits(k) if k else 0


def _work(args: tuple[str, int, int, int]) -> tuple[int, int, int, int]:
    path, bet, n, seed = args
    game = load(path)
    gen = SeededGen(seed)
    s = s2 = hits = 0
    for _ in range(n):
        a = game.play(gen, bet).award
        s += a
        s2 += a * a
        hits += a > 0
    return n, s, s2, hits


def run(path: str, games: int, bet: int | None = None, workers: int | None = None, seed: int = 1,
        progress: bool = True) -> dict:
    game = load(path)
    bet = bet or game.bets[0]
    want = Fraction(*exact.rtp(game.m, game.m.bet_index(bet)))
    jobs = []
    left, i = games, 0
    while left > 0:
        n = min(CHUNK, left)
        jobs.append((path, bet, n, seed * 1_000_003 + i))
        left -= n
        i += 1
    n = s = s2 = hits = 0
    with mp.Pool(workers) as pool, tqdm(total=games, unit="game", disable=not progress, file=sys.stderr) as bar:
        for r in pool.imap_unordered(_work, jobs):
            n += r[0]
            s += r[1]
            s2 += r[2]
            hits += r[3]
            bar.update(r[0])
    mean = s / n
    var = max(s2 / n - mean * mean, 0.0) * n / max(n - 1, 1)
    se = math.sqrt(var / n) / bet
    obs = mean / bet
    out = {"model": path, "id": game.id, "bet": bet, "games": n, "exact_rtp": float(want),
           "observed_rtp": obs, "std_error": se, "hit_frequency": hits / n}
    for k, z in Z.items():
        out["ci_" + k] = [obs - z * se, obs + z * se]
    out["agrees"] = abs(obs - float(want)) <= Z["99.9"] * se
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m sim.montecarlo")
    ap.add_argument("model")
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--bet", type=int)
    ap.add_argument("--workers", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    r = run(a.model, a.games, a.bet, a.workers, a.seed)
    if a.json:
        print(json.dumps(r, indent=1))
    else:
        print("%s bet %d: %d games, observed %.4f %% (95 %% CI %.4f–%.4f %%), exact %.4f %%, hit 1 in %.3f: %s"
              % (r["id"], r["bet"], r["games"], r["observed_rtp"] * 100, r["ci_95"][0] * 100, r["ci_95"][1] * 100,
                 r["exact_rtp"] * 100, 1 / r["hit_frequency"] if r["hit_frequency"] else float("inf"),
                 "agrees" if r["agrees"] else "DISAGREES beyond the 99.9 % interval"))
    return 0 if r["agrees"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
