# SP 800-90B health tests and fault injection, on both runtimes: cutoff boundaries of the RCT and
# APT, the start-up test, and every way a source can go bad ending in RngFailure with nothing
# produced afterwards.
from devtest import raises
from fakes_rng import CounterSource, CyclingSource, Mem32, StuckSource

import rng
from rng.entropy import EntropyInput
from rng.health import CUTOFFS, STARTUP_SAMPLES, HealthTests
from rng.sources import Esp32Urandom, HostUrandom, Rp2040Rosc, Rp2350Trng, Stm32Rng


def good_bytes(n, seed=b"h"):
    buf = bytearray(n)
    CounterSource(seed).readinto(buf)
    return buf


def test_every_source_claim_has_cutoffs():
    for cls in (HostUrandom, Stm32Rng, Esp32Urandom, Rp2040Rosc, Rp2350Trng):
        key = (cls.SAMPLE_BITS, cls.H[0], cls.H[1])
        assert key in CUTOFFS, key


def test_rct_fails_exactly_at_cutoff():
    h = HealthTests(8, 7, 1)
    c = h.rct_cutoff
    assert c == 7  # 1 + ceil(40 / 7), SP 800-90B 4.4.1 at alpha = 2**-40
    h.feed(good_bytes(100))
    h.feed(bytes([9] * (c - 1)))  # C - 1 in a row: passes
    h.feed(bytes([10]))
    with raises(rng.RngFailure) as r:
        h.feed(bytes([7] * c))
    assert r.value.reason == "rct"


def test_the_runs_an_honest_source_makes_are_no_alarm():
    # issue 23.1: os.urandom repeats a byte 4 times in a row once per 2**24 samples, and the 7-bit
    # claim's old cutoff (alpha = 2**-20: C = 4) tilted boots on it ("value 218 repeated 4 times",
    # "value 249 repeated 4 times"); at alpha = 2**-40 such runs pass.
    h = HealthTests(8, 7, 1)
    h.feed(good_bytes(100))
    h.feed(bytes([218] * 4))
    h.feed(good_bytes(100, b"x"))
    h.feed(bytes([249] * 6))
    h.feed(good_bytes(100, b"y"))


def test_rct_counts_across_feed_calls():
    h = HealthTests(8, 4, 1)  # C = 11
    h.feed(bytes([3] * 6))
    with raises(rng.RngFailure):
        h.feed(bytes([3] * 5))


def test_apt_fails_exactly_at_cutoff():
    h = HealthTests(8, 4, 1)
    c, w = h.apt_cutoff, h.apt_window
    assert (c, w) == (127, 1024)
    # window: first sample 0, then C - 2 more zeros (B = C - 1) spread out to dodge the RCT
    win = bytearray(w)
    for i in range(w):
        win[i] = 1 + (i % 200)
    for i in range(0, 2 * (c - 1), 2):
        win[i] = 0
    h.feed(win)  # B = C - 1: passes; the next window starts fresh
    win[2 * (c - 1)] = 0  # one more match: B = C
    with raises(rng.RngFailure) as r:
        h.feed(win)
    assert r.value.reason == "apt"


def test_apt_binary_window():
    h = HealthTests(1, 1, 2)
    assert (h.rct_cutoff, h.apt_window, h.apt_cutoff) == (81, 512, 432)
    alt = bytes([0, 1] * 256)  # 256 of each value per window: fine
    for _ in range(4):
        h.feed(alt)
    biased = bytearray(512)  # 3 zeros then a one: 384 zeros per window
    for i in range(512):
        biased[i] = 1 if i % 4 == 3 else 0
    h.feed(biased)
    more = bytearray(512)  # 7 zeros then a one: 448 zeros per window > 432
    for i in range(512):
        more[i] = 1 if i % 8 == 7 else 0
    with raises(rng.RngFailure) as r:
        h.feed(more)
    assert r.value.reason == "apt"


def test_unknown_claim_rejected():
    with raises(ValueError):
        HealthTests(8, 5, 3)


def test_startup_reads_1024_samples_and_discards_them():
    src = CounterSource()
    e = EntropyInput(src)
    e.startup()
    assert src.reads == STARTUP_SAMPLES
    assert e.health.samples == STARTUP_SAMPLES


def expect_dead(gen, reason):
    """After a failure: every call raises the same latched failure; nothing comes out."""
    assert gen.failure is not None and gen.failure.reason == reason
    for call in (lambda: gen.randbits(8), gen.idle, gen.reseed, lambda: gen.readinto(bytearray(4))):
        with raises(rng.RngFailure) as r:
            call()
        assert r.value.reason == reason
    assert gen._buf == bytearray(len(gen._buf))  # buffered output wiped


def run_until_failure(gen, rounds=200):
    """Play and reseed (as the schedule would, only sooner) until the source fault shows."""
    for _ in range(rounds):
        gen.randbits(8)
        gen.idle()
        gen.reseed()
    raise AssertionError("source fault not detected")


def test_stuck_at_startup_refuses_to_instantiate():
    with raises(rng.RngFailure) as r:
        rng.open_generator(StuckSource(good=100))
    assert r.value.reason == "startup"


def test_stuck_after_startup_stops_play():
    src = StuckSource(good=STARTUP_SAMPLES + 200)
    gen = rng.open_generator(src)
    with raises(rng.RngFailure) as r:
        run_until_failure(gen)
    assert r.value.reason == "rct"
    expect_dead(gen, "rct")


def test_a_source_stuck_after_startup_fails_its_first_reseed():
    # Detection latency, every claim: a stuck value fails the RCT at its C-th repeat, inside the first
    # reseed read after it sticks, so no reseed ever completes from stuck samples.
    for key in CUTOFFS:
        bits, num, den = key
        src = StuckSource(good=STARTUP_SAMPLES + -(-384 * den // num), value=1)  # start-up + instantiate
        src.SAMPLE_BITS = bits
        src.H = (num, den)
        gen = rng.open_generator(src)
        with raises(rng.RngFailure) as r:
            gen.reseed()
        assert r.value.reason == "rct", key
        assert r.value.detail == "value 1 repeated %d times" % CUTOFFS[key][0], (key, r.value.detail)
        assert gen.reseeds == 0
        expect_dead(gen, "rct")


def test_biased_source_trips_apt():
    # cycles through 8 values: no repeats (RCT blind), p = 1/8 >> 2**-7
    src = CyclingSource(period=8, good=STARTUP_SAMPLES + 200)
    gen = rng.open_generator(src)
    with raises(rng.RngFailure) as r:
        run_until_failure(gen)
    assert r.value.reason == "apt"
    expect_dead(gen, "apt")


def test_biased_at_startup():
    with raises(rng.RngFailure) as r:
        rng.open_generator(CyclingSource(period=8))
    assert r.value.reason == "startup"
    assert "apt" in r.value.detail


class PybRng:
    """pyb.rng() stand-in: good 30-bit words, then the driver's timeout value 0."""

    def __init__(self, good):
        self.good = good
        self.src = CounterSource(b"pyb")
        self.calls = 0

    def __call__(self):
        self.calls += 1
        if self.calls > self.good:
            return 0
        b = bytearray(4)
        self.src.readinto(b)
        return int.from_bytes(b, "big") >> 2


def test_stm32_pyb_rng_zeros():
    src = Stm32Rng(rng_fn=PybRng(good=(STARTUP_SAMPLES + 300) // 3), sr_addr=None)
    gen = rng.open_generator(src)
    with raises(rng.RngFailure) as r:
        run_until_failure(gen)
    assert r.value.reason == "source_timeout"
    expect_dead(gen, "source_timeout")


def test_stm32_single_zero_word_is_skipped_not_used():
    words = [0x3ABCDEF, 0, 0x1020304]
    src = Stm32Rng(rng_fn=lambda: words.pop(0), sr_addr=None)
    buf = bytearray(6)
    src.readinto(buf)
    assert buf == bytearray([0xEF, 0xCD, 0xAB, 0x04, 0x03, 0x02])


def test_stm32_zeros_at_boot():
    with raises(rng.RngFailure) as r:
        rng.open_generator(Stm32Rng(rng_fn=lambda: 0, sr_addr=None))
    assert r.value.reason == "source_timeout"


def test_stm32_seed_error_flag():
    m = Mem32()
    m.regs[0x50060804] = 0x01
    src = Stm32Rng(rng_fn=PybRng(good=10**6), mem32=m)
    src.readinto(bytearray(30))
    m.regs[0x50060804] = 0x44  # SEIS | SECS: seed error
    with raises(rng.RngFailure) as r:
        src.readinto(bytearray(3))
    assert r.value.reason == "source_error"


def test_esp32_rf_off_refuses():
    rf = [True]
    src = Esp32Urandom(rf_on=lambda: rf[0])
    gen = rng.open_generator(src)
    gen.randbits(32)
    rf[0] = False
    with raises(rng.RngFailure) as r:
        gen.reseed()
    assert r.value.reason == "source_off"
    expect_dead(gen, "source_off")


def rosc_mem(bits):
    m = Mem32()
    it = [0]

    def bit():
        i = it[0]
        it[0] = i + 1
        return bits(i)

    m.hooks[0x4006001C] = bit
    return m


def test_rp2040_rosc_good_and_stuck():
    src_bits = CounterSource(b"rosc")
    tmp = bytearray(1)

    def good(i):
        if i % 8 == 0:
            src_bits.readinto(tmp)
        return (tmp[0] >> (i % 8)) & 1 | 0xFFFFFFFE  # other register bits must be masked

    gen = rng.open_generator(Rp2040Rosc(mem32=rosc_mem(good)))
    gen.randbits(64)
    with raises(rng.RngFailure) as r:
        rng.open_generator(Rp2040Rosc(mem32=rosc_mem(lambda i: 1)))
    assert r.value.reason == "startup"


def trng_mem(valid=True, isr=0):
    m = Mem32()
    src = CounterSource(b"trng")
    w = bytearray(4)

    def word():
        src.readinto(w)
        return int.from_bytes(w, "little")

    base = 0x400F0000
    m.regs[base + 0x110] = 1 if valid else 0
    m.regs[base + 0x104] = isr
    for i in range(6):
        m.hooks[base + 0x114 + 4 * i] = word
    return m


def test_rp2350_trng():
    m = trng_mem()
    gen = rng.open_generator(Rp2350Trng(mem32=m))
    gen.randbits(64)
    assert (0x400F012C, 1) in m.writes  # source enabled
    with raises(rng.RngFailure) as r:
        Rp2350Trng(mem32=trng_mem(isr=0x04)).readinto(bytearray(8))  # CRNGT error
    assert r.value.reason == "source_error"
    with raises(rng.RngFailure) as r:
        Rp2350Trng(mem32=trng_mem(valid=False)).readinto(bytearray(8))
    assert r.value.reason == "source_timeout"


def test_source_oserror_is_a_failure():
    class Broken(CounterSource):
        def readinto(self, buf):
            raise OSError(5)

    with raises(rng.RngFailure) as r:
        rng.open_generator(Broken())
    assert r.value.reason == "source_error"


def test_open_source_kinds():
    assert isinstance(rng.open_source("emulated"), HostUrandom)
    with raises(ValueError):
        rng.open_source("z80")
