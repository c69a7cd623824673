"""A release: `python -m tools.release [--out build/release]` (make release).

Writes build/release/jeton-<version>/ (version: firmware/config.py VERSION) from scratch:

    firmware/micropython-unix    the emulated board's image (make firmware), device rooms frozen
    firmware/qemu-mps2-an385.elf the Cortex-M3 image, when make firmware-arm has built it
    mpy/                         the emulated board's .mpy image (stock MicroPython's unix port: make deploy)
    mpy-<board>/                 each board profile's .mpy image (pyboard, rp2, esp32: make deploy PROFILE=...)
    models/ certs/               the certified game models and their certificates
    par/                         the PAR sheets of every shipped game (tools.par)
    RELEASE.md                   what this is, the image's SHA-256, how to check it
    SHA256SUMS                   "# jeton-release version=V counter=N", then every other file:
                                 "<sha256>  <path>", sorted by path, LF

SHA256SUMS is the release's one blob to sign: it names every file by its digest, itself included
in no other file, so one signature over its exact bytes covers the whole release. Its first line
carries the release number (`counter`, from VERSION) a cabinet's anti-rollback compares;
`sha256sum -c SHA256SUMS` skips it.

Signing (SHA256SUMS.sig), by the key whose public half the image carries (tools/firmware.py):
  - no JETON_RELEASE_PUB: the build's development key (build/keys/dev.pem) signs it here: a test
    release, which RELEASE.md and the last line printed say;
  - JETON_RELEASE_PUB and JETON_RELEASE_KEY (the release key's private PEM on this host): signed here
    with it, refused if it is not the private half of JETON_RELEASE_PUB;
  - JETON_RELEASE_PUB alone: left unsigned for the key's holder (`python -m tools.sign sign DIR
    --key KEY.pem`), which RELEASE.md and the last line printed say.
RELEASE.md names the signing key by its SHA-256 fingerprint (tools.sign fingerprint).

Reproducible: the same commit (and key) gives the same bytes in every file, the signature included
(RSASSA-PKCS1-v1_5 is deterministic); nothing records when or how long it was built, and every
file's modification time is the commit's (SOURCE_DATE_EPOCH when set), so an archive of the folder
made with sorted names and fixed owners is the same too. Both images are always in it. (The
development key is made once per build folder: two checkouts sign with two keys, and their images
carry two public keys; a release key gives the same bytes everywhere.)
"""
from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tools import firmware, image, par, sign, targets

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "release"
SUMS = "SHA256SUMS"
KEY_ENV = "JETON_RELEASE_KEY"  # the release key's private PEM, when this host holds it


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


def signer(env: dict | None = None) -> tuple[Path | None, Path, str]:
    """(the private key that signs here or None, the public key the image carries, how RELEASE.md
    names the signing)."""
    env = os.environ if env is None else env
    pub, dev = firmware.release_pub(env)
    fp = sign.fingerprint(sign.load_public(pub))
    if dev:
        name = pub.relative_to(ROOT) if pub.is_relative_to(ROOT) else pub
        return firmware.DEV_KEY, pub, (f"signed with the build's development key ({name}, SHA-256 {fp}):"
                                       " a test release, not one for the field")
    key = env.get(KEY_ENV)
    if not key:
        return None, pub, (f"not signed yet: the holder of the release key {pub.name} (SHA-256 {fp}) signs it"
                           f" (`python -m tools.sign sign DIR --key KEY.pem`)")
    if sign.fingerprint(sign.load_private(Path(key)).public_key()) != fp:
        raise firmware.BuildError(f"{KEY_ENV}={key} is not the private half of {firmware.PUB_ENV}={pub}")
    return Path(key), pub, f"signed with the release key {pub.name} (SHA-256 {fp})"


def source_epoch(root: Path = ROOT, env: dict | None = None) -> int | None:
    """SOURCE_DATE_EPOCH, else the commit's time (git), else None (the files keep their times)."""
    env = os.environ if env is None else env
    if env.get("SOURCE_DATE_EPOCH", "").isdigit():
        return int(env["SOURCE_DATE_EPOCH"])
    try:
        r = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%ct"], capture_output=True, text=True,
                           timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return int(r.stdout) if r.returncode == 0 and r.stdout.strip().isdigit() else None


def _mpy_folder(target: str) -> str:
    return "mpy" if target == "unix" else f"mpy-{target}"


def release(out: Path = OUT, root: Path = ROOT) -> Path:
    key, pub, signed = signer()
    fw = firmware.ensure_built()
    arm = firmware.ensure_built_arm()  # always both: what a release holds never depends on what was built before
    image.build()
    for board in targets.BOARDS:
        image.build(image.out_dir(board), target=board)
    ver = version(root)
    dest = out / f"jeton-{ver}"
    tmp = out / f".jeton-{ver}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "firmware").mkdir(parents=True)
    shutil.copy2(fw, tmp / "firmware" / "micropython-unix")
    shutil.copy2(arm, tmp / "firmware" / "qemu-mps2-an385.elf")
    for target in ("unix",) + targets.BOARDS:  # the release signs its own: not each set's SHA256SUMS
        shutil.copytree(image.out_dir(target), tmp / _mpy_folder(target), ignore=shutil.ignore_patterns("SHA256SUMS*"))
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
    opub, odev = firmware.operator_pub()
    operator = ("the build's development operator key" if odev else f"the operator key {opub.name}")
    (tmp / "RELEASE.md").write_text(
        f"# Jeton {ver}\n\n"
        f"- `firmware/micropython-unix`: the emulated board's image (MicroPython {firmware.PIN[:8]}, unix port,"
        f" `manifests/unix.py` frozen), SHA-256 `{fw_sum}`: the firmware's ready line reports the same digest."
        f" At power-up it authenticates this folder's `{SUMS}.sig` with the public key built into it,"
        f" {pub.name}.\n"
        "- `firmware/qemu-mps2-an385.elf`: `manifests/qemu.py` frozen for the Cortex-M3 (qemu MPS2-AN385).\n"
        "- `mpy/`: the emulated board's device code as .mpy, for stock MicroPython's unix port (`make deploy`);"
        f" {', '.join(f'`{_mpy_folder(b)}/`' for b in targets.BOARDS)}: each board's, its manifest's modules"
        " (`make deploy PROFILE=...`).\n"
        f"- `models/`, `certs/`, `par/`: the {len(shipped)} shipped games, their certificates and PAR sheets.\n"
        f"- `{SUMS}`: the release number, then every other file's SHA-256; check with `sha256sum -c {SUMS}`."
        f" It is the one blob the release signature `{SUMS}.sig` covers (`python -m tools.sign check DIR --pub"
        f" {pub.name}`, `python -m tools.verify`).\n"
        f"- This release is {signed}.\n"
        f"- The image takes the operator's signature (a vlt's configuration, an enrolment) by {operator}.\n")
    (tmp / SUMS).write_text(sums(tmp, ver))
    if key is not None:
        sign.sign(tmp, key)
        sign.check(tmp, pub)  # the signature the image will check, with the key it carries
    when = source_epoch(root)
    if when is not None:
        for p in sorted(tmp.rglob("*"), reverse=True) + [tmp]:
            os.utime(p, (when, when))
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)
    return dest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.release", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    try:
        dest = release(args.out)
    except (firmware.BuildError, targets.TargetError, sign.ReleaseError, OSError, ValueError) as e:
        print(f"release: {e}", file=sys.stderr)
        return 1
    n = len((dest / SUMS).read_text().splitlines()) - 1
    signed = signer()[2]
    print(f"{dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest}: {n} files in {SUMS}, {signed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
