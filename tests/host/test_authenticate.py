"""firmware/authenticate.py's fault paths under CPython, with manifests signed by `cryptography`
(throwaway keys) and a fake board; tests/host/test_e2e_software.py runs the tamper cases on the
real firmware image."""
from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from firmware import authenticate

IMAGE_BYTES = b"\x7fELF the image" * 100
MODEL = b'{"id": "g"}'
CERT = b'{"id": "g", "rtp": "0.9"}'


@pytest.fixture(scope="module")
def key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=3072)


def pub(key: rsa.RSAPrivateKey) -> tuple[bytes, int, bool]:
    nums = key.public_key().public_numbers()
    return nums.n.to_bytes(384, "big"), nums.e, False


def sums(header: str = "# jeton-release version=0.1.0 counter=1000\n", **files: bytes) -> bytes:
    files = files or {"certs/g.json": CERT, "firmware/micropython-unix": IMAGE_BYTES, "models/g.json": MODEL}
    return (header + "".join(f"{hashlib.sha256(d).hexdigest()}  {n}\n" for n, d in sorted(files.items()))).encode()


class Board:
    IMAGE = "firmware/micropython-unix"

    def __init__(self, record: dict[str, bytes], image: bytes = IMAGE_BYTES):
        self.record = record
        self.img = image

    def image(self):
        return io.BytesIO(self.img)

    def release_file(self, name: str):
        if name not in self.record:
            raise OSError(2, name)
        return io.BytesIO(self.record[name])


def signed(key: rsa.RSAPrivateKey, manifest: bytes) -> dict[str, bytes]:
    return {"SHA256SUMS": manifest, "SHA256SUMS.sig": key.sign(manifest, padding.PKCS1v15(), hashes.SHA256())}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    for kind, body in (("models", MODEL), ("certs", CERT)):
        (tmp_path / kind).mkdir()
        (tmp_path / kind / "g.json").write_bytes(body)
    return tmp_path


def check(board, key, data: Path, last=1000):
    return authenticate.check(board, pub(key), ("g",), str(data / "models"), str(data / "certs"), last)


def test_an_authentic_release(key, data: Path) -> None:
    assert check(Board(signed(key, sums())), key, data) == ("0.1.0", 1000)
    assert check(Board(signed(key, sums())), key, data, last=None) == ("0.1.0", 1000)  # RAM error: nothing to compare


def test_a_board_that_cannot_read_its_image_back_still_checks_the_games(key, data: Path) -> None:
    board = Board(signed(key, sums()))
    board.IMAGE = None
    board.image = None
    assert check(board, key, data) == ("0.1.0", 1000)
    (data / "models" / "g.json").write_bytes(b"{}")
    with pytest.raises(authenticate.SoftwareError, match="models/g.json: SHA-256 differs"):
        check(board, key, data)


def test_a_listed_file_that_is_gone(key, data: Path) -> None:
    (data / "certs" / "g.json").unlink()
    with pytest.raises(authenticate.SoftwareError, match="^certs/g.json: listed in SHA256SUMS, missing$"):
        check(Board(signed(key, sums())), key, data)


def test_an_unsigned_release_and_no_release_at_all(key, data: Path) -> None:
    with pytest.raises(authenticate.SoftwareError, match=r"^SHA256SUMS.sig: missing \(an unsigned release\)$"):
        check(Board({"SHA256SUMS": sums()}), key, data)
    with pytest.raises(authenticate.SoftwareError, match="^SHA256SUMS: missing$"):
        check(Board({}), key, data)


def test_a_signed_manifest_without_its_release_number(key, data: Path) -> None:
    with pytest.raises(authenticate.SoftwareError, match="^SHA256SUMS: no release number$"):
        check(Board(signed(key, sums(header=""))), key, data)
    with pytest.raises(authenticate.SoftwareError, match="^SHA256SUMS: no release number$"):
        check(Board(signed(key, sums(header="# jeton-release version=0.1.0 counter=x\n"))), key, data)
    with pytest.raises(authenticate.SoftwareError, match="^SHA256SUMS: no release number$"):  # past its bound
        check(Board(signed(key, sums(header="# jeton-release version=1.0.0 counter=1000000000\n"))), key, data)


def test_the_same_release_number_boots_an_older_one_does_not(key, data: Path) -> None:
    assert check(Board(signed(key, sums())), key, data, last=1000) == ("0.1.0", 1000)
    with pytest.raises(authenticate.SoftwareError, match="number 1000\\) is older than number 1001"):
        check(Board(signed(key, sums())), key, data, last=1001)


def test_the_signature_is_checked_before_anything_the_manifest_says_is_believed(key, data: Path) -> None:
    other = rsa.generate_private_key(public_exponent=65537, key_size=3072)
    # an older release number signed by another key: refused for the key, not believed for its number
    with pytest.raises(authenticate.SoftwareError, match="not a signature"):
        check(Board(signed(other, sums())), key, data, last=5000)


def test_builtin_key_is_none_outside_a_firmware_image() -> None:
    assert authenticate.builtin_key() is None  # CPython on the checkout: no jeton_key module
