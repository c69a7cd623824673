"""tools.rngtest: its statistics, parsers and pass/fail criteria (the full battery is `make
rngtest`, ~30 min, not part of `make test`)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools import rngtest as rt

ROOT = Path(__file__).resolve().parents[2]


def test_chi2_sf_known_values():
    assert abs(rt.chi2_sf(3.841458820694124, 1) - 0.05) < 1e-9
    assert abs(rt.chi2_sf(18.307038053275146, 10) - 0.05) < 1e-9
    assert abs(rt.chi2_sf(293.2478350, 255) - 0.05) < 1e-6
    assert abs(rt.chi2_sf(1368, 1368) - 0.4949) < 1e-3
    assert rt.binom_sf(0, 10) == 1.0 and rt.binom_sf(10, 10) == 1 / 1024


def test_stream_is_the_device_generator():
    # `stream` prints exactly what rng.open_generator(...).readinto gives (no separate fast path):
    # with the host entropy pinned, the bytes equal the bare device pipeline's.
    import rng

    class Fixed:
        NAME, SAMPLE_BITS, H = "emulated", 8, (7, 1)

        def __init__(self):
            import hashlib

            self.h = hashlib.sha256
            self.i = 0

        def readinto(self, buf):
            for j in range(len(buf)):
                buf[j] = self.h(self.i.to_bytes(8, "big")).digest()[0]
                self.i += 1

    import io

    out = io.BytesIO()
    mp = pytest.MonkeyPatch()
    mp.setattr(rng, "open_source", lambda kind: Fixed())
    mp.setattr(rt.time, "time_ns", lambda: 42)
    try:
        rt.write_stream(out, 3 * rt.CHUNK + 5)
    finally:
        mp.undo()
    gen = rng.open_generator(Fixed(), b"jeton-rngtest|42")
    want = bytearray(3 * rt.CHUNK + 5)
    mv = memoryview(want)
    for i in range(0, len(want), rt.CHUNK):
        gen.readinto(mv[i : i + rt.CHUNK])
        gen.idle()
    assert out.getvalue() == bytes(want)


ENT_OUT = """Entropy = 7.999998 bits per byte.

Optimum compression would reduce the size
of this 104857600 byte file by 0 percent.

Chi square distribution for 104857600 samples is 262.01, and randomly
would exceed this value 35.43 percent of the times.

Arithmetic mean value of data bytes is 127.4975 (127.5 = random).
Monte Carlo value for Pi is 3.141709837 (error 0.00 percent).
Serial correlation coefficient is -0.000043 (totally uncorrelated = 0.0).
"""


def test_ent_parse_and_judge():
    f = rt.parse_ent(ENT_OUT)
    assert f["n"] == 104857600 and f["chi2_pct"] == 35.43 and f["serial"] == -0.000043
    res = rt.Results()
    rt.judge_ent(f, res)
    assert res.ok
    bad = dict(f, chi2_pct=0.01)
    res = rt.Results()
    rt.judge_ent(bad, res)
    assert not res.ok


@pytest.mark.skipif(shutil.which("ent") is None, reason="ent not installed")
def test_ent_criteria_catch_a_biased_stream(tmp_path):
    import os

    data = bytearray(os.urandom(1 << 20))
    for i in range(0, len(data), 97):
        data[i] = 0  # ~1% extra zeros
    p = tmp_path / "b.bin"
    p.write_bytes(data)
    text = subprocess.run(["ent", str(p)], capture_output=True, text=True).stdout
    res = rt.Results()
    rt.judge_ent(rt.parse_ent(text), res)
    assert not res.ok


RNGTEST_OUT = """rngtest 2.3
rngtest: bits received from input: 838860800
rngtest: FIPS 140-2 successes: 41909
rngtest: FIPS 140-2 failures: 34
rngtest: FIPS 140-2(2001-10-10) Monobit: 5
rngtest: FIPS 140-2(2001-10-10) Poker: 4
rngtest: FIPS 140-2(2001-10-10) Runs: 13
rngtest: FIPS 140-2(2001-10-10) Long run: 12
rngtest: FIPS 140-2(2001-10-10) Continuous run: 0
"""


def test_fips_judge():
    dut = rt.parse_rngtest(RNGTEST_OUT)
    assert dut["success"] == 41909 and dut["fail"] == 34 and dut["longrun"] == 12
    res = rt.Results()
    rt.judge_fips(dut, dict(dut, fail=30), res)
    assert res.ok
    res = rt.Results()
    rt.judge_fips(dict(dut, fail=80), dict(dut, fail=30), res)
    assert not res.ok


DH_OUT = """#=============================================================================#
        test_name   |ntup| tsamples |psamples|  p-value |Assessment
#=============================================================================#
   diehard_birthdays|   0|       100|     100|0.93922157|  PASSED
        diehard_runs|   0|    100000|     100|0.99660645|   WEAK
        diehard_runs|   0|    100000|     100|0.00000000|  FAILED
"""


def test_dieharder_parse():
    rows = rt.parse_dieharder(DH_OUT)
    assert [r[3] for r in rows] == ["PASSED", "WEAK", "FAILED"]
    assert rows[0] == ("diehard_birthdays", 0, 0.93922157, "PASSED", 100)


def test_scaled_tests_pass_on_the_generator_and_fail_on_a_biased_one():
    import rng

    class SeededNoise:
        """The emulated source's claims, fed from a fixed seed: the device DRBG and scaling under
        test are the real ones, but the run is the same every time. With 10 tests each allowed
        p in [1e-4, 1 - 1e-4], a fresh urandom seed fails about one CI run in 500 by chance."""

        SAMPLE_BITS = 8
        H = (7, 1)

        def __init__(self):
            import random

            self.r = random.Random(20261123)

        def readinto(self, buf):
            buf[:] = self.r.randbytes(len(buf))

    res = rt.Results()
    rt.scaled_tests(res, draws=40000, gen=rng.open_generator(SeededNoise()))
    assert res.ok, rt.Results.table(res)

    class Modulo:
        """randbits via a biased byte: values below 64 twice as likely."""

        def __init__(self):
            import random

            self.r = random.Random(5)

        def randbits(self, k):
            v = self.r.getrandbits(k + 1)
            return v % (1 << k) if v < (3 << k) // 2 else v >> 1

    res = rt.Results()
    rt.scaled_tests(res, draws=40000, gen=Modulo())
    assert not res.ok


def test_cli_stream_bytes():
    p = subprocess.run([sys.executable, "-m", "tools.rngtest", "stream", "1000"], cwd=ROOT, capture_output=True)
    assert len(p.stdout) == 1000


DH_RETEST = """        diehard_runs|   0|    100000|     100|0.99960645|   WEAK
        diehard_runs|   0|    100000|     100|0.04448994|  PASSED
        diehard_runs|   0|    100000|     200|0.61000000|  PASSED
        diehard_runs|   0|    100000|     200|0.30000000|  PASSED
"""


def test_dieharder_verdict_uses_the_last_resolution(monkeypatch):
    import io

    class P:
        stdout = DH_RETEST

    class G:
        stdout = io.BytesIO()

        def kill(self):
            pass

        def wait(self):
            pass

    monkeypatch.setattr(rt.subprocess, "Popen", lambda *a, **k: G())
    monkeypatch.setattr(rt.subprocess, "run", lambda *a, **k: P())
    res = rt.Results()
    rt.run_dieharder(["-d", "15"], "-d 15", res, io.StringIO())
    assert res.ok and "2 p-values, min 0.3000, 2 weak re-tested" in res.rows[0]["value"]
    P.stdout = DH_RETEST + "        diehard_runs|   0|    100000|     200|0.00000001|  FAILED\n"
    res = rt.Results()
    rt.run_dieharder(["-d", "15"], "-d 15", res, io.StringIO())
    assert not res.ok
