"""tools.rngdump against a second, independent HMAC_DRBG written here straight from SP 800-90A
10.1.2 with Python's own `hmac` module (no code shared with rng/), through the real CLI."""
from __future__ import annotations

import hashlib
import hmac
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]


class RefHmacDrbg:
    """SP 800-90A Rev. 1, 10.1.2, HMAC_DRBG with SHA-256, written from the standard's text."""

    def __init__(self, entropy: bytes, nonce: bytes, pers: bytes = b""):
        self.K = b"\x00" * 32
        self.V = b"\x01" * 32
        self._update(entropy + nonce + pers)
        self.reseed_counter = 1

    def _h(self, key: bytes, data: bytes) -> bytes:
        return hmac.new(key, data, hashlib.sha256).digest()

    def _update(self, provided: bytes) -> None:
        self.K = self._h(self.K, self.V + b"\x00" + provided)
        self.V = self._h(self.K, self.V)
        if provided:
            self.K = self._h(self.K, self.V + b"\x01" + provided)
            self.V = self._h(self.K, self.V)

    def generate(self, nbytes: int, additional: bytes = b"") -> bytes:
        if additional:
            self._update(additional)
        temp = b""
        while len(temp) < nbytes:
            self.V = self._h(self.K, self.V)
            temp += self.V
        self._update(additional)
        self.reseed_counter += 1
        return temp[:nbytes]


def ref_stream(entropy, nonce, pers, n, request):
    d = RefHmacDrbg(entropy, nonce, pers)
    out = b""
    while len(out) < n:
        out += d.generate(min(request, n - len(out)))
    return out


def ref_below(entropy, nonce, pers, n, count):
    """rng.below as specified: k = bitlen(n-1) bits from the next ceil(k/8) bytes of a stream of
    128-byte generate requests, big-endian, top k bits; rejection when >= n."""
    d = RefHmacDrbg(entropy, nonce, pers)
    buf = b""
    k = (n - 1).bit_length()
    nb = (k + 7) // 8
    out = []
    while len(out) < count:
        if n == 1:
            out.append(0)
            continue
        while True:
            if len(buf) < nb:
                need = nb - len(buf)
                chunk = b""
                while len(chunk) < need:
                    chunk += d.generate(128)
                buf += chunk
            v = int.from_bytes(buf[:nb], "big") >> (8 * nb - k)
            buf = buf[nb:]
            if v < n:
                out.append(v)
                break
    return out


def test_reference_matches_a_cavp_vector():
    # the second implementation is itself checked on NIST's first no_reseed vector
    d = RefHmacDrbg(
        bytes.fromhex("ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488"),
        bytes.fromhex("659ba96c601dc69fc902940805ec0ca8"),
    )
    d.generate(128)
    assert d.generate(128).hex().startswith("e528e9abf2dece54d47c7e75e5fe302149f817ea9fb4bee6")


def run_cli(*args, tmp_path):
    out = tmp_path / "out.bin"
    subprocess.run(
        [sys.executable, "-m", "tools.rngdump", *args, "--out", str(out)],
        cwd=ROOT, check=True, capture_output=True,
    )
    return out.read_bytes()


E = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
N = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"


@pytest.mark.parametrize(
    "nbytes,req,pers",
    [(300000, None, ""), (100000, 4096, "6a65746f6e"), (1000, 33, ""), (65537, 65536, "ff" * 40), (0, None, "")],
)
def test_rngdump_bytes_equal_independent_drbg(tmp_path, nbytes, req, pers):
    args = ["--entropy", E, "--nonce", N, "--bytes", str(nbytes)]
    if pers:
        args += ["--personalization", pers]
    if req:
        args += ["--request-bytes", str(req)]
    got = run_cli(*args, tmp_path=tmp_path)
    want = ref_stream(bytes.fromhex(E), bytes.fromhex(N), bytes.fromhex(pers), nbytes, req or 65536)
    assert got == want


@pytest.mark.parametrize("n", [1, 2, 6, 37, 52, 256, 1000, 2**40 + 3])
def test_rngdump_range_equals_independent_mapping(tmp_path, n):
    got = run_cli("--entropy", E, "--nonce", N, "--range", str(n), "--count", "2000", tmp_path=tmp_path)
    vals = [int(x) for x in got.split()]
    assert vals == ref_below(bytes.fromhex(E), bytes.fromhex(N), b"", n, 2000)


def test_rngdump_rejects_short_entropy(tmp_path):
    p = subprocess.run(
        [sys.executable, "-m", "tools.rngdump", "--entropy", "00" * 16, "--nonce", N, "--bytes", "8", "--out", "-"],
        cwd=ROOT, capture_output=True,
    )
    assert p.returncode != 0


@settings(max_examples=40, deadline=None)
@given(
    entropy=st.binary(min_size=32, max_size=64),
    nonce=st.binary(min_size=16, max_size=32),
    pers=st.binary(max_size=64),
    sizes=st.lists(st.integers(min_value=0, max_value=300), min_size=1, max_size=5),
    additional=st.binary(max_size=40),
)
def test_device_drbg_equals_reference_any_input(entropy, nonce, pers, sizes, additional):
    from rng.hmac_drbg import HmacDrbg

    a = HmacDrbg()
    a.instantiate(entropy, nonce, pers)
    b = RefHmacDrbg(entropy, nonce, pers)
    for i, s in enumerate(sizes):
        add = additional if i % 2 else b""
        assert a.generate(s, add) == b.generate(s, add)
