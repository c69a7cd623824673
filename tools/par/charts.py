"""SVG charts of a PAR sheet, drawn by hand (no plotting dependency): axes with ticks and labels.

Every text sits outside the plot area or in its own slot (titles above, tick labels left and below,
axis titles beyond them, legend under the x axis title, line labels in the right margin), so labels
neither overlap each other nor the curves; the Chromium test checks this on a rendered sheet.
"""
from __future__ import annotations

import html
import math

FONT = 12  # px; the slot sizes below assume it
LEFT, RIGHT, TOP = 78, 118, 34
W = 900


def _text(x: float, y: float, s: str, anchor: str = "start", cls: str = "", extra: str = "") -> str:
    c = f' class="{cls}"' if cls else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{c}{extra}>{html.escape(s)}</text>'


def _open(w: int, h: int, title: str, ident: str) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" id="{ident}" class="chart" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}" font-family="DejaVu Sans, sans-serif" font-size="{FONT}" role="img">',
            f"<title>{html.escape(title)}</title>",
            _text(LEFT, 18, title, cls="title", extra=' font-weight="bold"')]


def _axes(parts: list[str], x0: float, x1: float, y0: float, y1: float, xlabel: str, ylabel: str) -> None:
    parts.append(f'<path d="M{x0:.1f},{y0:.1f} V{y1:.1f} H{x1:.1f}" stroke="#000" fill="none"/>')
    parts.append(_text(14, (y0 + y1) / 2, ylabel, "middle", "axis-label",
                       f' transform="rotate(-90 14 {(y0 + y1) / 2:.1f})"'))
    parts.append(_text((x0 + x1) / 2, y1 + 44, xlabel, "middle", "axis-label"))


def _legend(parts: list[str], y: float, items: list[tuple[str, str, str]]) -> None:
    """items: (label, colour, 'box' | 'line' | 'dash'), in one row under the x axis title."""
    x = LEFT
    for label, colour, kind in items:
        if kind == "box":
            parts.append(f'<rect x="{x}" y="{y - 10}" width="14" height="10" fill="{colour}"/>')
        else:
            dash = ' stroke-dasharray="5 3"' if kind == "dash" else ""
            parts.append(f'<line x1="{x}" y1="{y - 5}" x2="{x + 14}" y2="{y - 5}" stroke="{colour}" stroke-width="2"{dash}/>')
        parts.append(_text(x + 19, y, label, cls="legend"))
        x += 19 + 7.5 * len(label) + 22


def log_bars(ident: str, title: str, labels: list[str], series: list[tuple[str, str, list[float]]],
             xlabel: str, ylabel: str) -> str:
    """Grouped bars on a log y axis (one decade per tick); zero values draw no bar."""
    h = 340
    x0, x1, y0, y1 = LEFT, W - RIGHT, TOP, h - 86
    vals = [v for _, _, vs in series for v in vs if v > 0]
    lo = math.floor(math.log10(min(vals))) if vals else -1
    if vals and math.log10(min(vals)) - lo < 0.3:  # keep the smallest bar visible
        lo -= 1
    hi = math.ceil(math.log10(max(vals))) if vals else 0
    hi = max(hi, lo + 1)

    def y(v: float) -> float:
        return y1 - (math.log10(v) - lo) / (hi - lo) * (y1 - y0)

    parts = _open(W, h, title, ident)
    step = max(1, math.ceil((hi - lo) * 16 / (y1 - y0)))  # ticks at least 16 px apart
    for k in range(lo, hi + 1, step):
        yy = y(10.0 ** k)
        parts.append(f'<line x1="{x0}" y1="{yy:.1f}" x2="{x1}" y2="{yy:.1f}" stroke="#ddd"/>')
        parts.append(_text(x0 - 6, yy + 4, "1e%d" % k if k else "1", "end", "tick"))
    slot = (x1 - x0) / len(labels)
    bw = (slot - 10) / len(series)
    for i, lab in enumerate(labels):
        sx = x0 + i * slot
        for j, (_, colour, vs) in enumerate(series):
            if vs[i] > 0:
                top = y(vs[i])
                parts.append(f'<rect x="{sx + 5 + j * bw:.1f}" y="{top:.1f}" width="{bw:.1f}" '
                             f'height="{y1 - top:.1f}" fill="{colour}"><title>{vs[i]:.4g}</title></rect>')
        parts.append(_text(sx + slot / 2, y1 + 20, lab, "middle", "tick"))
    _axes(parts, x0, x1, y0, y1, xlabel, ylabel)
    _legend(parts, h - 14, [(name, colour, "box") for name, colour, _ in series])
    parts.append("</svg>")
    return "".join(parts)


def _nice_step(span: float, pixels: float) -> float:
    """A 1-2-5 step giving ticks at least 24 px apart."""
    raw = span * 24 / pixels
    e = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * e >= raw:
            return m * e
    return 10 * e


def convergence(ident: str, title: str, rtp: float, sd: float, floor: float, z: dict[str, float]) -> str:
    """Realised return after N games (10^2..10^9, log x) with its 90 % and 95 % ranges (normal
    approximation), the certified return and the floor; ranges beyond the frame are cut at it."""
    h = 360
    x0, x1, y0, y1 = LEFT, W - RIGHT, TOP, h - 86
    n0, n1 = 2, 9
    half = z["95"] * sd / math.sqrt(10 ** 3)
    lo = min(rtp - half, floor - 0.02)
    hi = max(rtp + half, floor + 0.02)
    step = _nice_step(hi - lo, y1 - y0)
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step

    def X(n: float) -> float:
        return x0 + (math.log10(n) - n0) / (n1 - n0) * (x1 - x0)

    def Y(v: float) -> float:
        return y1 - (v - lo) / (hi - lo) * (y1 - y0)

    parts = _open(W, h, title, ident)
    k = 0
    while lo + k * step <= hi + step / 1000:
        v = lo + k * step
        parts.append(f'<line x1="{x0}" y1="{Y(v):.1f}" x2="{x1}" y2="{Y(v):.1f}" stroke="#eee"/>')
        parts.append(_text(x0 - 6, Y(v) + 4, "%g %%" % round(v * 100, 6), "end", "tick"))
        k += 1
    for e in range(n0, n1 + 1):
        parts.append(_text(X(10 ** e), y1 + 20, "1e%d" % e, "middle", "tick"))
    ns = [10 ** (e / 8) for e in range(8 * n0, 8 * n1 + 1)]
    def P(n: float, v: float) -> str:  # a band's edge, cut at the frame (the band is one span per x)
        return "%.1f,%.1f" % (X(n), min(max(Y(v), y0), y1))

    for key, colour in (("95", "#c8d8ec"), ("90", "#7fa6d1")):
        up = [P(n, rtp + z[key] * sd / math.sqrt(n)) for n in ns]
        dn = [P(n, rtp - z[key] * sd / math.sqrt(n)) for n in reversed(ns)]
        parts.append(f'<polygon class="band" points="{" ".join(up + dn)}" fill="{colour}"/>')
    parts.append(f'<line class="curve" x1="{x0}" y1="{Y(rtp):.1f}" x2="{x1}" y2="{Y(rtp):.1f}" stroke="#000" '
                 'stroke-width="1.5"/>')
    parts.append(f'<line class="floor" x1="{x0}" y1="{Y(floor):.1f}" x2="{x1}" y2="{Y(floor):.1f}" stroke="#c00" '
                 f'stroke-width="1.5" stroke-dasharray="5 3"/>')
    # line labels in the right margin, pushed apart when the two lines are close
    yr, yf = Y(rtp) + 4, Y(floor) + 4
    if abs(yr - yf) < FONT + 4:
        mid = (yr + yf) / 2
        yr, yf = (mid - 8, mid + 8) if rtp > floor else (mid + 8, mid - 8)
    parts.append(_text(x1 + 6, yr, "%.2f %% certified" % (rtp * 100), cls="line-label"))
    parts.append(_text(x1 + 6, yf, "%g %% floor" % (floor * 100), cls="line-label floor-label", extra=' fill="#c00"'))
    _axes(parts, x0, x1, y0, y1, "games played (log scale)", "realised return")
    _legend(parts, h - 14, [("95 % range", "#c8d8ec", "box"), ("90 % range", "#7fa6d1", "box"),
                            ("certified return", "#000", "line"), ("%g %% floor" % (floor * 100), "#c00", "dash")])
    parts.append("</svg>")
    return "".join(parts)
