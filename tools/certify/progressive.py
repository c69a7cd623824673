"""A progressive jackpot's figures: how often it is won, and the return at reset and higher levels.

The certified return counts the progressive at its reset (a floor). Each level J above the reset
adds p * (J - reset) / bet, p the chance per game at the progressive's bet. Only games at that bet
feed it (s. 92), so it is won on average after bet / p credits wagered there, and its mean level
when won is reset + rate * bet / p; the long-run return at that bet is the return at reset plus the
rate. With a ceiling the meter stops there and what is wagered past it rolls into the next reset
(firmware/progressive.py): nothing is lost, so the mean level when won and the long-run return are
the same, provided the contributions between two wins fit, on average, between the reset and the
ceiling. When they do not, the roll-over grows without end and the contributions are never paid:
ceiling_refusals refuses the model.
"""
from __future__ import annotations

from fractions import Fraction

LEVELS = (Fraction(3, 2), Fraction(2), Fraction(3))  # typical levels shown, as multiples of the reset


def _hit(cert: dict) -> Fraction:
    prog = cert["progressive"]
    f = cert["bets"][prog["bet"]]
    return sum((e["per_spin"] for e in f.entries if e["name"] == prog["pay"]), Fraction(0))


def progressive_figures(cert: dict) -> dict | None:
    prog = cert.get("progressive")
    if not prog:
        return None
    bet, reset = prog["bet"], prog["reset"]
    f = cert["bets"][bet]
    hit = _hit(cert)
    rate = Fraction(prog["num"], prog["den"])
    mean_level = reset + rate * bet / hit
    top = prog.get("ceiling")
    levels = {Fraction(reset), mean_level} | {reset * k for k in LEVELS}
    if top is not None:  # the meter never goes past its ceiling
        levels = {j for j in levels if j <= top} | {Fraction(top)}
    levels = sorted(levels)
    return {"pay": prog["pay"], "bet": bet, "reset": reset, "ceiling": top, "rate": rate, "hit": hit,
            "one_in": float(1 / hit), "return_at_reset": f.rtp, "mean_level": mean_level,
            "long_run_return": f.rtp + rate,
            "levels": [(j, f.rtp + hit * (j - reset) / bet) for j in levels]}


def ceiling_refusals(cert: dict) -> list[str]:
    """Why the progressive cannot return what it takes: it can never be won, or its contributions
    between two wins do not fit under its ceiling on average (the roll-over would grow without
    end). [] when it is sound or there is none."""
    prog = cert.get("progressive")
    if not prog:
        return []
    hit = _hit(cert)
    if not hit:
        return ["progressive %s: no window of positive weight wins it at bet %d: its contributions would never "
                "be paid" % (prog["pay"], prog["bet"])]
    top = prog.get("ceiling")
    if top is None:
        return []
    between = Fraction(prog["num"], prog["den"]) * prog["bet"] / hit  # credits added between two wins
    room = top - prog["reset"]
    if between < room:
        return []
    return ["progressive %s: %d/%d of bet %d adds %.1f credits between two wins on average (1 in %.0f), not "
            "less than the %d from its reset %d to its ceiling %d: the roll-over would grow without end"
            % (prog["pay"], prog["num"], prog["den"], prog["bet"], float(between), float(1 / hit), room,
               prog["reset"], top)]
