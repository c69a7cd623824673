"""Deterministic RNG dumps for test labs (issue 3, item 6), using the device code itself.

  python -m tools.rngdump --entropy HEX --nonce HEX [--personalization HEX] --bytes N --out FILE
                          [--request-bytes R]
      HMAC_DRBG SHA-256 instantiated from the given entropy input / nonce / personalization
      string; writes the concatenation of successive generate requests of R bytes (default
      65536, the SP 800-90A maximum; the last request is shorter if N is not a multiple of R),
      no additional input, no reseed.

  python -m tools.rngdump --entropy HEX --nonce HEX [--personalization HEX] --range N --count K
                          --out FILE
      K uniform integers in [0, N), one per line, drawn with rng.below() from the generator the
      games use (rng.generator.Generator: randbits(k) takes the next ceil(k/8) bytes of DRBG
      output, requests of 128 bytes), in deterministic mode.

--out - writes to standard output.
"""
from __future__ import annotations

import argparse
import sys

from rng import below
from rng.generator import Generator
from rng.hmac_drbg import MAX_REQUEST, HmacDrbg


def make_drbg(entropy: bytes, nonce: bytes, personalization: bytes = b"") -> HmacDrbg:
    d = HmacDrbg()
    d.instantiate(entropy, nonce, personalization)
    return d


def dump_bytes(drbg: HmacDrbg, n: int, request: int, out) -> None:
    buf = bytearray(request)
    mv = memoryview(buf)
    left = n
    while left > 0:
        m = min(left, request)
        drbg.generate_into(mv[:m])
        out.write(mv[:m])
        left -= m


def dump_range(drbg: HmacDrbg, n: int, count: int, out) -> None:
    gen = Generator(drbg)
    lines = []
    for i in range(count):
        lines.append(b"%d\n" % below(gen, n))
        if len(lines) >= 65536:
            out.write(b"".join(lines))
            lines = []
    out.write(b"".join(lines))


def hexarg(s: str) -> bytes:
    try:
        return bytes.fromhex(s)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"not hex: {s!r}") from e


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.rngdump", description=__doc__.split("\n\n")[0])
    ap.add_argument("--entropy", type=hexarg, required=True, help="entropy input, hex (>= 32 bytes)")
    ap.add_argument("--nonce", type=hexarg, required=True, help="nonce, hex (>= 16 bytes)")
    ap.add_argument("--personalization", type=hexarg, default=b"", help="personalization string, hex")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--bytes", type=int, help="raw output bytes to write")
    mode.add_argument("--range", type=int, help="write integers in [0, RANGE)")
    ap.add_argument("--count", type=int, help="how many integers (with --range)")
    ap.add_argument("--request-bytes", type=int, default=MAX_REQUEST, help="bytes per generate request")
    ap.add_argument("--out", required=True, help="output file, or - for stdout")
    a = ap.parse_args(argv)
    if len(a.entropy) < 32:
        ap.error("--entropy must carry at least 256 bits (security strength 256)")
    if len(a.nonce) < 16:
        ap.error("--nonce must be at least 128 bits")
    if not 1 <= a.request_bytes <= MAX_REQUEST:
        ap.error(f"--request-bytes must be in 1..{MAX_REQUEST}")
    if a.bytes is not None and a.bytes < 0:
        ap.error("--bytes must be >= 0")
    if a.range is not None and (a.range < 1 or a.count is None or a.count < 0):
        ap.error("--range N needs N >= 1 and --count K >= 0")
    drbg = make_drbg(a.entropy, a.nonce, a.personalization)
    out = sys.stdout.buffer if a.out == "-" else open(a.out, "wb")
    try:
        if a.bytes is not None:
            dump_bytes(drbg, a.bytes, a.request_bytes, out)
        else:
            dump_range(drbg, a.range, a.count, out)
    finally:
        if out is not sys.stdout.buffer:
            out.close()
        else:
            out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
