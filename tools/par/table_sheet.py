"""The PAR sheet of a table game (issue 26: roulette, craps, sic bo, wheel of fortune, baccarat): the
blocks tools/par/render.py writes as Markdown and HTML. Every figure is the certifier's
(tools/certify/table.py, `python -m tools.certify --json`): per wager and bet level the exact return
(per resolved wager, per credit put at risk), hit frequency, sigma, the most it returns and puts at
risk, the rounds (rolls, spins) it takes to decide, and what it returns with which chance; then the
by-law's wagers the model does not offer, each certified on its own, with the reason (s. 93)."""
from __future__ import annotations

from fractions import Fraction

from firmware import jurisdiction
from tools.certify import table
from tools.certify.table import FAMILIES, FLOOR, certify, frac_str
from tools.par.filing import Exact, filing_blocks
from tools.par.sheet import exact, one_in, pct

UNITS = {"jeton-roulette/1": "spins", "jeton-craps/1": "rolls", "jeton-sicbo/1": "throws",
         "jeton-wheel/1": "spins", "jeton-baccarat/1": "coups"}


def is_table(raw: dict) -> bool:
    return table.is_table(raw)


def _pays(pays) -> str:
    if isinstance(pays, list):
        return "%d to %d" % tuple(pays)
    return ", ".join("%s: %s" % (k, _pays(v)) for k, v in sorted(pays.items(), key=lambda kv: int(kv[0])))


def not_offered(raw: dict) -> list[tuple[str, object, str, dict]]:
    """The by-law's wagers the model does not offer, each certified alone beside the model's at its
    bets: (id, pays, section, {bet: Law}); none for the wheel, whose wagers the model makes."""
    law = _bylaw_table(raw)
    out = []
    for wid in sorted(law):
        if wid in raw["wagers"]:
            continue
        pays, section = law[wid]
        variant = dict(raw, wagers={wid: {"name": {"fr": wid, "en": wid}, "pays": pays, "section": section}})
        if raw["format"] == "jeton-baccarat/1" and wid == "banker":
            variant["wagers"][wid]["commission"] = [5, 100]
        c = certify(variant)
        out.append((wid, pays, section, c["wagers"][wid]["bets"]))
    return out


def _bylaw_table(raw: dict) -> dict:
    fmt = raw["format"]
    if fmt == "jeton-roulette/1":
        from games.roulette import bylaw
        return bylaw(raw["zeros"], False)
    if fmt == "jeton-craps/1":
        from games.craps import _bylaw
        return _bylaw()
    if fmt == "jeton-sicbo/1":
        from games.sicbo import _bylaw
        return _bylaw()
    if fmt == "jeton-baccarat/1":
        from games.baccarat import _bylaw
        return _bylaw()
    return {}


def blocks(cert: dict, raw: dict, epoch: int | None = None) -> list[tuple]:
    """The sheet of a table-game model; cert: tools.certify.table.certify(raw)."""
    rep = table.to_json(cert)
    ident = cert["id"]
    ex = Exact()
    unit = UNITS[cert["format"]]
    B: list[tuple] = [("h1", "PAR sheet — %s / %s (%s)" % (raw["name"]["fr"], raw["name"]["en"], ident))]
    B.append(("p", "Math hash (SHA-256 of the canonical model): `%s`; model format `%s`; kind `%s`." % (
        rep["math_hash"], rep["format"], rep["kind"])))
    B += filing_blocks(list(cert["bets"]), epoch)
    kinds = jurisdiction.PROFILES["vlt"]["kinds"]
    B.append(("p", "Source: %s. Each wager the model offers, at each of its bet levels, is a wager type of its own "
              "and must reach the floor (by-law s. 93): %s = %s. Returns are per resolved wager and per credit put "
              "at risk (its stake and any commission paid with it); a push returns the stake. Lowest: %s at bet %d, "
              "%s. Under a video-lottery terminal (S-13.1, r. 7, s. 3: %s) this game %s. Certified by "
              "`tools.certify`." % (
                  raw["source"], frac_str(FLOOR), pct(float(FLOOR), 0), rep["lowest"]["wager"], rep["lowest"]["bet"],
                  pct(rep["lowest"]["rtp_float"]), ", ".join(kinds),
                  "may be offered" if rep["kind"] in kinds else "is not offered (a %s game)" % rep["kind"])))
    B.append(("p", "Rules the player reads before play (s. 89): %s / %s" % (raw["rules"]["fr"], raw["rules"]["en"])))
    rows = []
    for wid, w in rep["wagers"].items():
        for bet, f in w["bets"].items():
            rounds = Fraction(f["rounds"])
            edge_per = (1 - Fraction(f["rtp"])) / rounds
            rows.append([wid, "%s / %s" % (w["name"]["fr"], w["name"]["en"]), _pays(w["pays"]), w["section"], str(bet),
                         exact(f["rtp"], ex, "%s, bet %s: the return" % (wid, bet)), pct(f["rtp_float"]),
                         "%s (%s)" % (one_in(1 / f["hit_frequency_float"]) if f["hit_frequency_float"] else "never",
                                      pct(f["hit_frequency_float"], 3)),
                         "%.3f" % f["std_dev"], str(f["max_award"]), str(f["max_risk"]),
                         "%.4f" % float(rounds), pct(float(edge_per), 3)])
    B.append(("table", "Every wager at every bet level", ["wager", "name (fr / en)", "pays", "by-law", "bet",
                                                          "return (exact)", "return", "hit frequency",
                                                          "σ per credit", "most returned", "most at risk",
                                                          "%s to decide" % unit, "house edge per %s" % unit[:-1]],
              rows))
    B.append(("p", "The most returned is what one wager at that bet level returns at most (its stake and its win); the "
              "most at risk, its stake and any commission paid with it. A round returns the sum over its wagers: the "
              "cabinet holds the round's total to a prize limit (games/table_game.py most) and its risk to a bet "
              "limit. The %s to decide: the expected %s from the wager's placing to its decision while it works "
              "(1 for a one-%s wager); the house edge per %s is the edge per resolved wager divided by it."
              % (unit, unit, unit[:-1], unit[:-1])))
    gone = not_offered(raw)
    if gone:
        rows = []
        for wid, pays, section, bets in gone:
            for bet, law in bets.items():
                rows.append([wid, _pays(pays), section, str(bet), exact(frac_str(law.rtp), ex, "%s, bet %s: the return (not "
                                                                                           "offered)" % (wid, bet)),
                             pct(float(law.rtp)), "under 83 %: refused (s. 93)" if law.rtp < FLOOR else "passes"])
        B.append(("table", "The by-law's wagers this model does not offer, each certified alone at the model's bets",
                  ["wager", "pays", "by-law", "bet", "return (exact)", "return", "verdict"], rows))
    B.append(("h2", "What each wager returns, with which chance"))
    for wid, w in rep["wagers"].items():
        bets = list(w["bets"])
        rows = []
        for bet in bets:
            for r in w["bets"][bet]["returns"]:
                rows.append([str(bet), str(r["credits"]), exact(r["probability"], ex, "%s, bet %s: the chance of %d back" % (
                    wid, bet, r["credits"])), one_in(1 / float(Fraction(r["probability"])))])
        B.append(("table", "%s (%s): credits returned per resolved wager" % (wid, w["name"]["en"]),
                  ["bet", "credits returned", "probability (exact)", "1 in"], rows))
    return B + ex.blocks()


def summary(cert: dict) -> str:
    rep = table.to_json(cert)
    lo = rep["lowest"]
    return "%s: %s, %d wagers, lowest %s at bet %d %s" % (cert["id"], rep["format"], len(rep["wagers"]), lo["wager"],
                                                          lo["bet"], pct(lo["rtp_float"]))


assert set(UNITS) == set(FAMILIES)
