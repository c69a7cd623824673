"""Boot check (games.certificate): heap and time per shipped model on the MicroPython unix port.

    python -m tools.bench.bench_bootcheck [MODEL_ID ...]

The code runs as the emulated board runs it, from .mpy (tools.image). For each model:
- "needs": the heap one attempt of the check needs over the heap its imports need, both found by
  bisecting -X heapsize (STEP bytes) on the same script with and without the check; this is the
  check's peak as a board sees it, fragmentation included (micropython.mem_peak() counts every
  allocation ever made on this port, freed or not, so it cannot give a peak);
- "keeps": what stays allocated after the check, i.e. the game it returns (gc.mem_alloc());
- "ms": the check's time in the firmware's 256K heap, and the same as a ratio to a reference loop
  (integer additions under MicroPython) measured in the same run, so it compares across machines.
"""
from __future__ import annotations

import glob
import json
import os
import subprocess
import sys

from tools.bench import cli
from tools.image import ROOT, build, micropypath

MPY = ROOT / ".venv" / "bin" / "micropython"
STEP = 512
HI = 512 * 1024
TARGET = 40 * 1024  # docs/games.md: what the boot check may take of a board's heap
SCRIPT = """
import gc, sys, time
from games import certificate
mode = sys.argv[3]
gc.collect()
if mode == "ref":
    t = time.ticks_ms()
    s = 0
    for i in range(200000):
        s += i
    print("REF", 200000 * 1000 // max(1, time.ticks_diff(time.ticks_ms(), t)))
elif mode == "base":
    print("OK")
else:
    a = gc.mem_alloc()
    t = time.ticks_ms()
    ok, reason, game = certificate._check(sys.argv[1], sys.argv[2], True)  # one attempt, no retry
    dt = time.ticks_diff(time.ticks_ms(), t)
    gc.collect()
    print("OK" if ok else "FAIL", dt, gc.mem_alloc() - a, reason)
"""


def _run(script: str, model: str, cert: str, mode: str, heap: int) -> str:
    env = dict(os.environ, MICROPYPATH=micropypath())
    r = subprocess.run([str(MPY), "-X", f"heapsize={heap}", script, model, cert, mode], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    lines = r.stdout.strip().splitlines()
    return lines[-1] if r.returncode == 0 and lines else "ERROR " + (r.stderr.strip().splitlines() or [""])[-1]


def _smallest(script: str, model: str, cert: str, mode: str) -> int | None:
    """Smallest heap (to STEP bytes) in which `mode` prints OK; None when even HI does not."""
    if not _run(script, model, cert, mode, HI).startswith("OK"):
        return None
    lo, hi = 0, HI
    while hi - lo > STEP:
        mid = (lo + hi) // 2
        if _run(script, model, cert, mode, mid).startswith("OK"):
            hi = mid
        else:
            lo = mid
    return hi


def measure(script: str, model_path: str) -> dict:
    rel = os.path.relpath(model_path, ROOT)
    with open(model_path, encoding="utf-8") as fh:
        gid = json.load(fh)["id"]
    cert = f"games/certs/{gid}.json"
    base = _smallest(script, rel, cert, "base")
    full = _smallest(script, rel, cert, "check")
    line = _run(script, rel, cert, "check", 256 * 1024).split(" ", 3)
    ok = line[0] == "OK"
    return {"id": gid, "ok": ok, "needs": None if base is None or full is None else full - base,
            "keeps": int(line[2]) if ok else None, "ms": int(line[1]) if ok else None,
            "why": "" if ok else " ".join(line)}


def main(argv: list[str] | None = None) -> int:
    argv = argv or []  # `make bench` calls main() with none: every model
    if not MPY.exists():
        print("no MicroPython unix port in .venv: make venv")
        return 1
    build()
    script = str(ROOT / "var" / "bench_bootcheck_mp.py")
    os.makedirs(os.path.dirname(script), exist_ok=True)
    with open(script, "w") as fh:
        fh.write(SCRIPT)
    ref = int(_run(script, "-", "-", "ref", 256 * 1024).split()[1])
    print(f"reference: {ref / 1e6:.2f} M int additions/s (MicroPython); target: the check needs "
          f"under {TARGET // 1024} KB")
    print(f"{'model':16} {'needs KB':>8} {'/target':>7} {'keeps KB':>8} {'ms @256K':>8} {'M ref adds':>10}")
    bad = 0
    for path in sorted(glob.glob(str(ROOT / "games" / "models" / "*.json"))):
        if argv and os.path.basename(path)[:-5] not in argv:
            continue
        r = measure(script, path)
        if not r["ok"]:
            bad += 1
            print(f"{r['id']:16} FAILED: {r['why']}")
            continue
        needs = "-" if r["needs"] is None else f"{r['needs'] / 1024:.1f}"
        ratio = "-" if r["needs"] is None else f"{r['needs'] / TARGET:.2f}"
        print(f"{r['id']:16} {needs:>8} {ratio:>7} {r['keeps'] / 1024:8.1f} {r['ms']:8d} "
              f"{r['ms'] * ref / 1e9:10.2f}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(cli(__doc__, "python -m tools.bench.bench_bootcheck",
                      models={"nargs": "*", "metavar": "ID", "help": "model ids (default: every one)"}).models))
