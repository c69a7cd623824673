"""PAR sheets (issue 14 §3): valid HTML, reel strips, every pay adding up to the certified return,
the feature, the progressive, log-scale win distribution with free spins, labelled charts."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tools import par
from tools.certify import brute
from tools.certify.core import certify_model, feature_figures, to_json
from tools.par import charts, filing, render, sheet

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "games" / "models"
CERTS = ROOT / "games" / "certs"
FIX = ROOT / "tests" / "fixtures" / "games"
VOID = {"meta", "br", "img", "hr", "input", "link", "col", "wbr", "area", "base", "source"}
# SVG elements written self-closed
SVG_EMPTY = {"rect", "line", "path", "polygon", "polyline", "circle"}


def _load(p: Path) -> dict:
    return json.loads(p.read_text(encoding="utf-8"))


class Strict(HTMLParser):
    """Every element closed in order; each caption the first child of its own table."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tables = self.captions = 0
        self.children: list[int] = []  # element children seen so far, per open element
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs) -> None:
        if self.children:
            self.children[-1] += 1
        if tag == "caption":
            self.captions += 1
            if not self.stack or self.stack[-1] != "table":
                self.errors.append("caption outside a table (in %s)" % (self.stack[-1:] or ["document"]))
            elif self.children[-1] != 1:
                self.errors.append("caption is not the first child of its table")
        if tag == "table":
            self.tables += 1
            if "table" in self.stack:
                self.errors.append("table inside a table")
        if tag in VOID:
            return
        self.stack.append(tag)
        self.children.append(0)

    def handle_startendtag(self, tag: str, attrs) -> None:
        if tag not in SVG_EMPTY and tag not in VOID:
            self.errors.append("<%s/> self-closed" % tag)
        if self.children:
            self.children[-1] += 1

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes %s" % (tag, self.stack[-1] if self.stack else "nothing"))
            return
        self.stack.pop()
        self.children.pop()

    def handle_data(self, data: str) -> None:
        if "style" not in self.stack:
            self.text.append(data)


def strict(doc: str) -> Strict:
    p = Strict()
    p.feed(doc)
    p.close()
    if p.stack:
        p.errors.append("left open: %s" % p.stack)
    return p


def test_the_strict_parser_catches_what_the_old_sheet_did() -> None:
    # one </table> for two tables, a caption after rows: both reported
    bad = strict("<html><body><table><tr><td>1</td></tr><table><tr><td>2</td></tr><caption>x</caption></table></body></html>")
    assert any("table inside a table" in e for e in bad.errors)
    assert any("caption is not the first child" in e for e in bad.errors)
    assert any("left open" in e or "closes" in e for e in bad.errors)
    assert not strict("<table><caption>a</caption><tr><td>1</td></tr></table>").errors


@pytest.fixture(scope="module")
def sheets(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("par")
    for name in ("sept-royal-87", "trefle-90", "skeleton-88"):
        par.write(str(MODELS / (name + ".json")), str(out))
    par.write(str(FIX / "mini5.json"), str(out))
    return {p.stem: p for p in out.iterdir()}


@pytest.mark.parametrize("ident", ["sept-royal-87", "trefle-90", "skeleton-88", "test-mini5"])
def test_html_is_valid_every_table_closed_with_its_own_caption(sheets, ident: str) -> None:
    doc = (sheets[ident].parent / (ident + ".html")).read_text(encoding="utf-8")
    p = strict(doc)
    assert not p.errors, p.errors
    md = (sheets[ident].parent / (ident + ".md")).read_text(encoding="utf-8")
    tables = len(re.findall(r"^\|---", md, re.M))
    assert p.tables == p.captions == tables == doc.count("</table>") and tables >= 6, (p.tables, p.captions, tables)
    assert "`" not in "".join(p.text), "backticks shown literally in the HTML"
    assert "<code>tools.certify</code>" in doc
    # Markdown: every code span closed (an even number of backticks on each line), none in tables
    for line in md.splitlines():
        assert line.count("`") % 2 == 0, line
        assert not (line.startswith("|") and "`" in line), line


def in_full(blocks: list[tuple], cell: str) -> str:
    """An exact figure as the sheet gives it: in the cell, or, named there ("E2: ..."), written out
    at the sheet's end, numerator over denominator over several lines (issue 23.18)."""
    m = re.match(r"(E\d+): (\d+)/(\d+) digits", cell)
    if not m:
        return cell
    found = [b for b in blocks if b[0] == "fraction" and b[1] == m.group(1)]
    assert len(found) == 1, cell
    p, q = "".join(found[0][3]), "".join(found[0][4])
    assert (len(p), len(q)) == (int(m.group(2)), int(m.group(3))), cell
    assert all(len(line) <= 64 for line in found[0][3] + found[0][4])  # wrapped over lines
    return p + "/" + q


def _table(blocks: list[tuple], caption_start: str) -> tuple[list[str], list[list[str]]]:
    found = [b for b in blocks if b[0] == "table" and b[1].startswith(caption_start)]
    assert len(found) == 1, caption_start
    return found[0][2], found[0][3]


@pytest.mark.parametrize("name", ["sept-royal-87", "trefle-90"])
def test_every_pay_with_its_hits_and_return_adds_up_to_the_certificate(name: str) -> None:
    raw = _load(MODELS / (name + ".json"))
    shipped = _load(CERTS / (name + ".json"))  # written by an earlier run, checked by make certify
    cert = certify_model(raw)
    rep = to_json(cert)
    blocks = sheet.blocks(cert, raw)
    for bet in raw["bets"]:
        entries = rep["bets"][str(bet)]["entries"]
        assert sum(Fraction(e["return"]) for e in entries) == Fraction(shipped["rtp"][str(bet)])
        head, rows = _table(blocks, "Bet %d: every pay" % bet)
        assert head[:3] == ["win", "pays (credits)", "hits per cycle"]
        assert [r[0] for r in rows[:-1]] == [e["name"] for e in entries]
        for r, e in zip(rows, entries):
            assert r[2].startswith(e["count_per_cycle"]) or r[2].startswith("exact:"), (r, e)
            assert r[5] == "%.6f %%" % (float(Fraction(e["return"])) * 100)
        assert rows[-1][0] == "total" and rows[-1][5] == "%.6f %%" % (float(Fraction(shipped["rtp"][str(bet)])) * 100)
        assert in_full(blocks, rows[-1][4]) == shipped["rtp"][str(bet)]  # the fraction itself, however long


def test_sept_royal_hits_per_cycle_are_the_reel_weights() -> None:
    raw = _load(MODELS / "sept-royal-87.json")
    blocks = sheet.blocks(certify_model(raw), raw)
    _, rows = _table(blocks, "Bet 3: every pay")
    w = [{s: sum(x for t, x in zip(r["strip"], r["weights"]) if t == s) for s in set(r["strip"])} for r in raw["reels"]]
    sevens = w[0]["SEVEN"] * w[1]["SEVEN"] * w[2]["SEVEN"]  # 2 · 1 · 1
    bars = [w[i]["BAR3"] for i in range(3)]
    hits = {r[0]: r[2] for r in rows}
    assert hits["3 SEVEN"] == str(sevens) == "2"
    assert hits["3 BAR3"] == str(bars[0] * bars[1] * bars[2])
    # strips with their weights, stop by stop, and the weight per symbol
    _, strip = _table(blocks, "Base game reel strips")
    assert strip[0] == ["0", "SEVEN (2)", "SEVEN (1)", "SEVEN (1)"] and len(strip) == 22
    _, per = _table(blocks, "Base game reels: stops / weight")
    assert per[-1] == ["total", "22 / 112", "22 / 80", "22 / 76"]
    assert ["SEVEN", "1 / 2", "1 / 1", "1 / 1"] in per


def test_progressive_reset_rate_and_return_at_levels() -> None:
    raw = _load(MODELS / "sept-royal-87.json")
    shipped = Fraction(_load(CERTS / "sept-royal-87.json")["rtp"]["3"])
    blocks = sheet.blocks(certify_model(raw), raw)
    _, rows = _table(blocks, "Progressive: 3 SEVEN at bet 3")
    fig = dict((r[0], r[1]) for r in rows)
    p = Fraction(2, 112 * 80 * 76)  # SEVEN weights 2·1·1 out of the reel totals
    assert p == Fraction(1, 340480)
    # the model's "rate": "1/1000", "ceiling": 4000 (games/models/sept-royal-87.json)
    assert fig["reset"] == "1500 credits" and fig["rate"].startswith("1/1000 of every credit wagered at bet 3")
    assert fig["ceiling"].startswith("4000 credits")
    assert fig["won"].startswith("1 in 340,480 games")
    mean_level = 1500 + Fraction(1, 1000) * 3 / p  # credits wagered between two wins × rate
    assert fig["mean level when won"].startswith("%.1f credits" % float(mean_level))
    assert fig["long-run return at bet 3"].startswith("%.4f %%" % (float(shipped + Fraction(1, 1000)) * 100))
    _, levels = _table(blocks, "Progressive: return at bet 3 by jackpot level")
    assert levels[0][:3] == ["1500.0", str(shipped.numerator) + "/" + str(shipped.denominator),
                             "%.4f %%" % (float(shipped) * 100)]
    for row, j in zip(levels, (1500, 2250, mean_level, 3000, 4000)):
        assert row[2] == "%.4f %%" % (float(shipped + p * (j - 1500) / 3) * 100), row
    # the typical levels (1, 1.5, 2, 3 times the reset) up to the ceiling, the ceiling, the mean level
    assert [r[0] for r in levels] == ["1500.0", "2250.0", "%.1f" % float(mean_level), "3000.0", "4000.0"]
    # and tools.certify reports the same figures
    out = subprocess.run([sys.executable, "-m", "tools.certify", "--json", str(MODELS / "sept-royal-87.json")],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    prog = json.loads(out)["progressive"]
    assert prog["hit"] == "1/340480" and Fraction(prog["long_run_return"]) == shipped + Fraction(1, 1000)
    exact_levels = [Fraction(1500), Fraction(2250), mean_level, Fraction(3000), Fraction(4000)]
    assert [Fraction(v["return"]) for v in prog["levels"]] == [shipped + p * (j - 1500) / 3 for j in exact_levels]


def _feature_walk(raw: dict, bi: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(P(trigger), E[spins], E[F], E[F^2]) per game by walking every path of the feature tree."""
    fs = raw["free_spins"]
    base = brute.spin_outcomes(raw, raw["reels"], bi, 1)
    free = brute.spin_outcomes(raw, fs.get("reels") or raw["reels"], bi, fs.get("multiplier", 1))
    tb, tf = sum(base.values()), sum(free.values())
    cap = fs["cap"]
    retrig = {int(k): v for k, v in fs.get("retrigger", {}).items()}
    acc = [Fraction(0)] * 4
    paths: dict[int, list[Fraction]] = {}  # initial spins -> (E[spins], E[F], E[F^2]) of one feature

    def walk(left: int, given: int, spins: int, total: int, p: Fraction, into: list[Fraction]) -> None:
        if left == 0:
            into[0] += p * spins
            into[1] += p * total
            into[2] += p * total * total
            return
        for (w, n), c in free.items():
            extra = min(retrig.get(n, 0), cap - given)
            walk(left - 1 + extra, given + extra, spins + 1, total + w, p * Fraction(c, tf), into)

    for (_, n), c in base.items():
        s = min(fs["award"].get(str(n), 0), cap)
        if s:
            if s not in paths:
                paths[s] = [Fraction(0)] * 3
                walk(s, s, 0, 0, Fraction(1), paths[s])
            p = Fraction(c, tb)
            acc[0] += p
            for i in range(3):
                acc[i + 1] += p * paths[s][i]
    return acc[0], acc[1], acc[2], acc[3]


def test_feature_share_hit_frequency_and_volatility_equal_a_walk_of_the_feature_tree() -> None:
    raw = _load(FIX / "mini5.json")
    cert = certify_model(raw)
    for bi, bet in enumerate(raw["bets"]):
        f = cert["bets"][bet]
        trig, spins, mean, second = _feature_walk(raw, bi)
        assert (f.trigger, f.free_spins, f.feature_second) == (trig, spins, second)
        ff = feature_figures(f)
        assert ff["return"] == mean / bet and ff["trigger"] == trig
        assert ff["spins"] == pytest.approx(float(spins / trig), rel=1e-12)
        var = second / trig - (mean / trig) ** 2
        assert ff["std_dev"] == pytest.approx(float(var) ** 0.5 / bet, rel=1e-12)
        assert ff["mean_win"] == pytest.approx(float(mean / trig / bet), rel=1e-12)
        _, rows = _table(sheet.blocks(cert, raw), "Bet %d: the free spins feature" % bet)
        fig = dict((r[0], r[1]) for r in rows)
        assert fig["free spins per feature (mean)"] == "%.3f" % float(spins / trig)
        assert fig["volatility: σ of one feature's win"] == "%.2f × bet" % (float(var) ** 0.5 / bet)


def test_win_distribution_is_log_scale_with_free_spins_and_no_zero_tail() -> None:
    raw = _load(MODELS / "trefle-90.json")
    cert = certify_model(raw)
    blocks = sheet.blocks(cert, raw)
    f = cert["bets"][5]
    head, rows = _table(blocks, "Bet 5: win distribution")
    assert head[3] == "free-spin wins per game"
    nowin = f.base_dist.get(0, Fraction(0))
    base = sheet.bucketed(f.base_dist, 5)
    assert sum(base) + nowin == 1  # every base win lands in one bucket
    free = sheet.bucketed(f.free_dist, 5)
    assert sum(free) + f.free_dist.get(0, Fraction(0)) == 1
    assert sum(x for x in free) > 0 and f.free_spins > 0
    for r, b, fr in zip(rows, base, free):  # a rare win reads as rare, never as 0.00
        assert (float(r[1]) > 0) == (b > 0) and (float(r[3]) > 0) == (fr > 0), r
        assert r[2] == ("never" if not b else "1 in " + ("%s" % sheet.one_in(float(1 / b))[5:])), r
    svg = [b[2] for b in blocks if b[0] == "svg" and b[1] == "trefle-90-bet5-wins"][0]
    assert "wins per game (log scale)" in svg and "win (multiples of the bet)" in svg
    assert svg.count('fill="#e08a1e"') > 2  # free-spin bars beside the base game's
    ticks = re.findall(r'class="tick">1e(-\d+)<', svg)
    assert len(ticks) >= 3 and all(int(b) - int(a) == 1 for a, b in zip(ticks, ticks[1:]))  # one per decade


def test_convergence_chart_axes_and_the_floor_label_kept_off_the_certified_label() -> None:
    z = {"90": 1.6448536269514722, "95": 1.959963984540054}
    svg = charts.convergence("c", "t", 0.8305, 3.0, 0.83, z)
    assert "games played (log scale)" in svg and "realised return" in svg
    assert all("1e%d" % e in svg for e in range(2, 10))
    label = r'y="([\d.]+)" text-anchor="start" class="line-label[^"]*"[^>]*>([^<]+)<'
    ys = {m.group(2): float(m.group(1)) for m in re.finditer(label, svg)}
    (a, b) = ys.values()
    assert abs(a - b) >= charts.FONT + 2, ys  # two labels for lines half a pixel apart


def test_cli_writes_md_html_and_svg_with_a_progress_bar(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "tools.par", str(MODELS / "sept-royal-87.json"), "--out", str(tmp_path)],
                       cwd=ROOT, capture_output=True, text=True, check=True)
    assert r.stdout.startswith("sept-royal-87: bet 1 87.9817 %")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert "sept-royal-87.html" in names and "sept-royal-87.md" in names and "sept-royal-87-bet3-wins.svg" in names
    md = (tmp_path / "sept-royal-87.md").read_text(encoding="utf-8")
    assert "![sept-royal-87-bet3-return](sept-royal-87-bet3-return.svg)" in md
    for svg in tmp_path.glob("*.svg"):
        assert not strict(svg.read_text(encoding="utf-8")).errors, svg


# --- what a lab files the sheet under (issue 23.18) ------------------------------------------------
EPOCH = 1767225600  # 2026-01-01 00:00:00 UTC, as a release would set SOURCE_DATE_EPOCH


def test_a_sheet_opens_with_its_software_date_and_denomination(monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
    raw = _load(MODELS / "trefle-90.json")
    blocks = sheet.blocks(certify_model(raw), raw, EPOCH)
    _, rows = _table(blocks, "Filing")
    got = dict((r[0], r[1]) for r in rows)
    version = re.search(r'^VERSION = "([^"]+)"', (ROOT / "firmware" / "config.py").read_text(), re.M).group(1)
    assert got["software"].startswith("Jeton %s (" % version)
    assert got["date"] == "2026-01-01 (SOURCE_DATE_EPOCH)"
    # firmware/config.py DENOM_CENTS is 25: trefle-90's bets 5, 10 and 25 credits
    assert got["denomination"].startswith("a credit is $0.25")
    assert got["bets"] == "5 credits = $1.25, 10 credits = $2.50, 25 credits = $6.25"


def test_the_source_date_is_source_date_epoch_else_the_last_commits(monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
    assert filing.source_epoch() == EPOCH and filing.sheet_date(EPOCH) == "2026-01-01"
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    head = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True)
    if head.returncode == 0:  # a checkout: its last commit's date
        assert filing.source_epoch() == int(head.stdout)
    assert filing.sheet_date(None) == "undated"


def test_a_sheet_is_the_same_every_run() -> None:
    """Nothing of the run is written (it said 'Certified in 0.76 s'): the same model and source
    date make the same sheet, byte for byte (make release's PAR sheets)."""
    raw = _load(MODELS / "sept-royal-87.json")
    one = render.page("t", sheet.blocks(certify_model(raw), raw, EPOCH))
    two = render.page("t", sheet.blocks(certify_model(raw), raw, EPOCH))
    assert one == two and not re.search(r"\d s\b", one)


def test_symbols_are_named_as_the_player_reads_them_and_the_pay_lines_drawn() -> None:
    raw = _load(MODELS / "aurore-93.json")
    blocks = sheet.blocks(certify_model(raw), raw, EPOCH)
    _, rows = _table(blocks, "Symbols")
    assert [r[:3] for r in rows] == [[c, n["fr"], n["en"]] for c, n in raw["symbols"].items()]
    assert dict((r[0], r[3]) for r in rows)["STAR"] == "scatter" and dict((r[0], r[3]) for r in rows)["WILD"] == "wild"
    head, pays = _table(blocks, "Pay table")
    assert head[2] == "names (French / English)"
    assert ["OWL", "OWL", "Harfang / Snowy owl", "5"] == pays[[p[0] for p in pays].index("OWL") + 2][:4]
    _, lines = _table(blocks, "Pay lines")
    word = {0: "top", 1: "middle", 2: "bottom"}
    assert lines == [[str(i + 1)] + [word[r] for r in line] for i, line in enumerate(raw["lines"])]
    svg = [b for b in blocks if b[0] == "svg" and b[1] == "aurore-93-lines"][0][2]
    assert not strict(svg).errors and svg.count("<polyline") == 20 and "line 20</text>" in svg



CALLS: list[dict] = []


def _counted(raw: dict) -> dict:
    CALLS.append(raw)
    return {"id": raw["id"], "figure": Fraction(87, 100)}


def test_a_certifiers_result_is_kept_per_model_and_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """tools/par certified: computed once per model and code, read back equal; another model, a
    change in the code (its digest), an unreadable file, or no cache: computed again."""
    CALLS.clear()
    raw = {"id": "m", "pays": [1, 2]}
    first = par.certified(_counted, raw, tmp_path)
    assert first == {"id": "m", "figure": Fraction(87, 100)} and len(CALLS) == 1
    assert par.certified(_counted, json.loads(json.dumps(raw)), tmp_path) == first and len(CALLS) == 1
    assert len(list(tmp_path.glob("*.pickle"))) == 1 and not list(tmp_path.glob("*.tmp"))
    par.certified(_counted, {"id": "m", "pays": [1, 3]}, tmp_path)
    assert len(CALLS) == 2
    monkeypatch.setattr(par, "code_digest", lambda: "0" * 64)  # the code changed
    assert par.certified(_counted, raw, tmp_path) == first and len(CALLS) == 3
    for f in tmp_path.glob("*.pickle"):
        f.write_bytes(b"\x80torn")
    assert par.certified(_counted, raw, tmp_path) == first and len(CALLS) == 4
    assert par.certified(_counted, raw, None) == first and len(CALLS) == 5


def _slow(raw: dict) -> dict:
    CALLS.append(raw)
    time.sleep(0.5)  # a certifier's minutes: the other caller arrives while it runs
    return {"id": raw["id"], "figure": Fraction(93, 100)}


def test_two_callers_after_one_result_compute_it_once(tmp_path: Path) -> None:
    """A release's PAR sheets and the certifier's tests, in two test workers, ask for the same
    shipped game's result: the second waits for the first's, never computes it again."""
    CALLS.clear()
    start = threading.Barrier(2)
    got: list[dict] = []

    def ask() -> None:
        start.wait()
        got.append(par.certified(_slow, {"id": "m", "pays": [4]}, tmp_path))

    callers = [threading.Thread(target=ask) for _ in range(2)]
    for t in callers:
        t.start()
    for t in callers:
        t.join()
    assert got == [{"id": "m", "figure": Fraction(93, 100)}] * 2 and len(CALLS) == 1, CALLS


def test_the_code_digest_covers_the_certifiers_and_the_game_code(tmp_path: Path) -> None:
    for folder in par.CODE:
        (tmp_path / folder / "sub").mkdir(parents=True)
        (tmp_path / folder / "sub" / "a.py").write_text("x = 1\n")
    one = par.code_digest(tmp_path)
    (tmp_path / "games" / "sub" / "a.py").write_text("x = 2\n")
    assert par.code_digest.__wrapped__(tmp_path) != one
    (tmp_path / "games" / "sub" / "a.py").write_text("x = 1\n")
    (tmp_path / "games" / "notes.txt").write_text("not code")
    assert par.code_digest.__wrapped__(tmp_path) == one
