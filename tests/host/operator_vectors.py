"""The operator's signed configurations and enrolments for the device tests, made by `cryptography`
and tools/operator.py (not by the code under test): tests/fixtures/operator/vectors.json was written
once by `python -m tests.host.operator_vectors tests/fixtures/operator/vectors.json` with throwaway
RSA-3072 keys (discarded: only the operator's public modulus is kept).
tests/host/test_operator.py checks that every committed vector is what `cryptography` says.

The board id of the device tests' machine secret (tests/device/fakes_firmware.py TEST_SECRET,
bytes 0..31) is computed here with Python's own hmac, as firmware/enrolment.py describes it."""
from __future__ import annotations

import hashlib
import hmac
import json
import sys
from pathlib import Path

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from tools import operator

TEST_SECRET = bytes(range(32))
MACHINE = "JTN-EMU-0001"  # firmware/config.py MACHINE_ID


def board_id(secret: bytes) -> str:
    return hmac.new(secret, b"jeton board id v1", hashlib.sha256).digest()[:8].hex()


def make() -> dict:
    key = rsa.generate_private_key(public_exponent=65537, key_size=3072)
    other = rsa.generate_private_key(public_exponent=65537, key_size=3072)

    def sig(msg: bytes, by=key) -> str:
        return by.sign(msg, padding.PKCS1v15(), hashes.SHA256()).hex()

    board = board_id(TEST_SECRET)
    configs = []
    for name, number, machine, juris, denom, games, by in (
            ("vlt 1", 1, MACHINE, "vlt", 25, ["sept-royal-88"], key),
            ("casino 2", 2, MACHINE, "casino", 25, ["sept-royal-88"], key),
            ("vlt 3 at 10 cents", 3, MACHINE, "vlt", 10, ["sept-royal-88"], key),
            ("vlt 4 another game set", 4, MACHINE, "vlt", 25, ["trefle-90", "sept-royal-88"], key),
            ("vlt 5 for another machine", 5, "JTN-EMU-0002", "vlt", 25, ["sept-royal-88"], key),
            ("vlt 6 signed by another key", 6, MACHINE, "vlt", 25, ["sept-royal-88"], other)):
        text = operator.config_bytes(number, machine, juris, denom, games)
        configs.append({"name": name, "file": text.decode(), "sig": sig(text, by)})
    enrolments = []
    for name, b, number, uid, by in (("board 1 boss", board, 1, "boss", key),
                                     ("board 2 boss", board, 2, "boss", key),
                                     ("another board", "0" * 16, 1, "boss", key),
                                     ("another key", board, 1, "boss", other)):
        enrolments.append({"name": name, "board": b, "number": number, "id": uid,
                           "sig": sig(operator.enrol_message(b, number, uid), by)})
    nums = key.public_key().public_numbers()
    return {"source": "cryptography %s, RSA-3072 throwaway keys (tests/host/operator_vectors.py)"
                      % __import__("cryptography").__version__,
            "n": nums.n.to_bytes(384, "big").hex(), "e": nums.e, "board": board,
            "configs": configs, "enrolments": enrolments,
            "other_pub": other.public_key().public_bytes(serialization.Encoding.PEM,
                                                          serialization.PublicFormat.SubjectPublicKeyInfo).decode()}


if __name__ == "__main__":
    Path(sys.argv[1]).parent.mkdir(parents=True, exist_ok=True)
    with open(sys.argv[1], "w") as f:
        json.dump(make(), f, indent=1)
        f.write("\n")
