# HMAC-SHA256 on both runtimes, against RFC 4231 section 4 (test cases 1-4, 6 and 7: short, long
# and over-long keys, short and 50-byte messages) and in pieces.
from rng.crypto.hmac_sha256 import Hmac, equal, hmac_sha256


def h(s):
    return bytes.fromhex(s)


# (key, data, HMAC-SHA256) from RFC 4231, section 4.2-4.8 (test case 5 is truncated output: left out)
RFC4231 = (
    (b"\x0b" * 20, b"Hi There",
     "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    (b"Jefe", b"what do ya want for nothing?",
     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    (b"\xaa" * 20, b"\xdd" * 50,
     "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
    (h("0102030405060708090a0b0c0d0e0f10111213141516171819"), b"\xcd" * 50,
     "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
    (b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First",
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    (b"\xaa" * 131, b"This is a test using a larger than block-size key and a larger than block-size data."
     b" The key needs to be hashed before being used by the HMAC algorithm.",
     "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
)


def test_rfc4231_vectors():
    for key, data, mac in RFC4231:
        assert hmac_sha256(key, data) == h(mac), mac


def test_a_message_fed_in_pieces_gives_the_same_mac():
    for key, data, mac in RFC4231:
        m = Hmac(key)
        for i in range(0, len(data), 7):
            m.update(data[i:i + 7])
        assert m.digest() == h(mac)


def test_equal_tells_macs_apart():
    a = hmac_sha256(b"k", b"m")
    assert equal(a, bytes(a))
    assert not equal(a, a[:-1] + bytes([a[-1] ^ 1]))
    assert not equal(a, a[:31])
