"""Keno (issue 13): certification seconds per shipped keno model (host), and the device engine's
milliseconds per quick pick, per draw (20 of 80 and the award) and per evaluation (a recalled game
replayed), with the heap one game allocates, on the Jeton firmware image (frozen code, 32-bit words,
a board's heap) and under CPython; and a whole game on the real generator (HMAC_DRBG: about 32
randbits calls a game, rejections included, against 3 for a 3-reel game).

    python -m tools.bench.bench_keno
"""
from __future__ import annotations

import glob
import json
import os
import time
from pathlib import Path

from games.keno import load
from sim.harness import BOARD_HEAP
from tools import firmware as fwbuild
from tools.bench import ROOT, run_script
from tools.bench.bench_games import _reference as _additions
from tools.certify import keno
from tools.certify.core import load_model

GAMES = 2000
# the same loop on both runtimes; a 15-bit LCG stands in for the DRBG (its own cost and heap are
# bench_rng's): its products stay small ints on a 32-bit board, so what is counted is the engine's
SCRIPT = """
import gc, time
from games.keno import load
class G:
    def __init__(self): self.x = 12345
    def randbits(self, k):
        self.x = (self.x * 25173 + 13849) & 0x7FFF
        return self.x >> (15 - k)
try:
    ticks, diff = time.ticks_us, time.ticks_diff
except AttributeError:
    ticks, diff = (lambda: int(time.perf_counter() * 1e6)), (lambda a, b: a - b)
alloc = getattr(gc, "mem_alloc", lambda: 0)  # MicroPython only
g = load(%(model)r); gen = G(); n = %(n)d; bet = g.bets[0]
card = g.quick_pick(gen, 10)
t = ticks()
for _ in range(n): g.quick_pick(gen, 10)
quick = diff(ticks(), t) / n / 1000
t = ticks()
for _ in range(n): o = g.play(gen, bet, card)
draw = diff(ticks(), t) / n / 1000
t = ticks()
for _ in range(n): g.evaluate(bet, o.draws)
ev = diff(ticks(), t) / n / 1000
gc.collect(); gc.disable()
a = alloc(); o = g.play(gen, bet, card); per_game = alloc() - a
gc.enable(); gc.collect()
import rng
drbg = rng.open_generator(rng.open_source("emulated"))  # the real generator: HMAC_DRBG, health-tested source
t = ticks()
for _ in range(n // 10): g.play(drbg, bet, card)
game = diff(ticks(), t) / (n // 10) / 1000
print("BENCH " + repr({"quick_ms": quick, "draw_ms": draw, "evaluate_ms": ev, "heap_per_game": per_game,
                       "game_drbg_ms": game}).replace("'", '"'))
"""


def device(model: str, n: int = GAMES) -> dict | None:
    """The figures on the firmware image: frozen code only, the board's heap."""
    return run_script(Path(fwbuild.FIRMWARE), SCRIPT % {"model": model, "n": n}, BOARD_HEAP, ".frozen", timeout=600)


def cpython(model: str, n: int = GAMES) -> dict:
    ns: dict = {}
    out: list[str] = []
    exec(compile(SCRIPT % {"model": model, "n": n}, "bench_keno", "exec"), {"print": out.append, **ns})
    return json.loads(out[-1].split("BENCH ", 1)[1])


def main(argv: list[str] | None = None) -> int:
    paths = [p for p in sorted(glob.glob(os.path.join(ROOT, "games", "models", "*.json")))
             if keno.is_keno(load_model(p))]
    ref = 1e6 / _additions()  # seconds of 1M CPython integer additions, bench_games's reference
    print(f"reference: 1M int additions (CPython) in {ref * 1000:.0f} ms; x ref = certify s / reference")
    print(f"{'model':20} {'certify s':>9} {'x ref':>6} | firmware image ({BOARD_HEAP} heap): {'quick ms':>8} {'draw ms':>8} "
          f"{'eval ms':>8} {'B/game':>7} {'DRBG game ms':>12} | CPython: {'draw ms':>8}")
    for path in paths:
        rel = os.path.relpath(path, ROOT)
        t = time.perf_counter()
        keno.certify(load_model(path))
        cs = time.perf_counter() - t
        d = device(rel) or {}
        c = cpython(rel)
        load(path)  # the model loads on the host too
        print(f"{os.path.basename(path)[:-5]:20} {cs:9.3f} {cs / ref:6.2f} | {'':27}{d.get('quick_ms', float('nan')):8.3f} "
              f"{d.get('draw_ms', float('nan')):8.3f} {d.get('evaluate_ms', float('nan')):8.3f} "
              f"{d.get('heap_per_game', -1):7d} {d.get('game_drbg_ms', float('nan')):12.3f} | {'':9}{c['draw_ms']:8.3f}")
    return 0


if __name__ == "__main__":
    main()
