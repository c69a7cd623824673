# HMAC_DRBG with SHA-256, NIST SP 800-90A Rev. 1 section 10.1.2 (security strength 256 bits).
# HMAC is built here from fresh hashlib.sha256 objects: MicroPython has no `hmac` module and its
# hash objects have no copy(). Where copy() exists (CPython) the keyed pad states are cached; the
# output is the same HMAC either way (CAVP vectors run on both runtimes).
import hashlib

from rng.failure import RngFailure

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


OUTLEN = const(32)  # SHA-256 output, bytes
MAX_REQUEST = const(65536)  # max_number_of_bits_per_request = 2**19 bits (Table 2)
RESEED_INTERVAL_MAX = 1 << 48  # Table 2: reseed_interval <= 2**48 (not a small int: no const)

# 64-byte pad constants as ints: key XOR pad is then one bigint XOR, not a 64-step Python loop.
_IPAD = int.from_bytes(b"\x36" * 64, "big")
_OPAD = int.from_bytes(b"\x5c" * 64, "big")
_ZERO = b"\x00"
_ONE = b"\x01"
_sha256 = hashlib.sha256
_HAS_COPY = hasattr(_sha256(), "copy")


class HmacDrbg:
    """The mechanism (SP 800-90A 10.1.2): instantiate, reseed, generate. No entropy source here:
    callers pass entropy input; rng.generator wires the health-tested source and the schedule."""

    def __init__(self, reseed_interval=RESEED_INTERVAL_MAX):
        if not 1 <= reseed_interval <= RESEED_INTERVAL_MAX:
            raise ValueError("reseed_interval")
        self.reseed_interval = reseed_interval
        self.reseed_counter = 0  # 0: not instantiated
        self._k = b""
        self._v = bytearray(OUTLEN)
        self._ipad = b""
        self._opad = b""
        self._ih = None  # cached keyed states (CPython only)
        self._oh = None

    # -- HMAC-SHA256(K, parts...) -----------------------------------------------------------
    def _set_key(self, k):
        self._k = k
        ki = int.from_bytes(k, "big") << 256  # key is 32 bytes: left-aligned in a 64-byte block
        self._ipad = (ki ^ _IPAD).to_bytes(64, "big")
        self._opad = (ki ^ _OPAD).to_bytes(64, "big")
        if _HAS_COPY:
            self._ih = _sha256(self._ipad)
            self._oh = _sha256(self._opad)

    def _hmac(self, a, b=None, c=None, d=None, e=None):
        if _HAS_COPY:
            h = self._ih.copy()
        else:
            h = _sha256(self._ipad)
        h.update(a)
        if b:
            h.update(b)
        if c:
            h.update(c)
        if d:
            h.update(d)
        if e:
            h.update(e)
        if _HAS_COPY:
            o = self._oh.copy()
        else:
            o = _sha256(self._opad)
        o.update(h.digest())
        return o.digest()

    def _update(self, p1=None, p2=None, p3=None):
        # 10.1.2.2 HMAC_DRBG_Update; provided_data = p1 || p2 || p3 (kept apart: no concatenation)
        v = self._v
        self._set_key(self._hmac(v, _ZERO, p1, p2, p3))
        v[:] = self._hmac(v)
        if not (p1 or p2 or p3):
            return
        self._set_key(self._hmac(v, _ONE, p1, p2, p3))
        v[:] = self._hmac(v)

    # -- SP 800-90A functions -------------------------------------------------------------------
    def instantiate(self, entropy, nonce=b"", personalization=b""):
        """10.1.2.3: seed_material = entropy_input || nonce || personalization_string."""
        self._set_key(b"\x00" * OUTLEN)
        v = self._v
        for i in range(OUTLEN):
            v[i] = 1
        self._update(entropy, nonce, personalization)
        self.reseed_counter = 1

    def reseed(self, entropy, additional=b""):
        """10.1.2.4: seed_material = entropy_input || additional_input."""
        self._check()
        self._update(entropy, additional)
        self.reseed_counter = 1

    def generate_into(self, out, additional=b""):
        """10.1.2.5: fill `out` (bytearray/memoryview, at most 65536 bytes) with one request."""
        self._check()
        n = len(out)
        if n > MAX_REQUEST:
            raise ValueError("request too large")
        if self.reseed_counter > self.reseed_interval:
            raise RngFailure("reseed_required", "reseed_counter %d" % self.reseed_counter)
        if additional:
            self._update(additional)
        v = self._v
        i = 0
        while i < n:
            v[:] = self._hmac(v)
            m = n - i
            if m >= OUTLEN:
                out[i : i + OUTLEN] = v
                i += OUTLEN
            else:
                out[i:n] = memoryview(v)[:m]
                i = n
        self._update(additional)
        self.reseed_counter += 1

    def generate(self, n, additional=b""):
        out = bytearray(n)
        self.generate_into(out, additional)
        return bytes(out)

    def _check(self):
        if not self.reseed_counter:
            raise ValueError("DRBG not instantiated")

    def uninstantiate(self):
        """9.4: zeroize the internal state."""
        self._set_key(b"\x00" * OUTLEN)
        v = self._v
        for i in range(OUTLEN):
            v[i] = 0
        self.reseed_counter = 0
