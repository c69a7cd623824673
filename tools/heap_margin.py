"""Device test modules at the edge of their heap: `python -m tools.heap_margin [--percent 85] [FILE ...]`.

Each tests/device/test_*.py runs under the MicroPython unix port in the heap its `# mp-heap:` line
asks for (tests/conftest.py, default 256K). Where a module's objects land in that heap depends on
the checkout (the length of its path is in every code object's file name), so a module that only
just fits fails in one checkout and passes in another: test_sas_polls passed in CI at 640K and
failed in a fresh clone under /work. This runs each module once in PERCENT of its heap and lists
those that fail there. A module whose line says `tight` (`# mp-heap: 152K tight`: the boot-memory
ones, a board's heap on purpose, each with its bisected figure and margin) is listed apart.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEVICE = ROOT / "tests" / "device"
MICROPYTHON = ROOT / ".venv" / "bin" / "micropython"


def heap_kb(path: Path) -> int:
    """The module's heap in KB, from its `# mp-heap: N[K|M]` line (256 without one)."""
    m = re.search(r"^# mp-heap: (\d+)([KM])", path.read_text(encoding="utf-8"), re.M)
    if not m:
        return 256
    return int(m.group(1)) * (1024 if m.group(2) == "M" else 1)


def tight(path: Path) -> bool:
    """The module's heap is a board's on purpose (`# mp-heap: N tight`): no margin asked of it."""
    return re.search(r"^# mp-heap: \S+ tight\b", path.read_text(encoding="utf-8"), re.M) is not None


def passes(path: Path, kb: int) -> bool:
    """Every test of the module passes in a heap of kb KB."""
    env = {"MICROPYPATH": ".frozen:" + str(ROOT), "PATH": "/usr/bin:/bin"}
    r = subprocess.run([str(MICROPYTHON), "-X", f"heapsize={kb}K", "tests/mprun.py", str(path.relative_to(ROOT))],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    return re.search(r"^@@MP DONE \d+ 0$", r.stdout, re.M) is not None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.heap_margin", description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path, help="default: every tests/device/test_*.py")
    ap.add_argument("--percent", type=int, default=85, help="of each module's heap (default 85)")
    a = ap.parse_args(argv)
    files = [f.resolve() for f in a.files] or sorted(DEVICE.glob("test_*.py"))
    edge = []
    for f in files:
        kb = heap_kb(f)
        if not passes(f, kb * a.percent // 100):
            edge.append(f)
            why = " (tight on purpose)" if tight(f) else ""
            print(f"{f.relative_to(ROOT)}: fails in {a.percent} % of its {kb}K{why}")
    loose = [f for f in edge if not tight(f)]
    print(f"{len(files)} modules, {len(loose)} at the edge of their heap")
    return 1 if loose else 0


if __name__ == "__main__":
    sys.exit(main())
