# mp-heap: 384K
# RSASSA-PKCS1-v1_5 / SHA-256 verification (rng/crypto/rsa.py) on both runtimes, against vectors
# made by `cryptography` with throwaway RSA-3072 keys (tests/fixtures/rsa/pkcs1v15-sha256.json, written
# by tests/host/rsa_vectors.py; tests/host/test_signature.py checks fresh ones on every run).
import binascii
import hashlib
import json

from rng.crypto import rsa

VECTORS = __file__.rpartition("/")[0] + "/../fixtures/rsa/pkcs1v15-sha256.json"


def _load():
    with open(VECTORS) as f:
        return json.load(f)


def test_every_vector_verifies_as_cryptography_says():
    v = _load()
    n = binascii.unhexlify(v["n"])
    assert len(n) == 384  # RSA-3072
    assert len(v["cases"]) == 10
    for c in v["cases"]:
        digest = hashlib.sha256(binascii.unhexlify(c["msg"])).digest()
        got = rsa.verify(n, v["e"], digest, binascii.unhexlify(c["sig"]))
        assert got is c["valid"], c["name"]


def test_the_encoded_block_is_rfc8017s():
    # RFC 8017 9.2 note 1: the SHA-256 DigestInfo prefix, written out here, not taken from the module
    digest = bytes(range(32))
    em = rsa.encoded(digest, 384)
    prefix = binascii.unhexlify("3031300d060960864801650304020105000420")
    assert bytes(em) == b"\x00\x01" + b"\xff" * (384 - 3 - 19 - 32) + b"\x00" + prefix + digest


def test_a_digest_of_the_wrong_size_or_a_key_too_short_is_an_error():
    from devtest import raises

    with raises(ValueError):
        rsa.encoded(b"\0" * 20, 384)
    with raises(ValueError):
        rsa.encoded(b"\0" * 32, 61)  # no room for 8 bytes of padding
