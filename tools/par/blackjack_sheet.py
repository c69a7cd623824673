"""The PAR sheet of a blackjack model (jeton-blackjack/1): the blocks tools/par/render.py writes as
Markdown and HTML. Every figure is the certifier's (tools/certify/blackjack.py, `python -m
tools.certify MODEL --json`): per wager, its exact return, hit frequency and standard deviation under
optimal play and under the built-in strategy; the built-in strategy's table; what one round can put
at risk and return per bet level."""
from __future__ import annotations

from tools.certify.blackjack import FORMAT, to_json
from tools.par.filing import Exact, filing_blocks
from tools.par.sheet import exact, one_in, pct

UPS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "A"]
LETTERS = "H hit, S stand, D double (else hit), E double (else stand), P split, - do not split"


def is_blackjack(raw: dict) -> bool:
    return isinstance(raw, dict) and raw.get("format") == FORMAT


def blocks(rep: dict, raw: dict, epoch: int | None = None) -> list[tuple]:
    js = to_json(rep)
    ex = Exact()
    ru = js["rules"]
    B: list[tuple] = [("h1", "PAR sheet — %s / %s (%s)" % (raw["name"]["fr"], raw["name"]["en"], js["id"]))]
    B.append(("p", "Math hash (SHA-256 of the canonical model, its built-in strategy included): `%s`; model "
              "format `%s`." % (js["math_hash"], FORMAT)))
    B += filing_blocks(js["bets"], epoch)
    B.append(("p", "Blackjack (by-law s. 13-26.7): %d deck(s) shuffled anew for every round; the dealer %s; double %s%s; "
              "one split of two cards of the same value; %d dealer hand(s)%s. Returns are per credit staked on the "
              "wager (the main wager: per initial wager, doubles and splits counted in its result), the same at every "
              "bet level; each must reach 83 %% (s. 93) under optimal play and under the built-in strategy. Certified "
              "in %.0f s (%.0f s CPU) by `tools.certify`." % (
                  js["decks"], "hits a soft 17" if ru["dealer"] == "hits_soft_17" else "stands on every 17",
                  "on any two cards" if ru["double"] == "any" else "on 9, 10 or 11",
                  ", after a split too" if ru["double_after_split"] else "", ru["dealer_hands"],
                  " sharing his first card (multi-action, s. 26.2-26.7)" if ru["dealer_hands"] > 1 else "",
                  js["seconds"]["total"], js["cpu_seconds"])))
    rows = []
    for k, w in js["wagers"].items():
        for how in ("optimal", "strategy"):
            f = w[how]
            hit = f["hit_frequency_float"]
            rows.append([k, "optimal" if how == "optimal" else "built-in", exact(f["rtp"], ex, "%s (%s): the return" % (k, how)),
                         pct(f["rtp_float"], 4), "%s (%s)" % (one_in(1 / hit), pct(hit, 3)), "%.3f" % f["std_dev"]])
    B.append(("table", "Return of every wager", ["wager", "play", "return (exact)", "return", "hit frequency",
                                                 "σ per credit"], rows))
    for k, w in js["wagers"].items():
        aw = w["optimal"]["awards"]
        if aw:
            B.append(("table", "%s: its awards" % k, ["award", "probability (exact)", "1 in"],
                      [[a["name"], exact(a["probability"], ex, "%s: %s" % (k, a["name"])), one_in(a["one_in"])] for a in aw]))
    B.append(("table", "Per bet level (credits): the most one round puts at risk (doubles, a split, insurance, "
              "side wagers) and an upper bound of what it returns", ["bet", "at risk", "returned at most"],
              [[str(b), str(js["max_risk"][str(b)]), str(js["max_award"][str(b)])] for b in js["bets"]]))
    st = raw["strategy"]
    for part, title in (("hard", "hard totals"), ("soft", "soft totals"), ("pair", "pairs")):
        B.append(("table", "Built-in strategy, %s (%s)" % (title, LETTERS), ["hand"] + UPS,
                  [[r] + list(v) for r, v in st[part].items()]))
    return B + ex.blocks()


def summary(rep: dict) -> str:
    js = to_json(rep)
    parts = ["%s %s" % (k, pct(w["optimal"]["rtp_float"], 4)) for k, w in js["wagers"].items()]
    return "%s: blackjack, %d deck(s), %s" % (js["id"], js["decks"], ", ".join(parts))
