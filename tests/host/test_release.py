"""make release: every file of the release is in its SHA256SUMS with its true digest, and nothing else."""
from __future__ import annotations

import hashlib
from pathlib import Path

from tools import release


def test_release_manifest_hashes_match_the_files(tmp_path: Path) -> None:
    dest = release.release(out=tmp_path)
    assert dest == tmp_path / f"jeton-{release.version()}"
    listed = {}
    lines = (dest / "SHA256SUMS").read_text().splitlines()
    # the release number anti-rollback compares: VERSION's parts as one integer (0.1.0 -> 1000)
    major, minor, patch = (int(p) for p in release.version().split("."))
    assert lines[0] == f"# jeton-release version={release.version()} counter={major * 1000000 + minor * 1000 + patch}"
    for line in lines[1:]:
        digest, sep, rel = line.partition("  ")  # sha256sum's text format, one file a line
        assert sep and len(digest) == 64, line
        listed[rel] = digest
    files = {p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file()}
    assert set(listed) == files - {"SHA256SUMS"}
    for rel, digest in listed.items():
        assert hashlib.sha256((dest / rel).read_bytes()).hexdigest() == digest, rel
    # what a cabinet needs is in it: the image, the .mpy of the cabinet core, a certified game and its sheet
    for rel in ("firmware/micropython-unix", "mpy/firmware/main.mpy", "mpy/firmware/config.mpy", "models/sept-royal-87.json",
                "certs/sept-royal-87.json", "par/sept-royal-87.md", "RELEASE.md"):
        assert rel in listed, rel
    # RELEASE.md names the image by the digest its ready line reports
    assert f"SHA-256 `{listed['firmware/micropython-unix']}`" in (dest / "RELEASE.md").read_text()
