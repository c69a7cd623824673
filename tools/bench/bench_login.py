"""Console login cost: PBKDF2-HMAC-SHA256 of a PIN at the accounts' iteration count
(firmware/accounts.py ITERATIONS), on the firmware image (the board's 32-bit build, frozen) and on
the stock MicroPython wheel, as ratios against references measured in the same run:
  ref A = CPython hashlib.pbkdf2_hmac (OpenSSL, C code) at the same iteration count, ms
  ref B = the same runtime's one-shot hashlib.sha256 of 96 bytes (2 blocks), 2 x ITERATIONS times:
          the SHA-256 work of the rounds (each round hashes 2 x 2 blocks), so the ratio above 1 is
          what the round loop itself costs
"""
from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

from tools.bench import run_script

ROOT = Path(__file__).resolve().parents[2]
MICROPYTHON = ROOT / ".venv" / "bin" / "micropython"

SCRIPT = r'''
import hashlib, time
from firmware.accounts import ITERATIONS
from rng.crypto.pbkdf2 import pbkdf2_sha256
def ms(fn):
    best = None
    for _ in range(5):
        t = time.ticks_us()
        fn()
        dt = time.ticks_diff(time.ticks_us(), t) / 1000
        best = dt if best is None or dt < best else best
    return best
salt = bytes(range(16))
login = ms(lambda: pbkdf2_sha256(b"correct horse", salt, ITERATIONS))
msg = b"x" * 96
def sha():
    for _ in range(2 * ITERATIONS):
        hashlib.sha256(msg).digest()
print("BENCH " + repr({"iterations": ITERATIONS, "login_ms": login, "sha_ms": ms(sha)}).replace("'", '"'))
'''


def run(binary: Path, frozen_only: bool) -> dict | None:
    return run_script(binary, SCRIPT, "112K", ".frozen" if frozen_only else ".frozen:" + str(ROOT), 300)


def ref_pbkdf2(iterations: int) -> float:
    best = None
    for _ in range(5):
        t = time.perf_counter()
        hashlib.pbkdf2_hmac("sha256", b"correct horse", bytes(range(16)), iterations)
        dt = (time.perf_counter() - t) * 1000
        best = dt if best is None or dt < best else best
    return best


def main() -> dict:
    from tools import firmware as fwbuild

    image = run(Path(fwbuild.FIRMWARE), True)
    wheel = run(MICROPYTHON, False)
    rows = [("firmware image (i686, frozen, 112K)", image), ("stock wheel (64-bit, from source)", wheel)]
    iterations = (image or wheel or {}).get("iterations")
    if not iterations:
        print("no MicroPython to measure with")
        return {}
    ref_a = ref_pbkdf2(iterations)
    print(f"ITERATIONS = {iterations}; ref A: CPython hashlib.pbkdf2_hmac = {ref_a:.2f} ms")
    hdr = f"{'runtime':38} {'ms/login':>9} {'/refA':>7} {'/refB':>7}"
    print(hdr)
    print("-" * len(hdr))
    for label, r in rows:
        if r:
            print(f"{label:38} {r['login_ms']:9.2f} {r['login_ms'] / ref_a:7.2f} {r['login_ms'] / r['sha_ms']:7.2f}")
    return {"ref_ms": ref_a, "image": image, "wheel": wheel}


if __name__ == "__main__":
    main()
    sys.exit(0)
