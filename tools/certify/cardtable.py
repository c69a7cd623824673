"""Certification of the card-poker table games (by-law s. 63-67.87): what every family shares.

A family module (tools/certify/three_card.py, ...) works out, by full enumeration, the exact law of
each wager a stake can name: how many of the equally likely rounds end with each (credits wagered,
credits paid back) per credit staked, under the optimal strategy and under the built-in one (the
device's auto()). From a law come the figures, all exact fractions:

- rtp: 1 + the mean net result per credit placed before the deal (1 - the house edge; Let It
  Ride's three wagers, Crazy Four's ante and Super Bonus, Boston's ante and first bet are placed
  together, and the published tables give the edge per one of them: house_edge_per_unit);
  rtp_wagered: per credit wagered in the end, plays, raises and wars included, pull-backs not
  (1 - the element of risk: what the cabinet's meters measure);
- hit frequency (the round pays back more than was wagered), push frequency, the variance of the
  net result per credit staked;
- the most a wager pays back (max_award) and puts at risk (max_risk) per credit staked, and for the
  whole round, every wager the model offers staked at the same bet level.

s. 93 (and L-6, r. 13, s. 1): every wager at every bet level must return at least 83 % on both
measures and under both strategies; a wager under it is refused by its name. The certificate
(games/certs/<id>.json, jeton-cert/1) carries every figure the boot check (games/cardtable_cert.py)
reads.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from firmware import jurisdiction
from games.floor import RTP_FLOOR_DEN, RTP_FLOOR_NUM
from rng.crypto.canon import math_hash

FLOOR = Fraction(RTP_FLOOR_NUM, RTP_FLOOR_DEN)
FORMATS: dict[str, str] = {  # format -> the family's certifier module (tools.certify.<name>)
    "jeton-three-card/1": "three_card",
    "jeton-caribbean/1": "caribbean",
    "jeton-let-it-ride/1": "let_it_ride",
    "jeton-red-dog/1": "red_dog",
    "jeton-war/1": "war",
    "jeton-crazy-four/1": "crazy_four",
    "jeton-boston/1": "boston",
    "jeton-three-five-seven/1": "three_five_seven",
}


def is_cardtable(raw: object) -> bool:
    return isinstance(raw, dict) and raw.get("format") in FORMATS


@dataclass
class Law:
    """counts[(wagered, returned)]: the number of equally likely rounds (out of total) in which one
    credit of the stake's wager (the stake's {wager: credits}) ends with that much wagered and paid
    back; units: the credits that one credit of it places before the deal (Let It Ride's three
    wagers: 3; Crazy Four's ante and Super Bonus: 2; Boston's ante and first bet: 3)."""
    counts: dict[tuple[Fraction, Fraction], int]
    total: int
    units: int = 1

    def _sum(self, f) -> Fraction:
        return sum((Fraction(c) * f(w, r) for (w, r), c in self.counts.items()), Fraction(0))

    @property
    def rtp(self) -> Fraction:
        """1 + the mean net result per credit placed before the deal: 1 - the house edge."""
        return 1 + self._sum(lambda w, r: r - w) / self.total / self.units

    @property
    def house_edge_per_unit(self) -> Fraction:
        """The mean loss per credit of the stake's wager: the published tables' house edge (Let It
        Ride's per one of its three wagers, Crazy Four's per credit of ante)."""
        return -self._sum(lambda w, r: r - w) / self.total

    @property
    def returned(self) -> Fraction:
        return self._sum(lambda w, r: r) / self.total

    @property
    def wagered(self) -> Fraction:
        return self._sum(lambda w, r: w) / self.total

    @property
    def rtp_wagered(self) -> Fraction:
        return self.returned / self.wagered

    @property
    def hit(self) -> Fraction:
        return Fraction(sum(c for (w, r), c in self.counts.items() if r > w), self.total)

    @property
    def push(self) -> Fraction:
        return Fraction(sum(c for (w, r), c in self.counts.items() if r == w), self.total)

    @property
    def variance(self) -> Fraction:
        """Of the net result per credit placed before the deal."""
        mean = self._sum(lambda w, r: r - w) / self.total
        return (self._sum(lambda w, r: (r - w) ** 2) / self.total - mean * mean) / (self.units * self.units)

    @property
    def max_award(self) -> Fraction:
        return max(r for (w, r), c in self.counts.items() if c)

    @property
    def max_risk(self) -> Fraction:
        return max(w for (w, r), c in self.counts.items() if c)


def law(pairs, units: int = 1) -> Law:
    """A Law from (wagered, returned, count) triples, equal keys added together."""
    counts: dict[tuple[Fraction, Fraction], int] = {}
    total = 0
    for w, r, c in pairs:
        c = int(c)
        if c:
            k = (Fraction(w), Fraction(r))
            counts[k] = counts.get(k, 0) + c
            total += c
    return Law(counts, total, units)


@dataclass
class Wager:
    name: dict
    section: str
    optimal: Law
    builtin: Law
    decisions: bool  # whether the player decides anything after the stake


@dataclass
class Report:
    raw: dict
    fmt: str
    id: str
    bets: list[int]
    wagers: dict[str, Wager]
    round_award: Fraction  # the most one round pays back, every wager at one credit
    round_risk: Fraction  # the most one round puts at risk, every wager at one credit
    strategy: dict = field(default_factory=dict)  # the family's words on its strategies
    seconds: float = 0.0
    analysis: dict | None = field(default=None, repr=False)  # the family's per-deal tables (tests, PAR)

    @property
    def math_hash(self) -> str:
        return math_hash(self.raw)

    def __getitem__(self, key: str):  # tools/certify/__main__.py check_cert, write_cert read cert["id"]
        return getattr(self, key)


def frac_str(x: Fraction) -> str:
    return "%d/%d" % (x.numerator, x.denominator)


def pct(x: Fraction) -> str:
    return "%.4f %%" % (float(x) * 100)


def _whole(x: Fraction, bet: int) -> int:
    v = x * bet
    if v.denominator != 1:
        raise ValueError("bet %d: %s credits is not a whole number" % (bet, v))
    return int(v)


def certify(raw: dict) -> Report:
    """The exact figures of a card-poker table model (the family's certifier by format)."""
    import importlib
    import time

    fam = importlib.import_module("tools.certify." + FORMATS[raw["format"]])
    t0 = time.perf_counter()
    rep = fam.certify(raw)
    rep.seconds = time.perf_counter() - t0
    return rep


def below_floor(rep: Report) -> list[str]:
    """Every wager, bet level, measure and strategy under the 83 % floor, each named."""
    out = []
    for wid, w in rep.wagers.items():
        for how, lw in (("optimal", w.optimal), ("built-in strategy", w.builtin)):
            if how != "optimal" and not w.decisions:
                continue
            for what, x in (("return", lw.rtp), ("return per credit wagered", lw.rtp_wagered)):
                if x < FLOOR:
                    for b in rep.bets:
                        out.append("wager %s (%s, %s), bet %d: %s%s %s = %s is below the %d %% floor of by-law s. 93"
                                   % (wid, w.name["en"], w.section, b, what,
                                      "" if how == "optimal" else " under the " + how, frac_str(x), pct(x), RTP_FLOOR_NUM))
    return out


def profile_refusals(rep: Report, juris: str, denom: int) -> list[str]:
    """The jurisdiction's rules the game breaks: the most one round puts at risk against the bet
    limit (every wager, play, raise and side wager counted), the most it pays against the prize
    limit, the credit value, the return floor."""
    out = []
    why = jurisdiction.check_credit(juris, denom)
    if why:
        out.append(why)
    for b in rep.bets:
        why = jurisdiction.check_wager(juris, denom, _whole(rep.round_risk, b))
        if why:
            out.append("bet %d: one round puts at risk %d credits: %s" % (b, _whole(rep.round_risk, b), why))
    why = jurisdiction.check_maxima(juris, denom, rep.bets, [_whole(rep.round_award, b) for b in rep.bets])
    if why:
        out.append(why)
    for wid, w in rep.wagers.items():
        for lw in (w.optimal, w.builtin):
            why = jurisdiction.check_return(juris, lw.rtp.numerator, lw.rtp.denominator)
            if why:
                out.append("wager %s: %s" % (wid, why))
                break
    return out


def certificate(rep: Report) -> dict:
    """What ships with the firmware (games/certs/<id>.json): every figure per wager and bet level."""
    def per(f):
        return {wid: {str(b): f(w) for b in rep.bets} for wid, w in rep.wagers.items()}

    return {"format": "jeton-cert/1", "game": rep.fmt, "id": rep.id, "math_hash": rep.math_hash,
            "rtp": per(lambda w: frac_str(w.optimal.rtp)),
            "rtp_wagered": per(lambda w: frac_str(w.optimal.rtp_wagered)),
            "strategy_rtp": per(lambda w: frac_str(w.builtin.rtp)),
            "strategy_rtp_wagered": per(lambda w: frac_str(w.builtin.rtp_wagered)),
            "hit_frequency": per(lambda w: frac_str(w.optimal.hit)),
            "strategy_hit_frequency": per(lambda w: frac_str(w.builtin.hit)),
            "wager_max_award": {wid: {str(b): _whole(max(w.optimal.max_award, w.builtin.max_award), b)
                                      for b in rep.bets} for wid, w in rep.wagers.items()},
            "wager_max_risk": {wid: {str(b): _whole(max(w.optimal.max_risk, w.builtin.max_risk), b)
                                     for b in rep.bets} for wid, w in rep.wagers.items()},
            "max_award": {str(b): _whole(rep.round_award, b) for b in rep.bets},
            "max_risk": {str(b): _whole(rep.round_risk, b) for b in rep.bets},
            "floor": frac_str(FLOOR), "tool": "tools.certify"}


def cert_mismatches(rep: Report, shipped: dict) -> list[str]:
    """How a shipped certificate differs from the one the model earns; empty when it matches."""
    want = certificate(rep)
    out = []
    for key in ("format", "game", "id", "math_hash", "floor"):
        if shipped.get(key) != want[key]:
            out.append("%s %r, expected %r" % (key, shipped.get(key), want[key]))
    for key in ("rtp", "rtp_wagered", "strategy_rtp", "strategy_rtp_wagered", "hit_frequency",
                "strategy_hit_frequency", "wager_max_award", "wager_max_risk"):
        have = shipped.get(key) if isinstance(shipped.get(key), dict) else {}
        for wid, per in want[key].items():
            theirs = have.get(wid) if isinstance(have.get(wid), dict) else {}
            for b, v in per.items():
                if theirs.get(b) != v:
                    out.append("%s: wager %s, bet %s: certificate %r, exact %r" % (key, wid, b, theirs.get(b), v))
        for wid in have:
            if wid not in want[key]:
                out.append("%s: wager %s is not a wager of the model" % (key, wid))
    for key in ("max_award", "max_risk"):
        have = shipped.get(key) if isinstance(shipped.get(key), dict) else {}
        for b, v in want[key].items():
            if have.get(b) != v:
                out.append("%s, bet %s: certificate %r, exact %r" % (key, b, have.get(b), v))
    return out


def to_json(rep: Report) -> dict:
    def figures(lw: Law) -> dict:
        return {"rtp": frac_str(lw.rtp), "rtp_float": float(lw.rtp),
                "rtp_wagered": frac_str(lw.rtp_wagered), "rtp_wagered_float": float(lw.rtp_wagered),
                "house_edge_float": 1 - float(lw.rtp), "element_of_risk_float": 1 - float(lw.rtp_wagered),
                "units": lw.units, "house_edge_per_unit": frac_str(lw.house_edge_per_unit),
                "average_wagered": frac_str(lw.wagered), "hit_frequency": frac_str(lw.hit),
                "hit_frequency_float": float(lw.hit), "push_frequency": frac_str(lw.push),
                "variance": frac_str(lw.variance), "std_dev": math.sqrt(lw.variance),
                "max_award": frac_str(lw.max_award), "max_risk": frac_str(lw.max_risk),
                "rounds": lw.total,
                "outcomes": [{"wagered": frac_str(w), "returned": frac_str(r), "count": c}
                             for (w, r), c in sorted(lw.counts.items())]}

    return {"id": rep.id, "format": rep.fmt, "math_hash": rep.math_hash, "bets": rep.bets,
            "wagers": {wid: {"name": w.name, "section": w.section, "decisions": w.decisions,
                             "optimal": figures(w.optimal), "builtin": figures(w.builtin)}
                       for wid, w in rep.wagers.items()},
            "round": {"max_award_per_credit": frac_str(rep.round_award), "max_risk_per_credit": frac_str(rep.round_risk)},
            "strategy": rep.strategy, "seconds": rep.seconds,
            "certificate": certificate(rep), "floor": frac_str(FLOOR),
            "by_law": "s. 93: every wager's return >= 83 %, at every bet level, optimal and built-in strategy"}


def summary(rep: Report) -> str:
    lines = ["%s  (%s, hash %s…, %.2f s)" % (rep.id, rep.fmt, rep.math_hash[:16], rep.seconds)]
    for wid, w in rep.wagers.items():
        for how, lw in (("optimal", w.optimal), ("built-in", w.builtin)):
            if how == "built-in" and not w.decisions:
                continue
            lines.append("  %-10s %-8s return %s (house edge %.4f %%%s), per credit wagered %s, hit 1 in %.3f, σ %.3f"
                         % (wid, how if w.decisions else "", pct(lw.rtp), (1 - float(lw.rtp)) * 100,
                            "" if lw.units == 1 else ", %.4f %% per unit of %d" % (float(lw.house_edge_per_unit) * 100,
                                                                                   lw.units),
                            pct(lw.rtp_wagered), 1 / float(lw.hit) if lw.hit else float("inf"),
                            math.sqrt(lw.variance)))
    for k, v in rep.strategy.items():
        lines.append("  %s: %s" % (k, v))
    lines.append("  one round pays at most %s and puts at risk at most %s, per credit of each wager (bets %s)"
                 % (rep.round_award, rep.round_risk, ", ".join(str(b) for b in rep.bets)))
    return "\n".join(lines)
