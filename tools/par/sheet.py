"""The content of one PAR sheet as blocks, rendered to Markdown and HTML by tools.par.render.

Blocks: ("h1" | "h2" | "h3" | "p", text) with `code` spans; ("table", caption, header, rows);
("svg", name, svg); ("fraction", name, what, numerator lines, denominator lines). Every figure comes
from the certifier's report (tools.certify.core.to_json, the numbers `python -m tools.certify --json`
prints) or, for the charts, its exact distributions.
"""
from __future__ import annotations

from fractions import Fraction

from games.model import Model
from tools.certify.core import FLOOR, BetFigures, Z, frac_str, to_json
from tools.par import charts, paylines
from tools.par.filing import SHORT, Exact, filing_blocks

# win sizes in multiples of the bet, on a 1-2-5 scale: (lower, upper] bounds, None = no upper bound
BUCKETS = [(0, 1), (1, 2), (2, 5), (5, 10), (10, 20), (20, 50), (50, 100), (100, 200), (200, 500),
           (500, 1000), (1000, None)]


def exact(s: str, ex: Exact | None = None, what: str = "") -> str:
    """A "p/q" from the report; a long one named in the table and written in full at the sheet's
    end (ex), or its size when the sheet keeps no such section."""
    if ex is not None:
        return ex.cell(s, what)
    if len(s) <= SHORT:
        return s
    p, q = s.split("/")
    return "exact: %d/%d digits" % (len(p), len(q))


def pct(x: float, places: int = 4) -> str:
    return "%.*f %%" % (places, x * 100)


def one_in(x: float) -> str:
    return "1 in %s" % (f"{x:,.2f}" if x < 1000 else f"{x:,.0f}")


def bucket_label(lo: int, hi: int | None) -> str:
    return "> %d×" % lo if hi is None else ("≤ %d×" % hi if lo == 0 else "%d–%d×" % (lo, hi))


def bucket_tick(lo: int, hi: int | None) -> str:
    """The short form on the chart's axis (the axis title says the unit)."""
    k = lambda v: "%dk" % (v // 1000) if v >= 1000 else str(v)
    return ">" + k(lo) if hi is None else ("≤" + k(hi) if lo == 0 else "%s–%s" % (k(lo), k(hi)))


def bucketed(dist: dict, bet: int, scale: Fraction = Fraction(1)) -> list[Fraction]:
    """Probability mass (times scale) of the wins of each bucket; no-win is left out."""
    out = [Fraction(0)] * len(BUCKETS)
    for credits, p in dist.items():
        r = Fraction(credits, bet)
        if r <= 0:
            continue
        for i, (lo, hi) in enumerate(BUCKETS):
            if r > lo and (hi is None or r <= hi):
                out[i] += p * scale
                break
    return out


def _members(v) -> str:
    if isinstance(v, list) and v and all(isinstance(x, list) for x in v):  # per-reel member sets
        return " / ".join("reel %d: %s" % (i + 1, ", ".join(x)) for i, x in enumerate(v))
    return ", ".join(v) if isinstance(v, list) else str(v)


def reel_blocks(raw: dict, reels: list[dict], what: str) -> list[tuple]:
    n = len(reels)
    weighted = any(r.get("weights") is not None for r in reels)
    rows = []
    for stop in range(max(len(r["strip"]) for r in reels)):
        row = [str(stop)]
        for r in reels:
            if stop >= len(r["strip"]):
                row.append("")
            elif r.get("weights") is None:
                row.append(r["strip"][stop])
            else:
                row.append("%s (%d)" % (r["strip"][stop], r["weights"][stop]))
        rows.append(row)
    head = ["stop"] + ["reel %d" % (i + 1) for i in range(n)]
    cap = "%s reel strips: the symbol at each stop%s" % (what, " (its weight)" if weighted else "")
    out = [("table", cap, head, rows)]
    # per symbol and reel: stops, and the weight they carry out of the reel's total
    order = list(raw["symbols"])
    counts = []
    for sym in order:
        row = [sym]
        for r in reels:
            w = r.get("weights") or [1] * len(r["strip"])
            k = sum(1 for s in r["strip"] if s == sym)
            wt = sum(x for s, x in zip(r["strip"], w) if s == sym)
            row.append("%d / %d" % (k, wt) if weighted else str(k))
        counts.append(row)
    tot = ["total"]
    for r in reels:
        w = r.get("weights") or [1] * len(r["strip"])
        tot.append("%d / %d" % (len(r["strip"]), sum(w)) if weighted else str(len(r["strip"])))
    counts.append(tot)
    cap = "%s reels: %s per symbol" % (what, "stops / weight" if weighted else "stops")
    out.append(("table", cap, ["symbol"] + head[1:], counts))
    return out


def _names(raw: dict, v) -> str:
    """The members' names as the player reads them, French / English (per reel: "reel 1: ...")."""
    sym = raw.get("symbols") or {}

    def one(code: str) -> str:
        n = (sym.get(code) if isinstance(sym, dict) else None) or {}
        return "%s / %s" % (n.get("fr", code), n.get("en", code))

    if isinstance(v, list) and v and all(isinstance(x, list) for x in v):
        return " — ".join("reel %d: %s" % (i + 1, ", ".join(one(c) for c in x)) for i, x in enumerate(v))
    return ", ".join(one(c) for c in v) if isinstance(v, list) else one(v)


def pay_blocks(raw: dict, m: Model) -> list[tuple]:
    head = ["pay", "symbols", "names (French / English)", "count"] + ["bet %d" % b for b in m.bets]
    rows = []
    for p in raw.get("pays", []):
        members = p["symbols"] if "symbols" in p else p["reels"]
        for k in sorted(p["pays"], key=int):
            rows.append([p["name"], _members(members), _names(raw, members), k] +
                        [str(m._credits(p["pays"][k], bi, "pay")) for bi in range(len(m.bets))])
    for k in sorted(raw.get("scatter_pays") or {}, key=int):
        rows.append([raw["scatter"] + " (scatter, anywhere)", raw["scatter"], _names(raw, raw["scatter"]), k] +
                    [str(m._credits(raw["scatter_pays"][k], bi, "scatter")) for bi in range(len(m.bets))])
    out = [("table", "Pay table: credits paid per line (scatter: per game) at each bet", head, rows)]
    if raw.get("format") == "jeton-reels/2" and (raw.get("wilds") or raw.get("both_ways")):
        out.append(("p", "Wilds: %s; a wild multiplies a line win where it stands in for a member of the "
                    "group paid (several multiply)%s." % (", ".join(
                        "%s x%d" % (w, k) for w, k in sorted((raw.get("wilds") or {}).items())) or "none",
                        "; lines pay both ways (a full line once)" if raw.get("both_ways") else "")))
    fs = raw.get("free_spins")
    if fs:
        award = ", ".join("%s scatters: %d" % (k, v) for k, v in sorted(fs["award"].items(), key=lambda t: int(t[0])))
        re = ", ".join("%s: +%d" % (k, v) for k, v in sorted((fs.get("retrigger") or {}).items(), key=lambda t: int(t[0])))
        out.append(("p", "Free spins: %s; retriggers %s; wins × %d; at most %s free spins per feature; %s reels."
                    % (award, re or "none", fs.get("multiplier", 1), fs.get("cap", "unlimited"),
                       "their own" if fs.get("reels") else "the base game's")))
    return out


def bet_blocks(ident: str, bet: int, b: dict, f: BetFigures, cycle: int, ex: Exact | None = None) -> list[tuple]:
    out: list[tuple] = [("h2", "Bet %d" % bet)]
    rows = []
    for e in b["entries"]:
        cnt = Fraction(e["count_per_cycle"])
        rows.append([e["name"], "—" if e["pay"] is None else str(e["pay"]),
                     e["count_per_cycle"] if cnt.denominator == 1 else "%s (mean %.6g)" % (
                         exact(e["count_per_cycle"], ex, "bet %d, %s: hits per cycle" % (bet, e["name"])), float(cnt)),
                     one_in(e["one_in"]) if e["one_in"] else "never",
                     exact(e["return"], ex, "bet %d, %s: return" % (bet, e["name"])), pct(float(Fraction(e["return"])), 6),
                     pct(e["share"], 2)])
    total = sum((Fraction(e["return"]) for e in b["entries"]), Fraction(0))
    rows.append(["total", "", "", "", exact(frac_str(total), ex, "bet %d: the return" % bet), pct(float(total), 6),
                 pct(1.0, 2)])
    out.append(("table", "Bet %d: every pay, its hits per cycle of %s games and its part of the return" % (bet, f"{cycle:,}"),
                ["win", "pays (credits)", "hits per cycle", "1 in", "return (exact)", "return", "share"], rows))
    ft = b.get("feature")
    if ft:
        out.append(("table", "Bet %d: the free spins feature" % bet, ["figure", "value"], [
            ["triggered", "%s (%s games)" % (one_in(ft["one_in"]),
                                             exact(ft["trigger"], ex, "bet %d: the feature's chance" % bet))],
            ["return", "%s (exact %s)" % (pct(float(Fraction(ft["return"])), 4),
                                          exact(ft["return"], ex, "bet %d: the free spins feature's return" % bet))],
            ["share of the return", pct(ft["share"], 2)],
            ["free spins per feature (mean)", "%.3f" % ft["spins"]],
            ["win per feature (mean)", "%.2f × bet" % ft["mean_win"]],
            ["volatility: σ of one feature's win", "%.2f × bet" % ft["std_dev"]]]))
    # win distribution: base spins per game; free spins as expected wins per game
    base = bucketed(f.base_dist, bet)
    series = [("base game", "#3b6ea8", [float(x) for x in base])]
    free = None
    if f.free_dist:
        free = bucketed(f.free_dist, bet, f.free_spins)
        series.append(("free spins", "#e08a1e", [float(x) for x in free]))
    rows = []
    for i, (lo, hi) in enumerate(BUCKETS):
        row = [bucket_label(lo, hi), "%.4g" % float(base[i]), one_in(float(1 / base[i])) if base[i] else "never"]
        if free is not None:
            row += ["%.4g" % float(free[i]), one_in(float(1 / free[i])) if free[i] else "never"]
        rows.append(row)
    head = ["win (× bet)", "base game wins per game", "1 in"] + (["free-spin wins per game", "1 in"] if free else [])
    out.append(("table", "Bet %d: win distribution (each free spin's win counted apart)" % bet, head, rows))
    out.append(("svg", "%s-bet%d-wins" % (ident, bet), charts.log_bars(
        "%s-bet%d-wins" % (ident, bet), "Bet %d: win distribution" % bet,
        [bucket_tick(lo, hi) for lo, hi in BUCKETS], series, "win (multiples of the bet)", "wins per game (log scale)")))
    rows = []
    r = b["rtp_float"]
    for c in b["convergence"]:
        rows.append(["10^%d" % len(str(c["games"])[1:])] +
                     ["%s – %s" % (pct(c[k][0], 2), pct(c[k][1], 2)) for k in ("90", "95")])
    out.append(("table", "Bet %d: realised return after N games (normal approximation)" % bet,
                ["games", "90 % range", "95 % range"], rows))
    out.append(("svg", "%s-bet%d-return" % (ident, bet), charts.convergence(
        "%s-bet%d-return" % (ident, bet), "Bet %d: realised return after N games" % bet, r, b["std_dev"],
        float(FLOOR), Z)))
    return out


# the most one game can pay (tools/certify/maxpay.py): what a prize limit (vlt) is held to
MOST = "most one game pays (credits)"
MOST_NOTE = ("The most one game pays: the largest total of one game's lines, scatter, whole free-spin series "
             "and progressive at its ceiling, exact (tools.certify); a jurisdiction's prize limit is held to it.")


def most(v: int | None) -> str:
    return "unbounded" if v is None else f"{v:,}"


def progressive_blocks(p: dict, ex: Exact | None = None) -> list[tuple]:
    rows = [["pay", p["pay"]], ["bet", str(p["bet"])], ["reset", "%d credits" % p["reset"]],
            ["ceiling", "none" if p.get("ceiling") is None else
             "%d credits: what is wagered past it rolls into the next reset" % p["ceiling"]],
            ["rate", "%s of every credit wagered at bet %d (only that bet can win it, s. 92)" % (p["rate"], p["bet"])],
            ["won", "%s games at bet %d (%s)" % (one_in(p["one_in"]), p["bet"], p["hit"])],
            ["mean level when won", "%.1f credits (every game at bet %d)" % (p["mean_level_when_won"], p["bet"])],
            ["long-run return at bet %d" % p["bet"], "%s (%s)" % (pct(float(Fraction(p["long_run_return"]))),
                                                                 exact(p["long_run_return"], ex,
                                                                       "progressive: long-run return"))]]
    out = [("h2", "Progressive jackpot"),
           ("p", "The certified return counts the jackpot at its reset (a floor, by-law s. 93); "
                 "above the reset each credit of the jackpot adds its chance per game to the return."),
           ("table", "Progressive: %s at bet %d" % (p["pay"], p["bet"]), ["figure", "value"], rows)]
    lv = []
    for v in p["levels"]:
        note = "reset" if v["level"] == p["reset"] else ("mean level when won" if v["level"] == p["mean_level_when_won"] else "")
        lv.append(["%.1f" % v["level"], exact(v["return"], ex, "progressive: return at %.1f credits" % v["level"]),
                   pct(v["return_float"]), note])
    out.append(("table", "Progressive: return at bet %d by jackpot level" % p["bet"],
                ["jackpot (credits)", "return (exact)", "return", ""], lv))
    return out


def symbol_blocks(raw: dict) -> list[tuple]:
    """Each symbol's code (the strips' and the recall's) beside the names the player reads."""
    names = raw.get("symbols") or {}
    if isinstance(names, list):  # a model without display names: its codes are what the player reads
        names = {c: {"fr": c, "en": c} for c in names}
    wilds = dict(raw.get("wilds") or {})
    if raw.get("wild"):
        wilds[raw["wild"]] = 1
    rows = []
    for code, n in names.items():
        role = ("wild" + (" ×%d" % wilds[code] if wilds[code] > 1 else "") if code in wilds else
                "scatter" if code == raw.get("scatter") else "")
        rows.append([code, n.get("fr", ""), n.get("en", ""), role])
    return [("table", "Symbols: the code of the strips and the names the player reads",
             ["code", "French", "English", "role"], rows)]


def blocks(cert: dict, raw: dict, epoch: int | None = None) -> list[tuple]:
    """The sheet of a reel model; epoch: the source's date (tools/par/filing.py), None: undated."""
    rep = to_json(cert)
    m = Model(raw)
    ident = cert["id"]
    B: list[tuple] = [("h1", "PAR sheet — %s / %s (%s)" % (raw["name"]["fr"], raw["name"]["en"], ident))]
    B.append(("p", "Math hash (SHA-256 of the canonical model): `%s`; model format `%s`."
              % (rep["math_hash"], raw.get("format"))))
    B += filing_blocks(m.bets, epoch)
    B.append(("p", "%d reels × %d rows, %d line(s); cycle %s games%s. Floor (by-law s. 93): %s = %s. "
              "Certified by `tools.certify`." % (
                  m.nreels, m.rows, len(m.lines), f"{rep['cycle']:,}",
                  ", free-spin cycle %s" % f"{rep['free_cycle']:,}" if rep["free_cycle"] else "",
                  rep["floor"], pct(float(FLOOR), 0))))
    if raw.get("source"):
        B.append(("p", "Source: %s" % raw["source"]))
    ex = Exact()
    rows = []
    for bet, b in rep["bets"].items():
        hits = "%s (%s)" % (one_in(1 / b["hit_frequency_float"]), pct(b["hit_frequency_float"], 3))
        rows.append([bet, exact(b["rtp"], ex, "bet %s: the return" % bet), pct(b["rtp_float"]), hits,
                     "%.3f" % b["std_dev"], "%.2f" % b["volatility_index_90"], pct(b["feature_share"], 2),
                     most(b["max_award"])])
    B.append(("table", "Return by bet level", ["bet", "return (exact)", "return", "hit frequency", "σ per unit bet",
                                              "volatility index (90 %)", "free spins share", MOST], rows))
    B.append(("p", MOST_NOTE))
    B += symbol_blocks(raw)
    if m.ways:  # jeton-reels/3: no lines to draw (docs/game-format.md, version 3)
        B.append(("h2", "Ways"))
        B.append(("p", "%d ways (%d rows on %d reels), %d credits per coin; every winning way of every group pays, "
                       "left to right from reel 1; wilds alone %s." % (
                           m.rows ** m.nreels, m.rows, m.nreels, m.cost,
                           "pay as every symbol they substitute" if m.wild_alone else "pay only as themselves")))
    else:
        B += paylines.blocks(ident, [list(line) for line in m.lines], m.rows)
    B.append(("h2", "Reel strips"))
    B += reel_blocks(raw, raw["reels"], "Base game")
    fs = raw.get("free_spins")
    if fs and fs.get("reels"):
        B += reel_blocks(raw, fs["reels"], "Free spins")
    B.append(("h2", "Pays"))
    B += pay_blocks(raw, m)
    if rep.get("progressive"):
        B += progressive_blocks(rep["progressive"], ex)
    for bet, f in cert["bets"].items():
        B += bet_blocks(ident, bet, rep["bets"][str(bet)], f, rep["cycle"], ex)
    return B + ex.blocks()
