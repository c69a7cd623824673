# The outcome generator: health-tested source -> HMAC_DRBG -> randbits(k).
#
# Byte stream: randbits(k) takes the next ceil(k/8) bytes of DRBG output (big-endian) and keeps the
# top k bits. Output comes in generate requests of _BUF bytes; idle() throws away whatever is
# buffered, so no draw ever uses output computed before the last idle() call.
#
# Reseed schedule (all from the health-tested hardware source):
#   soft: after RESEED_REQUESTS generate requests or RESEED_MS of time, whichever first; the
#         samples are gathered by idle() at most IDLE_SAMPLES per call, then reseed.
#   hard: the DRBG's reseed_interval (RESEED_INTERVAL requests): when reached, the next request
#         reseeds synchronously before generating (SP 800-90A 9.3.1 step 6).
#   prediction_resistance=True: every request reseeds first (slow; off by default).
from rng.clock import ticks_diff, ticks_ms
from rng.failure import RngFailure
from rng.hmac_drbg import MAX_REQUEST, HmacDrbg

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


SECURITY_BITS = const(256)
INSTANTIATE_BITS = const(384)  # entropy input 256 + nonce 128 from the same source (90A 8.6.7)
RESEED_REQUESTS = const(4096)
RESEED_MS = const(300000)  # 5 minutes
RESEED_INTERVAL = const(65536)
IDLE_SAMPLES = const(32)
_BUF = const(128)  # one generate request for randbits: 4 output blocks + 2 update HMACs
_SPIN = const(32)  # idle() request size: one output block


class Generator:
    """randbits(k), readinto(buf), idle(), reseed(). See rng/__init__.py for the contract."""

    def __init__(self, drbg, entropy=None, prediction_resistance=False, ticks=None):
        self._drbg = drbg
        self._ent = entropy  # None: deterministic (lab dumps); never reseeds
        self._pr = prediction_resistance
        self._ticks = ticks or ticks_ms
        self._buf = bytearray(_BUF)
        self._pos = _BUF  # empty
        self._spin = bytearray(_SPIN)
        self._failure = None
        if entropy is not None:
            self._pool = bytearray(entropy.samples_for(SECURITY_BITS))
        else:
            self._pool = None
        self._pool_n = 0
        self._t_reseed = self._ticks()
        self.reseeds = 0

    # -- failure latch -------------------------------------------------------------------------
    @property
    def failure(self):
        return self._failure

    def _fail(self, e):
        self._failure = e
        self._pos = _BUF
        for i in range(_BUF):  # nothing generated before the failure is handed out after it
            self._buf[i] = 0
        raise e

    def _check(self):
        if self._failure is not None:
            raise self._failure

    # -- reseeding -----------------------------------------------------------------------------
    def _due(self):
        return (
            self._drbg.reseed_counter > RESEED_REQUESTS
            or ticks_diff(self._ticks(), self._t_reseed) >= RESEED_MS
        )

    def _gather(self, n):
        pool = self._pool
        k = self._pool_n
        n = min(n, len(pool) - k)
        self._ent.readinto(memoryview(pool)[k : k + n])
        self._pool_n = k + n
        if self._pool_n == len(pool):
            self._drbg.reseed(pool)
            for i in range(len(pool)):  # entropy input is secret: do not leave it in RAM
                pool[i] = 0
            self._pool_n = 0
            self._t_reseed = self._ticks()
            self.reseeds += 1

    def reseed(self):
        """Reseed now from the source (synchronous)."""
        self._check()
        if self._ent is None:
            return
        try:
            self._gather(len(self._pool))
        except RngFailure as e:
            self._fail(e)

    def _request(self, mv):
        self._check()
        try:
            if self._ent is not None and (
                self._pr or self._drbg.reseed_counter >= self._drbg.reseed_interval
            ):
                self._gather(len(self._pool))
            self._drbg.generate_into(mv)
        except RngFailure as e:
            self._fail(e)

    # -- public --------------------------------------------------------------------------------
    def randbits(self, k):
        """Uniform integer in [0, 2**k)."""
        if k <= 0:
            if k < 0:
                raise ValueError("randbits: k < 0")
            self._check()
            return 0
        nb = (k + 7) >> 3
        buf = self._buf
        v = 0
        for _ in range(nb):
            if self._pos >= _BUF:
                self._request(buf)
                self._pos = 0
            v = (v << 8) | buf[self._pos]
            self._pos += 1
        return v >> ((nb << 3) - k)

    def readinto(self, out):
        """Fill out with raw DRBG output, in generate requests of at most 65536 bytes."""
        mv = memoryview(out)
        n = len(mv)
        i = 0
        while i < n:
            m = min(n - i, MAX_REQUEST)
            self._request(mv[i : i + m])
            i += m

    def idle(self):
        """Call from the main loop while no game is being decided. Bounded work per call: either
        one 32-byte generate request (cycling) or, when a reseed is due, at most IDLE_SAMPLES
        health-tested source samples (reseeding once the pool is full). Drops buffered output."""
        self._check()
        self._pos = _BUF
        try:
            if self._ent is not None and (self._pool_n or self._due()):
                self._gather(IDLE_SAMPLES)
            else:
                self._drbg.generate_into(self._spin)
        except RngFailure as e:
            self._fail(e)


def instantiate(entropy, personalization=b"", prediction_resistance=False, ticks=None):
    """Start-up test the source, instantiate the DRBG from it, return a Generator."""
    entropy.startup()
    drbg = HmacDrbg(RESEED_INTERVAL)
    seed = bytearray(entropy.samples_for(INSTANTIATE_BITS))
    entropy.readinto(seed)
    drbg.instantiate(seed, b"", personalization)
    for i in range(len(seed)):
        seed[i] = 0
    return Generator(drbg, entropy, prediction_resistance, ticks)
