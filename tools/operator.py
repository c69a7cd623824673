"""The operator's signatures: its configuration of a cabinet and its enrolments of an administrator.

    python -m tools.operator keygen KEY.pem          a new RSA-3072 operator key (KEY.pub.pem beside it:
                                                     what an image is built with, JETON_OPERATOR_PUB)
    python -m tools.operator config OUT.json --key KEY.pem --number N --machine ID
            --jurisdiction vlt --denom CENTS --games ID,ID
                                                     the signed configuration: OUT.json and OUT.json.sig
                                                     (a cabinet reads operator.json beside its settings)
    python -m tools.operator enrol --key KEY.pem --board BOARD --number N --id ID
                                                     the lines to type after 'enrol ID N' on the
                                                     console of the board whose `enrol` said BOARD

The formats are the device's (firmware/operator_config.py, firmware/enrolment.py), written here from
their description, not from the device's code: RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017) over the
configuration file's exact bytes, or over "jeton-enrol/1 board=B number=N id=ID". The build's
development operator key is build/keys/operator-dev.pem (tools/firmware.py): `dev_config` and
`enrol_lines` with it are what the emulated cabinet's harness and `make run JURIS=vlt` use.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from tools import sign

MODELS = Path(__file__).resolve().parent.parent / "games" / "models"

FORMAT = "jeton-operator-config/1"
ENROL = "jeton-enrol/1"
SIG_SUFFIX = ".sig"
LINE_HEX = 64  # a console line holds 80 characters: the 384-byte signature in 12 lines


def config_bytes(number: int, machine: str, jurisdiction: str, denom: int, games: list[str]) -> bytes:
    """A configuration's file, as the operator signs it."""
    d = {"format": FORMAT, "config": number, "machine": machine, "JURISDICTION": jurisdiction,
         "DENOM_CENTS": denom, "GAMES": list(games)}
    return (json.dumps(d, indent=1) + "\n").encode()


def write_signed(out: Path, data: bytes, key: Path) -> Path:
    """out and out.sig: the signature first, the file last (a reader never pairs a new file with an
    old signature for long: a mismatch is refused, never taken)."""
    sig = sign.sign_bytes(sign.load_private(key), data)
    out.parent.mkdir(parents=True, exist_ok=True)
    for path, body in ((Path(str(out) + SIG_SUFFIX), sig), (out, data)):
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(body)
        os.replace(tmp, path)
    return out


def sign_config(out: Path, key: Path, number: int, machine: str, jurisdiction: str, denom: int,
                games: list[str]) -> Path:
    return write_signed(out, config_bytes(number, machine, jurisdiction, denom, games), key)


def read_config(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def dev_config(state: Path, jurisdiction: str, games: list[str], denom: int, machine: str,
               key: Path | None = None) -> Path:
    """STATE/operator.json signed with the development operator key (the emulated cabinet's
    operator): left as it is when it already says this, else the next configuration number."""
    from tools import firmware

    key = key or firmware.DEV_OPERATOR_KEY
    if not key.is_file():
        firmware.operator_pub()  # makes the development operator key once
    out = state / "operator.json"
    have = read_config(out)
    want = json.loads(config_bytes(1, machine, jurisdiction, denom, games))
    if have is not None and all(have.get(k) == want[k] for k in want if k != "config") and signed_by(out, key):
        return out
    number = (have.get("config", 0) if have and isinstance(have.get("config"), int) else 0) + 1
    return sign_config(out, key, number, machine, jurisdiction, denom, games)


def signed_by(out: Path, key: Path) -> bool:
    """Whether out.sig is key's signature of out (a development key made again signs anew)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding

    try:
        sign.load_private(key).public_key().verify(Path(str(out) + SIG_SUFFIX).read_bytes(), out.read_bytes(),
                                                   padding.PKCS1v15(), hashes.SHA256())
    except (OSError, InvalidSignature):
        return False
    return True


def enrol_message(board: str, number: int, uid: str) -> bytes:
    return f"{ENROL} board={board} number={number} id={uid}".encode()


def enrol_lines(key: Path, board: str, number: int, uid: str) -> list[str]:
    """The signature of enrolment `number` of `uid` on `board`, as the console takes it."""
    h = sign.sign_bytes(sign.load_private(key), enrol_message(board, number, uid)).hex()
    return [h[i:i + LINE_HEX] for i in range(0, len(h), LINE_HEX)]


def check_config(jurisdiction: str, games: list[str], models: Path = MODELS) -> None:
    """What the cabinet would refuse is refused before it is signed: a jurisdiction it has no
    profile for, no game, a game id this release does not ship (a typo would otherwise be signed
    and every cabinet given it would stand with a config tilt)."""
    from firmware.jurisdiction import PROFILES

    if jurisdiction not in PROFILES:
        raise ValueError(f"no jurisdiction {jurisdiction!r} (one of {', '.join(sorted(PROFILES))})")
    if not games:
        raise ValueError("no game: --games ID,ID")
    unknown = [g for g in games if not (models / f"{g}.json").is_file()]
    if unknown:
        raise ValueError(f"no shipped game {', '.join(unknown)} (games/models/)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.operator", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("keygen", help="a new RSA-3072 operator key").add_argument("key", type=Path)
    c = sub.add_parser("config", help="a signed configuration")
    c.add_argument("out", type=Path)
    c.add_argument("--key", type=Path, required=True)
    c.add_argument("--number", type=int, required=True)
    c.add_argument("--machine", required=True)
    c.add_argument("--jurisdiction", required=True)
    c.add_argument("--denom", type=int, required=True)
    c.add_argument("--games", required=True)
    e = sub.add_parser("enrol", help="an enrolment's signature lines")
    e.add_argument("--key", type=Path, required=True)
    e.add_argument("--board", required=True)
    e.add_argument("--number", type=int, required=True)
    e.add_argument("--id", required=True)
    args = ap.parse_args(argv)
    try:
        if args.cmd == "keygen":
            print(sign.keygen(args.key))
        elif args.cmd == "config":
            if args.number < 1:
                raise sign.ReleaseError("a configuration number is 1 or more")
            games = [g for g in args.games.split(",") if g]
            check_config(args.jurisdiction, games)
            print(sign_config(args.out, args.key, args.number, args.machine, args.jurisdiction, args.denom, games))
        else:
            print(f"enrol {args.id} {args.number}")
            print("\n".join(enrol_lines(args.key, args.board, args.number, args.id)))
    except (sign.ReleaseError, OSError, ValueError) as err:
        print(f"operator: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
