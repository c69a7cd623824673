"""Keno certification (issue 13): `python -m tools.certify KENO_MODEL --json`.

The certifier's hypergeometric figures are checked against a brute-force enumeration of every draw
of a reduced keno (20 numbers, 5 drawn: 15,504 draws), against published figures, and against the
device's own integer recomputation; a spot count under 83 % is refused by name.
"""
from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from itertools import combinations
from pathlib import Path

from games import keno_exact
from games.keno_model import KenoModel
from tools.certify import keno

ROOT = Path(__file__).resolve().parent.parent.parent
MODELS = ROOT / "games" / "models"
CERTS = ROOT / "games" / "certs"
FIX = ROOT / "tests" / "fixtures" / "games"


def _load(p: Path) -> dict:
    return json.loads(p.read_text(encoding="utf-8"))


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools.certify", *args], cwd=ROOT, capture_output=True, text=True)


def _keno_models() -> list[Path]:
    return sorted(p for p in MODELS.glob("*.json") if _load(p).get("format") == "jeton-keno/1")


def test_brute_force_enumeration_of_a_reduced_keno() -> None:
    # every one of the C(20, 5) draws, the picks 1..s: the award looked up in the JSON directly
    raw = _load(FIX / "keno_mini.json")
    cert = keno.certify(raw)
    draws = list(combinations(range(1, 21), 5))
    assert len(draws) == 15504
    for s_key, table in raw["pays"].items():
        s = int(s_key)
        picks = set(range(1, s + 1))
        for bi, bet in enumerate(raw["bets"]):
            total = second = hits = 0
            for d in draws:
                v = table.get(str(len(picks.intersection(d))), 0)
                v = v[bi] if isinstance(v, list) else v * bet // raw["unit"]
                total += v
                second += v * v
                hits += v > 0
            f = cert["spots"][s]["bets"][bet]
            assert f["rtp"] == Fraction(total, len(draws) * bet), (s, bet)
            assert f["hit"] == Fraction(hits, len(draws)), (s, bet)
            mean = Fraction(total, len(draws))
            assert f["variance"] == (Fraction(second, len(draws)) - mean * mean) / (bet * bet), (s, bet)


def test_catch_law_matches_published_figures() -> None:
    # 10 spots of 80, 20 drawn (www.cryptologic-casinos.biz/keno.htm): catching 0 is 4.579 %,
    # 5 is 5.143 %, 10 is 1 in 8,911,711.18, 9 is 1 in 163,381.37, 8 is 1 in 7,384.47
    law = keno.catch_law(80, 20, 10)
    assert round(float(law[0]) * 100, 3) == 4.579 and round(float(law[5]) * 100, 3) == 5.143
    assert round(float(1 / law[10]), 2) == 8911711.18
    assert round(float(1 / law[9]), 2) == 163381.37
    assert round(float(1 / law[8]), 2) == 7384.47
    # 20 spots, 0 caught: 1 in 843.380, 0.11857057 % (www.pokercasino-online.com/keno-casino.html)
    law20 = keno.catch_law(80, 20, 20)
    assert round(float(1 / law20[0]), 3) == 843.380 and round(float(law20[0]) * 100, 8) == 0.11857057


def test_a_published_one_spot_table_is_refused_naming_the_spot_count(tmp_path: Path) -> None:
    # one spot paying 3 for 1 ("$2.10 for a 70c bet", a 25 % house edge: pokeronlineguru.com,
    # "Casino advantage in keno"; gamblingdictionary.com: "one number pays two to one, on three to
    # one odds ... a 25 percent house edge"): 75 %, under the 83 % floor; its 2 spots pass
    r = _cli(str(FIX / "keno_sub83.json"), "--json")
    assert r.returncode == 1
    rep = json.loads(r.stdout)
    assert rep["spots"]["1"]["bets"]["1"]["rtp"] == "3/4"
    assert "1 spots, bet 1: return 3/4 = 75.0000 % is below the 83 % floor of by-law s. 93" in r.stderr, r.stderr
    assert "2 spots" not in r.stderr
    r = _cli(str(FIX / "keno_sub83.json"), "--write-cert", str(tmp_path))
    assert r.returncode == 1 and not (tmp_path / "test-keno-sub83.json").exists()  # refused: no certificate


def test_json_report_fields() -> None:
    r = _cli(str(MODELS / "keno-classique-92.json"), "--json")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert rep["format"] == "jeton-keno/1" and rep["numbers"] == 80 and rep["drawn"] == 20
    assert sorted(int(s) for s in rep["spots"]) == list(range(1, 11))
    b = rep["spots"]["1"]["bets"]["5"]
    # one spot paying 19 credits for a 5-credit coin: 1/4 x 19/5 = 95 %
    assert b["rtp"] == "19/20" and b["hit_frequency"] == "1/4"
    assert abs(b["std_dev"] - (0.25 * 0.75) ** 0.5 * 19 / 5) < 1e-12
    lo = rep["lowest"]
    assert lo["rtp_float"] >= 0.83 and lo["rtp"] == rep["spots"][str(lo["spots"])]["bets"][str(lo["bet"])]["rtp"]
    # the pays add up to the return
    for s, sp in rep["spots"].items():
        for bet, f in sp["bets"].items():
            assert sum(Fraction(e["return"]) for e in f["pays"]) == Fraction(f["rtp"]), (s, bet)


def test_shipped_keno_certificates_match_and_families_have_versions() -> None:
    fams: dict[str, list] = {}
    paths = _keno_models()
    assert len(paths) >= 4
    for p in paths:
        raw = _load(p)
        cert = keno.certify(raw)
        shipped = _load(CERTS / (raw["id"] + ".json"))
        assert keno.cert_mismatches(cert, shipped) == [], p.name
        assert keno.certificate(cert) == shipped, p.name
        assert keno.below_floor(cert) == []
        m = KenoModel(raw)
        for s in m.spots:  # the device's integer recomputation agrees with the host's fractions
            for bi, bet in enumerate(m.bets):
                n, d = keno_exact.rtp(m, s, bi)
                assert Fraction(n, d) == cert["spots"][s]["bets"][bet]["rtp"]
                n, d = keno_exact.hit_frequency(m, s, bi)
                assert Fraction(n, d) == cert["spots"][s]["bets"][bet]["hit"]
        fams.setdefault(raw["family"], []).append(keno.lowest(cert)[2])
    assert len(fams) >= 2 and all(len(v) >= 2 for v in fams.values()), fams
    r = _cli("--check-certs", "games/certs", *[str(p) for p in paths])
    assert r.returncode == 0, r.stderr


def test_check_certs_names_the_spot_count_that_differs(tmp_path: Path) -> None:
    cert = _load(CERTS / "keno-etoile-90.json")
    cert["rtp"]["6"]["10"] = "9/10"
    del cert["hit_frequency"]["9"]
    (tmp_path / "keno-etoile-90.json").write_text(json.dumps(cert))
    r = _cli("--check-certs", str(tmp_path), str(MODELS / "keno-etoile-90.json"))
    assert r.returncode == 1
    assert "6 spots, bet 10: certified return 9/10 differs from the exact" in r.stderr, r.stderr
    assert "9 spots, bet 5: the certificate has no hit frequency" in r.stderr, r.stderr
    assert "math hash" not in r.stderr


def test_invalid_keno_model_exits_2_with_the_reason(tmp_path: Path) -> None:
    raw = _load(MODELS / "keno-etoile-90.json")
    raw["pays"]["11"] = {"11": 1}
    (tmp_path / "bad.json").write_text(json.dumps(raw))
    r = _cli(str(tmp_path / "bad.json"))
    assert r.returncode == 2 and "INVALID MODEL: spot count 11 out of range 1..10" in r.stderr, r.stderr


def test_par_sheet_of_a_keno_model(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "tools.par", str(MODELS / "keno-etoile-90.json"), "--out", str(tmp_path)],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "keno-etoile-90: keno, 9 spot counts x 3 bets, lowest 8 spots at bet 5 90.1863 %" in r.stdout
    md = (tmp_path / "keno-etoile-90.md").read_text(encoding="utf-8")
    html = (tmp_path / "keno-etoile-90.html").read_text(encoding="utf-8")
    cert = _load(CERTS / "keno-etoile-90.json")
    for s, per in cert["rtp"].items():
        assert f"## {s} spots" in md
        for bet, frac in per.items():
            assert f"| {s} | {bet} | {frac} |" in md, (s, bet)
    # the filing table (software, date, denomination), the returns, one table per spot count
    assert html.count("<table") == html.count("</table>") == 2 + len(cert["rtp"])
