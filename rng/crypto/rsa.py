# RSASSA-PKCS1-v1_5 signature verification with SHA-256 (RFC 8017 8.2.2), pure MicroPython: the
# release manifest's signature is checked at power-up with the public key built into the image.
# A public operation needs only a 3-argument pow(); no secret is handled here, so nothing needs to
# run in constant time.
import binascii

# DigestInfo for SHA-256 (RFC 8017 9.2, note 1): DER of AlgorithmIdentifier sha256 + OCTET STRING(32)
_PREFIX = binascii.unhexlify("3031300d060960864801650304020105000420")
_MIN_PS = 8  # RFC 8017 9.2 step 3: at least 8 bytes of 0xff padding


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
    return pow(s, exponent, n).to_bytes(k, "big") == encoded(digest, k)
