# HMAC-SHA256 (RFC 2104, FIPS 198-1) for any key and a message fed in pieces: MicroPython has no
# `hmac` module. Sealing critical memory, the inspector's `verify SEED` and PBKDF2 build on it.
# (rng/hmac_drbg.py keeps its own inlined HMAC: a 32-byte key only, tuned for the draw path.)
import hashlib

_BLOCK = 64  # SHA-256 block size, bytes
_IPAD = int.from_bytes(b"\x36" * _BLOCK, "big")
_OPAD = int.from_bytes(b"\x5c" * _BLOCK, "big")


def pads(key):
    """(key XOR ipad, key XOR opad), 64 bytes each: computed once per key, reused per message."""
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()  # RFC 2104: a longer key is hashed first
    k = int.from_bytes(key, "big") << (8 * (_BLOCK - len(key)))  # zero-padded on the right
    return (k ^ _IPAD).to_bytes(_BLOCK, "big"), (k ^ _OPAD).to_bytes(_BLOCK, "big")


class Hmac:
    """h = Hmac(key); h.update(part) ...; h.digest() -> 32 bytes. One message per object."""

    def __init__(self, key, msg=None, keypads=None):
        self._ipad, self._opad = keypads or pads(key)
        self._inner = hashlib.sha256(self._ipad)
        if msg:
            self._inner.update(msg)

    def update(self, data):
        self._inner.update(data)

    def digest(self):
        outer = hashlib.sha256(self._opad)
        outer.update(self._inner.digest())
        return outer.digest()


def hmac_sha256(key, msg):
    return Hmac(key, msg).digest()


def equal(a, b):
    """Compare two MACs in time that does not depend on where they differ."""
    if len(a) != len(b):
        return False
    diff = 0
    for i in range(len(a)):
        diff |= a[i] ^ b[i]
    return diff == 0
