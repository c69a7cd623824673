# PBKDF2-HMAC-SHA256 (RFC 8018 s. 5.2) for the console's account PINs: MicroPython has no
# hashlib.pbkdf2_hmac. The key pads are hashed once per call; each iteration then costs two
# SHA-256 objects and their digests, nothing more (the XOR is kept as one int, not a byte loop).
import hashlib

from rng.crypto.hmac_sha256 import pads

_LEN = 32  # SHA-256 output, bytes


def pbkdf2_sha256(password, salt, iterations, dklen=_LEN):
    """The derived key (bytes, dklen long) of password and salt (bytes) after `iterations` rounds."""
    if iterations < 1 or dklen < 1:
        raise ValueError("PBKDF2 needs iterations >= 1 and dklen >= 1")
    ipad, opad = pads(password)
    out = b""
    block = 1
    while len(out) < dklen:
        h = hashlib.sha256(ipad)
        h.update(salt)
        h.update(block.to_bytes(4, "big"))
        o = hashlib.sha256(opad)
        o.update(h.digest())
        u = o.digest()
        acc = int.from_bytes(u, "big")
        for _ in range(iterations - 1):
            h = hashlib.sha256(ipad)
            h.update(u)
            o = hashlib.sha256(opad)
            o.update(h.digest())
            u = o.digest()
            acc ^= int.from_bytes(u, "big")
        out += acc.to_bytes(_LEN, "big")
        block += 1
    return out[:dklen]
