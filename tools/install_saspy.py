"""Install saspy (an independent SAS host, MIT; ../shared/vendor/README.md) into the virtualenv:
check the tarball against its SHA-256 line, unpack it (but its own tests/) under VENV/saspy-<commit>/ and put that
folder on sys.path with a .pth file. Without the tarball, or with a wrong digest, it stops with
one line saying which (mk/sas.mk)."""
from __future__ import annotations

import hashlib
import shutil
import sys
import sysconfig
import tarfile
from pathlib import Path


def install(tgz: Path, sums: Path, venv: Path) -> Path:
    if not tgz.is_file():
        raise SystemExit(f"saspy: {tgz} not found (the vendored SAS host the SAS tests drive the firmware with)")
    want = None
    if sums.is_file():
        for line in sums.read_text().splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1] == tgz.name:
                want = parts[0]
    if want is None:
        raise SystemExit(f"saspy: no SHA-256 for {tgz.name} in {sums}")
    got = hashlib.sha256(tgz.read_bytes()).hexdigest()
    if got != want:
        raise SystemExit(f"saspy: {tgz} has SHA-256 {got}, {sums} says {want}")
    with tarfile.open(tgz) as tar:
        top = {m.name.split("/")[0] for m in tar.getmembers()}
        if len(top) != 1:
            raise SystemExit(f"saspy: {tgz} does not unpack to one folder")
        root = top.pop()
        # saspy's own tests/ stays out: on sys.path its package `tests` would shadow the project's
        # (tests/ is a namespace package here, and a regular package wins over one)
        keep = [m for m in tar.getmembers() if not (m.name + "/").startswith(root + "/tests/")]
        shutil.rmtree(venv / root / "tests", ignore_errors=True)  # left by an earlier install
        tar.extractall(venv, members=keep, filter="data")
    folder = (venv / root).resolve()
    site = Path(sysconfig.get_paths(vars={"base": str(venv), "platbase": str(venv)})["purelib"])
    (site / "jeton-saspy.pth").write_text(str(folder) + "\n")
    return folder


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit("usage: python -m tools.install_saspy TARBALL SHA256SUMS VENV")
    print("saspy installed at", install(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])))
