# The outcome generator on both runtimes: its byte stream against a second HMAC_DRBG written here
# from SP 800-90A (no code shared with rng/), known answers, personalization (power-up counter),
# idle() cycling, the reseed schedule, prediction resistance.
import hashlib
import sys
from binascii import unhexlify

from devtest import raises
from fakes_rng import CounterSource

import rng
from rng import generator as G
from rng.entropy import EntropyInput
from rng.hmac_drbg import HmacDrbg


def _hmac(key, msg):
    # RFC 2104 over hashlib.sha256 (MicroPython has no hmac module): H(K^opad || H(K^ipad || m))
    k = bytearray(64)
    k[: len(key)] = key
    ipad = bytearray(64)
    opad = bytearray(64)
    for i in range(64):
        ipad[i] = k[i] ^ 0x36
        opad[i] = k[i] ^ 0x5C
    inner = hashlib.sha256(ipad)
    inner.update(msg)
    outer = hashlib.sha256(opad)
    outer.update(inner.digest())
    return outer.digest()


class RefDrbg:
    """HMAC_DRBG (SHA-256) as SP 800-90A 10.1.2 writes it, step by step: the test's own reference."""

    def __init__(self, entropy, nonce=b"", pers=b""):
        self.k = bytes(32)
        self.v = b"\x01" * 32
        self._update(entropy + nonce + pers)

    def _update(self, data):  # 10.1.2.2
        self.k = _hmac(self.k, self.v + b"\x00" + data)
        self.v = _hmac(self.k, self.v)
        if data:
            self.k = _hmac(self.k, self.v + b"\x01" + data)
            self.v = _hmac(self.k, self.v)

    def generate(self, n, add=b""):  # 10.1.2.5, no reseed check
        if add:
            self._update(add)
        out = b""
        while len(out) < n:
            self.v = _hmac(self.k, self.v)
            out += self.v
        self._update(add)
        return out[:n]


def test_the_reference_drbg_meets_its_cavp_answers():
    # tests/fixtures/cavp-drbg/HMAC_DRBG_SHA256_no_reseed.rsp, [PersonalizationStringLen = 256]
    # [AdditionalInputLen = 256] COUNT = 0 (line 401): instantiate, generate, generate
    d = RefDrbg(unhexlify("5d3286bc53a258a53ba781e2c4dcd79a790e43bbe0e89fb3eed39086be34174b"),
                unhexlify("c5422294b7318952ace7055ab7570abf"),
                unhexlify("2dba094d008e150d51c4135bb2f03dcde9cbf3468a12908a1b025c120c985b9d"))
    d.generate(128, unhexlify("793a7ef8f6f0482beac542bb785c10f8b7b406a4de92667ab168ecc2cf7573c6"))
    got = d.generate(128, unhexlify("2238cdb4e23d629fe0c2a83dd8d5144ce1a6229ef41dabe2a99ff722e510b530"))
    assert got == unhexlify(
        "d04678198ae7e1aeb435b45291458ffde0891560748b43330eaf866b5a6385e74c6fa5a5a44bdb284d436e98d244018d"
        "6acedcdfa2e9f499d8089e4db86ae89a6ab2d19cb705e2f048f97fb597f04106a1fa6a1416ad3d859118e079a0c319eb"
        "95686f4cbcce3b5101c7a0b010ef029c4ef6d06cdfac97efb9773891688c37cf")


def ref_drbg(pers=b"", seed=b"jeton"):
    """The DRBG open_generator() must have built from a CounterSource: 1024 start-up samples
    discarded, then ceil(384 / 7) = 55 samples of entropy input (nonce included)."""
    src = CounterSource(seed)
    src.readinto(bytearray(1024))
    e = bytearray(55)
    src.readinto(e)
    return RefDrbg(bytes(e), b"", pers)


def test_randbits_is_the_drbg_byte_stream():
    gen = rng.open_generator(CounterSource(), b"pers")
    d = ref_drbg(b"pers")
    stream = d.generate(128) + d.generate(128)
    # known answer: the first 32 bytes, also computed with CPython's hmac module from 90A 10.1.2
    assert stream[:32] == unhexlify("9091c404814b3434421c619eba153e930ab7272e6795454b44190f52162e9187")
    got = bytes([gen.randbits(8) for _ in range(200)])
    assert got == stream[:200]
    # k bits = top k bits of the next ceil(k/8) bytes, big-endian
    gen2 = rng.open_generator(CounterSource(), b"pers")
    assert gen2.randbits(12) == int.from_bytes(stream[0:2], "big") >> 4
    assert gen2.randbits(1) == stream[2] >> 7
    assert gen2.randbits(24) == int.from_bytes(stream[3:6], "big")


def test_randbits_edges():
    gen = rng.open_generator(CounterSource())
    d = ref_drbg()
    stream = b"".join([d.generate(128) for _ in range(7)])
    assert gen.randbits(0) == 0  # takes no byte
    with raises(ValueError):
        gen.randbits(-1)
    # 250 bytes across two 128-byte requests, then widths across the next boundaries (770 bytes
    # in all: the seventh request is entered)
    assert gen.randbits(2000) == int.from_bytes(stream[:250], "big")
    pos = 250
    for k in (1, 7, 8, 9, 31, 32, 33, 64):
        for _ in range(20):
            nb = (k + 7) // 8
            want = int.from_bytes(stream[pos:pos + nb], "big") >> (8 * nb - k)
            assert gen.randbits(k) == want, (k, pos)
            pos += nb


def test_personalization_power_up_counter_changes_everything():
    # even a source that repeats itself exactly after a restart gives a new sequence
    a = rng.open_generator(CounterSource(), b"machine-7|power-up-41")
    b = rng.open_generator(CounterSource(), b"machine-7|power-up-42")
    c = rng.open_generator(CounterSource(), b"machine-7|power-up-42")
    sa = [a.randbits(32) for _ in range(8)]
    sb = [b.randbits(32) for _ in range(8)]
    assert sa != sb
    assert sb == [c.randbits(32) for _ in range(8)]


def test_idle_discards_buffer_and_advances():
    gen = rng.open_generator(CounterSource())
    d = ref_drbg()
    first = d.generate(128)
    d.generate(32)  # idle(): one 32-byte request, thrown away
    after = d.generate(128)
    # known answers (CPython's hmac module, 90A 10.1.2): a generator that kept its buffer would
    # go on with first[8:16]; one that discarded it without a request, with the next 128 bytes
    assert first[:8] == unhexlify("1b544607b07ab192") and after[:8] == unhexlify("c4f3d749de158f98")
    assert gen.randbits(64) == int.from_bytes(first[:8], "big")
    gen.idle()
    assert gen.randbits(64) == int.from_bytes(after[:8], "big")


def test_idle_reseed_is_bounded_per_call():
    t = [0]
    src = CounterSource()
    gen = G.instantiate(EntropyInput(src), b"", False, lambda: t[0])
    assert gen.reseeds == 0
    t[0] = G.RESEED_MS  # the time-based schedule is due
    calls = 0
    while gen.reseeds == 0:
        before = src.reads
        gen.idle()
        assert src.reads - before <= G.IDLE_SAMPLES
        calls += 1
    assert calls == 2  # 37 samples (256 bits at 7 bits/sample) in chunks of 32
    assert src.reads == 1024 + 55 + 37
    # not due again until the next period
    for _ in range(10):
        gen.idle()
    assert gen.reseeds == 1 and src.reads == 1024 + 55 + 37


def test_reseed_by_request_count():
    gen = rng.open_generator(CounterSource())
    while gen._drbg.reseed_counter <= G.RESEED_REQUESTS:
        gen.idle()
    gen.idle()
    gen.idle()
    assert gen.reseeds == 1 and gen._drbg.reseed_counter == 1


def test_hard_reseed_interval_reseeds_synchronously():
    gen = rng.open_generator(CounterSource())
    gen._drbg.reseed_counter = G.RESEED_INTERVAL
    gen._pos = len(gen._buf)
    gen.randbits(8)
    assert gen.reseeds == 1 and gen._drbg.reseed_counter == 2


def test_prediction_resistance_reseeds_every_request():
    src = CounterSource()
    gen = rng.open_generator(src, b"", True)
    for _ in range(3 * 128):
        gen.randbits(8)
    assert gen.reseeds == 3


def test_deterministic_generator_readinto_and_reseed_required():
    d = HmacDrbg(reseed_interval=2)
    d.instantiate(b"e" * 32, b"n" * 16, b"p")
    gen = G.Generator(d)
    out = bytearray(70000)  # one buffer reused: fits the 256K heap
    mv = memoryview(out)
    gen.readinto(out)  # two requests: 65536 + 4464
    h1 = hashlib.sha256(mv[:65536]).digest()
    h2 = hashlib.sha256(mv[65536:]).digest()
    ref = HmacDrbg()
    ref.instantiate(b"e" * 32, b"n" * 16, b"p")
    ref.generate_into(mv[:65536])
    ref.generate_into(mv[65536:])
    assert hashlib.sha256(mv[:65536]).digest() == h1
    assert hashlib.sha256(mv[65536:]).digest() == h2
    with raises(rng.RngFailure) as r:
        gen.randbits(8)
    assert r.value.reason == "reseed_required"


def test_scaling_through_the_generator_known_answers():
    # below() and deal() on the generator, against the reference stream mapped by hand:
    # below(n) takes the top bitlen(n-1) bits of the next byte and rejects values >= n
    # (docs/rng.md); deal() is a partial Fisher-Yates, j = i + below(n - i)
    gen = rng.open_generator(CounterSource(), b"x")
    stream = ref_drbg(b"x").generate(128)
    pos = [0]

    def below(n):
        k = len(bin(n - 1)) - 2
        while True:
            v = stream[pos[0]] >> (8 - k)
            pos[0] += 1
            if v < n:
                return v

    want = [below(37) for _ in range(20)]
    assert [rng.below(gen, 37) for _ in range(20)] == want
    pool = list(range(52))
    for i in range(5):
        j = i + below(52 - i)
        pool[i], pool[j] = pool[j], pool[i]
    assert rng.deal(gen, 52, 5) == pool[:5]


def test_scaling_through_real_generator():
    # the emulated board's real source: every value of below(37) within 6 standard deviations of
    # its expected count (a chance failure: under 1e-7); a modulo mapping (6 bits mod 37) would
    # give 27 values twice the weight of the other 10 and put them 10 sd out
    gen = rng.open_generator(rng.open_source("emulated"), b"x")
    n = 37 * 300
    counts = [0] * 37
    for _ in range(n):
        counts[rng.below(gen, 37)] += 1
    assert min(counts) >= 300 - 103 and max(counts) <= 300 + 103, counts
    for _ in range(50):
        hand = rng.deal(gen, 52, 5)
        assert len(set(hand)) == 5 and min(hand) >= 0 and max(hand) < 52


class _Steps:
    """randbits(k): a fixed walk through the k-bit values (7919 is prime: every value comes up)."""

    def __init__(self):
        self.v = 0

    def randbits(self, k):
        self.v = (self.v + 7919) % (1 << k)
        return self.v


def test_a_deal_from_a_six_or_eight_deck_shoe_needs_no_large_piece_of_heap():
    # a card table's deal from a shoe of 312 or 416 positions, in a board heap in pieces (as after
    # hours of play): the deal built the whole pool, one piece of 1-2 KB, and a Red Dog cabinet ran
    # out of memory at its deal, then again at every power-up resuming it (bench_heap at 112K); the
    # hands are the same as the first k steps of a Fisher-Yates over the whole pool, written out here
    got = {}
    if sys.implementation.name == "micropython":
        from heap_pieces import in_pieces, pieces_back

        try:
            assert in_pieces() >= 20
            for n in (312, 416):
                got[n] = rng.deal(_Steps(), n, 10)
        finally:
            pieces_back()
    else:
        got = {n: rng.deal(_Steps(), n, 10) for n in (312, 416)}
    for n in (312, 416):
        gen = _Steps()
        pool = list(range(n))
        for i in range(10):
            j = i + rng.below(gen, n - i)
            pool[i], pool[j] = pool[j], pool[i]
        assert got[n] == pool[:10], (n, got[n])
        assert len(set(got[n])) == 10
