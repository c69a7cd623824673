"""rng/crypto/pbkdf2.py against the host's hashlib.pbkdf2_hmac (OpenSSL), over keys longer than a block."""
import hashlib

import pytest

from rng.crypto.pbkdf2 import pbkdf2_sha256


@pytest.mark.parametrize("password,salt,iterations,dklen", [
    (b"123456", b"\x00" * 16, 2000, 32), (b"k" * 100, b"salt", 3, 40), (b"", b"", 1, 32),
    (b"correct horse battery staple", bytes(range(16)), 17, 97)])
def test_matches_hashlib(password: bytes, salt: bytes, iterations: int, dklen: int) -> None:
    assert pbkdf2_sha256(password, salt, iterations, dklen) == hashlib.pbkdf2_hmac(
        "sha256", password, salt, iterations, dklen)
