"""rng/crypto/rsa.py against `cryptography`: fresh throwaway keys on every run, under CPython
and under the MicroPython unix port; and the committed device vectors checked by `cryptography`."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding

from rng.crypto import rsa
from tests.host import rsa_vectors

ROOT = Path(__file__).resolve().parent.parent.parent
MPY = ROOT / ".venv" / "bin" / "micropython"
FIXTURE = ROOT / "tests" / "fixtures" / "rsa" / "pkcs1v15-sha256.json"


def _cases(v: dict):
    for c in v["cases"]:
        yield c["name"], bytes.fromhex(c["msg"]), bytes.fromhex(c["sig"]), c["valid"]


@pytest.mark.parametrize("bits", [2048, 3072, 4096])
def test_fresh_vectors_under_cpython(bits: int) -> None:
    v = rsa_vectors.make(bits)
    n = bytes.fromhex(v["n"])
    for name, msg, sig, valid in _cases(v):
        assert rsa.verify(n, v["e"], hashlib.sha256(msg).digest(), sig) is valid, name


def test_fresh_vectors_under_micropython(tmp_path: Path) -> None:
    path = tmp_path / "v.json"
    path.write_text(json.dumps(rsa_vectors.make(3072)))
    script = ("import json, hashlib, binascii\nfrom rng.crypto import rsa\n"
              f"v = json.load(open({str(path)!r}))\nn = binascii.unhexlify(v['n'])\n"
              "for c in v['cases']:\n"
              "    d = hashlib.sha256(binascii.unhexlify(c['msg'])).digest()\n"
              "    print(c['name'], rsa.verify(n, v['e'], d, binascii.unhexlify(c['sig'])) is c['valid'])\n")
    r = subprocess.run([str(MPY), "-X", "heapsize=384K", "-c", script], cwd=ROOT, capture_output=True, text=True,
                       env=dict(os.environ, MICROPYPATH=str(ROOT)), timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 10 and all(line.endswith(" True") for line in lines), r.stdout


def test_committed_vectors_are_what_cryptography_says() -> None:
    v = json.loads(FIXTURE.read_text())
    pub = __import__("cryptography.hazmat.primitives.asymmetric.rsa", fromlist=["x"]).RSAPublicNumbers(
        v["e"], int(v["n"], 16)).public_key()
    for name, msg, sig, valid in _cases(v):
        try:
            pub.verify(sig, msg, padding.PKCS1v15(), hashes.SHA256())
            ok = True
        except (InvalidSignature, ValueError):
            ok = False
        assert ok is valid, name
