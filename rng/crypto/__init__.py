# The device's cryptography, in one place: what MicroPython lacks and Jeton needs, on hashlib's SHA-256.
#   hmac_sha256.py  HMAC-SHA256 (RFC 2104): critical memory's seal, `verify SEED`, coupon numbers, enrolment
#   pbkdf2.py       PBKDF2-HMAC-SHA256 (RFC 8018): the console accounts' PINs
#   rsa.py          RSASSA-PKCS1-v1_5 / SHA-256 verification (RFC 8017), a 3-argument pow(): the signed
#                   release, the operator's configuration and enrolments
#   canon.py        the canonical form of a JSON-like value and its SHA-256: a model's math hash (the
#                   certificate binds it), a game's recall digest
# It sits in rng/, the one room both games/ (canon) and firmware/ may import: rng imports nothing of
# ours, and neither does this package (docs/architecture.md). The DRBG keeps its own HMAC, inlined
# for a 32-byte key on the draw path (rng/hmac_drbg.py).
