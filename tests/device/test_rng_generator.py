# The outcome generator on both runtimes: its byte-stream contract against the bare DRBG,
# personalization (power-up counter), idle() cycling, the reseed schedule, prediction resistance.
from devtest import raises
from fakes_rng import CounterSource

import rng
from rng import generator as G
from rng.entropy import EntropyInput
from rng.hmac_drbg import HmacDrbg


def bare_drbg(pers=b"", seed=b"jeton"):
    """The DRBG open_generator() must have built from a CounterSource: 1024 start-up samples
    discarded, then ceil(384 / 7) = 55 samples of entropy input (nonce included)."""
    src = CounterSource(seed)
    src.readinto(bytearray(1024))
    e = bytearray(55)
    src.readinto(e)
    d = HmacDrbg(G.RESEED_INTERVAL)
    d.instantiate(e, b"", pers)
    return d


def test_randbits_is_the_drbg_byte_stream():
    gen = rng.open_generator(CounterSource(), b"pers")
    d = bare_drbg(b"pers")
    stream = d.generate(128) + d.generate(128)
    got = bytes([gen.randbits(8) for _ in range(200)])
    assert got == stream[:200]
    # k bits = top k bits of the next ceil(k/8) bytes, big-endian
    gen2 = rng.open_generator(CounterSource(), b"pers")
    assert gen2.randbits(12) == int.from_bytes(stream[0:2], "big") >> 4
    assert gen2.randbits(1) == stream[2] >> 7
    assert gen2.randbits(24) == int.from_bytes(stream[3:6], "big")


def test_randbits_edges():
    gen = rng.open_generator(CounterSource())
    assert gen.randbits(0) == 0
    with raises(ValueError):
        gen.randbits(-1)
    big = gen.randbits(2000)  # spans several generate requests
    assert 0 <= big < (1 << 2000)
    for k in (1, 7, 8, 9, 31, 32, 33, 64):
        for _ in range(20):
            assert 0 <= gen.randbits(k) < (1 << k)


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
    d = bare_drbg()
    first = d.generate(128)
    spin = d.generate(32)  # idle(): one 32-byte request
    after = d.generate(128)
    assert gen.randbits(8) == first[0]
    gen.idle()
    assert gen.randbits(8) == after[0]
    assert spin != after[:32]


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
    import hashlib

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


def test_scaling_through_real_generator():
    gen = rng.open_generator(rng.open_source("emulated"), b"x")
    for _ in range(50):
        hand = rng.deal(gen, 52, 5)
        assert len(set(hand)) == 5 and all(0 <= c < 52 for c in hand)
        assert 0 <= rng.below(gen, 37) < 37
