"""The PAR sheet of a card-poker table game (by-law s. 63-67.87; the jeton-three-card/1 ... formats):
the blocks tools/par/render.py writes as Markdown and HTML. Every figure is the certifier's
(tools/certify/cardtable.py, `python -m tools.certify --json`): per wager, under the optimal and the
built-in strategy, the return per credit staked and per credit wagered, the hit, push and loss
frequencies, σ and the volatility index, every outcome with its exact chance and its part of the
return, the most a round pays and puts at risk per bet level, the pay tables, the rules the player
reads (s. 89), and the certificate it must match.
"""
from __future__ import annotations

import json
import math
import os
from fractions import Fraction

from tools.certify import cardtable
from tools.certify.cardtable import FLOOR, Report, frac_str
from tools.par.filing import Exact, filing_blocks
from tools.par.sheet import exact, one_in, pct

CERT_DIR = os.path.join("games", "certs")
Z90 = 1.6449  # the two-sided 90 % normal quantile: the volatility index and the ranges


def is_cardtable(raw: dict) -> bool:
    return cardtable.is_cardtable(raw)


def cert_check(rep: Report, cert_dir: str = CERT_DIR) -> list[str]:
    path = os.path.join(cert_dir, rep.id + ".json")
    try:
        with open(path, encoding="utf-8") as fh:
            shipped = json.load(fh)
    except (OSError, ValueError):
        return ["no shipped certificate %s" % path]
    return cardtable.cert_mismatches(rep, shipped if isinstance(shipped, dict) else {})


def _frac(x: Fraction) -> str:
    return frac_str(x) if x.denominator != 1 else str(x.numerator)


def blocks(rep: Report, raw: dict, epoch: int | None = None) -> list[tuple]:
    from games.cardtable_games import engine

    game = engine(raw["format"])(raw)
    ex = Exact()
    diffs = cert_check(rep)
    B: list[tuple] = [("h1", "PAR sheet — %s / %s (%s)" % (raw["name"]["fr"], raw["name"]["en"], rep.id))]
    B.append(("p", "Math hash (SHA-256 of the canonical model): `%s`; model format `%s`." % (rep.math_hash, rep.fmt)))
    B += filing_blocks(rep.bets, epoch)
    B.append(("p", "%s; %d deck%s of 52 cards, a fresh shuffle for every round. Every round is counted exactly "
              "(full enumeration, tools/certify). Each wager is certified on its own at every bet level (%s credits), "
              "per credit placed before the deal (1 − the house edge; where one credit of the stake places "
              "several, the published edge per unit is beside it) and per credit wagered in the "
              "end, plays, raises and wars included and wagers taken back not (1 − the element of risk, what the "
              "meters measure); the floor of by-law s. 93, %s = %s, holds for both, under the optimal and the "
              "built-in strategy. Certified by `tools.certify`; %s." % (
                  raw.get("source", rep.fmt), game.decks, "s" if game.decks > 1 else "",
                  ", ".join(str(b) for b in rep.bets), frac_str(FLOOR), pct(float(FLOOR), 0),
                  "matches its certificate `games/certs/%s.json`" % rep.id if not diffs
                  else "CERTIFICATE: " + "; ".join(diffs))))
    rows = []
    for wid, w in rep.wagers.items():
        for how, lw in (("optimal", w.optimal), ("built-in", w.builtin)):
            if how == "built-in" and not w.decisions:
                continue
            sd = math.sqrt(lw.variance)
            rows.append([wid, how if w.decisions else "(no decision)",
                         exact(frac_str(lw.rtp), ex, "%s, %s: the return" % (wid, how)), pct(float(lw.rtp)),
                         pct(1 - float(lw.rtp), 4) + ("" if lw.units == 1 else " (%s per unit of %d)" % (
                             pct(float(lw.house_edge_per_unit), 4), lw.units)),
                         exact(frac_str(lw.rtp_wagered), ex, "%s, %s: per credit wagered" % (wid, how)),
                         pct(1 - float(lw.rtp_wagered), 4), "%.4f" % float(lw.wagered),
                         "%s (%s)" % (one_in(1 / float(lw.hit)), pct(float(lw.hit), 3)) if lw.hit else "never",
                         pct(float(lw.push), 3), "%.3f" % sd, "%.2f" % (Z90 * sd)])
    B.append(("table", "Return by wager (per credit placed before the deal; the same at every bet level)",
              ["wager", "strategy", "return (exact)", "return", "house edge", "per credit wagered (exact)",
               "element of risk", "mean wagered", "hit frequency", "push", "σ", "volatility index (90 %)"], rows))
    rows = []
    for b in rep.bets:
        rows.append([str(b)] + ["%d / %d" % (int(max(w.optimal.max_award, w.builtin.max_award) * b),
                                             int(max(w.optimal.max_risk, w.builtin.max_risk) * b))
                                for w in rep.wagers.values()]
                    + ["%d / %d" % (int(rep.round_award * b), int(rep.round_risk * b))])
    B.append(("table", "The most a round pays back / puts at risk, in credits (a prize and a bet limit hold these)",
              ["bet"] + list(rep.wagers) + ["the round, every wager staked"], rows))
    B.append(("table", "Pay tables (X to 1; a hand not listed pays nothing)", ["wager", "section", "hand", "pays"],
              pay_rows(game)))
    for k, v in rep.strategy.items():
        B.append(("p", "%s: %s." % (k[0].upper() + k[1:], v)))
    for wid, w in rep.wagers.items():
        for how, lw in (("optimal", w.optimal), ("built-in", w.builtin)):
            if how == "built-in" and (not w.decisions or lw.counts == w.optimal.counts):
                continue
            B.append(("h2", "%s (%s / %s), %s" % (wid, w.name["fr"], w.name["en"],
                                                 how + " strategy" if w.decisions else "no decision")))
            rows = []
            back = lw.returned
            for (wg, r), c in sorted(lw.counts.items(), key=lambda t: (-(t[0][1] - t[0][0]), t[0])):
                p = Fraction(c, lw.total)
                rows.append([_frac(wg), _frac(r), "%+g" % float(r - wg),
                             exact(frac_str(p), ex, "%s, %s: the chance of %s back on %s" % (wid, how, r, wg)),
                             one_in(1 / float(p)), pct(float(p * r / back), 3) if back else "—"])
            B.append(("table", "%s, %s: every outcome per credit staked (%s rounds counted)" % (wid, how, f"{lw.total:,}"),
                      ["wagered", "paid back", "net", "probability (exact)", "1 in", "share of what is paid back"], rows))
            rows = []
            sd = math.sqrt(lw.variance)
            for e in range(3, 9):
                n = 10 ** e
                h = Z90 * sd / math.sqrt(n)
                rows.append(["10^%d" % e, "%s – %s" % (pct(float(lw.rtp) - h, 2), pct(float(lw.rtp) + h, 2))])
            B.append(("table", "%s, %s: the return realised after N rounds, 90 %% range (normal approximation)"
                      % (wid, how), ["rounds", "90 % range"], rows))
    B.append(("h2", "Rules shown before play (s. 89)"))
    for lang in ("fr", "en"):
        B.append(("p", " ".join(game.describe(lang)[:2 + len(game.rules(lang))])))
    return B + ex.blocks()


def pay_rows(game) -> list[list[str]]:
    from games.cardtable_text import hand_word

    m = game.m
    rows = []
    for wid, kind, names, extras in game.WAGERS:
        if wid not in m.pays:
            continue
        title = "%s / %s" % (m.names[wid]["fr"], m.names[wid]["en"])
        p = m.pays[wid]
        if p is None:
            rows.append([title, m.section[wid], "as the wager it adds to", ""])
        elif isinstance(p, int):
            rows.append([title, m.section[wid], "a win", "%d to 1" % p])
        else:
            rows += [[title, m.section[wid], hand_word(names[i], "en"), "%d to 1" % p[i]] for i in range(len(p)) if p[i]]
        for key, spec in extras:
            part = m.parts.get((wid, key))
            if part is not None:
                t = "%s / %s" % (part["name"]["fr"], part["name"]["en"])
                e = m.extra[wid][key]
                rows += [[t, part["section"], hand_word(spec[i], "en"), "%d to 1" % e[i]] for i in range(len(e)) if e[i]]
            elif key in m.extra[wid]:
                rows.append([title, m.section[wid], "the lowest pair paid", "23456789TJQKA"[m.extra[wid][key]] * 2])
    return rows


def summary(rep: Report, diffs: list[str]) -> str:
    parts = ["%s %s" % (wid, pct(float(w.optimal.rtp))) for wid, w in rep.wagers.items()]
    return "%s: %s, %s; %s" % (rep.id, rep.fmt, ", ".join(parts),
                               "matches its certificate" if not diffs else "CERTIFICATE: " + "; ".join(diffs))
