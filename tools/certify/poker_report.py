"""Certification of a video poker model (jeton-poker/1): the report, the certificate and the floor.

Both the optimal-strategy return and the built-in strategy's return are exact fractions per bet
level; by-law s. 93 (83 %) is checked on both, so a player who follows the machine's own hold
suggestion gets at least 83 %. A model without a built-in strategy is refused."""
from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np

from games.poker_model import PokerModel
from rng.crypto.canon import math_hash
from tools.certify.core import FLOOR, frac_str
from tools.certify.maxpay import max_award_mismatches, poker_max
from tools.certify.poker import analyse


def certify_poker(raw: dict) -> dict:
    t0 = time.perf_counter()
    c0 = time.process_time()
    m = PokerModel(raw)
    res = analyse(raw)
    a = res["analysis"]
    rep = {"id": m.id, "name": m.name, "math_hash": math_hash(raw), "format": "jeton-poker/1",
           "deck": m.deck, "deals": math.comb(m.deck, 5), "deal_classes": len(a.deals),
           "award_names": [n["en"] for n in m.names] + ["nothing"],
           "strategy_patterns": len(m.strategy) if m.strategy else 0, "bets": {}}
    classes = set(np.unique(a.cls5).tolist())  # the award classes some 5-card hand makes
    for bet, f in res["bets"].items():
        b = {"pays": f["pays"], "max_award": poker_max(f["pays"], classes)}
        for name in ("optimal", "strategy"):
            o = f[name]
            b[name] = None if o is None else {
                "rtp": o["rtp"], "hit": o["hit"], "variance": o["variance"], "freq": o["freq"]}
        if f["strategy"] is not None:
            b["gap"] = f["optimal"]["rtp"] - f["strategy"]["rtp"]
            b["agree"] = Fraction(int(a.weight[f["holds"] == f["strategy_holds"]].sum()), rep["deals"])
        rep["bets"][bet] = b
    rep["seconds"] = time.perf_counter() - t0
    rep["cpu_seconds"] = time.process_time() - c0
    return rep


def below_floor(rep: dict) -> list[str]:
    out = []
    for bet, b in rep["bets"].items():
        if b["optimal"]["rtp"] < FLOOR:
            out.append("bet %d: optimal return %.4f %% is below the 83 %% floor of by-law s. 93"
                       % (bet, float(b["optimal"]["rtp"]) * 100))
        if b["strategy"] is None:
            out.append("bet %d: no built-in strategy (the auto-hold must be certified, s. 93)" % bet)
        elif b["strategy"]["rtp"] < FLOOR:
            out.append("bet %d: the built-in strategy returns %.4f %%, below the 83 %% floor of by-law "
                       "s. 93 (optimal play: %.4f %%)" % (bet, float(b["strategy"]["rtp"]) * 100,
                                                          float(b["optimal"]["rtp"]) * 100))
    return out


def to_json(rep: dict) -> dict:
    bets = {}
    for bet, b in rep["bets"].items():
        e = {"pays": b["pays"], "max_award": b["max_award"]}
        for name in ("optimal", "strategy"):
            o = b[name]
            if o is None:
                e[name] = None
                continue
            e[name] = {"rtp": frac_str(o["rtp"]), "rtp_float": float(o["rtp"]),
                       "hit_frequency": frac_str(o["hit"]), "hit_frequency_float": float(o["hit"]),
                       "variance": frac_str(o["variance"]), "std_dev": math.sqrt(o["variance"]),
                       "awards": [{"name": n, "pay": p, "probability": frac_str(q), "one_in": float(1 / q) if q else None,
                                   "return": frac_str(q * p / bet)}
                                  for n, p, q in zip(rep["award_names"], b["pays"] + [0], o["freq"])]}
        if "gap" in b:
            e["strategy_gap"] = frac_str(b["gap"])
            e["strategy_gap_float"] = float(b["gap"])
            e["strategy_agrees_with_optimal"] = float(b["agree"])
        bets[str(bet)] = e
    return {"id": rep["id"], "format": rep["format"], "math_hash": rep["math_hash"], "deck": rep["deck"],
            "deals": rep["deals"], "deal_classes": rep["deal_classes"], "holds": 32,
            "strategy_patterns": rep["strategy_patterns"],
            "floor": frac_str(FLOOR), "by_law": "s. 93: return of each game >= 83 %, optimal and built-in strategy",
            "rtp": {b: v["optimal"]["rtp"] for b, v in bets.items()},
            "strategy_rtp": {b: v["strategy"]["rtp"] if v["strategy"] else None for b, v in bets.items()},
            "hit_frequency": {b: v["optimal"]["hit_frequency"] for b, v in bets.items()},
            "std_dev": {b: v["optimal"]["std_dev"] for b, v in bets.items()},
            "max_award": {b: v["max_award"] for b, v in bets.items()},
            "bets": bets, "seconds": rep["seconds"], "cpu_seconds": rep["cpu_seconds"]}


def certificate(rep: dict) -> dict:
    """What ships: the math hash (pay table and strategy), the exact optimal and built-in returns."""
    return {"id": rep["id"], "math_hash": rep["math_hash"], "game": "jeton-poker/1",
            "rtp": {str(b): frac_str(v["optimal"]["rtp"]) for b, v in rep["bets"].items()},
            "strategy_rtp": {str(b): frac_str(v["strategy"]["rtp"]) for b, v in rep["bets"].items()},
            "hit_frequency": {str(b): frac_str(v["optimal"]["hit"]) for b, v in rep["bets"].items()},
            # the most one hand pays at each bet (the best award a hand can make), for a prize limit
            "max_award": {str(b): v["max_award"] for b, v in rep["bets"].items()},
            "floor": frac_str(FLOOR), "tool": "tools.certify", "format": "jeton-cert/1"}


def cert_mismatches(rep: dict, shipped: dict) -> list[str]:
    want = certificate(rep)
    out = []
    for k in ("format", "game", "id", "math_hash"):
        if shipped.get(k) != want[k]:
            out.append("%s %r, expected %r" % (k, shipped.get(k), want[k]))
    for key in ("rtp", "strategy_rtp", "hit_frequency"):
        have = shipped.get(key) if isinstance(shipped.get(key), dict) else {}
        for bet, v in want[key].items():
            try:
                ok = Fraction(have[bet]) == Fraction(v)
            except (KeyError, TypeError, ValueError, ZeroDivisionError):
                ok = False
            if not ok:
                out.append("bet %s: %s %s differs from the certificate's %r" % (bet, key, v, have.get(bet)))
    return out + max_award_mismatches(want["max_award"], shipped.get("max_award"))


def summary(rep: dict) -> str:
    lines = ["%s  (hash %s…, %d deals in %d suit classes x 32 holds, %.2f s, %.2f s CPU)" % (
        rep["id"], rep["math_hash"][:16], rep["deals"], rep["deal_classes"], rep["seconds"], rep["cpu_seconds"])]
    for bet, b in rep["bets"].items():
        o, s = b["optimal"], b["strategy"]
        lines.append("  bet %-3s optimal %.4f %%  hit %.4f  σ %.3f  |  built-in strategy %s"
                     % (bet, float(o["rtp"]) * 100, float(o["hit"]), math.sqrt(o["variance"]),
                        "none" if s is None else "%.4f %% (gap %.4f %%)" % (float(s["rtp"]) * 100, float(b["gap"]) * 100)))
    return "\n".join(lines)
