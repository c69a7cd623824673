"""RNG throughput: HMAC_DRBG bytes/s and scaled draws/s, under CPython and under the MicroPython
unix port (256K heap, the firmware's), as ratios against references measured in the same run:
  ref A = CPython hmac.digest(HMAC-SHA256) over 32-byte messages, in output bytes/s (C code)
  ref B = the same runtime's raw hashlib.sha256 of one 96-byte message, in 32-byte digests/s
"""
from __future__ import annotations

import hmac
import json
import time
from pathlib import Path

from tools.bench import cli, run_script

ROOT = Path(__file__).resolve().parents[2]
MICROPYTHON = ROOT / ".venv" / "bin" / "micropython"

# The same measurement code runs on both runtimes (no f-strings / typing inside).
SCRIPT = r'''
import hashlib, time
try:
    from time import ticks_us, ticks_diff
except ImportError:
    def ticks_us():
        return time.perf_counter_ns() // 1000
    def ticks_diff(a, b):
        return a - b
import rng
from rng.hmac_drbg import HmacDrbg
from rng.generator import Generator

def timed(fn, n):
    t = ticks_us()
    fn(n)
    return ticks_diff(ticks_us(), t) / 1e6

def rate(fn, n, unit, floor_s):
    dt = timed(fn, n)
    while dt < floor_s:
        n *= 2
        dt = timed(fn, n)
    return n * unit / dt

FLOOR = %(floor)s
res = {}
msg = b"x" * 96
def sha(n):
    for _ in range(n):
        hashlib.sha256(msg).digest()
res["sha256_96B_per_s"] = rate(sha, 200, 1, FLOOR)

d = HmacDrbg()
d.instantiate(b"e" * 32, b"n" * 16)
for size in (32, 128, 4096):
    buf = bytearray(size)
    def gen(n, buf=buf):
        for _ in range(n):
            d.generate_into(buf)
    res["drbg_%%d_Bps" %% size] = rate(gen, 20, size, FLOOR)

g = Generator(HmacDrbg())
g._drbg.instantiate(b"e" * 32, b"n" * 16)
def rb(n):
    for _ in range(n):
        g.randbits(8)
res["randbits8_per_s"] = rate(rb, 500, 1, FLOOR)
def b37(n):
    for _ in range(n):
        rng.below(g, 37)
res["below37_per_s"] = rate(b37, 500, 1, FLOOR)
W = [1, 2, 3, 5, 8, 13, 21, 34]
def wt(n):
    for _ in range(n):
        rng.weighted(g, W)
res["weighted8_per_s"] = rate(wt, 500, 1, FLOOR)
def sh(n):
    for _ in range(n):
        s = list(range(52))
        rng.shuffle(g, s)
res["shuffle52_per_s"] = rate(sh, 5, 1, FLOOR)
def dl(n):
    for _ in range(n):
        rng.deal(g, 52, 5)
res["deal52x5_per_s"] = rate(dl, 50, 1, FLOOR)
def idle(n):
    for _ in range(n):
        g.idle()
res["idle_per_s"] = rate(idle, 100, 1, FLOOR)
print("BENCH " + repr(res).replace("'", '"'))
'''

ROWS = [
    ("drbg_4096_Bps", "DRBG bytes/s, 4 KiB requests"),
    ("drbg_128_Bps", "DRBG bytes/s, 128 B requests (randbits)"),
    ("drbg_32_Bps", "DRBG bytes/s, 32 B requests (idle)"),
    ("randbits8_per_s", "randbits(8) /s"),
    ("below37_per_s", "below(37) /s"),
    ("weighted8_per_s", "weighted(8 weights) /s"),
    ("deal52x5_per_s", "deal(52, 5) /s"),
    ("shuffle52_per_s", "shuffle(52) /s"),
    ("idle_per_s", "gen.idle() /s"),
]


def run_cpython(floor: float) -> dict:
    ns: dict = {}
    code = SCRIPT % {"floor": floor}
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(code, "bench_rng", "exec"), ns)
    return json.loads(buf.getvalue().split("BENCH ", 1)[1])


def run_micropython(floor: float, heap: str = "256K") -> dict | None:
    return run_script(MICROPYTHON, SCRIPT % {"floor": floor}, heap, ".frozen:" + str(ROOT), 600)


def ref_hmac(floor: float) -> float:
    key, msg = b"k" * 32, b"v" * 32
    n = 1000
    while True:
        t = time.perf_counter()
        for _ in range(n):
            hmac.digest(key, msg, "sha256")
        dt = time.perf_counter() - t
        if dt >= floor:
            return n * 32 / dt
        n *= 2


def fmt(x: float) -> str:
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= div:
            return f"{x / div:.2f}{unit}"
    return f"{x:.1f}"


def main(floor: float = 0.3) -> dict:
    ref_a = ref_hmac(floor)
    cp = run_cpython(floor)
    mp = run_micropython(floor)
    print(f"ref A: CPython hmac.digest HMAC-SHA256 = {fmt(ref_a)} output B/s; "
          f"ref B: sha256(96 B) CPython {fmt(cp['sha256_96B_per_s'])}/s"
          + (f", MicroPython {fmt(mp['sha256_96B_per_s'])}/s" if mp else ""))
    hdr = f"{'measure':42} {'CPython':>9} {'/refA':>7} {'/refB':>7}   {'MicroPy':>9} {'/refA':>7} {'/refB':>7}"
    print(hdr)
    print("-" * len(hdr))
    for key, label in ROWS:
        c = cp[key]
        line = f"{label:42} {fmt(c):>9} {c / ref_a:7.3f} {c / cp['sha256_96B_per_s']:7.3f}"
        if mp:
            m = mp[key]
            line += f"   {fmt(m):>9} {m / ref_a:7.4f} {m / mp['sha256_96B_per_s']:7.3f}"
        print(line)
    return {"ref_hmac_Bps": ref_a, "cpython": cp, "micropython": mp}


if __name__ == "__main__":
    main(cli(__doc__, "python -m tools.bench.bench_rng", floor={"nargs": "?", "type": float, "default": 0.3,
                                                              "help": "seconds each measure runs at least"}).floor)
