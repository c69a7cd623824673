"""A reel game's pay lines on its PAR sheet: a table (the row each line takes on each reel) and one
small diagram per line, numbered as the player's screen numbers them (sim/screen/reels.js)."""
from __future__ import annotations

import html

CELL, GAP, PER_ROW, LABEL = 14, 3, 10, 16  # px; ten diagrams a row


def row_name(r: int, rows: int) -> str:
    if rows == 3:
        return ("top", "middle", "bottom")[r]
    return "row %d" % (r + 1)


def table(lines: list[list[int]], rows: int) -> tuple:
    head = ["line"] + ["reel %d" % (i + 1) for i in range(len(lines[0]))]
    body = [[str(n + 1)] + [row_name(r, rows) for r in line] for n, line in enumerate(lines)]
    return ("table", "Pay lines: the window's row each line takes on each reel (line 1 first, as the screen numbers them)",
            head, body)


def diagrams(ident: str, lines: list[list[int]], rows: int) -> str:
    """One SVG: each line as the window's rows × reels, its cell on each reel filled and joined."""
    reels = len(lines[0])
    w = reels * (CELL + GAP) + GAP
    h = rows * (CELL + GAP) + GAP
    step_x, step_y = w + 18, h + LABEL + 10
    per = min(PER_ROW, len(lines))
    total_w = per * step_x
    total_h = ((len(lines) + per - 1) // per) * step_y
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" id="{html.escape(ident)}" class="paylines" width="{total_w}" '
           f'height="{total_h}" viewBox="0 0 {total_w} {total_h}" font-family="DejaVu Sans, sans-serif" '
           f'font-size="11" role="img">', "<title>Pay lines</title>"]
    for n, line in enumerate(lines):
        x0, y0 = (n % per) * step_x, (n // per) * step_y
        pts = []
        for i, r in enumerate(line):
            for rr in range(rows):
                fill = "#f2b705" if rr == r else "#eeeeee"
                out.append(f'<rect x="{x0 + GAP + i * (CELL + GAP)}" y="{y0 + GAP + rr * (CELL + GAP)}" width="{CELL}" '
                           f'height="{CELL}" fill="{fill}" stroke="#999"/>')
            pts.append(f"{x0 + GAP + i * (CELL + GAP) + CELL / 2:.1f},{y0 + GAP + r * (CELL + GAP) + CELL / 2:.1f}")
        out.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="#c00" stroke-width="2"/>')
        out.append(f'<text x="{x0 + w / 2:.1f}" y="{y0 + h + LABEL:.1f}" text-anchor="middle">line {n + 1}</text>')
    out.append("</svg>")
    return "\n".join(out)


def blocks(ident: str, lines: list[list[int]], rows: int) -> list[tuple]:
    return [("h2", "Pay lines"), ("svg", "%s-lines" % ident, diagrams("%s-lines" % ident, lines, rows)), table(lines, rows)]
