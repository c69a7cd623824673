"""Where the boot leaves its objects in the heap: the firmware image booted once, its heap's block map
(MicroPython's `micropython.mem_info(1)`) printed at each stage of the boot (the census's marks,
firmware/startup.py `_mark`) and once the boot-only modules are given back (main.release), with the
heap in use, free, and the largest free piece at each. A heap with room enough in bytes can still
refuse a piece a command asks for (docs/build.md "Heap"): this shows which stage cut it up.

    python -m tools.bench.heap_map GAME [--heap 112K] [--sas] [--map]

--sas wires the SAS line (no host polls it: the link's handler modules come at their first poll);
--map prints each stage's block map (one character a 16-byte block: '.' free, 'h' a head, '=' its
tail, other letters a head by type: micropython.mem_info's legend).
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field

from sim import harness

# MicroPython's default GC block: 4 words (py/mpconfig.h MICROPY_BYTES_PER_GC_BLOCK), 16 bytes on the
# 32-bit image, whose heap is a board's
BLOCK = 16
RUNNING = "running"  # the last stage: the boot-only modules given back, the cabinet about to run
# the firmware image's boot line (sim/harness.py FROZEN_BOOT): the census's marks on, each followed
# by the heap's map; the map again after main.release(BOOT_ONLY)
BOOT_LINE = """import sys, gc, micropython
sys.path.remove('')
st = __import__('firmware.startup').startup
def _mark(what, modules=None):
    gc.collect()
    print('jeton: heap %s %d' % (what, gc.mem_alloc()))
    micropython.mem_info(1)
st._mark = _mark
st.TRACE = 1
st = None
from firmware import main
given = main.release
def release(names):
    given(names)
    if names is main.BOOT_ONLY:
        _mark('RUNNING')
main.release = release
main.main(sys.argv[1:])
""".replace("RUNNING", RUNNING)
MARK = re.compile(r"^jeton: heap (.+) (\d+)$")
GC = re.compile(r"^GC: total: (\d+), used: (\d+), free: (\d+)")
LARGEST = re.compile(r"max free sz: (\d+)")
ROW = re.compile(r"^[0-9a-f]{8}: ")


@dataclass
class Stage:
    name: str
    used: int  # gc.mem_alloc() after a collection
    free: int = 0
    largest: int = 0  # bytes: the largest run of free blocks
    rows: list[str] = field(default_factory=list)  # the block map, as mem_info prints it


def parse(lines: list[str]) -> list[Stage]:
    """The stages of the firmware's output under BOOT_LINE, in order."""
    out: list[Stage] = []
    for line in lines:
        if m := MARK.match(line):
            out.append(Stage(m.group(1), int(m.group(2))))
        elif not out:
            continue
        elif m := GC.match(line):
            out[-1].free = int(m.group(3))
        elif m := LARGEST.search(line):
            out[-1].largest = int(m.group(1)) * BLOCK
        elif ROW.match(line) or line.strip().startswith("(") and "lines all free" in line:
            out[-1].rows.append(line)
    return out


def boot(game: str, heap: str = "112K", sas: bool = False, timeout: float = 60.0) -> list[Stage]:
    """One boot of the frozen image with `game` offered, until the RUNNING stage is printed."""
    given = harness.FROZEN_BOOT
    harness.FROZEN_BOOT = BOOT_LINE
    try:
        with tempfile.TemporaryDirectory(prefix="jeton-heapmap-") as d:
            cab = harness.EmulatedCabinet(d, heap=heap, code="frozen", sas=sas, extra_args=["--games", game])
            try:
                cab.boot(login=False)
                deadline = time.monotonic() + timeout
                while not any(s.name == RUNNING for s in parse(cab.firmware.lines)):
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"{game}: no '{RUNNING}' map: {cab.firmware.lines[-3:]}")
                    time.sleep(0.05)
                return parse(cab.firmware.lines)
            finally:
                cab.shutdown()
                cab.close_sas()
    finally:
        harness.FROZEN_BOOT = given


def table(stages: list[Stage]) -> list[str]:
    out = [f"{'stage':<18} {'in use':>8} {'free':>8} {'largest free':>12}"]
    for s in stages:
        out.append(f"{s.name:<18} {s.used:>8} {s.free:>8} {s.largest:>12}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.bench.heap_map", description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--heap", default="112K")
    ap.add_argument("--sas", action="store_true", help="with the SAS line wired")
    ap.add_argument("--map", action="store_true", help="each stage's block map too")
    args = ap.parse_args([] if argv is None else argv)
    stages = boot(args.game, args.heap, args.sas)
    for line in table(stages):
        print(line)
    if args.map:
        for s in stages:
            print(f"\n{s.name} ({s.used} in use, largest free piece {s.largest}):")
            print("\n".join(s.rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
