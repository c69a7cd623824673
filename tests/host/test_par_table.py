"""The table games' PAR sheets (issue 26): every table closed with its own caption, every return equal
to the shipped certificate's, the returns' chances adding up to 1 and to the certified return, and
the by-law's wagers a model does not offer shown with their verdict (sic bo: the seven under 83 %)."""
from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from games.model import read
from tests.host.test_par import in_full, strict
from tools import par
from tools.certify.table import certify
from tools.par import table_sheet

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "games" / "models"
CERTS = ROOT / "games" / "certs"
NAMES = ("sicbo-83", "roulette-simple-97", "baccarat-85", "roue-fortune-85", "craps-83")


@pytest.fixture(scope="module")
def sheets(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("par")
    for name in NAMES:
        par.write(str(MODELS / f"{name}.json"), str(out))
    return out


def _table(blocks: list[tuple], start: str) -> tuple[list[str], list[list[str]]]:
    got = [b for b in blocks if b[0] == "table" and b[1].startswith(start)]
    assert len(got) == 1, start
    return got[0][2], got[0][3]


@pytest.mark.parametrize("name", NAMES)
def test_html_is_valid_every_table_closed_with_its_own_caption(sheets: Path, name: str) -> None:
    doc = (sheets / f"{name}.html").read_text(encoding="utf-8")
    p = strict(doc)
    assert not p.errors, p.errors
    md = (sheets / f"{name}.md").read_text(encoding="utf-8")
    tables = len(re.findall(r"^\|---", md, re.M))
    assert p.tables == p.captions == tables == doc.count("</table>") and tables >= 4, (p.tables, p.captions, tables)


@pytest.mark.parametrize("name", NAMES)
def test_every_return_is_the_certificates_and_the_chances_add_up(name: str) -> None:
    raw = read(str(MODELS / f"{name}.json"))
    cert = certify(raw)
    blocks = table_sheet.blocks(cert, raw)
    shipped = json.loads((CERTS / f"{name}.json").read_text())
    head, rows = _table(blocks, "Every wager at every bet level")
    per = {}
    for row in rows:
        wid, bet = row[0], int(row[4])
        per.setdefault(wid, []).append(Fraction(in_full(blocks, row[5])))
    for wid, got in per.items():
        want = shipped["rtp"][wid]
        want = [Fraction(x) for x in want] if isinstance(want, list) else [Fraction(want)] * len(got)
        assert got == want, wid
    assert set(per) == set(raw["wagers"])
    for wid, w in cert["wagers"].items():  # each wager's returns: chances add to 1, their mean is the return
        head, rows = _table(blocks, "%s (" % wid)
        for bet, law in w["bets"].items():
            mine = [r for r in rows if r[0] == str(bet)]
            chances = [Fraction(in_full(blocks, r[2])) for r in mine]
            assert sum(chances) == 1, (wid, bet)
            assert sum(c * int(r[1]) for c, r in zip(chances, mine)) == law.rtp * law.risk, (wid, bet)


def test_the_wagers_a_model_does_not_offer_are_shown_with_their_verdict() -> None:
    raw = read(str(MODELS / "sicbo-83.json"))
    blocks = table_sheet.blocks(certify(raw), raw)
    head, rows = _table(blocks, "The by-law's wagers this model does not offer")
    verdicts = {r[0]: r[6] for r in rows}
    assert verdicts == {w: "under 83 %: refused (s. 93)" for w in ("any_triple", "double", "total12", "total17",
                                                                   "total4", "total9", "triple")}
    assert ["total9", "6 to 1", "s. 95.22(4), 95.24", "1", "175/216", "81.0185 %", "under 83 %: refused (s. 93)"] in rows
    raw = read(str(MODELS / "roulette-simple-97.json"))
    head, rows = _table(table_sheet.blocks(certify(raw), raw), "The by-law's wagers this model does not offer")
    assert {r[0]: r[6] for r in rows} == {"double": "passes", "triple": "under 83 %: refused (s. 93)"}
    raw = read(str(MODELS / "craps-83.json"))  # every wager of the by-law offered
    assert not [b for b in table_sheet.blocks(certify(raw), raw) if b[0] == "table" and "does not offer" in b[1]]


def test_craps_per_roll_edges() -> None:
    raw = read(str(MODELS / "craps-83.json"))
    head, rows = _table(table_sheet.blocks(certify(raw), raw), "Every wager at every bet level")
    pass_line = next(r for r in rows if r[0] == "pass" and r[4] == "1")
    assert pass_line[11] == "3.3758" and pass_line[12] == "0.419 %"  # 557/165 rolls; 7/495 over them
    assert head[11:] == ["rolls to decide", "house edge per roll"]
