"""The wheel of fortune's exact laws (s. 117-122), apart from the device engine (games/wheel.py): the
wheel's equal segments (s. 117) are equally likely, so a wager on a symbol shown by k of the n
segments wins with chance k/n and is paid at the model's payout (s. 120: the by-law leaves it to the
table)."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

from tools.certify.table_law import Law, paid


def laws(raw: dict, wagers: dict) -> dict[str, dict[str, object]]:
    shown = Counter(raw["segments"])
    n = len(raw["segments"])
    out: dict[str, dict[str, object]] = {}
    for wid, pays in wagers.items():
        p = Fraction(shown[wid], n)
        out[wid] = {wid: (lambda c, p=p, pay=tuple(pays): Law(c, [(p, paid(c, *pay), paid(c, *pay) > c),
                                                                   (1 - p, 0, False)]))}
    return out
