"""The PAR sheet of a keno model (jeton-keno/1): the blocks tools/par/render.py writes as Markdown and
HTML. Every figure is the certifier's (tools/certify/keno.py, `python -m tools.certify --json`)."""
from __future__ import annotations

from tools.certify.keno import FLOOR, to_json
from tools.par.filing import Exact, filing_blocks
from tools.par.sheet import MOST, MOST_NOTE, exact, most, one_in, pct


def blocks(cert: dict, raw: dict, epoch: int | None = None) -> list[tuple]:
    """The sheet of a keno model; epoch: the source's date (tools/par/filing.py), None: undated."""
    rep = to_json(cert)
    ident = cert["id"]
    ex = Exact()
    B: list[tuple] = [("h1", "PAR sheet — %s / %s (%s)" % (raw["name"]["fr"], raw["name"]["en"], ident))]
    B.append(("p", "Math hash (SHA-256 of the canonical model): `%s`; model format `%s`." % (rep["math_hash"], rep["format"])))
    B += filing_blocks([int(b) for b in rep["bets"]], epoch)
    B.append(("p", "Keno: %d numbers, %d drawn without replacement; the player picks %s spots (or a quick pick). "
              "A coin is %d credit(s); bets %s credits. Each offered spot count at each bet is a wager type of its "
              "own and must reach the floor (by-law s. 93): %s = %s. Lowest: %d spots at bet %d, %s. "
              "Certified by `tools.certify`." % (
                  rep["numbers"], rep["drawn"], ", ".join(rep["spots"]), raw.get("unit", 1),
                  ", ".join(str(b) for b in rep["bets"]), rep["floor"], pct(float(FLOOR), 0),
                  rep["lowest"]["spots"], rep["lowest"]["bet"], pct(rep["lowest"]["rtp_float"]))))
    rows = []
    for s, sp in rep["spots"].items():
        for bet, f in sp["bets"].items():
            rows.append([s, bet, exact(f["rtp"], ex, "%s spots, bet %s: the return" % (s, bet)), pct(f["rtp_float"]),
                         "%s (%s)" % (one_in(1 / f["hit_frequency_float"]), pct(f["hit_frequency_float"], 3)),
                         "%.3f" % f["std_dev"], most(f["max_award"])])
    B.append(("table", "Return by spot count and bet", ["spots", "bet", "return (exact)", "return", "hit frequency",
                                                        "σ per unit bet", MOST], rows))
    B.append(("p", MOST_NOTE))
    for s, sp in rep["spots"].items():
        B.append(("h2", "%s spots" % s))
        bets = list(sp["bets"])
        pays = {bet: {e["hits"]: e for e in sp["bets"][bet]["pays"]} for bet in bets}
        rows = []
        for c in reversed(sp["catch"]):
            h = c["hits"]
            row = [str(h), exact(c["probability"], ex, "%s spots: the chance of %d caught" % (s, h)), one_in(c["one_in"])]
            for bet in bets:
                e = pays[bet].get(h)
                row.append("%d (%s)" % (e["pay"], pct(float(_f(e["return"])), 4)) if e else "—")
            rows.append(row)
        B.append(("table", "%s spots: catches, their chance and the pay (credits, and its part of the return) by bet"
                  % s, ["caught", "probability (exact)", "1 in"] + ["bet %s" % b for b in bets], rows))
    return B + ex.blocks()


def _f(s: str) -> float:
    p, q = s.split("/")
    return int(p) / int(q)


def summary(cert: dict) -> str:
    rep = to_json(cert)
    lo = rep["lowest"]
    return "%s: keno, %d spot counts x %d bets, lowest %d spots at bet %d %s" % (
        cert["id"], len(rep["spots"]), len(rep["bets"]), lo["spots"], lo["bet"], pct(lo["rtp_float"]))
