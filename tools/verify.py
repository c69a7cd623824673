"""An inspector's check of a cabinet in the field: the digest its console's `verify SEED` must give.

    python -m tools.verify --seed SEED RELEASE_DIR [--pub PUB.pem] [--image firmware/micropython-unix]

SEED: 2 to 64 hex digits, a fresh one for each check. Prints HMAC-SHA256 keyed by SEED's bytes over
every byte of the release's firmware image (the program as the cabinet stores it: on the emulated
board the firmware file, byte for byte the release's `firmware/micropython-unix`), computed here
with Python's own `hmac`, independently of the firmware's code. With --pub, the release's signature
and every file's digest are checked first (tools.sign check), and a first line names the key that
signed it with its SHA-256 fingerprint (RELEASE.md gives the fingerprint of the key that signed the
release). Compare the last line with the cabinet's answer: equal means the cabinet stores exactly
that image.
"""
from __future__ import annotations

import argparse
import hashlib
import hmac
import sys
from pathlib import Path

from tools import sign

IMAGE = "firmware/micropython-unix"


def seed_bytes(text: str) -> bytes:
    if not 2 <= len(text) <= 64 or len(text) % 2:
        raise ValueError("SEED is 2 to 64 hex digits, an even count")
    return bytes.fromhex(text)


def digest(seed: bytes, image: Path) -> tuple[str, int]:
    """(HMAC-SHA256 hex, length in bytes) of the image file, read in pieces."""
    mac = hmac.new(seed, digestmod=hashlib.sha256)
    n = 0
    with open(image, "rb") as f:
        for piece in iter(lambda: f.read(1 << 16), b""):
            mac.update(piece)
            n += len(piece)
    return mac.hexdigest(), n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.verify", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", required=True, help="2 to 64 hex digits")
    ap.add_argument("release", type=Path, help="the release folder (build/release/jeton-<version>)")
    ap.add_argument("--pub", type=Path, help="check the release's signature with this public key first")
    ap.add_argument("--image", default=IMAGE, help=f"the image inside the release (default {IMAGE})")
    args = ap.parse_args(argv)
    try:
        seed = seed_bytes(args.seed)
        signed = None
        if args.pub:  # which key signed it: the one given, named with its fingerprint (RELEASE.md gives the signer's)
            header = sign.check(args.release, args.pub)
            signed = (f"release {header['version']} (number {header['counter']}) signed by {args.pub}"
                      f" (key SHA-256 {sign.fingerprint(sign.load_public(args.pub))}); every file checked")
        mac, n = digest(seed, args.release / args.image)
    except (ValueError, OSError, sign.ReleaseError) as e:
        print(f"verify: {e}", file=sys.stderr)
        return 1
    if signed:
        print(signed)
    print(f"hmac-sha256 {mac} over {n} bytes of the firmware image")  # the line the cabinet's `verify SEED` gives
    return 0


if __name__ == "__main__":
    sys.exit(main())
