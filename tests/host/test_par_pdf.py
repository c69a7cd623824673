"""The PAR sheet a lab files, as a PDF (issue 23.18: it was a 1150 × 11,761 px PNG): printed by
Debian's headless Chromium (`make par-pdf`, tools/par/browser.py pdf) and read back with pypdf. Its
pages are letter pages, its text holds the exact return in full (the 5-reel game's had been
"exact: 257/257 digits"), the software version, the source's date and the symbols' names, and
the same source prints the same file."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest

from tools.par import browser

ROOT = Path(__file__).resolve().parents[2]
GAME = "aurore-93"  # 5 reels × 3 rows, 20 lines, free spins: the longest exact figures shipped
EPOCH = "1767225600"  # 2026-01-01 00:00:00 UTC


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> tuple[Path, Path]:
    if browser.find() is None:  # make test installs it (browser-tools); a bare pytest says how
        pytest.fail("no headless Chromium: run `make browser-tools` (apt-get install -y --no-install-recommends "
                    + " ".join(browser.PACKAGES) + ")")
    outs = []
    for run in ("a", "b"):
        out = tmp_path_factory.mktemp("par-pdf-" + run)
        r = subprocess.run([sys.executable, "-m", "tools.par", str(ROOT / "games" / "models" / f"{GAME}.json"),
                            "--pdf", "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, SOURCE_DATE_EPOCH=EPOCH))
        assert r.returncode == 0, r.stderr[-2000:]
        outs.append(out / f"{GAME}.pdf")
    return outs[0], outs[1]


def test_the_pdf_holds_the_exact_return_in_full_the_version_and_the_date(printed) -> None:
    pdf = pypdf.PdfReader(str(printed[0]))
    # the HTML sheet is ~12,000 px tall: a dozen letter pages, not one image
    assert 5 <= len(pdf.pages) <= 40, len(pdf.pages)
    w, h = float(pdf.pages[0].mediabox.width), float(pdf.pages[0].mediabox.height)
    assert (round(w), round(h)) == (612, 792)  # US Letter in points, as printed in Québec
    text = "".join(p.extract_text() for p in pdf.pages)
    digits = re.sub(r"\s+", "", text)  # the fraction is wrapped over lines: join them
    cert = json.loads((ROOT / "games" / "certs" / f"{GAME}.json").read_text(encoding="utf-8"))
    for bet, frac in cert["rtp"].items():  # the certificate's exact return at each bet, digit for digit
        p, q = frac.split("/")
        assert len(p) > 200 and p in digits and q in digits, bet
    version = re.search(r'^VERSION = "([^"]+)"', (ROOT / "firmware" / "config.py").read_text(), re.M).group(1)
    assert "Jeton %s" % version in text and "2026-01-01" in text
    assert "a credit is $0.25" in text
    for names in ("Harfang", "Snowy owl", "Orignal", "Moose"):  # the symbols as the player reads them
        assert names in text
    assert "Pay lines" in text and "line 20" in text
    assert pdf.metadata["/CreationDate"] == pdf.metadata["/ModDate"] == "D:20260101000000+00'00'"


def test_the_same_source_prints_the_same_pdf(printed) -> None:
    a, b = (p.read_bytes() for p in printed)
    assert a == b
    # nothing of the run in it: a tagged PDF's element ids number the browser's DOM nodes, which
    # a loaded host numbered one apart in one run of two (make test, 2026-11-27)
    assert b"/StructTreeRoot" not in a and b"(node0" not in a
