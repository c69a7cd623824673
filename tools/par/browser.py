"""A PAR sheet in headless Chromium: the PDF a lab files, a full-page PNG, and every chart label's
box read through the DOM, with whether it touches a drawn shape (bar, band, line, axis) or another label.

Chromium is Debian's `chromium` package with the DejaVu fonts (`make browser-tools` installs them
when missing); nothing is downloaded at run time.
"""
from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

PACKAGES = ("chromium", "fonts-dejavu-core")
WIDTH = 1150  # px: the sheet's max width plus its margins

# Runs in the page after it is laid out; writes its findings into <pre id="par-measure">.
MEASURE = r"""<script>
(function () {
  const res = {labels: [], touches: [], height: document.documentElement.scrollHeight};
  for (const svg of document.querySelectorAll("svg.chart")) {
    const shapes = [...svg.querySelectorAll("rect, line, path, polygon, polyline")];
    const toSvg = svg.getScreenCTM().inverse();
    for (const t of svg.querySelectorAll("text")) {
      const r = t.getBoundingClientRect();
      res.labels.push({chart: svg.id, text: t.textContent, left: r.left, top: r.top, right: r.right, bottom: r.bottom});
      const b = t.getBBox(), m = toSvg.multiply(t.getScreenCTM());
      shapes: for (const s of shapes) {
        const fill = s.getAttribute("fill") && s.getAttribute("fill") !== "none";
        for (let i = 0; i <= 6; i++) for (let j = 1; j <= 3; j++) {
          const p = new DOMPoint(b.x + b.width * i / 6, b.y + b.height * j / 4).matrixTransform(m);
          if ((fill && s.isPointInFill(p)) || (s.getAttribute("stroke") && s.isPointInStroke(p))) {
            res.touches.push({chart: svg.id, text: t.textContent, shape: s.outerHTML.slice(0, 90)});
            continue shapes;
          }
        }
      }
    }
  }
  const pre = document.createElement("pre");
  pre.id = "par-measure";
  pre.textContent = JSON.stringify(res);
  document.body.appendChild(pre);
})();
</script>"""


class BrowserError(RuntimeError):
    pass


def find() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _run(args: list[str], timeout: int = 120, env: dict | None = None) -> str:
    exe = find()
    if exe is None:
        raise BrowserError("no headless Chromium: make browser-tools (apt-get install -y --no-install-recommends "
                           + " ".join(PACKAGES) + ")")
    with tempfile.TemporaryDirectory(prefix="par-chromium-") as profile:
        cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
               "--disable-dev-shm-usage", "--user-data-dir=" + profile, *args]
        try:
            res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        except subprocess.TimeoutExpired as e:
            raise BrowserError("chromium did not finish in %d s: %s" % (timeout, " ".join(cmd))) from e
    if res.returncode:
        raise BrowserError("chromium failed (%d): %s" % (res.returncode, res.stderr[-2000:]))
    return res.stdout


def measure(page: str) -> dict:
    """{labels: [{chart, text, left, top, right, bottom}], touches: [...], height} of an HTML file."""
    with open(page, encoding="utf-8") as fh:
        doc = fh.read()
    with tempfile.TemporaryDirectory(prefix="par-measure-") as tmp:
        probe = os.path.join(tmp, "probe.html")
        with open(probe, "w", encoding="utf-8") as fh:
            fh.write(doc.replace("</body>", MEASURE + "</body>"))
        dom = _run(["--window-size=%d,1000" % WIDTH, "--dump-dom", "file://" + probe])
    m = re.search(r'<pre id="par-measure">(.*?)</pre>', dom, re.S)
    if not m:
        raise BrowserError("the page's measurement did not run (no #par-measure in the DOM)")
    return json.loads(html.unescape(m.group(1)))


def overlaps(labels: list[dict], slack: float = 0.5) -> list[tuple[str, str, str]]:
    """(chart, label, label) for every two labels of a chart whose boxes intersect."""
    out = []
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            if a["chart"] == b["chart"] and min(a["right"], b["right"]) - max(a["left"], b["left"]) > slack \
                    and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > slack:
                out.append((a["chart"], a["text"], b["text"]))
    return out


def screenshot(page: str, png: str, height: int) -> str:
    """The whole page (height px tall) as a PNG."""
    os.makedirs(os.path.dirname(png) or ".", exist_ok=True)
    _run(["--window-size=%d,%d" % (WIDTH, height), "--screenshot=" + os.path.abspath(png), "file://" + os.path.abspath(page)])
    if not os.path.exists(png):
        raise BrowserError("chromium wrote no screenshot " + png)
    return png


# the PDF's creation and modification dates as Chromium writes them (PDF 32000-1, 7.9.4): the
# printing's time, replaced by the source's so that the same source prints the same file
PDF_DATE = re.compile(rb"D:\d{14}\+00'00'")


def pdf(page: str, out: str, epoch: int | None) -> str:
    """The sheet printed to a PDF by Chromium (`--print-to-pdf`, US Letter, no header or footer:
    nothing of the run on the page); its dates the source's (epoch, tools/par/filing.py) when known."""
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    if os.path.exists(out):
        os.remove(out)
    # untagged: the structure tree's element ids (`/ID (node00000017)`) follow the DOM's node
    # numbering, which a loaded host changed once in a while (make test: the same source printed
    # two files one digit apart); untagged it is also 110 KB instead of 880 KB
    _run(["--no-pdf-header-footer", "--disable-pdf-tagging", "--print-to-pdf=" + os.path.abspath(out),
          "file://" + os.path.abspath(page)],
         env=dict(os.environ, TZ="UTC"))
    if not os.path.exists(out):
        raise BrowserError("chromium wrote no PDF " + out)
    if epoch is not None:
        with open(out, "rb") as fh:
            doc = fh.read()
        stamp = time.strftime("D:%Y%m%d%H%M%S+00'00'", time.gmtime(epoch)).encode()
        doc, n = PDF_DATE.subn(stamp, doc)  # the same length: the cross-reference offsets stay right
        if n == 0:
            raise BrowserError("no creation date in the PDF to set (Chromium's format changed?): " + out)
        with open(out, "wb") as fh:
            fh.write(doc)
    return out
