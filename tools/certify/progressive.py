"""A progressive jackpot's figures: how often it is won, and the return at reset and higher levels.

The certified return counts the progressive at its reset (a floor). Each level J above the reset
adds p * (J - reset) / bet, p the chance per game at the progressive's bet. When every game is
played at that bet, the jackpot is won on average after bet / p credits wagered, so its mean level
when won is reset + rate * bet / p, and the long-run return is the return at reset plus the rate.
"""
from __future__ import annotations

from fractions import Fraction

LEVELS = (Fraction(3, 2), Fraction(2), Fraction(3))  # typical levels shown, as multiples of the reset


def progressive_figures(cert: dict) -> dict | None:
    prog = cert.get("progressive")
    if not prog:
        return None
    bet, reset = prog["bet"], prog["reset"]
    f = cert["bets"][bet]
    hit = sum((e["per_spin"] for e in f.entries if e["name"] == prog["pay"]), Fraction(0))
    rate = Fraction(prog["num"], prog["den"])
    mean_level = reset + rate * bet / hit
    levels = sorted({Fraction(reset), mean_level} | {reset * k for k in LEVELS})
    return {"pay": prog["pay"], "bet": bet, "reset": reset, "rate": rate, "hit": hit,
            "one_in": float(1 / hit), "return_at_reset": f.rtp, "mean_level": mean_level,
            "long_run_return": f.rtp + rate,
            "levels": [(j, f.rtp + hit * (j - reset) / bet) for j in levels]}
