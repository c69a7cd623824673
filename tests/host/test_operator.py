"""tools/operator.py (the operator's signed configuration and enrolments) and the committed vectors
the device tests take (tests/fixtures/operator/vectors.json), checked with `cryptography` and
Python's hmac, independently of the firmware's code; the build's operator key (tools/firmware.py)."""
from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from sim.harness import ROOT
from tools import firmware, operator, sign

VECTORS = ROOT / "tests" / "fixtures" / "operator" / "vectors.json"


def verifies(pub: rsa.RSAPublicKey, sig: bytes, msg: bytes) -> bool:
    try:
        pub.verify(sig, msg, padding.PKCS1v15(), hashes.SHA256())
    except InvalidSignature:
        return False
    return True


def test_committed_vectors_are_what_cryptography_says() -> None:
    v = json.loads(VECTORS.read_text())
    key = rsa.RSAPublicNumbers(v["e"], int(v["n"], 16)).public_key()
    other = serialization.load_pem_public_key(v["other_pub"].encode())
    assert v["board"] == hmac.new(bytes(range(32)), b"jeton board id v1", hashlib.sha256).digest()[:8].hex()
    for c in v["configs"]:
        by = other if "another key" in c["name"] else key
        assert verifies(by, bytes.fromhex(c["sig"]), c["file"].encode()), c["name"]
        assert not verifies(key if by is other else other, bytes.fromhex(c["sig"]), c["file"].encode())
        assert json.loads(c["file"])["format"] == "jeton-operator-config/1"
    for e in v["enrolments"]:
        by = other if e["name"] == "another key" else key
        msg = f"jeton-enrol/1 board={e['board']} number={e['number']} id={e['id']}".encode()
        assert verifies(by, bytes.fromhex(e["sig"]), msg), e["name"]


def test_the_cli_signs_a_configuration_and_an_enrolment(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    key = tmp_path / "op.pem"
    assert operator.main(["keygen", str(key)]) == 0
    pub = sign.load_public(sign.pub_path(key))
    out = tmp_path / "operator.json"
    assert operator.main(["config", str(out), "--key", str(key), "--number", "3", "--machine", "JTN-EMU-0007",
                          "--jurisdiction", "vlt", "--denom", "25", "--games", "sept-royal-87,trefle-90"]) == 0
    d = json.loads(out.read_text())
    assert d == {"format": "jeton-operator-config/1", "config": 3, "machine": "JTN-EMU-0007", "JURISDICTION": "vlt",
                 "DENOM_CENTS": 25, "GAMES": ["sept-royal-87", "trefle-90"]}
    assert verifies(pub, (tmp_path / "operator.json.sig").read_bytes(), out.read_bytes())
    capsys.readouterr()
    assert operator.main(["enrol", "--key", str(key), "--board", "00112233aabbccdd", "--number", "2",
                          "--id", "boss"]) == 0
    lines = capsys.readouterr().out.split()
    assert lines[:3] == ["enrol", "boss", "2"] and len(lines) == 3 + 12 and all(len(x) == 64 for x in lines[3:])
    assert verifies(pub, bytes.fromhex("".join(lines[3:])), b"jeton-enrol/1 board=00112233aabbccdd number=2 id=boss")
    assert operator.main(["keygen", str(key)]) == 1  # never overwrites a key


def test_a_configuration_the_cabinet_would_refuse_is_not_signed(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    key = tmp_path / "op.pem"
    assert operator.main(["keygen", str(key)]) == 0
    out = tmp_path / "operator.json"
    base = ["config", str(out), "--key", str(key), "--number", "3", "--machine", "JTN-EMU-0007", "--denom", "25"]
    for extra, why in ((["--jurisdiction", "vlt", "--games", "no-such-game"], "no shipped game no-such-game"),
                       (["--jurisdiction", "loto", "--games", "sept-royal-87"], "no jurisdiction 'loto'"),
                       (["--jurisdiction", "vlt", "--games", ","], "no game")):
        capsys.readouterr()
        assert operator.main(base + extra) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and why in err, err
        assert not out.exists()  # nothing signed


def test_the_emulated_cabinets_configuration_is_signed_again_only_when_it_changes(tmp_path: Path) -> None:
    key = tmp_path / "dev.pem"
    sign.keygen(key)
    out = operator.dev_config(tmp_path, "vlt", ["sept-royal-87"], 25, "JTN-EMU-0001", key)
    assert json.loads(out.read_text())["config"] == 1
    before = out.read_bytes()
    operator.dev_config(tmp_path, "vlt", ["sept-royal-87"], 25, "JTN-EMU-0001", key)
    assert out.read_bytes() == before  # the same: no new number (the board's floor would not need one)
    operator.dev_config(tmp_path, "vlt", ["trefle-90"], 25, "JTN-EMU-0001", key)
    assert json.loads(out.read_text())["config"] == 2
    other = tmp_path / "other.pem"
    sign.keygen(other)
    operator.dev_config(tmp_path, "vlt", ["trefle-90"], 25, "JTN-EMU-0001", other)  # another key made: signed anew
    assert json.loads(out.read_text())["config"] == 3 and operator.signed_by(out, other)


def test_a_field_image_names_its_operator_key(tmp_path: Path) -> None:
    pub = tmp_path / "rel.pub.pem"
    with pytest.raises(firmware.BuildError, match="JETON_OPERATOR_PUB"):
        firmware.operator_pub({"JETON_RELEASE_PUB": str(pub)})
    assert firmware.operator_pub({"JETON_RELEASE_PUB": str(pub), "JETON_OPERATOR_PUB": str(pub)}) == (pub, False)
