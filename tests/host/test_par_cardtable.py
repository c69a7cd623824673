"""PAR sheets of the card-poker table games (tools/par/cardtable_sheet.py): valid HTML (every table
closed, with its caption first: tests/host/test_par.py's strict parser), every figure the
certificate's, each wager's outcomes adding up to its certified return, the pay tables the model's,
the by-law's sections, the line "matches its certificate", and a differing certificate named."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from games.model_json import read
from tests.host.test_par import strict
from tools import par
from tools.certify import cardtable
from tools.par import cardtable_sheet

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["three-card-96", "war-97", "red-dog-97"]


@pytest.fixture(scope="module")
def sheets(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("par")
    for n in NAMES:
        line = par.write(str(ROOT / "games" / "models" / (n + ".json")), str(out))
        assert line.endswith("matches its certificate"), line
    return out


@pytest.mark.parametrize("name", NAMES)
def test_html_is_valid_and_figures_are_the_certificates(sheets: Path, name: str) -> None:
    doc = (sheets / (name + ".html")).read_text(encoding="utf-8")
    p = strict(doc)
    assert not p.errors, p.errors
    assert p.tables == p.captions == doc.count("</table>") >= 5
    md = (sheets / (name + ".md")).read_text(encoding="utf-8")
    cert = json.loads((ROOT / "games" / "certs" / (name + ".json")).read_text())
    for wid, per in cert["rtp"].items():
        assert per[str(cert_bet(cert))] in md, wid  # the exact return, as certified
    assert "matches its certificate `games/certs/%s.json`" % name in md
    raw = read(str(ROOT / "games" / "models" / (name + ".json")))
    for w in raw["wagers"].values():
        assert w["section"] in md
    assert raw["rules"]["fr"][0] in md and raw["rules"]["en"][0] in md  # the s. 89 text, both languages


def cert_bet(cert: dict) -> int:
    return int(next(iter(cert["max_award"])))


def test_outcomes_add_up_to_the_certified_return() -> None:
    raw = read(str(ROOT / "games" / "models" / "three-card-96.json"))
    rep = cardtable.certify(raw)
    blocks = cardtable_sheet.blocks(rep, raw)
    table = next(b for b in blocks if b[0] == "table" and b[1].startswith("ante, optimal: every outcome"))
    total = sum(Fraction(r[3]) * (Fraction(r[1]) - Fraction(r[0])) for r in table[3])
    assert 1 + total == rep.wagers["ante"].optimal.rtp
    assert sum(Fraction(r[3]) for r in table[3]) == 1
    pays = next(b for b in blocks if b[0] == "table" and b[1].startswith("Pay tables"))
    assert ["Paire ou plus / Pair or plus", "s. 67.32", "Three of a kind", "30 to 1"] in pays[3]
    assert ["Prime de la mise initiale / Ante bonus", "s. 67.31", "Straight flush", "5 to 1"] in pays[3]


def test_a_certificate_that_differs_is_named(tmp_path: Path) -> None:
    raw = read(str(ROOT / "games" / "models" / "war-97.json"))
    rep = cardtable.certify(raw)
    cert = cardtable.certificate(rep)
    cert["max_risk"]["2"] = 3
    (tmp_path / "war-97.json").write_text(json.dumps(cert))
    assert cardtable_sheet.cert_check(rep, str(tmp_path)) == ["max_risk, bet 2: certificate 3, exact 4"]
    assert cardtable_sheet.cert_check(rep, str(tmp_path / "none")) == ["no shipped certificate %s" %
                                                                       (tmp_path / "none" / "war-97.json")]
