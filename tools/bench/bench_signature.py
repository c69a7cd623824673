"""RSA-3072 signature verification (rng/crypto/rsa.py) on the unix port.

    python -m tools.bench.bench_signature [N]

Runs in the emulated board's firmware image (build/firmware/unix32/micropython, a board's 32-bit
words, rng/crypto/rsa.py frozen) and in the stock 64-bit wheel: N verifications of the committed vector
(tests/fixtures/rsa/), and, as the reference measured in the same process, N SHA-256 of a release
manifest of 160 lines (what the boot check hashes before it verifies). On the host, `cryptography`'s
own verify of the same signature is a second reference.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from tools import firmware
from tools.image import ROOT

MPY = ROOT / ".venv" / "bin" / "micropython"
VECTORS = ROOT / "tests" / "fixtures" / "rsa" / "pkcs1v15-sha256.json"
SCRIPT = """
import binascii, hashlib, json, sys, time
if "" in sys.path:
    sys.path.remove("")  # the image's frozen module, not the checkout's source
from rng.crypto import rsa
N = %d
v = json.load(open(%r))
n = binascii.unhexlify(v["n"])
c = v["cases"][0]
msg = binascii.unhexlify(c["msg"])
sig = binascii.unhexlify(c["sig"])
d = hashlib.sha256(msg).digest()
assert rsa.verify(n, v["e"], d, sig)
manifest = b"0123456789abcdef" * 4 * 90 + b"\\n"
t = time.ticks_us()
for i in range(N):
    rsa.verify(n, v["e"], d, sig)
tv = time.ticks_diff(time.ticks_us(), t)
t = time.ticks_us()
for i in range(N):
    hashlib.sha256(manifest).digest()
th = time.ticks_diff(time.ticks_us(), t)
print("RESULT", tv, th)
"""


def _run(cmd: list[str], env: dict, n: int) -> tuple[float, float] | None:
    script = SCRIPT % (n, str(VECTORS))
    r = subprocess.run(cmd + ["-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    for line in r.stdout.splitlines():
        if line.startswith("RESULT"):
            tv, th = (int(x) for x in line.split()[1:])
            return tv / n / 1000, th / n / 1000
    print(f"  failed: {(r.stderr or r.stdout).strip().splitlines()[-1:]}")
    return None


def _cryptography_ms(n: int) -> float:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding, rsa

    v = json.loads(VECTORS.read_text())
    c = v["cases"][0]
    pub = rsa.RSAPublicNumbers(v["e"], int(v["n"], 16)).public_key()
    msg, sig = bytes.fromhex(c["msg"]), bytes.fromhex(c["sig"])
    t = time.perf_counter()
    for _ in range(n):
        pub.verify(sig, msg, padding.PKCS1v15(), hashes.SHA256())
    return (time.perf_counter() - t) / n * 1000


def main(argv: list[str] | None = None) -> dict:
    argv = sys.argv[1:] if argv is None else argv
    n = int(argv[0]) if argv else 200
    out = {}
    runs = []
    try:
        image = firmware.ensure_built()
        runs.append(("firmware image (i686)", [str(image), "-X", "heapsize=112K"], dict(os.environ, MICROPYPATH=".frozen")))
    except firmware.BuildError as e:
        print(f"  no firmware image: {e}")
    runs.append(("stock wheel (x86-64)", [str(MPY), "-X", "heapsize=112K"], dict(os.environ, MICROPYPATH=str(ROOT))))
    ref = _cryptography_ms(n)
    print(f"RSA-3072 PKCS#1 v1.5 verify, {n} times; reference: SHA-256 of a 5.8 KB manifest in the same run,"
          f" and cryptography's verify on the host ({ref:.3f} ms)")
    print(f"{'runtime':24} {'ms/verify':>9} {'ms/sha256':>9} {'x sha256':>8} {'x cryptography':>14}")
    for name, cmd, env in runs:
        got = _run(cmd, env, n)
        if got:
            tv, th = got
            out[name] = {"verify_ms": tv, "sha256_ms": th, "ratio_sha256": tv / th, "ratio_cryptography": tv / ref}
            print(f"{name:24} {tv:9.3f} {th:9.3f} {tv / th:8.1f} {tv / ref:14.1f}")
    return out


if __name__ == "__main__":
    main()
