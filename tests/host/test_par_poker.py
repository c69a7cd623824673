"""Video poker PAR sheet (issue 13 §6): one pay table's sheet (jacks-98, one solver run for the
module), parsed as HTML: every table closed with its own caption, and its figures equal to the
shipped certificate's (games/certs/jacks-98.json) and to the model's pay table."""
from __future__ import annotations

import json
import re
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest

from games.poker_hold import pattern
from games.poker_model import PokerModel
from tests.host.test_par import strict
from tools import par
from tools.par import poker_sheet, render

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "games" / "models" / "jacks-98.json"
CERT = ROOT / "games" / "certs" / "jacks-98.json"


class Tables(HTMLParser):
    """caption -> (header, rows) of every table, cell texts as shown."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, tuple[list[str], list[list[str]]]] = {}
        self.cell: list[str] | None = None
        self.row: list[str] = []
        self.cap: str | None = None
        self.head: list[str] = []
        self.rows: list[list[str]] = []
        self.where = ""

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag == "table":
            self.cap, self.head, self.rows = None, [], []
        elif tag in ("caption", "td", "th"):
            self.cell = []
        elif tag == "tr":
            self.row = []
        elif tag in ("thead", "tbody"):
            self.where = tag

    def handle_endtag(self, tag: str) -> None:
        if tag == "caption":
            self.cap = "".join(self.cell or [])
            self.cell = None
        elif tag in ("td", "th"):
            self.row.append("".join(self.cell or []))
            self.cell = None
        elif tag == "tr":
            if self.where == "thead":
                self.head = self.row
            else:
                self.rows.append(self.row)
        elif tag == "table":
            assert self.cap not in self.tables, self.cap
            self.tables[self.cap or ""] = (self.head, self.rows)

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


@pytest.fixture(scope="module")
def sheet(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("par-poker")
    rep, blocks = par.build(str(MODEL))  # the one solver run of the module
    line = par.save(rep, blocks, str(out))
    doc = (out / "jacks-98.html").read_text(encoding="utf-8")
    p = Tables()
    p.feed(doc)
    return {"rep": rep, "blocks": blocks, "line": line, "out": out, "html": doc, "tables": p.tables,
            "md": (out / "jacks-98.md").read_text(encoding="utf-8")}


def _cert() -> dict:
    return json.loads(CERT.read_text(encoding="utf-8"))


def _raw() -> dict:
    return json.loads(MODEL.read_text(encoding="utf-8"))


def _table(sheet: dict, start: str) -> tuple[list[str], list[list[str]]]:
    found = [v for k, v in sheet["tables"].items() if k.startswith(start)]
    assert len(found) == 1, (start, list(sheet["tables"]))
    return found[0]


def test_html_is_valid_every_table_closed_with_its_caption_inside(sheet) -> None:
    p = strict(sheet["html"])
    assert not p.errors, p.errors
    tables = len(re.findall(r"^\|---", sheet["md"], re.M))
    # filing, return, hit frequency, pay table, strategy + per section (bets 1-4, bet 5): awards, wins, convergence
    assert p.tables == p.captions == tables == sheet["html"].count("</table>") == 5 + 2 * 3
    assert "`" not in "".join(p.text) and "<code>tools.certify</code>" in sheet["html"]
    for line in sheet["md"].splitlines():
        assert line.count("`") % 2 == 0, line
    names = sorted(x.name for x in sheet["out"].iterdir())
    assert names == ["jacks-98-bet1-return.svg", "jacks-98-bet1-wins.svg", "jacks-98-bet5-return.svg",
                     "jacks-98-bet5-wins.svg", "jacks-98.html", "jacks-98.md"]
    for svg in sheet["out"].glob("*.svg"):
        doc = svg.read_text(encoding="utf-8")
        assert not strict(doc).errors, svg
    wins = (sheet["out"] / "jacks-98-bet5-wins.svg").read_text(encoding="utf-8")
    assert "wins per game (log scale)" in wins and "win (multiples of the bet)" in wins
    ret = (sheet["out"] / "jacks-98-bet5-return.svg").read_text(encoding="utf-8")
    assert "games played (log scale)" in ret and "realised return" in ret and "83 % floor" in ret


def test_returns_and_hit_frequency_equal_the_certificate(sheet) -> None:
    cert = _cert()
    head, rows = _table(sheet, "Return by bet level")
    assert head[:5] == ["bet", "optimal (exact)", "optimal", "built-in (exact)", "built-in"]
    assert [r[0] for r in rows] == ["1", "2", "3", "4", "5"]
    for r in rows:
        assert r[1] == cert["rtp"][r[0]] and r[3] == cert["strategy_rtp"][r[0]], r
        assert r[2] == "%.4f %%" % (float(Fraction(cert["rtp"][r[0]])) * 100)
        gap = Fraction(cert["rtp"][r[0]]) - Fraction(cert["strategy_rtp"][r[0]])
        assert r[5] == "%.4f %%" % (float(gap) * 100) and r[7] == "both pass"
    assert rows[4][2] == "99.5439 %"  # the published Jacks or Better 9/6 figure (docs/games.md)
    _, rows = _table(sheet, "Hit frequency and volatility")
    for r in rows:
        assert r[1].split(" ")[0] == cert["hit_frequency"][r[0]], r
    assert "matches its certificate <code>games/certs/jacks-98.json</code>" in sheet["html"]
    assert sheet["line"] == ("jacks-98: video poker, bets 1, 2, 3, 4 98.3735 % (built-in 98.1584 %), "
                             "bet 5 99.5439 % (built-in 99.5429 %); matches its certificate")


def test_pay_table_is_the_models(sheet) -> None:
    raw = _raw()
    head, rows = _table(sheet, "Pay table")
    assert head == ["award", "nom", "bet 1", "bet 2", "bet 3", "bet 4", "bet 5"]
    for a, r in zip(raw["awards"], rows, strict=True):
        want = a["pays"] if isinstance(a["pays"], list) else [a["pays"] * b for b in raw["bets"]]
        assert r == [a["name"]["en"], a["name"]["fr"]] + [str(x) for x in want]


@pytest.mark.parametrize("section,bets", [("Bets 1, 2, 3, 4", (1, 2, 3, 4)), ("Bet 5", (5,))])
def test_award_chances_times_pays_give_the_certified_returns(sheet, section: str, bets: tuple) -> None:
    raw, cert = _raw(), _cert()
    head, rows = _table(sheet, section + ": each award's chance")
    assert head[2] == "optimal: probability" and head[5] == "built-in: probability"
    awards, nothing, total = rows[:-2], rows[-2], rows[-1]
    assert [r[0] for r in awards] == [a["name"]["en"] for a in raw["awards"]] and nothing[0] == "nothing"
    for col, key in ((2, "rtp"), (5, "strategy_rtp")):
        for bet in bets:
            bi = raw["bets"].index(bet)
            pays = [int(r[1].split("/")[bets.index(bet)]) for r in awards]
            assert pays == [a["pays"][bi] if isinstance(a["pays"], list) else a["pays"] * bet for a in raw["awards"]]
            probs = [Fraction(r[col]) for r in awards]
            assert sum(p * x for p, x in zip(probs, pays)) / bet == Fraction(cert[key][str(bet)])
        assert sum(probs) + Fraction(nothing[col]) == 1
        assert Fraction(total[col]) == sum(probs)
    assert Fraction(total[2]) == Fraction(cert["hit_frequency"][str(bets[0])])
    # each award's part of the return, as shown, is its chance times its pay per unit bet
    for r in awards:
        part = Fraction(r[2]) * int(r[1].split("/")[0]) / bets[0]
        assert r[4] == "%.4f %%" % (float(part) * 100), r
    # the standard royal: 1 in 40,391 at 5 coins (Wizard of Odds, Jacks or Better 9/6 return table)
    if bets == (5,):
        assert awards[0][3] == "1 in 40,391"


def test_the_built_in_strategy_table_is_the_models_list_in_order(sheet) -> None:
    raw = _raw()
    head, rows = _table(sheet, "Built-in strategy")
    assert head == ["#", "pattern", "held cards"]
    assert [r[1] for r in rows] == raw["strategy"] and [r[0] for r in rows] == [str(i + 1) for i in range(len(rows))]
    said = {r[1]: r[2] for r in rows}
    assert said["P0"] == "all five cards: Royal flush"
    assert said["20|2|10-|000"] == "hold 2: a pair (J–A)"
    assert said["00|-|-0-|000"] == "nothing: draw five"


def test_a_pattern_in_words_names_what_is_held() -> None:
    m = PokerModel(_raw())
    card = lambda r, s: "23456789TJQKA".index(r) * 4 + s
    hand = [card("K", 0), card("Q", 0), card("J", 0), card("T", 0), card("3", 1)]
    pat = pattern(m, hand, 0b01111)  # four to a royal
    assert poker_sheet.describe(m, pat) == ("hold 4: 4 singles; 3 high singles (J–A); top single J–A; suited; "
                                            "2 straight windows; royal draw")  # 9-K and T-A
    hand = [card("8", 0), card("8", 1), card("5", 2), card("5", 3), card("A", 1)]
    assert poker_sheet.describe(m, pattern(m, hand, 0b01111)) == "hold 4: two pairs (higher pair 2–T)"
    assert poker_sheet.describe(m, pattern(m, hand, 0b10000)) == "hold 1: 1 single; 1 high single (J–A); top single J–A"


def test_a_certificate_that_differs_is_named_on_the_sheet(sheet, tmp_path: Path) -> None:
    cert = _cert()
    cert["strategy_rtp"]["5"] = "1653509955078/1661102543100"  # one in the last digit
    (tmp_path / "jacks-98.json").write_text(json.dumps(cert), encoding="utf-8")
    blocks = poker_sheet.blocks(sheet["rep"], _raw(), cert_dir=str(tmp_path))
    doc = render.page("t", blocks)
    assert "CERTIFICATE: bet 5: strategy_rtp 1653509955077/1661102543100 differs" in doc
    assert "matches its certificate" not in doc
    missing = poker_sheet.blocks(sheet["rep"], _raw(), cert_dir=str(tmp_path / "none"))
    assert "CERTIFICATE: no shipped certificate games/certs/jacks-98.json" in render.page("t", missing)


def test_a_return_under_the_floor_is_marked_refused(sheet) -> None:
    rep = dict(sheet["rep"], bets=dict(sheet["rep"]["bets"]))
    five = dict(rep["bets"][5])
    five["strategy"] = dict(five["strategy"], rtp=Fraction(8299, 10000))  # the auto-hold just under 83 %
    five["gap"] = five["optimal"]["rtp"] - Fraction(8299, 10000)
    rep["bets"][5] = five
    _, rows = [(b[2], b[3]) for b in poker_sheet.blocks(rep, _raw()) if b[0] == "table" and b[1].startswith("Return")][0]
    assert [r[7] for r in rows] == ["both pass"] * 4 + ["REFUSED: built-in below"]
    assert rows[4][4] == "82.9900 %"


def test_without_ranked_awards_a_pattern_names_no_rank_class() -> None:
    raw = json.loads((ROOT / "games" / "models" / "deuces-wild-99.json").read_text(encoding="utf-8"))
    m = PokerModel(raw)
    assert poker_sheet.rank_classes(m) == {"0": "2–A"}
    card = lambda r, s: "23456789TJQKA".index(r) * 4 + s
    hand = [card("2", 0), card("2", 1), card("K", 2), card("A", 2), card("7", 3)]  # two deuces, K A suited
    assert poker_sheet.describe(m, pattern(m, hand, 0b01111)) == ("hold 4: 2 wild; 2 singles; suited; "
                                                                  "1 straight window; royal draw")  # only T-A holds K and A
