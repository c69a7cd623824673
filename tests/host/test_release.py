"""make release: every file of the release is in its SHA256SUMS with its true digest, and nothing else;
the release is signed as RELEASE.md says (issue 23.8), and two releases of one commit are the same
bytes (the PAR sheets carried the certifier's run time)."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from release_once import EPOCH, build, release_copy

from tools import firmware, release, sign


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's release (SOURCE_DATE_EPOCH = EPOCH, as a build system sets it), built once for
    the files that read one (tests/host/release_once.py)."""
    return release_copy(tmp_path_factory, "release")


def test_release_manifest_hashes_match_the_files(made: Path) -> None:
    dest = made
    assert dest.name == f"jeton-{release.version()}"
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
    assert set(listed) == files - {"SHA256SUMS", "SHA256SUMS.sig"}
    for rel, digest in listed.items():
        assert hashlib.sha256((dest / rel).read_bytes()).hexdigest() == digest, rel
    # what a cabinet needs is in it: the image, the .mpy of the cabinet core, a certified game and its sheet
    for rel in ("firmware/micropython-unix", "firmware/qemu-mps2-an385.elf", "mpy/firmware/main.mpy",
                "mpy/firmware/config.mpy", "models/sept-royal-87.json", "certs/sept-royal-87.json", "par/sept-royal-87.md",
                "RELEASE.md"):
        assert rel in listed, rel
    # each board's .mpy set: its own pin map and the machine-module board, not the emulated board's sockets
    for board in ("pyboard", "rp2", "esp32"):
        mine = {rel.split("/", 1)[1] for rel in listed if rel.startswith(f"mpy-{board}/")}
        assert {f"board/{board}.mpy", "board/machine_board.mpy", "firmware/main.mpy", "jeton_key.mpy"} <= mine
        assert not mine & {"board/emulated.mpy", "board/nvram_littlefs.mpy", "board/state_lock.mpy"}, board
    assert "mpy/board/emulated.mpy" in listed and "mpy/board/machine_board.mpy" not in listed
    # RELEASE.md names the image by the digest its ready line reports
    assert f"SHA-256 `{listed['firmware/micropython-unix']}`" in (dest / "RELEASE.md").read_text()


def test_a_release_is_signed_as_its_release_md_says(made: Path) -> None:
    # issue 23.8: RELEASE.md said the image authenticates SHA256SUMS.sig, and there was none
    pub = sign.pub_path(firmware.DEV_KEY)
    header = sign.check(made, pub)  # the signature over SHA256SUMS, then every file
    assert header["version"] == release.version()
    fp = sign.fingerprint(sign.load_public(pub))
    assert f"- This release is signed with the build's development key (build/keys/dev.pub.pem, SHA-256 {fp}): " \
           "a test release, not one for the field.\n" in (made / "RELEASE.md").read_text()


def test_two_releases_of_one_commit_are_the_same_bytes(made: Path, tmp_path: Path) -> None:
    again = build(tmp_path)
    files = sorted(p.relative_to(made) for p in made.rglob("*"))
    assert files == sorted(p.relative_to(again) for p in again.rglob("*"))
    differ = [str(rel) for rel in files if (made / rel).is_file() and (made / rel).read_bytes() != (again / rel).read_bytes()]
    assert differ == []
    # every file dated SOURCE_DATE_EPOCH (else the commit's time): an archive of the folder is the same too
    assert {os.stat(made / rel).st_mtime for rel in files} == {os.stat(again / rel).st_mtime for rel in files} \
        == {int(EPOCH)}


def test_the_source_date(tmp_path: Path) -> None:
    assert release.source_epoch(tmp_path, {"SOURCE_DATE_EPOCH": "1700000000"}) == 1700000000
    assert release.source_epoch(tmp_path, {}) is None  # no commit to take it from: the files keep their times


def test_who_signs(tmp_path: Path) -> None:
    key, pub, said = release.signer({})  # no release key configured: the development key, said so
    assert key == firmware.DEV_KEY and said.startswith("signed with the build's development key")
    sign.keygen(tmp_path / "rel.pem")
    sign.keygen(tmp_path / "other.pem")
    env = {firmware.PUB_ENV: str(tmp_path / "rel.pub.pem")}
    key, pub, said = release.signer(env)  # the public half only: left for the key's holder, said so
    fp = sign.fingerprint(sign.load_public(tmp_path / "rel.pub.pem"))
    assert key is None and said == (f"not signed yet: the holder of the release key rel.pub.pem (SHA-256 {fp}) "
                                    "signs it (`python -m tools.sign sign DIR --key KEY.pem`)")
    key, _, said = release.signer(dict(env, **{release.KEY_ENV: str(tmp_path / "rel.pem")}))
    assert key == tmp_path / "rel.pem" and said == f"signed with the release key rel.pub.pem (SHA-256 {fp})"
    with pytest.raises(firmware.BuildError, match="is not the private half of"):
        release.signer(dict(env, **{release.KEY_ENV: str(tmp_path / "other.pem")}))
