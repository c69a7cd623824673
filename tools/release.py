"""A release: `python -m tools.release [--out build/release]` (make release).

Writes build/release/jeton-<version>/ (version: firmware/config.py VERSION) from scratch:

    firmware/micropython-unix    the emulated board's image (make firmware), device rooms frozen
    firmware/qemu-mps2-an385.elf the Cortex-M3 image, when make firmware-arm has built it
    mpy/                         the .mpy image a board running stock MicroPython gets (make deploy)
    models/ certs/               the certified game models and their certificates
    par/                         the PAR sheets of every shipped game (tools.par)
    RELEASE.md                   what this is, the image's SHA-256, how to check it
    SHA256SUMS                   "# jeton-release version=V counter=N", then every other file:
                                 "<sha256>  <path>", sorted by path, LF

SHA256SUMS is the release's one blob to sign (`python -m tools.sign sign DIR --key KEY.pem` writes
SHA256SUMS.sig): it names every file by its digest, itself included in no other file, so one
signature over its exact bytes covers the whole release. Its first line carries the release number
(`counter`, from VERSION) a cabinet's anti-rollback compares; `sha256sum -c SHA256SUMS` skips it.
"""
from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import sys
from pathlib import Path

from tools import firmware, image, par

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "release"
SUMS = "SHA256SUMS"


def version(root: Path = ROOT) -> str:
    m = re.search(r'^VERSION\s*=\s*"([^"]+)"', (root / "firmware" / "config.py").read_text(), re.M)
    if not m:
        raise SystemExit("firmware/config.py has no VERSION")
    return m.group(1)


def counter(ver: str) -> int:
    """The release number anti-rollback compares: MAJOR.MINOR.PATCH as one growing integer
    (each part below 1000), so a later version always has a larger number."""
    parts = ver.split(".")
    if len(parts) != 3 or not all(p.isdigit() and int(p) < 1000 for p in parts):
        raise SystemExit(f"VERSION {ver!r} is not MAJOR.MINOR.PATCH (each 0-999)")
    return (int(parts[0]) * 1000 + int(parts[1])) * 1000 + int(parts[2])


def sums(folder: Path, ver: str) -> str:
    """The manifest text: its header, then every file under `folder` but the manifest and its
    signature, sorted by path."""
    lines = [f"# jeton-release version={ver} counter={counter(ver)}\n"]
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder).as_posix()
        if p.is_file() and rel not in (SUMS, SUMS + ".sig"):
            lines.append(f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {rel}\n")
    return "".join(lines)


def release(out: Path = OUT, root: Path = ROOT) -> Path:
    fw = firmware.ensure_built()
    image.build()
    ver = version(root)
    dest = out / f"jeton-{ver}"
    tmp = out / f".jeton-{ver}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "firmware").mkdir(parents=True)
    shutil.copy2(fw, tmp / "firmware" / "micropython-unix")
    arm = firmware.FIRMWARE_ARM
    if arm.is_file():
        shutil.copy2(arm, tmp / "firmware" / "qemu-mps2-an385.elf")
    shutil.copytree(image.OUT, tmp / "mpy", ignore=shutil.ignore_patterns("SHA256SUMS*"))  # the release signs its own
    shipped = []
    for kind in ("models", "certs"):
        (tmp / kind).mkdir()
    for cert in sorted((root / "games" / "certs").glob("*.json")):
        model = root / "games" / "models" / cert.name
        if model.is_file():  # a certificate without its model is no game a cabinet can offer
            shutil.copy2(model, tmp / "models" / model.name)
            shutil.copy2(cert, tmp / "certs" / cert.name)
            shipped.append(model)
    if par.main([str(m) for m in shipped] + ["--out", str(tmp / "par")]):
        raise SystemExit("PAR sheets failed")
    fw_sum = firmware.sha256_file(tmp / "firmware" / "micropython-unix")
    pub, dev = firmware.release_pub()
    key_note = ("the build's development key (build/keys/): a test release, not one for the field" if dev
                else f"the release key {pub.name}")
    opub, odev = firmware.operator_pub()
    key_note += (", and takes the operator's signature (configuration, enrolment) by "
                 + ("the build's development operator key" if odev else f"the operator key {opub.name}"))
    (tmp / "RELEASE.md").write_text(
        f"# Jeton {ver}\n\n"
        f"- `firmware/micropython-unix`: the emulated board's image (MicroPython {firmware.PIN[:8]}, unix port,"
        f" `manifest.py` frozen), SHA-256 `{fw_sum}`: the firmware's ready line reports the same digest."
        f" It authenticates this folder's `{SUMS}.sig` at power-up with {key_note}.\n"
        + ("- `firmware/qemu-mps2-an385.elf`: the same manifest frozen for the Cortex-M3 (qemu MPS2-AN385).\n"
           if arm.is_file() else "")
        + "- `mpy/`: the device rooms as .mpy for a board running stock MicroPython (`make deploy`).\n"
        f"- `models/`, `certs/`, `par/`: the {len(shipped)} shipped games, their certificates and PAR sheets.\n"
        f"- `{SUMS}`: the release number, then every other file's SHA-256; check with `sha256sum -c {SUMS}`."
        f" It is the one blob the release signature `{SUMS}.sig` covers (`python -m tools.sign check`).\n")
    (tmp / SUMS).write_text(sums(tmp, ver))
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)
    return dest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.release", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    try:
        dest = release(args.out)
    except firmware.BuildError as e:
        print(f"release: {e}", file=sys.stderr)
        return 1
    n = len((dest / SUMS).read_text().splitlines()) - 1
    print(f"{dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest}: {n} files in {SUMS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
