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


def test_the_modular_arithmetic_agrees_with_the_runtimes_pow():
    # the built-in three-argument pow() is the independent implementation checked against
    v = _load()
    n = int.from_bytes(binascii.unhexlify(v["n"]), "big")
    x = int.from_bytes(hashlib.sha256(b"jeton rsa").digest() * 12, "big") % n  # 3072 bits of no pattern
    cases = ((0, 5), (1, n - 1), (n - 1, n - 1), (x, n - 1), (x, x), (x >> 1000, x >> 7))
    for a, b in cases:
        assert rsa.mulmod(a, b, n, 384) == a * b % n
    for e in (1, 2, 3, 17, 65537, 0x10001 * 0x10003):
        assert rsa.powmod(x, e, n, 384) == pow(x, e, n), e
    from devtest import raises

    with raises(ValueError):
        rsa.powmod(x, 0, n, 384)


# A 3072-bit signature is checked on a board whose heap may be in pieces: the first administrator's
# enrolment after a lost security memory (firmware/enrolment.py) ran out of memory on the 128K heap
# with 20 to 29 KB free, pow() asking for 770 bytes in one piece (a product of two 384-byte numbers).
def test_a_signature_verifies_in_a_heap_with_no_piece_above_640_bytes():
    import sys

    v = _load()
    n = binascii.unhexlify(v["n"])
    case = [c for c in v["cases"] if c["valid"]][0]
    digest = hashlib.sha256(binascii.unhexlify(case["msg"])).digest()
    sig = binascii.unhexlify(case["sig"])
    if sys.implementation.name != "micropython":  # CPython's heap is not the board's: the check alone
        assert rsa.verify(n, v["e"], digest, sig) is True
        return
    import gc

    from heap_pieces import HOLE, in_pieces, pieces_back

    try:
        holes = in_pieces()
        assert holes >= 40 and gc.mem_free() >= 40 * HOLE, (holes, gc.mem_free())
        ok = rsa.verify(n, v["e"], digest, sig)
    finally:
        pieces_back()
    assert ok is True
