"""tools.sign: key generation, signing the release manifest, checking a signed release (each
tamper case named). Keys are throwaway keys made here; no key is committed."""
from __future__ import annotations

import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding

from tools import release, sign


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("keys")
    sign.keygen(d / "a.pem")
    sign.keygen(d / "b.pem")
    return {"a": d / "a.pem", "a.pub": d / "a.pub.pem", "b": d / "b.pem", "b.pub": d / "b.pub.pem"}


def _release(tmp: Path) -> Path:
    """A small release folder laid out as tools.release writes one, its manifest from release.sums."""
    d = tmp / "jeton-0.1.0"
    for rel, data in (("firmware/micropython-unix", b"\x7fELF image"), ("mpy/firmware/main.mpy", b"M\x06"),
                      ("models/g.json", b'{"id": "g"}'), ("certs/g.json", b'{"id": "g", "rtp": 0.9}'),
                      ("RELEASE.md", b"# Jeton\n")):
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_bytes(data)
    (d / "SHA256SUMS").write_text(release.sums(d, "0.1.0"))
    return d


def test_keygen_writes_a_private_key_only_its_owner_reads(tmp_path: Path, keys: dict[str, Path]) -> None:
    assert stat.S_IMODE(keys["a"].stat().st_mode) == 0o600
    assert keys["a.pub"].read_bytes().startswith(b"-----BEGIN PUBLIC KEY-----")
    pub = sign.load_public(keys["a.pub"])
    assert pub.key_size == 3072 and pub.public_numbers().e == 65537
    with pytest.raises(sign.ReleaseError, match="exists"):
        sign.keygen(keys["a"])  # a key is never overwritten


def test_keygen_command_line(tmp_path: Path) -> None:
    assert sign.main(["keygen", str(tmp_path / "k.pem")]) == 0
    assert stat.S_IMODE((tmp_path / "k.pem").stat().st_mode) == 0o600
    assert (tmp_path / "k.pub.pem").is_file()


def test_manifest_carries_the_release_number_and_sha256sum_accepts_it(tmp_path: Path) -> None:
    d = _release(tmp_path)
    text = (d / "SHA256SUMS").read_text()
    assert text.splitlines()[0] == "# jeton-release version=0.1.0 counter=1000"
    assert release.counter("1.2.3") == 1002003 and release.counter("0.10.0") > release.counter("0.9.999")
    if shutil.which("sha256sum"):  # GNU coreutils, an independent check of the format
        r = subprocess.run(["sha256sum", "-c", "--strict", "SHA256SUMS"], cwd=d, capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr


def test_sign_then_check_and_the_signature_is_pkcs1v15_sha256(tmp_path: Path, keys: dict[str, Path]) -> None:
    d = _release(tmp_path)
    assert sign.main(["sign", str(d), "--key", str(keys["a"])]) == 0
    sig = (d / "SHA256SUMS.sig").read_bytes()
    assert len(sig) == 384
    # cryptography itself, not tools.sign, says it is RSASSA-PKCS1-v1_5 with SHA-256 over the manifest
    sign.load_public(keys["a.pub"]).verify(sig, (d / "SHA256SUMS").read_bytes(), padding.PKCS1v15(), hashes.SHA256())
    assert sign.check(d, keys["a.pub"]) == {"version": "0.1.0", "counter": "1000"}
    assert sign.main(["check", str(d), "--pub", str(keys["a.pub"])]) == 0


def test_sign_refuses_a_folder_that_does_not_match_its_manifest(tmp_path: Path, keys: dict[str, Path]) -> None:
    d = _release(tmp_path)
    (d / "models" / "g.json").write_bytes(b'{"id": "h"}')
    with pytest.raises(sign.ReleaseError, match="models/g.json"):
        sign.sign(d, keys["a"])
    assert not (d / "SHA256SUMS.sig").exists()


def _flip(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0x01
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("tamper, named", [
    (lambda d, k: _flip(d / "firmware/micropython-unix", 3), "firmware/micropython-unix"),
    (lambda d, k: _flip(d / "mpy/firmware/main.mpy", 1), "mpy/firmware/main.mpy"),
    (lambda d, k: _flip(d / "models/g.json", 2), "models/g.json"),
    (lambda d, k: _flip(d / "certs/g.json", 5), "certs/g.json"),
    (lambda d, k: _flip(d / "SHA256SUMS", 40), "SHA256SUMS.sig: not a signature"),
    (lambda d, k: _flip(d / "SHA256SUMS.sig", 100), "SHA256SUMS.sig: not a signature"),
    (lambda d, k: (d / "SHA256SUMS.sig").write_bytes(
        sign.sign_bytes(sign.load_private(k["b"]), (d / "SHA256SUMS").read_bytes())), "not a signature"),
    (lambda d, k: (d / "models" / "extra.json").write_text("{}"), "models/extra.json: not listed"),
    (lambda d, k: (d / "certs" / "g.json").unlink(), "certs/g.json: listed in SHA256SUMS, missing"),
    (lambda d, k: (d / "SHA256SUMS.sig").unlink(), "unsigned"),
])
def test_check_refuses_every_tamper_naming_the_file(tmp_path: Path, keys: dict[str, Path], tamper, named) -> None:
    d = _release(tmp_path)
    sign.sign(d, keys["a"])
    sign.check(d, keys["a.pub"])
    tamper(d, keys)
    with pytest.raises(sign.ReleaseError, match=named):
        sign.check(d, keys["a.pub"])
    assert sign.main(["check", str(d), "--pub", str(keys["a.pub"])]) == 1


def test_check_refuses_a_manifest_resigned_by_another_key(tmp_path: Path, keys: dict[str, Path]) -> None:
    d = _release(tmp_path)
    sign.sign(d, keys["b"])
    with pytest.raises(sign.ReleaseError, match="not a signature"):
        sign.check(d, keys["a.pub"])


def test_a_manifest_without_its_release_number_is_refused(tmp_path: Path) -> None:
    with pytest.raises(sign.ReleaseError, match="version=V counter=N"):
        sign.parse_sums("0" * 64 + "  a\n")
    with pytest.raises(sign.ReleaseError, match="line feed"):
        sign.parse_sums("# jeton-release version=0.1.0 counter=1000\n" + "0" * 64 + "  a")


def test_check_names_a_folder_that_is_not_a_release(tmp_path: Path, keys: dict[str, Path],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A mistyped path, or the folder above the release, was "SHA256SUMS.sig: missing (an unsigned
    release)" (issue 23: docs/build.md's `tools.sign check` run as written, on a wrong path)."""
    d = _release(tmp_path)
    sign.sign(d, keys["a"])
    for folder, named in ((tmp_path / "jeton-9.9.9", f"{tmp_path / 'jeton-9.9.9'}: no such folder"),
                          (tmp_path, f"{tmp_path}: no SHA256SUMS (not a release folder)")):
        assert sign.main(["check", str(folder), "--pub", str(keys["a.pub"])]) == 1
        assert capsys.readouterr().err == f"sign: {named}\n"
