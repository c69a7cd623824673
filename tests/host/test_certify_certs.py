"""`make certify` compares every model with its shipped certificate (issue 9, fault 17).

Before, `python -m tools.certify games/models/*.json` recomputed the returns, checked the 83 % floor
and exited 0 with one pay of trefle-90 changed: it never read games/certs/.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from games.table_check import FORMATS as TABLE_FORMATS
from tools.certify import cert_mismatches, certify_model
from tools.certify.cardtable import is_cardtable

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "games" / "models"
CERTS = ROOT / "games" / "certs"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools.certify", *args], cwd=ROOT, capture_output=True, text=True)


def _load(p: Path) -> dict:
    return json.loads(p.read_text(encoding="utf-8"))


def test_tampered_pay_fails_with_the_reason(tmp_path: Path) -> None:
    raw = _load(MODELS / "trefle-90.json")
    pay = raw["pays"][0]["pays"]
    k = sorted(pay)[-1]
    pay[k] = pay[k] + 1 if isinstance(pay[k], int) else [v + 1 for v in pay[k]]  # one pay, one credit more
    model = tmp_path / "trefle-90.json"
    model.write_text(json.dumps(raw))
    r = _cli("--check-certs", str(CERTS), str(model))
    assert r.returncode == 1, (r.stdout, r.stderr)
    lines = [x for x in r.stderr.splitlines() if "CERTIFICATE MISMATCH" in x]
    assert any("math hash" in x for x in lines), r.stderr
    assert any("bet 5: return" in x and "differs from the certificate's 90.0178 %" in x for x in lines), r.stderr
    assert all(str(CERTS / "trefle-90.json") in x for x in lines)
    # the same model without --check-certs passes the floor: the old `make certify` said nothing
    assert _cli(str(model)).returncode == 0


def test_model_without_certificate_fails(tmp_path: Path) -> None:
    raw = _load(MODELS / "trefle-90.json")
    raw["id"] = "trefle-90-bis"
    model = tmp_path / "m.json"
    model.write_text(json.dumps(raw))
    r = _cli("--check-certs", str(CERTS), str(model))
    assert r.returncode == 1
    assert "NO CERTIFICATE" in r.stderr and "trefle-90-bis.json does not exist" in r.stderr, r.stderr


def test_tampered_certificate_fails(tmp_path: Path) -> None:
    # the model is intact; the certificate claims another return at one bet level
    cert = _load(CERTS / "trefle-90.json")
    num, den = (int(x) for x in cert["rtp"]["25"].split("/"))
    cert["rtp"]["25"] = "%d/%d" % (num + 1, den)
    (tmp_path / "trefle-90.json").write_text(json.dumps(cert))
    r = _cli("--check-certs", str(tmp_path), str(MODELS / "trefle-90.json"))
    assert r.returncode == 1
    assert "bet 25: return 94.3181 % differs" in r.stderr, r.stderr
    assert "math hash" not in r.stderr and "bet 5" not in r.stderr


def test_shipped_certificates_match(tmp_path: Path) -> None:
    # every shipped model, the 5x3 aurore ones too (under a second each since issue 14, they
    # took 5-8 s): the certificates the tool writes today are the shipped files, byte for byte
    # (video poker's, a few seconds each, in tests/host/test_certify_poker.py; blackjack's, 13-35 s
    # each, by `make certify` and tests/host/test_certify_blackjack.py; the card-poker table games',
    # Caribbean Stud's 20-45 s, in tests/host/test_certify_cardtable.py and per game; the table games'
    # in their own tests)
    models = [p for p in sorted(MODELS.glob("*.json"))
              if _load(p).get("format") not in ("jeton-poker/1", "jeton-blackjack/1") + TABLE_FORMATS
              and not is_cardtable(_load(p))]
    r = _cli(*map(str, models), "--write-cert", str(tmp_path))
    assert r.returncode == 0, r.stderr
    for model in models:
        cert = CERTS / model.name
        assert (tmp_path / cert.name).read_bytes() == cert.read_bytes(), cert.name
    assert len(models) == 17  # 12 reel models, 5 keno


def test_cert_mismatches_names_every_field() -> None:
    cert = certify_model(_load(MODELS / "sept-royal-87.json"))
    shipped = _load(CERTS / "sept-royal-87.json")
    assert cert_mismatches(cert, shipped) == []
    shipped.update(id="x", format="other", math_hash="00" * 32)
    del shipped["rtp"]["2"]
    shipped["hit_frequency"]["7"] = "1/2"
    got = cert_mismatches(cert, shipped)
    assert len(got) == 5, got
    assert any("certificate is for 'x'" in g for g in got) and any("format 'other'" in g for g in got)
    assert "bet 2: the certificate has no return" in got
    assert "bet 7: certified hit frequency for a bet the model does not offer" in got


def test_make_certify_checks_the_certificates() -> None:
    r = subprocess.run(["make", "-n", "certify"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "-m tools.certify --check-certs games/certs games/models/*.json" in r.stdout, r.stdout


def test_check_certs_before_the_models_takes_no_model_for_its_directory() -> None:
    # `--check-certs MODEL ...`: argparse gives the optional DIR the first model; that model is
    # checked against the shipped certificates, not read as a directory of certificates
    r = _cli("--check-certs", str(MODELS / "trefle-90.json"), str(MODELS / "sept-royal-87.json"))
    assert r.returncode == 0, r.stderr
    assert "trefle-90" in r.stdout and "sept-royal-87" in r.stdout
