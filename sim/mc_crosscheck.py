"""Spin for spin: the vectorised evaluator (sim/mc_eval.py) against the device engine
(games/reels.py ReelGame.play) on the same per-game streams (sim/mc_stream.py).

    python -m sim.mc_crosscheck MODEL [--spins N] [--bet B] [--seed S]

The device engine takes its draws itself, through rng.below / rng.weighted, from a GameGen over the
game's stream, so the draws, their scaling and the evaluation are all compared: base stops, bytes
read, free spins played, base award, total award, and where the model has a progressive the fixed
credits it replaces (firmware/progressive.py hit()). Each worker compiles the model once; where
the reels have few stop combinations (3-reel games) the device evaluates each distinct list of
draws once (_init).
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys

from firmware.progressive import Progressive
from games.model import read
from games.reels import ReelGame
from sim.mc_eval import VectorGame
from sim.mc_stream import EXT, PREFIX, GameGen, Streams, key_for
from tools.progress import bar

CHUNK = 10_000  # games per job: the bar moves every few seconds
CACHE_CYCLE = 1 << 17  # base stop combinations up to which the device's evaluations are kept

_w: dict = {}  # the worker's compiled games: {"vg", "dev", "prog", "key"}


def crosscheck(path: str, bet: int, spins: int, seed: int = 1, first: int = 0, prefix: int = PREFIX,
               ext: int = EXT, progress: bool | None = None, workers: int | None = None) -> dict:
    """{"games", "mismatches": [(game, field, device value, vectorised value), ...] (at most 20)}.
    The games are split in ranges checked by `workers` processes (default: every core), each of
    which compiles the model once (both engines) for all its ranges."""
    workers = workers or os.cpu_count() or 1
    _init(path, bet)  # here first: a model either engine refuses raises, where a pool's initializer
    # that raises is started again and again (multiprocessing replaces a worker that died)
    step = max(1, min(CHUNK, -(-spins // workers)))
    jobs = [(seed, a, min(step, first + spins - a), prefix, ext) for a in range(first, first + spins, step)]
    bad: list = []
    with mp.Pool(min(len(jobs), workers), _init, (path, bet)) as pool, \
            bar(total=spins, desc="cross-check", unit="game", enabled=progress) as b:
        for n, mism in pool.imap(_check_range, jobs):
            bad.extend(mism)
            b.update(n)
    return {"model": path, "bet": bet, "games": spins, "mismatches": bad[:20]}


def _init(path: str, bet: int) -> None:
    _w.clear()
    dev = ReelGame(read(path))
    _w.update(vg=VectorGame(read(path), bet), dev=dev, bet=bet,
              prog=Progressive(dev.m.progressive, "") if dev.m.progressive else None)
    if dev.m.base.cycle <= CACHE_CYCLE:
        # a 3-reel game shows the same stops again and again (10^5 games of sept-royal: 10 500
        # distinct): the device evaluates each list of draws once. Its play() still takes every
        # game's draws through rng.below / rng.weighted; evaluate() is a function of (bet, draws)
        # (games/reels.py), so the Outcome it returned for the same draws is the one it would return
        seen: dict = {}
        evaluate = dev.evaluate

        def cached(bet: int, draws: list):
            k = (bet, *draws)
            o = seen.get(k)
            if o is None:
                o = seen[k] = evaluate(bet, draws)
            return o

        dev.evaluate = cached


def _check_range(job: tuple) -> tuple[int, list]:
    seed, first, spins, prefix, ext = job
    vg, dev, prog, bet = _w["vg"], _w["dev"], _w["prog"], _w["bet"]
    st = Streams(key_for(seed), first, spins, prefix, ext)
    r = vg.play(st)
    stops, pos, nfree, base, award = (r[k].tolist() for k in ("stops", "pos", "spins", "base", "award"))
    rprog = r["prog"].tolist() if r["prog"] is not None else None
    bad = []
    for i in range(spins):
        gen = GameGen(st, i)
        o = dev.play(gen, bet)
        got = {"stops": stops[i], "bytes": pos[i], "free spins": nfree[i], "base award": base[i], "award": award[i]}
        want = {"stops": o.stops, "bytes": gen.pos, "free spins": len(o.free),
                "base award": sum(w[2] for w in o.wins), "award": o.award}
        if prog is not None:
            got["progressive"] = rprog[i] if rprog is not None else 0
            want["progressive"] = prog.hit(o)
        for k in want:
            if want[k] != got[k] and len(bad) < 20:
                bad.append((first + i, k, want[k], got[k]))
    return spins, bad


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m sim.mc_crosscheck")
    ap.add_argument("model")
    ap.add_argument("--spins", type=int, default=100_000)
    ap.add_argument("--bet", type=int)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    bet = a.bet or read(a.model)["bets"][-1]
    r = crosscheck(a.model, bet, a.spins, a.seed)
    for m in r["mismatches"]:
        print("game %d: %s device %r, vectorised %r" % m)
    print("%s bet %d: %d games, %s" % (a.model, bet, r["games"],
                                       "every award equal" if not r["mismatches"] else "MISMATCHES"))
    return 1 if r["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
