# HMAC_DRBG (SP 800-90A) on both runtimes: a representative subset of the NIST CAVP SHA-256 known
# answers (every 4th vector of each file: all 16 parameter sections of no_reseed, pr_false and
# pr_true), the self-test, and the request/reseed limits. The full set runs on the host
# (tests/host/test_rng_cavp.py). The vectors are in tests/fixtures/cavp-drbg/ (source cited in
# its README.md): a missing file fails these tests (open() raises), it never skips them.
from binascii import unhexlify

from devtest import MICROPYTHON, raises

import rng
from rng.hmac_drbg import HmacDrbg
from rng.selftest import drbg_selftest

# found from this file, not the working directory: tests/device/ -> tests/fixtures/cavp-drbg
CAVP_DIR = __file__.rpartition("/")[0] + "/../fixtures/cavp-drbg"
STEP = 4  # every STEP-th COUNT: COUNT 0, 4, 8, 12 of each 15-vector section


def cavp_cases(kind, step=STEP):
    """Stream (fields) of one .rsp file without holding it in memory: fields is a list of
    (name, bytes) in file order."""
    path = CAVP_DIR + "/HMAC_DRBG_SHA256_%s.rsp" % kind
    cur = None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("COUNT"):
                if cur is not None:
                    yield cur
                cnt = int(line.split("=")[1])
                cur = [("COUNT", cnt)] if cnt % step == 0 else None
            elif cur is not None and "=" in line and not line.startswith("["):
                k, v = line.split("=", 1)
                cur.append((k.strip(), unhexlify(v.strip())))
        if cur is not None:
            yield cur


def run_case(kind, fields, cls=HmacDrbg):
    """CAVP procedure: instantiate, (reseed), generate, generate; returns the second output."""
    d = {}
    adds = []
    prs = []
    for k, v in fields:
        if k == "AdditionalInput":
            adds.append(v)
        elif k == "EntropyInputPR":
            prs.append(v)
        else:
            d[k] = v
    g = cls()
    g.instantiate(d["EntropyInput"], d["Nonce"], d["PersonalizationString"])
    n = len(d["ReturnedBits"])
    out = None
    if kind == "pr_false":
        g.reseed(d["EntropyInputReseed"], d["AdditionalInputReseed"])
    for i in range(2):
        if kind == "pr_true":
            # prediction resistance (90A 9.3.1 step 7): reseed with the additional input, then
            # generate without it
            g.reseed(prs[i], adds[i])
            out = g.generate(n)
        else:
            out = g.generate(n, adds[i])
    return out, d["ReturnedBits"]


def check_kind(kind):
    count = 0
    for fields in cavp_cases(kind):
        got, want = run_case(kind, fields)
        assert got == want, (kind, fields[0])
        count += 1
    assert count == 16 * 4, count  # 16 sections x COUNT 0, 4, 8, 12
    return count


def test_cavp_no_reseed_subset():
    check_kind("no_reseed")


def test_cavp_pr_false_subset():
    check_kind("pr_false")


def test_cavp_pr_true_subset():
    check_kind("pr_true")


def test_selftest_passes_and_detects_a_broken_drbg():
    drbg_selftest()

    class Broken(HmacDrbg):
        def _update(self, p1=None, p2=None, p3=None):
            HmacDrbg._update(self, p1, p2)  # drops the third part of provided_data

    with raises(rng.RngFailure) as r:
        drbg_selftest(Broken)
    assert r.value.reason == "drbg_selftest"


def test_request_limits():
    g = HmacDrbg()
    with raises(ValueError):
        g.generate(16)  # not instantiated
    g.instantiate(b"e" * 32, b"n" * 16)
    with raises(ValueError):
        g.generate_into(bytearray(65537))
    assert len(g.generate(33)) == 33  # partial last block


def test_reseed_interval_enforced():
    g = HmacDrbg(reseed_interval=3)
    g.instantiate(b"e" * 32, b"n" * 16)
    for _ in range(3):
        g.generate(8)
    with raises(rng.RngFailure) as r:
        g.generate(8)
    assert r.value.reason == "reseed_required"
    g.reseed(b"r" * 32)
    g.generate(8)


def test_generate_into_memoryview_slices():
    a = HmacDrbg()
    a.instantiate(b"e" * 32, b"n" * 16)
    b = HmacDrbg()
    b.instantiate(b"e" * 32, b"n" * 16)
    buf = bytearray(100)
    a.generate_into(memoryview(buf)[10:77])
    assert buf[:10] == bytearray(10) and buf[77:] == bytearray(23)
    assert bytes(buf[10:77]) == b.generate(67)


def test_uninstantiate_zeroizes():
    g = HmacDrbg()
    g.instantiate(b"e" * 32, b"n" * 16)
    g.uninstantiate()
    assert g._v == bytearray(32) and g._k == bytes(32)
    with raises(ValueError):
        g.generate(1)


def test_runtime_tag():
    # documents which path ran: MicroPython has no hash copy(), CPython caches keyed states
    import rng.hmac_drbg as m

    assert m._HAS_COPY == (not MICROPYTHON)
