"""A PAR sheet rendered in headless Chromium (Debian's chromium, `make browser-tools`): no two chart
labels intersect, no label lies on a bar, band, curve or axis; the screenshot is saved for a human
under build/par-render/."""
from __future__ import annotations

import struct
from pathlib import Path

import pytest

from tools import par
from tools.par import browser

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "games" / "models"
SHOTS = ROOT / "build" / "par-render"


@pytest.fixture(scope="module", autouse=True)
def chromium() -> None:
    if browser.find() is None:  # make test installs it (browser-tools); a bare pytest says how
        pytest.fail("no headless Chromium: run `make browser-tools` (apt-get install -y --no-install-recommends "
                    + " ".join(browser.PACKAGES) + ")")


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", head[16:24])


def test_the_measurement_sees_overlapping_labels_and_a_label_on_a_curve(tmp_path: Path) -> None:
    page = tmp_path / "bad.html"
    page.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body>'
        '<svg class="chart" id="c" xmlns="http://www.w3.org/2000/svg" width="300" height="100" font-size="12">'
        '<polygon points="0,0 300,0 300,60 0,60" fill="#7fa6d1"/>'
        '<line x1="0" y1="90" x2="300" y2="90" stroke="#c00"/>'
        '<text x="10" y="40">on the band</text><text x="20" y="44">overlapping</text>'
        '<text x="200" y="94">83 % floor</text><text x="150" y="80">clear</text></svg></body></html>', encoding="utf-8")
    r = browser.measure(str(page))
    assert {t["text"] for t in r["touches"]} == {"on the band", "overlapping", "83 % floor"}
    assert browser.overlaps(r["labels"]) == [("c", "on the band", "overlapping")]


@pytest.mark.parametrize("name", ["trefle-90", "sept-royal-87"])
def test_rendered_sheet_has_no_overlapping_labels(tmp_path: Path, name: str) -> None:
    par.write(str(MODELS / (name + ".json")), str(tmp_path))
    page = tmp_path / (name + ".html")
    r = browser.measure(str(page))
    charts = {lab["chart"] for lab in r["labels"]}
    assert len(charts) == 6  # a win distribution and a convergence chart per bet level
    texts = [lab["text"] for lab in r["labels"]]
    for want in ("games played (log scale)", "realised return", "83 % floor", "wins per game (log scale)",
                 "win (multiples of the bet)"):
        assert want in texts, want
    assert all(lab["right"] - lab["left"] > 0 and lab["bottom"] - lab["top"] > 0 for lab in r["labels"])
    assert browser.overlaps(r["labels"]) == []
    assert r["touches"] == []  # the floor label is off the curve, tick labels off the axes
    png = browser.screenshot(str(page), str(SHOTS / (name + ".png")), r["height"])
    assert _png_size(Path(png)) == (browser.WIDTH, r["height"])
