# PBKDF2-HMAC-SHA256 against RFC 7914 s. 11 (the PBKDF2-HMAC-SHA256 test vectors); the host's
# hashlib.pbkdf2_hmac cross-check is tests/host/test_access_pbkdf2.py.
from binascii import unhexlify

from rng.crypto.pbkdf2 import pbkdf2_sha256

RFC7914_1 = unhexlify("55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                      "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
RFC7914_2 = unhexlify("4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
                      "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d")


def test_rfc7914_one_iteration():
    assert pbkdf2_sha256(b"passwd", b"salt", 1, 64) == RFC7914_1


def test_rfc7914_80000_iterations():
    assert pbkdf2_sha256(b"Password", b"NaCl", 80000, 64) == RFC7914_2


def test_short_output_is_a_prefix_and_bad_counts_are_refused():
    assert pbkdf2_sha256(b"passwd", b"salt", 1, 20) == RFC7914_1[:20]
    for it, n in ((0, 32), (1, 0)):
        try:
            pbkdf2_sha256(b"p", b"s", it, n)
            raise AssertionError("accepted %d iterations, %d bytes" % (it, n))
        except ValueError:
            pass
