"""Certification of a keno model (jeton-keno/1): exact figures per offered spot count and bet level.

Catching h of s spots when D of N numbers are drawn is hypergeometric:
    P(h) = C(s, h) C(N - s, D - h) / C(N, D)
so each spot count's return, hit frequency and variance are finite sums of fractions. Every offered
spot count at every bet level must reach the 83 % floor of by-law s. 93 (games/floor.py): a player
chooses the spot count, so each one is a wager type of its own.
"""
from __future__ import annotations

import math
from fractions import Fraction

from games.floor import RTP_FLOOR_DEN, RTP_FLOOR_NUM
from games.keno_model import FORMAT, KenoModel
from rng.crypto.canon import math_hash
from tools.certify.maxpay import keno_max, max_award_mismatches

FLOOR = Fraction(RTP_FLOOR_NUM, RTP_FLOOR_DEN)


def is_keno(raw: dict) -> bool:
    return isinstance(raw, dict) and raw.get("format") == FORMAT


def catch_law(numbers: int, drawn: int, spots: int) -> list[Fraction]:
    """P(h caught) for h = 0..spots (math.comb: independent of the device's games/keno_exact.py)."""
    total = math.comb(numbers, drawn)
    return [Fraction(math.comb(spots, h) * math.comb(numbers - spots, drawn - h), total) for h in range(spots + 1)]


def _figures(law: list[Fraction], row: list[int], bet: int) -> dict:
    mean = sum((p * x for p, x in zip(law, row)), Fraction(0))
    second = sum((p * x * x for p, x in zip(law, row)), Fraction(0))
    rtp = mean / bet
    hit = sum((p for p, x in zip(law, row) if x), Fraction(0))
    var = (second - mean * mean) / (bet * bet)  # of the return per unit bet
    pays = [{"hits": h, "pay": x, "probability": p, "one_in": float(1 / p) if p else None,
             "return": p * x / bet, "share": float(p * x / mean) if mean else 0.0}
            for h, (p, x) in enumerate(zip(law, row)) if x]
    return {"rtp": rtp, "hit": hit, "variance": var, "std_dev": math.sqrt(var), "pays": pays}


def certify(raw: dict) -> dict:
    m = KenoModel(raw)
    out = {"id": m.id, "name": m.name, "math_hash": math_hash(raw), "numbers": m.numbers, "drawn": m.drawn,
           "bets": list(m.bets), "spots": {}}
    for s in m.spots:
        law = catch_law(m.numbers, m.drawn, s)
        out["spots"][s] = {"law": law, "bets": {b: _figures(law, m.pay[s][bi], b) for bi, b in enumerate(m.bets)}}
        for bi, b in enumerate(m.bets):  # the best catch that can happen: one game's most
            out["spots"][s]["bets"][b]["max_award"] = keno_max(m.numbers, m.drawn, m.pay[s][bi], s)
    return out


def frac_str(x: Fraction) -> str:
    return "%d/%d" % (x.numerator, x.denominator)


def lowest(cert: dict) -> tuple[int, int, Fraction]:
    """(spots, bet, return) of the lowest return over every offered spot count and bet level."""
    return min(((s, b, f["rtp"]) for s, sp in cert["spots"].items() for b, f in sp["bets"].items()),
               key=lambda t: t[2])


def to_json(cert: dict) -> dict:
    spots = {}
    for s, sp in cert["spots"].items():
        spots[str(s)] = {
            "catch": [{"hits": h, "probability": frac_str(p), "one_in": float(1 / p)} for h, p in enumerate(sp["law"])],
            "bets": {str(b): {"rtp": frac_str(f["rtp"]), "rtp_float": float(f["rtp"]),
                              "hit_frequency": frac_str(f["hit"]), "hit_frequency_float": float(f["hit"]),
                              "std_dev": f["std_dev"], "variance": frac_str(f["variance"]),
                              "max_award": f["max_award"],
                              "pays": [dict(e, probability=frac_str(e["probability"]), **{"return": frac_str(e["return"])})
                                       for e in f["pays"]]}
                     for b, f in sp["bets"].items()}}
    s, b, r = lowest(cert)
    return {"id": cert["id"], "format": FORMAT, "math_hash": cert["math_hash"], "name": cert["name"],
            "numbers": cert["numbers"], "drawn": cert["drawn"], "bets": cert["bets"], "spots": spots,
            "lowest": {"spots": s, "bet": b, "rtp": frac_str(r), "rtp_float": float(r)},
            "floor": frac_str(FLOOR), "by_law": "s. 93: return of each game >= 83 %, every offered spot count"}


def summary(rep: dict, secs: float) -> str:
    lines = ["%s  (hash %s…, keno %d numbers, %d drawn, %.2f s)" % (
        rep["id"], rep["math_hash"][:16], rep["numbers"], rep["drawn"], secs)]
    for s, sp in rep["spots"].items():
        for b, f in sp["bets"].items():
            lines.append("  %2s spots bet %-3s RTP %s = %.4f %%  hit 1 in %.3f  σ %.3f"
                         % (s, b, f["rtp"], f["rtp_float"] * 100, 1 / f["hit_frequency_float"], f["std_dev"]))
    lo = rep["lowest"]
    lines.append("  lowest: %d spots at bet %d, %.4f %%" % (lo["spots"], lo["bet"], lo["rtp_float"] * 100))
    return "\n".join(lines)


def certificate(cert: dict) -> dict:
    """What ships with the firmware: the hash of the model and the exact return per spot count and bet."""
    return {"id": cert["id"], "math_hash": cert["math_hash"], "game": "keno",
            "rtp": {str(s): {str(b): frac_str(f["rtp"]) for b, f in sp["bets"].items()} for s, sp in cert["spots"].items()},
            "hit_frequency": {str(s): {str(b): frac_str(f["hit"]) for b, f in sp["bets"].items()}
                              for s, sp in cert["spots"].items()},
            # the most one game pays per spot count and bet, for a prize limit (vlt)
            "max_award": {str(s): {str(b): f["max_award"] for b, f in sp["bets"].items()}
                          for s, sp in cert["spots"].items()},
            "floor": frac_str(FLOOR), "tool": "tools.certify", "format": "jeton-cert/1"}


def below_floor(cert: dict) -> list[str]:
    return ["%d spots, bet %d: return %s = %.4f %% is below the %d %% floor of by-law s. 93"
            % (s, b, frac_str(f["rtp"]), float(f["rtp"]) * 100, RTP_FLOOR_NUM)
            for s, sp in cert["spots"].items() for b, f in sp["bets"].items() if f["rtp"] < FLOOR]


def cert_mismatches(cert: dict, shipped: dict) -> list[str]:
    """How a shipped keno certificate differs from the one the model earns; empty when it matches."""
    want = certificate(cert)
    out = []
    for key in ("format", "game"):
        if shipped.get(key) != want[key]:
            out.append("%s %r, expected %r" % (key, shipped.get(key), want[key]))
    if shipped.get("id") != want["id"]:
        out.append("certificate is for %r, the model is %r" % (shipped.get("id"), want["id"]))
    if shipped.get("math_hash") != want["math_hash"]:
        out.append("math hash %s... differs from the certificate's %s..."
                   % (want["math_hash"][:16], str(shipped.get("math_hash"))[:16]))
    for key, what in (("rtp", "return"), ("hit_frequency", "hit frequency")):
        have = shipped.get(key) if isinstance(shipped.get(key), dict) else {}
        for s, per in want[key].items():
            theirs_s = have.get(s) if isinstance(have.get(s), dict) else {}
            for b, v in per.items():
                try:
                    theirs = Fraction(theirs_s[b])
                except KeyError:
                    out.append("%s spots, bet %s: the certificate has no %s" % (s, b, what))
                    continue
                except (TypeError, ValueError, ZeroDivisionError):
                    out.append("%s spots, bet %s: unreadable certified %s %r" % (s, b, what, theirs_s[b]))
                    continue
                if theirs != Fraction(v):
                    out.append("%s spots, bet %s: certified %s %s differs from the exact %s"
                               % (s, b, what, theirs_s[b], v))
        for s in have:
            if s not in want[key]:
                out.append("%s spots: certified %s for a spot count the model does not offer" % (s, what))
    have = shipped.get("max_award")
    if not isinstance(have, dict):
        return out + max_award_mismatches({}, have)
    for s, per in want["max_award"].items():
        out += max_award_mismatches(per, have.get(s, {}), s + " spots, bet %s")
    return out
