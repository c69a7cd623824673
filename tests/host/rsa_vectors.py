"""RSASSA-PKCS1-v1_5 / SHA-256 test vectors made by `cryptography` (not by the code under test):
tests/fixtures/rsa/pkcs1v15-sha256.json was written once by `python -m tests.host.rsa_vectors
tests/fixtures/rsa/pkcs1v15-sha256.json` with throwaway keys (discarded: only the public modulus is
kept). tests/host/test_signature.py makes fresh ones the same way on every run."""
from __future__ import annotations

import hashlib
import json
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

MANIFEST = (b"# jeton-release version=0.1.0 counter=1000\n"
            + b"".join(b"%s  models/g%d.json\n" % (hashlib.sha256(b"%d" % i).hexdigest().encode(), i) for i in range(12)))


def make(bits: int = 3072) -> dict:
    key = rsa.generate_private_key(public_exponent=65537, key_size=bits)
    other = rsa.generate_private_key(public_exponent=65537, key_size=bits)
    nums = key.public_key().public_numbers()
    k = bits // 8
    n = nums.n.to_bytes(k, "big")

    def sig(msg: bytes, by=key, pad=None, alg=None) -> bytes:
        return by.sign(msg, pad or padding.PKCS1v15(), alg or hashes.SHA256())

    good = sig(MANIFEST)
    flipped_msg = bytearray(MANIFEST)
    flipped_msg[50] ^= 0x04
    flipped_sig = bytearray(good)
    flipped_sig[200] ^= 0x10
    cases = [
        ("the manifest", MANIFEST, good, True),
        ("an empty message", b"", sig(b""), True),
        ("one bit of the signature flipped", MANIFEST, bytes(flipped_sig), False),
        ("one bit of the message flipped", bytes(flipped_msg), good, False),
        ("signed by another key", MANIFEST, sig(MANIFEST, by=other), False),
        ("one byte short (the first dropped)", MANIFEST, good[1:], False),
        ("one byte long (a zero in front: the same number)", MANIFEST, b"\0" + good, False),
        ("the modulus itself (not below n)", MANIFEST, n, False),
        ("PKCS#1 v1.5 with SHA-1's DigestInfo", MANIFEST, sig(MANIFEST, alg=hashes.SHA1()), False),
        ("PSS, not PKCS#1 v1.5", MANIFEST, sig(MANIFEST, pad=padding.PSS(padding.MGF1(hashes.SHA256()), 32)), False),
    ]
    return {"source": "cryptography %s, RSA-%d throwaway keys (tests/host/rsa_vectors.py)" % (
                __import__("cryptography").__version__, bits),
            "n": n.hex(), "e": nums.e,
            "cases": [{"name": c, "msg": m.hex(), "sig": s.hex(), "valid": v} for c, m, s, v in cases]}


if __name__ == "__main__":
    with open(sys.argv[1], "w") as f:
        json.dump(make(), f, indent=1)
        f.write("\n")
