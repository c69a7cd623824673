"""PAR sheets: `python -m tools.par [MODEL ...] [--out build/par]` (make par: every shipped model).

For each model: a terminal summary, and <id>.md + <id>.html with the exact figures per bet level,
the win table (count per cycle, probability, 1 in N, share of the return), a chart of the base-spin
win distribution and a chart of how the realised return converges (90 % / 95 % bands, 10^1..10^8).
"""
from __future__ import annotations

import argparse
import glob
import html
import math
import os
import sys
import time

from tools.certify.core import FLOOR, Z, BetFigures, certify_model, frac_str, load_model

BUCKETS = [(0, 0, "0"), (0, 1, "(0, 1×]"), (1, 2, "(1×, 2×]"), (2, 5, "(2×, 5×]"), (5, 10, "(5×, 10×]"),
           (10, 50, "(10×, 50×]"), (50, 200, "(50×, 200×]"), (200, None, "> 200×")]


def short(f) -> str:
    s = frac_str(f)
    return s if len(s) <= 41 else "exact fraction of %d digits" % len(str(f.denominator))


def buckets(f: BetFigures) -> list[tuple[str, float]]:
    out = []
    for lo, hi, name in BUCKETS:
        p = 0.0
        for x, q in f.base_dist.items():
            r = x / f.bet
            if (hi == 0 and x == 0) or (hi != 0 and r > lo and (hi is None or r <= hi)):
                p += float(q)
        out.append((name, p))
    return out


def svg_bars(rows: list[tuple[str, float]], title: str) -> str:
    w, h, pad = 640, 260, 40
    bw = (w - 2 * pad) / len(rows)
    top = max(p for _, p in rows) or 1
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-size="11">',
             f'<text x="{pad}" y="16">{html.escape(title)}</text>']
    for i, (name, p) in enumerate(rows):
        bh = (h - 2 * pad - 20) * p / top
        x = pad + i * bw
        y = h - pad - bh
        parts.append(f'<rect x="{x + 4:.1f}" y="{y:.1f}" width="{bw - 8:.1f}" height="{bh:.1f}" fill="#3b6ea8"/>')
        parts.append(f'<text x="{x + 4:.1f}" y="{y - 3:.1f}">{p * 100:.2f}%</text>')
        parts.append(f'<text x="{x + 4:.1f}" y="{h - pad + 14}">{html.escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def svg_convergence(f: BetFigures) -> str:
    w, h, pad = 640, 280, 48
    r = float(f.rtp)
    ns = [10 ** (k / 4) for k in range(4, 33)]
    lo = max(0.0, r - Z["95"] * f.std_dev / math.sqrt(10))
    hi = r + Z["95"] * f.std_dev / math.sqrt(10)

    def xy(n: float, v: float) -> str:
        x = pad + (math.log10(n) - 1) / 7 * (w - 2 * pad)
        y = h - pad - (v - lo) / (hi - lo) * (h - 2 * pad)
        return f"{x:.1f},{min(max(y, pad), h - pad):.1f}"

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-size="11">',
             f'<text x="{pad}" y="16">Realised return after N games (bet {f.bet}): 90 % and 95 % ranges</text>']
    for k, color in (("95", "#c8d8ec"), ("90", "#7fa6d1")):
        z = Z[k]
        up = [xy(n, r + z * f.std_dev / math.sqrt(n)) for n in ns]
        dn = [xy(n, r - z * f.std_dev / math.sqrt(n)) for n in reversed(ns)]
        parts.append(f'<polygon points="{" ".join(up + dn)}" fill="{color}"/>')
    parts.append(f'<polyline points="{xy(10, r)} {xy(1e8, r)}" stroke="#000" fill="none"/>')
    fl = float(FLOOR)
    if lo < fl < hi:
        parts.append(f'<polyline points="{xy(10, fl)} {xy(1e8, fl)}" stroke="#c00" stroke-dasharray="4" fill="none"/>')
        parts.append(f'<text x="{w - pad - 90}" y="{xy(1e8, fl).split(",")[1]}" fill="#c00">83 % floor</text>')
    for k in range(1, 9):
        x = xy(10 ** k, lo).split(",")[0]
        parts.append(f'<text x="{x}" y="{h - pad + 14}">1e{k}</text>')
    parts.append(f'<text x="4" y="{xy(10, r).split(",")[1]}">{r * 100:.2f}%</text></svg>')
    return "".join(parts)


def markdown(cert: dict, raw: dict, secs: float) -> str:
    L = [f"# PAR sheet — {raw['name']['fr']} / {raw['name']['en']} (`{cert['id']}`)", "",
         f"- math hash (SHA-256 of the canonical model): `{cert['math_hash']}`",
         f"- reels: {len(raw['reels'])} × {raw.get('rows', 1)} rows, {len(raw['lines'])} line(s); "
         f"cycle {cert['cycle']:,}" + (f", free-spin cycle {cert['free_cycle']:,}" if cert["free_cycle"] else ""),
         f"- floor (by-law s. 93): {frac_str(FLOOR)}; certification time {secs:.2f} s", ""]
    if raw.get("source"):
        L += [f"Source: {raw['source']}", ""]
    L += ["| bet | RTP (exact) | RTP | hit frequency | σ per unit bet | volatility index (90 %) | free spins share |",
          "|---|---|---|---|---|---|---|"]
    for bet, f in cert["bets"].items():
        L.append(f"| {bet} | {short(f.rtp)} | {float(f.rtp) * 100:.4f} % | 1 in {1 / float(f.hit):.3f} "
                 f"({float(f.hit) * 100:.3f} %) | {f.std_dev:.3f} | {Z['90'] * f.std_dev:.2f} | "
                 f"{float(f.feature_share) * 100:.2f} % |")
    for bet, f in cert["bets"].items():
        L += ["", f"## Bet {bet}", "", "| win | pays | count per cycle | expected per spin | 1 in | return | share |",
              "|---|---|---|---|---|---|---|"]
        for e in f.entries:
            cnt = e["per_spin"] * cert["cycle"]
            L.append(f"| {e['name']} | {e['pay'] if e['pay'] is not None else '—'} | "
                     f"{float(cnt):,.0f}{'' if cnt.denominator == 1 else ' (mean)'} | {float(e['per_spin']):.6g} | "
                     f"{e['one_in']:,.1f} | {float(e['return']) * 100:.4f} % | {e['share'] * 100:.2f} % |")
        L += ["", "Realised return after N games (normal approximation):", "",
              "| games | 90 % range | 95 % range |", "|---|---|---|"]
        r, s = float(f.rtp), f.std_dev
        for k in range(3, 9):
            n = 10 ** k
            a, b = (Z[x] * s / math.sqrt(n) for x in ("90", "95"))
            L.append(f"| 10^{k} | {(r - a) * 100:.2f} – {(r + a) * 100:.2f} % | {(r - b) * 100:.2f} – {(r + b) * 100:.2f} % |")
    return "\n".join(L) + "\n"


def html_page(md: str, cert: dict) -> str:
    body = []
    for line in md.splitlines():
        if line.startswith("|---"):
            continue
        if line.startswith("|"):
            cells = "".join(f"<td>{html.escape(c.strip())}</td>" for c in line.strip("|").split("|"))
            body.append(f"<tr>{cells}</tr>")
            continue
        if line.startswith("# "):
            body.append(f"<h1>{html.escape(line[2:])}</h1>")
        elif line.startswith("## "):
            bet = int(line.split()[-1])
            f = cert["bets"][bet]
            body.append(f"<h2>{html.escape(line[3:])}</h2>")
            body.append(svg_bars(buckets(f), "Base-spin win distribution (multiples of the bet)"))
            body.append(svg_convergence(f))
        elif line.strip():
            body.append(f"<p>{html.escape(line.lstrip('- '))}</p>")
    out = []
    for i, b in enumerate(body):
        if b.startswith("<tr>") and (i == 0 or not body[i - 1].startswith("<tr>")):
            out.append("<table border=1 cellspacing=0 cellpadding=3>")
        out.append(b)
    if out and out[-1].startswith("<tr>"):
        out.append("</table>")
    return ("<!doctype html><meta charset=utf-8><title>PAR %s</title><body style='font-family:sans-serif'>"
            % html.escape(cert["id"]) + "\n".join(out) + "</body>")


def write(path: str, out: str) -> str:
    raw = load_model(path)
    t0 = time.perf_counter()
    cert = certify_model(raw)
    secs = time.perf_counter() - t0
    md = markdown(cert, raw, secs)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, cert["id"] + ".md"), "w", encoding="utf-8") as fh:
        fh.write(md)
    with open(os.path.join(out, cert["id"] + ".html"), "w", encoding="utf-8") as fh:
        fh.write(html_page(md, cert))
    lines = [f"{cert['id']}: " + ", ".join(f"bet {b} {float(f.rtp) * 100:.4f} % (hit 1 in {1 / float(f.hit):.2f},"
                                             f" σ {f.std_dev:.2f})" for b, f in cert["bets"].items())]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.par")
    ap.add_argument("models", nargs="*")
    ap.add_argument("--out", default=os.path.join("build", "par"))
    a = ap.parse_args(argv)
    for p in a.models or sorted(glob.glob(os.path.join("games", "models", "*.json"))):
        print(write(p, a.out))
    print("PAR sheets in %s/" % a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
