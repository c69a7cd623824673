"""Certification of a table-game model (issue 26: jeton-roulette/1, jeton-craps/1, jeton-sicbo/1,
jeton-wheel/1, jeton-baccarat/1): every wager the model offers, at every one of its bet levels, gets
its exact return (per resolved wager, per credit it puts at risk), hit frequency, variance, the most it
returns (max_award) and the most it puts at risk (max_risk). Each wager is a wager type of its own under
s. 93: one under 83 % is refused by name (below_floor), found by the computation, never listed.

The laws come from the family's module (tools/certify/<family>.py), written from the by-law apart from
the device engine; every selection of a wager (each number of a straight, each pair of a duo) is
computed, and a wager whose selections return differently is certified at the lowest. Where the
device recomputes at boot (games/table_check.py RECOMPUTED), its integer figure is computed here too
and must equal the host's to the last digit: the certificate the boot check trusts is the engine's."""
from __future__ import annotations

import json
from fractions import Fraction

from firmware import jurisdiction
from games import table_exact
from games.floor import RTP_FLOOR_DEN, RTP_FLOOR_NUM
from games.table_check import FORMATS, RECOMPUTED, build
from games.table_model import SECTION
from rng.crypto.canon import math_hash
from tools.certify import baccarat, craps, roulette, sicbo, wheel
from tools.certify.table_law import Law

FLOOR = Fraction(RTP_FLOOR_NUM, RTP_FLOOR_DEN)
FAMILIES = {"jeton-roulette/1": roulette, "jeton-craps/1": craps, "jeton-sicbo/1": sicbo, "jeton-wheel/1": wheel,
            "jeton-baccarat/1": baccarat}
assert set(FAMILIES) == set(FORMATS)


def is_table(raw: dict) -> bool:
    return isinstance(raw, dict) and raw.get("format") in FAMILIES


class HostDeviceMismatch(Exception):
    """The host's exact figure and the device's recomputation differ: a fault of the certifier or the
    engine, never the model's (tools.certify reports it as a certifier fault)."""


def frac_str(x: Fraction) -> str:
    return "%d/%d" % (x.numerator, x.denominator)


def certify(raw: dict) -> dict:
    """{"id", "format", "kind", "math_hash", "name", "wagers": {id: {..., "bets": {bet: Law}}}}."""
    game = build(raw)  # the device's loader: a malformed model is refused in its words
    m = game.m
    fmt = raw["format"]
    offered = {wid: raw["wagers"][wid]["pays"] for wid in m.ids}
    laws = FAMILIES[fmt].laws(raw, offered)
    out = {"id": m.id, "format": fmt, "kind": game.kind, "math_hash": math_hash(raw), "name": m.name,
           "bets": list(game.bets), "wagers": {}}
    for wid in m.ids:
        per = laws[wid]
        keys = list(per)
        if keys != game.selections(wid) and sorted(keys) != sorted(game.selections(wid)):
            raise HostDeviceMismatch("%s: the host's selections %s... differ from the engine's %s..." % (
                wid, sorted(keys)[:4], sorted(game.selections(wid))[:4]))
        bets = {}
        for bet in m.bets_of(wid):
            by_key = {k: per[k](bet) for k in keys}
            low = min(by_key, key=lambda k: by_key[k].rtp)
            law = by_key[low]
            law.selections = len(keys)
            law.alike = all(x.rtp == law.rtp and x.hit == law.hit for x in by_key.values())
            law.lowest = low
            if fmt in RECOMPUTED:
                n, d = table_exact.figures(game, keys[0], bet)[0]
                if Fraction(n, d) != by_key[keys[0]].rtp:
                    raise HostDeviceMismatch("%s at %d: the device recomputes %d/%d, the host %s" % (
                        keys[0], bet, n, d, by_key[keys[0]].rtp))
            bets[bet] = law
        w = m.wagers[wid]
        out["wagers"][wid] = {"name": {lang: m.wager_name(wid, lang) for lang in ("fr", "en")},
                              "pays": raw["wagers"][wid]["pays"], "section": w[SECTION], "bets": bets}
    return out


def lowest(cert: dict) -> tuple[str, int, Fraction]:
    return min(((wid, b, law.rtp) for wid, w in cert["wagers"].items() for b, law in w["bets"].items()),
               key=lambda t: t[2])


def below_floor(cert: dict) -> list[str]:
    """One refusal per wager and bet level under 83 % (s. 93), naming the wager."""
    return ["wager %s, bet %d: return %s = %.4f %% is below the %d %% floor of by-law s. 93"
            % (wid, b, frac_str(law.rtp), float(law.rtp) * 100, RTP_FLOOR_NUM)
            for wid, w in cert["wagers"].items() for b, law in w["bets"].items() if law.rtp < FLOOR]


def levels(cert: dict, what: str) -> list[int]:
    """The largest `what` (max_award, risk) over the wagers at each of the game's bet levels."""
    out = []
    for bet in cert["bets"]:
        out.append(max(getattr(w["bets"][bet], what) for w in cert["wagers"].values() if bet in w["bets"]))
    return out


def profile_refusals(cert: dict, juris: str, denom: int) -> list[str]:
    """Every rule of the jurisdiction profile the game breaks, each naming it: the kinds of game the
    profile offers (vlt: S-13.1, r. 7, s. 3), the credit value, the most one wager puts at risk and
    returns."""
    out = []
    why = jurisdiction.check_kind(juris, cert["kind"])
    if why:
        out.append(why)
    # the return floor of every profile is s. 93's (below_floor names each wager under it)
    return out + jurisdiction.check_game(juris, denom, levels(cert, "risk"), levels(cert, "max_award"))


def to_json(cert: dict) -> dict:
    wagers = {}
    for wid, w in cert["wagers"].items():
        wagers[wid] = {"name": w["name"], "pays": w["pays"], "section": w["section"], "bets": {
            str(b): {"rtp": frac_str(law.rtp), "rtp_float": float(law.rtp), "hit_frequency": frac_str(law.hit),
                     "hit_frequency_float": float(law.hit), "variance": frac_str(law.variance), "std_dev": law.std_dev,
                     "max_award": law.max_award, "max_risk": law.risk, "rounds": frac_str(law.rolls),
                     "selections": law.selections, "selections_alike": law.alike, "lowest_selection": law.lowest,
                     "returns": [{"credits": r, "probability": frac_str(p)} for r, p in law.returns().items()]}
            for b, law in w["bets"].items()}}
    wid, b, r = lowest(cert)
    return {"id": cert["id"], "format": cert["format"], "kind": cert["kind"], "math_hash": cert["math_hash"],
            "name": cert["name"], "bets": cert["bets"], "wagers": wagers,
            "lowest": {"wager": wid, "bet": b, "rtp": frac_str(r), "rtp_float": float(r)},
            "floor": frac_str(FLOOR), "by_law": "s. 93: return of each wager type offered >= 83 %, per resolved wager"}


def summary(rep: dict, secs: float) -> str:
    lines = ["%s  (hash %s…, %s, %d wagers, %.2f s)" % (rep["id"], rep["math_hash"][:16], rep["format"],
                                                      len(rep["wagers"]), secs)]
    for wid, w in rep["wagers"].items():
        for b, f in w["bets"].items():
            hit = "1 in %.3f" % (1 / f["hit_frequency_float"]) if f["hit_frequency_float"] else "never"
            lines.append("  %-12s bet %-4s RTP %s = %.4f %%  hit %s  σ %.3f  returns at most %d, risks %d" % (
                wid, b, f["rtp"], f["rtp_float"] * 100, hit, f["std_dev"], f["max_award"], f["max_risk"]))
    lo = rep["lowest"]
    lines.append("  lowest: %s at bet %d, %.4f %%" % (lo["wager"], lo["bet"], lo["rtp_float"] * 100))
    return "\n".join(lines)


def certificate(cert: dict) -> dict:
    """What ships with the firmware (games/table_check.py reads it at boot with the strict model reader):
    per wager, in the order of its bet levels in the model (the math hash covers them), the exact return
    and hit frequency (one "p/q" when it is the same at every level), the most it returns and the most it
    puts at risk (the firmware's prize and bet limits; the cabinet adds up a round's wagers:
    games/table_game.py most and risk)."""
    def per(f, fold: bool) -> dict:
        out = {}
        for wid, w in cert["wagers"].items():
            vals = [f(law) for law in w["bets"].values()]
            out[wid] = vals[0] if fold and len(set(vals)) == 1 else vals
        return out

    return {"id": cert["id"], "math_hash": cert["math_hash"], "game": cert["format"], "kind": cert["kind"],
            "rtp": per(lambda law: frac_str(law.rtp), True), "hit_frequency": per(lambda law: frac_str(law.hit), True),
            "max_award": per(lambda law: law.max_award, False), "max_risk": per(lambda law: law.risk, False),
            "floor": frac_str(FLOOR), "tool": "tools.certify", "format": "jeton-cert/1"}


def dumps(cert: dict) -> str:
    """The certificate's text: one line per key, its per-wager tables one wager a line (a 50-wager
    craps certificate in 11 KB, under the reader's games/model_json.py MAX_BYTES)."""
    lines = []
    for k, v in cert.items():
        if isinstance(v, dict):
            inner = ",\n".join("  %s: %s" % (json.dumps(w), json.dumps(x)) for w, x in v.items())
            lines.append(" %s: {\n%s\n }" % (json.dumps(k), inner))
        else:
            lines.append(" %s: %s" % (json.dumps(k), json.dumps(v)))
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _levels_of(shipped: dict, key: str, wid: str, n: int) -> list | None:
    v = shipped.get(key, {}).get(wid) if isinstance(shipped.get(key), dict) else None
    if isinstance(v, list):
        return v if len(v) == n else None
    return [v] * n if v is not None else None


def cert_mismatches(cert: dict, shipped: dict) -> list[str]:
    """How a shipped certificate differs from the one the model earns, each difference named; empty when
    it matches."""
    want = certificate(cert)
    out = []
    for key in ("format", "game", "kind"):
        if shipped.get(key) != want[key]:
            out.append("%s %r, expected %r" % (key, shipped.get(key), want[key]))
    if shipped.get("id") != want["id"]:
        out.append("certificate is for %r, the model is %r" % (shipped.get("id"), want["id"]))
    if shipped.get("math_hash") != want["math_hash"]:
        out.append("math hash %s... differs from the certificate's %s..."
                   % (want["math_hash"][:16], str(shipped.get("math_hash"))[:16]))
    for wid, w in cert["wagers"].items():
        bets = list(w["bets"])
        for key, what in (("rtp", "return"), ("hit_frequency", "hit frequency"), ("max_award", "most returned"),
                          ("max_risk", "most at risk")):
            mine = _levels_of(want, key, wid, len(bets))
            theirs = _levels_of(shipped, key, wid, len(bets))
            if theirs is None:
                out.append("wager %s: the certificate has no %s per bet level" % (wid, what))
                continue
            for b, v, t in zip(bets, mine, theirs):
                try:
                    same = Fraction(t) == Fraction(v) if isinstance(v, str) else (t == v and not isinstance(t, bool))
                except (TypeError, ValueError, ZeroDivisionError):
                    same = False
                if not same:
                    out.append("wager %s, bet %s: certified %s %r differs from the exact %s" % (wid, b, what, t, v))
    for key in ("rtp", "max_award"):
        for wid in shipped.get(key, {}) if isinstance(shipped.get(key), dict) else ():
            if wid not in cert["wagers"]:
                out.append("wager %s: certified %s for a wager the model does not offer" % (wid, key))
    return out


def law_of(raw: dict, key: str, credits: int) -> Law:
    """The host's law of one stake key (tests and the PAR sheet's per-selection lines)."""
    fmt = raw["format"]
    offered = {wid: raw["wagers"][wid]["pays"] for wid in raw["wagers"]}
    for per in FAMILIES[fmt].laws(raw, offered).values():
        if key in per:
            return per[key](credits)
    raise KeyError(key)
