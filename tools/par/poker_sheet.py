"""The PAR sheet of a video poker model (jeton-poker/1): the blocks tools/par/render.py writes as
Markdown and HTML. Every figure is the certifier's (tools/certify/poker_report.py, one solver run
per pay table, `python -m tools.certify MODEL --json`), checked against the shipped certificate.

Bet levels whose pays are the same multiple of the bet (1 to 4 coins, usually) have the same
figures per unit bet: they share one section.
"""
from __future__ import annotations

import json
import os
from fractions import Fraction
from types import SimpleNamespace

from games.poker_model import RANKS, PokerModel
from tools.certify import poker_report
from tools.certify.core import FLOOR, Z, convergence
from tools.par import charts
from tools.par.filing import Exact, filing_blocks
from tools.par.sheet import BUCKETS, MOST, MOST_NOTE, bucket_label, bucket_tick, bucketed, exact, most, one_in, pct

CERT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                        "games", "certs")
MULT = {"4": "four of a kind", "3": "three of a kind", "2": "a pair", "1": "single"}


def is_poker(raw: dict) -> bool:
    return isinstance(raw, dict) and raw.get("format") == "jeton-poker/1"


def _ranks(mask_or_list) -> str:
    """Ranks as short runs: J–A, 2–4, A."""
    rs = list(mask_or_list)
    runs: list[list[int]] = []
    for r in rs:
        if runs and runs[-1][-1] == r - 1:
            runs[-1].append(r)
        else:
            runs.append([r])
    return ", ".join(RANKS[g[0]] if len(g) == 1 else "%s–%s" % (RANKS[g[0]], RANKS[g[-1]]) for g in runs)


def rank_classes(m: PokerModel) -> dict[str, str]:
    """Rank class digit (games/poker_hold.py) -> the ranks it holds."""
    out: dict[str, str] = {}
    for c in sorted(set(m.rank_class)):
        out["0123456789abcdef"[c]] = _ranks(r for r in range(13) if m.rank_class[r] == c)
    return out


def describe(m: PokerModel, pat: str) -> str:
    """A hold pattern (games/poker_hold.py, docs/game-format.md) in words."""
    if pat.startswith("P"):
        if pat == "P-":
            return "all five cards, no award (stand pat)"
        return "all five cards: %s" % m.names[int(pat[1:])]["en"]
    nw, mult, bha, sxr = pat.split("|")
    n, w = int(nw[0]), int(nw[1])
    if n == 0:
        return "nothing: draw five"
    cls = rank_classes(m)
    parts = []
    if w:
        parts.append("%d wild" % w)
    groups = []
    singles = mult.count("1")
    for d in "432":
        k = mult.count(d)
        if k:
            groups.append("two pairs" if (d, k) == ("2", 2) else MULT[d])
    if singles:
        groups.append("%d single%s" % (singles, "s" if singles > 1 else ""))
    b, h, a = bha[0], int(bha[1]), bha[2]
    one = len(cls) == 1  # no award restricted to some ranks: the classes say nothing
    if b != "-" and not one:  # the rank class of the largest group (two pairs: the higher pair's)
        groups[0] += " (%s%s)" % ("higher pair " if mult.startswith("22") else "", cls[b])
    if h:
        parts.append("%d high single%s (%s)" % (h, "s" if h > 1 else "", _ranks(r for r in range(13) if m.high >> r & 1)))
    if a != "-" and not one:
        parts.append("top single %s" % cls[a])
    if groups:
        parts.insert(1 if w else 0, " + ".join(groups))
    s, x, r = int(sxr[0]), int(sxr[1], 16), int(sxr[2])
    if s:
        parts.append("suited")
    if x:
        parts.append("%d straight window%s" % (x, "s" if x > 1 else ""))
    if r:
        parts.append("royal draw")
    return "hold %d: %s" % (n, "; ".join(parts))


def shipped_cert(ident: str, cert_dir: str = CERT_DIR) -> dict | None:
    try:
        with open(os.path.join(cert_dir, ident + ".json"), encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None


def cert_check(rep: dict, cert_dir: str = CERT_DIR) -> list[str]:
    """The differences with the shipped certificate (poker_report.cert_mismatches); one line when
    there is none to compare with."""
    shipped = shipped_cert(rep["id"], cert_dir)
    if not isinstance(shipped, dict):
        return ["no shipped certificate games/certs/%s.json" % rep["id"]]
    return poker_report.cert_mismatches(rep, shipped)


def groups(rep: dict) -> list[list[int]]:
    """Bet levels with the same pays per unit bet (so the same holds and figures), in order."""
    out: dict[tuple, list[int]] = {}
    for bet, b in rep["bets"].items():
        out.setdefault(tuple(Fraction(p, bet) for p in b["pays"]), []).append(bet)
    return list(out.values())


def _bets(bets: list[int]) -> str:
    return "Bet %d" % bets[0] if len(bets) == 1 else "Bets %s" % ", ".join(str(b) for b in bets)


def _verdict(js: dict) -> str:
    o, s = Fraction(js["optimal"]["rtp"]), js["strategy"] and Fraction(js["strategy"]["rtp"])
    if s is None:
        return "REFUSED: no built-in strategy"
    bad = [n for n, v in (("optimal", o), ("built-in", s)) if v < FLOOR]
    return "both pass" if not bad else "REFUSED: %s below" % " and ".join(bad)


def group_blocks(ident: str, rep: dict, js: dict, bets: list[int], ex: Exact | None = None) -> list[tuple]:
    bet = bets[0]
    b, e = rep["bets"][bet], js["bets"][str(bet)]
    what = _bets(bets)
    out: list[tuple] = [("h2", what)]
    opt, st = e["optimal"], e["strategy"]
    rows = []
    for i, a in enumerate(opt["awards"]):
        sa = st["awards"][i] if st else None
        pays = "/".join(str(rep["bets"][x]["pays"][i]) for x in bets) if i < len(b["pays"]) else "—"
        row = [a["name"], pays]
        for x, how in ((a, "optimal play"), (sa, "the built-in strategy")):
            if x is None:
                row += ["—", "—", "—"]
                continue
            row += [exact(x["probability"], ex, "%s, %s: the chance of %s" % (what, how, a["name"])),
                    one_in(x["one_in"]) if x["one_in"] else "never",
                    pct(float(Fraction(x["return"])), 4) if a["pay"] else "—"]
        rows.append(row)
    total = ["total (hit frequency, return)", "",
             exact(opt["hit_frequency"], ex, "%s, optimal play: the hit frequency" % what),
             one_in(1 / opt["hit_frequency_float"]), pct(opt["rtp_float"], 4)]
    rows.append(total + (["—"] * 3 if not st else [
        exact(st["hit_frequency"], ex, "%s, the built-in strategy: the hit frequency" % what),
        one_in(1 / st["hit_frequency_float"]), pct(st["rtp_float"], 4)]))
    out.append(("table", "%s: each award's chance per game and its part of the return, optimal play and the "
                "built-in strategy" % what,
                ["award", "pays (credits, %s)" % "/".join("bet %d" % x for x in bets),
                 "optimal: probability", "optimal: 1 in", "optimal: return",
                 "built-in: probability", "built-in: 1 in", "built-in: return"], rows))
    # win distribution, both ways of playing, on the reel sheets' 1-2-5 buckets of the bet
    series = []
    tab = []
    for name, colour, o in (("optimal play", "#3b6ea8", b["optimal"]), ("built-in strategy", "#e08a1e", b["strategy"])):
        if o is None:
            continue
        dist: dict[int, Fraction] = {}
        for p, q in zip(b["pays"] + [0], o["freq"]):
            dist[p] = dist.get(p, Fraction(0)) + q
        tab.append(bucketed(dist, bet))
        series.append((name, colour, [float(x) for x in tab[-1]]))
    rows = []
    for i, (lo, hi) in enumerate(BUCKETS):
        row = [bucket_label(lo, hi)]
        for t in tab:
            row += ["%.4g" % float(t[i]), one_in(float(1 / t[i])) if t[i] else "never"]
        rows.append(row)
    head = ["win (× bet)"] + [h for name, _, _ in series for h in ("%s: wins per game" % name, "1 in")]
    out.append(("table", "%s: win distribution (wins per game by size)" % what, head, rows))
    cid = "%s-bet%d-wins" % (ident, bet)
    out.append(("svg", cid, charts.log_bars(cid, "%s: win distribution" % what, [bucket_tick(lo, hi) for lo, hi in BUCKETS],
                                            series, "win (multiples of the bet)", "wins per game (log scale)")))
    f = SimpleNamespace(rtp=b["optimal"]["rtp"], std_dev=opt["std_dev"])
    rows = [["10^%d" % len(str(c["games"])[1:])] + ["%s – %s" % (pct(c[k][0], 2), pct(c[k][1], 2)) for k in ("90", "95")]
            for c in convergence(f)]
    out.append(("table", "%s: realised return after N games, optimal play (normal approximation)" % what,
                ["games", "90 % range", "95 % range"], rows))
    cid = "%s-bet%d-return" % (ident, bet)
    out.append(("svg", cid, charts.convergence(cid, "%s: realised return after N games (optimal play)" % what,
                                               opt["rtp_float"], opt["std_dev"], float(FLOOR), Z)))
    return out


def blocks(rep: dict, raw: dict, cert_dir: str = CERT_DIR, epoch: int | None = None) -> list[tuple]:
    """rep: poker_report.certify_poker(raw), the one solver run of this pay table; epoch: the
    source's date (tools/par/filing.py), None: undated."""
    js = poker_report.to_json(rep)
    m = PokerModel(raw)
    ident = rep["id"]
    ex = Exact()
    B: list[tuple] = [("h1", "PAR sheet — %s / %s (%s)" % (raw["name"]["fr"], raw["name"]["en"], ident))]
    B.append(("p", "Math hash (SHA-256 of the canonical model, pay table and built-in strategy): `%s`; model format `%s`."
              % (js["math_hash"], js["format"])))
    B += filing_blocks(list(m.bets), epoch)
    diffs = cert_check(rep, cert_dir)
    B.append(("p", "Video poker, %d-card deck%s; %s deals (%s suit-symmetry classes) × 32 holds, every draw counted "
              "exactly. Bets %s credits. Floor (by-law s. 93): %s = %s, for optimal play and for the built-in "
              "strategy (the auto-hold). Certified by `tools.certify`; %s." % (
                  m.deck, {"none": "", "deuces": ", deuces wild", "joker": ", the joker wild"}[raw.get("wild", "none")],
                  f"{js['deals']:,}", f"{js['deal_classes']:,}", ", ".join(str(b) for b in m.bets),
                  js["floor"], pct(float(FLOOR), 0),
                  "matches its certificate `games/certs/%s.json`" % ident if not diffs
                  else "CERTIFICATE: " + "; ".join(diffs))))
    if raw.get("source"):
        B.append(("p", "Source: %s" % raw["source"]))
    rows = []
    for bet, e in js["bets"].items():
        st = e["strategy"]
        rows.append([bet, exact(e["optimal"]["rtp"], ex, "bet %s: the return, optimal play" % bet),
                     pct(e["optimal"]["rtp_float"]),
                     exact(st["rtp"], ex, "bet %s: the return, the built-in strategy" % bet) if st else "—",
                     pct(st["rtp_float"]) if st else "—",
                     pct(e["strategy_gap_float"]) if st else "—",
                     pct(e["strategy_agrees_with_optimal"], 2) if st else "—", _verdict(e), most(e["max_award"])])
    B.append(("table", "Return by bet level: optimal play and the built-in strategy",
              ["bet", "optimal (exact)", "optimal", "built-in (exact)", "built-in", "gap to optimal",
               "deals held as optimal", "83 % floor", MOST], rows))
    B.append(("p", MOST_NOTE))
    rows = []
    for bet, e in js["bets"].items():
        o, st = e["optimal"], e["strategy"]
        rows.append([bet, "%s (%s)" % (exact(o["hit_frequency"], ex, "bet %s: the hit frequency, optimal play" % bet),
                                       pct(o["hit_frequency_float"], 3)),
                     "%s (%s)" % (exact(st["hit_frequency"], ex, "bet %s: the hit frequency, the built-in strategy" % bet),
                                  pct(st["hit_frequency_float"], 3)) if st else "—",
                     "%.4f" % o["std_dev"], "%.4f" % st["std_dev"] if st else "—",
                     "%.2f" % (Z["90"] * o["std_dev"])])
    B.append(("table", "Hit frequency and volatility by bet level",
              ["bet", "hit frequency, optimal (exact)", "hit frequency, built-in (exact)", "σ per unit bet, optimal",
               "σ per unit bet, built-in", "volatility index (90 %), optimal"], rows))
    B.append(("h2", "Pay table"))
    rows = [[n["en"], n["fr"]] + [str(m.pays[bi][i]) for bi in range(len(m.bets))] for i, n in enumerate(m.names)]
    B.append(("table", "Pay table: credits paid per award at each bet (a hand is paid the first award it forms)",
              ["award", "nom"] + ["bet %d" % b for b in m.bets], rows))
    for bets in groups(rep):
        B += group_blocks(ident, rep, js, bets, ex)
    B.append(("h2", "Built-in strategy"))
    B.append(("p", "The auto-hold plays this list (`strategy` in the model, covered by the math hash): of the 32 holds "
              "of a deal it takes the one whose pattern comes first (ties: the lowest hold mask); no listed pattern: "
              "draw five. Patterns as in `docs/game-format.md` (`games/poker_hold.py`); rank classes: %s."
              % ("; ".join("class %s = %s" % kv for kv in rank_classes(m).items()) if len(rank_classes(m)) > 1
                 else "one (no award restricted to some ranks)")))
    order = raw.get("strategy") or []
    B.append(("table", "Built-in strategy: %d hold patterns, first listed first held" % len(order),
              ["#", "pattern", "held cards"], [[str(i + 1), p, describe(m, p)] for i, p in enumerate(order)]))
    return B + ex.blocks()


def summary(rep: dict, diffs: list[str]) -> str:
    js = poker_report.to_json(rep)
    parts = []
    for bets in groups(rep):
        e = js["bets"][str(bets[0])]
        parts.append("%s %s (built-in %s)" % (_bets(bets).lower(), pct(e["optimal"]["rtp_float"]),
                                              pct(e["strategy"]["rtp_float"]) if e["strategy"] else "none"))
    return "%s: video poker, %s; %s" % (rep["id"], ", ".join(parts),
                                        "matches its certificate" if not diffs else "CERTIFICATE: " + "; ".join(diffs))
