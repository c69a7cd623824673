"""Device cost on an emulated Cortex-M3: instructions per game for every shipped game, counted by
qemu (MPS2-AN385, -icount shift=0: one instruction per virtual nanosecond) running the Jeton image
with the device rooms frozen (make firmware-arm). A game is the engine's whole play(): reel draws
through the unbiased scaling, HMAC_DRBG output, window, evaluation, free spins (keno: the draw of
20 numbers and the catch on a 10-spot quick pick; video poker: the shuffle, the built-in strategy's
holds and the draw). The DRBG's share is given
by its own line: instructions per 32-bit randbits (a game takes one draw per reel, more with free
spins).

    python -m tools.bench.bench_arm [--games ID,...] [--spins N]
"""
from __future__ import annotations

import argparse
import sys

from tools import firmware
from tools.bench.bench_heap import shipped_games
from tools.qemu import MOUNT, NOISE, DeviceError, RawRepl

SPINS = 200
MHZ = 168  # an STM32F405's clock, to turn instructions into time at one instruction per cycle
START = NOISE + """
import rng, time, gc
gen = rng.open_generator(rng.open_source('emulated', _urandom))
"""
GAME = """
from games.model import read
raw = read('{root}/games/models/{gid}.json')
if raw.get('format') == 'jeton-keno/1':  # keno: a quick pick of the most spots, then the draws
    from games.keno import KenoGame
    g = KenoGame(raw)
    card = g.quick_pick(gen, g.spots[-1])
    play = lambda bet: g.play(gen, bet, card)
elif raw.get('format') == 'jeton-poker/1':  # video poker: deal, the built-in strategy's holds, draw
    from games.poker import PokerGame
    g = PokerGame(raw)
    play = lambda bet: g.play(gen, bet)
else:
    from games.reels import ReelGame
    g = ReelGame(raw)
    play = lambda bet: g.play(gen, bet)
raw = None
bet = g.m.bets[0]
play(bet)
gc.collect()
t = time.ticks_us()
for i in range({spins}):
    play(bet)
d = time.ticks_diff(time.ticks_us(), t)
gc.collect()
print('RESULT', d, gc.mem_free())
"""
DRBG = """
t = time.ticks_us()
for i in range(1000):
    gen.randbits(32)
print('RESULT', time.ticks_diff(time.ticks_us(), t), 0)
"""


def _result(out: str) -> tuple[int, int]:
    line = [ln for ln in out.splitlines() if ln.startswith("RESULT")][-1].split()
    return int(line[1]), int(line[2])


def _session(code: str, timeout: float = 600) -> tuple[int, int]:
    # a fresh qemu for each figure: one game's heap never weighs on the next one's
    repl = RawRepl()
    try:
        repl.exec(MOUNT + START)
        return _result(repl.exec(code, timeout=timeout))
    finally:
        repl.close()


def measure(games: list[str], spins: int = SPINS) -> list[dict]:
    with firmware._locked():
        firmware.build_arm()
    us, _ = _session(DRBG)
    rows = [{"game": "randbits(32)", "instructions": us}]  # 1000 calls: us * 1000 ns / 1000
    for gid in games:
        try:
            us, free = _session(GAME.format(gid=gid, spins=spins, root="/rom"))
            rows.append({"game": gid, "instructions": us * 1000 // spins, "heap_free": free})
        except DeviceError as e:
            rows.append({"game": gid, "error": e.args[0].splitlines()[-1]})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.bench.bench_arm", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="")
    ap.add_argument("--spins", type=int, default=SPINS)
    args = ap.parse_args([] if argv is None else argv)
    missing = firmware.arm_tools_missing()
    if missing:
        print(f"skipped: needs {' '.join(missing)} (make firmware-arm installs them)")
        return 0
    games = [g for g in args.games.split(",") if g] or shipped_games()
    try:
        rows = measure(games, args.spins)
    except firmware.BuildError as e:
        print(f"skipped: {e}")
        return 0
    print(f"Cortex-M3 (qemu MPS2-AN385, -icount shift=0), {args.spins} games each at the lowest bet")
    print(f"{'game':<15} {'instr/game':>11} {'ms @' + str(MHZ) + 'MHz':>11} {'heap free':>9}  (of 140 KB, game loaded)")
    for r in rows:
        if "error" in r:
            print(f"{r['game']:<15} {'-':>11} {'-':>11} {'-':>9}  {r['error']}")
        else:
            print(f"{r['game']:<15} {r['instructions']:>11,} {r['instructions'] / MHZ / 1000:>11.3f} "
                  f"{r.get('heap_free', ''):>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
