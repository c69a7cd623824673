# RSASSA-PKCS1-v1_5 signature verification with SHA-256 (RFC 8017 8.2.2), pure MicroPython: the
# release manifest's signature is checked at power-up with the public key built into the image.
# A public operation only: no secret is handled here, so nothing needs to run in constant time. The
# exponentiation is written out (not pow()) so that no intermediate is much larger than the modulus.
import binascii

# DigestInfo for SHA-256 (RFC 8017 9.2, note 1): DER of AlgorithmIdentifier sha256 + OCTET STRING(32)
_PREFIX = binascii.unhexlify("3031300d060960864801650304020105000420")
_MIN_PS = 8  # RFC 8017 9.2 step 3: at least 8 bytes of 0xff padding
_STEP = 16  # bytes of a multiplier taken at a time (mulmod): a block 16 bytes above the modulus at most;
# fewer is slower (3 bytes: 3 times the time), more keeps larger blocks


def encoded(digest, k):
    """EM = 0x00 0x01 PS(0xff...) 0x00 DigestInfo, k bytes (EMSA-PKCS1-v1_5, RFC 8017 9.2)."""
    t = len(_PREFIX) + len(digest)
    if len(digest) != 32 or k < t + 3 + _MIN_PS:
        raise ValueError("key too short for a SHA-256 DigestInfo")
    em = bytearray(k)
    em[1] = 1
    for i in range(2, k - t - 1):
        em[i] = 0xFF
    em[k - t:k - len(digest)] = _PREFIX
    em[k - len(digest):] = digest
    return em


def mulmod(a, b, n, k):
    """a * b mod n for 0 <= a, b < n < 256 ** k, with no number in the heap larger than n by more than
    _STEP + 1 bytes: a is taken _STEP bytes at a time from its top (Horner), each step reduced at once.
    A 3072-bit product in one piece is 768 contiguous bytes, which a board's fragmented heap may not
    have even with 20 KB free (make test: 'out of memory for enrol' on the 128K heap); every block
    here is about the modulus's 384."""
    k = (k + _STEP - 1) // _STEP * _STEP  # a whole number of pieces
    buf = memoryview(a.to_bytes(k, "big"))
    r = 0
    for i in range(0, k, _STEP):
        r = ((r << (8 * _STEP)) + int.from_bytes(buf[i:i + _STEP], "big") * b) % n
    return r


def powmod(s, e, n, k):
    """s ** e mod n (left to right, square and multiply), every product by mulmod."""
    if e < 1:
        raise ValueError("a public exponent is 1 or more")
    top = 0
    while e >> (top + 1):
        top += 1
    r = s
    for bit in range(top - 1, -1, -1):
        r = mulmod(r, r, n, k)
        if (e >> bit) & 1:
            r = mulmod(r, s, n, k)
    return r


def verify(modulus, exponent, digest, sig):
    """True when `sig` is a PKCS#1 v1.5 signature of the SHA-256 `digest` under the public key
    (modulus: big-endian bytes, its length k; exponent: int). The whole decoded block is compared
    with the one expected, never parsed: a parser is where forged signatures slip through
    (Bleichenbacher 2006)."""
    k = len(modulus)
    if len(sig) != k:  # RFC 8017 8.2.2 step 1
        return False
    n = int.from_bytes(modulus, "big")
    s = int.from_bytes(sig, "big")
    if s >= n:  # RSAVP1: the signature representative must be below the modulus
        return False
    return powmod(s, exponent, n, k).to_bytes(k, "big") == encoded(digest, k)
