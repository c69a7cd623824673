"""Certification of a reel model: exact figures per bet level (fractions.Fraction throughout)."""
from __future__ import annotations

import math
import sys
from fractions import Fraction

from games import exact
from games.floor import RTP_FLOOR_DEN, RTP_FLOOR_NUM
from games.model import Model, read
from rng.crypto.canon import math_hash
from tools.certify.beside import beside
from tools.certify.feature import SpinLaw, expected_spins, feature_moments
from tools.certify.joint import line_entries, spin_distribution
from tools.certify.maxpay import game_max, max_award_mismatches
from tools.certify.progressive import progressive_figures

FLOOR = Fraction(RTP_FLOOR_NUM, RTP_FLOOR_DEN)  # by-law s. 93; no option lowers it
BESIDE_REELS = 5  # reel sets this wide are worth a second process (bench_games: ~0.3-0.7 s each)
GAMES_N = [10 ** k for k in range(3, 9)]
Z = {"90": 1.6448536269514722, "95": 1.959963984540054}


class BetFigures:
    """Exact figures of one bet level."""

    def __init__(self, bet: int):
        self.bet = bet
        self.rtp = Fraction(0)
        self.hit = Fraction(0)
        self.second = Fraction(0)  # E[X^2] in credits^2
        self.trigger = Fraction(0)
        self.feature_share = Fraction(0)  # part of the return paid by free spins
        self.entries: list[dict] = []
        self.base_dist: dict[int, Fraction] = {}  # base-spin credits -> probability
        # the feature (free spins): F its total in credits, 0 when not triggered
        self.feature_second = Fraction(0)  # E[F^2] per game
        self.triggers: dict[int, Fraction] = {}  # initial free spins -> probability per game
        self._free = None  # (model, SpinLaw, free spin's {(credits, scatters): weight}, scale)
        self.max_award: int | None = 0  # the most one game pays (maxpay.py); None: nothing bounds it
        self._spins = None

    # for the PAR sheet only, so computed on demand: certification does not pay for them
    @property
    def free_spins(self) -> Fraction:
        """Expected free spins per game."""
        if self._free is None:
            return Fraction(0)
        if self._spins is None:
            n = expected_spins(self._free[0], self._free[1], list(self.triggers))
            self._spins = sum((p * n[s] for s, p in self.triggers.items()), Fraction(0))
        return self._spins

    @property
    def free_dist(self) -> dict[int, Fraction]:
        """One free spin's credits (multiplier in) -> probability."""
        if self._free is None:
            return {}
        m, _, free, scale = self._free
        counts: dict[int, int] = {}
        for (w, _), c in free.items():
            counts[w] = counts.get(w, 0) + c
        return {w * scale: Fraction(c, m.free.cycle) for w, c in counts.items()}

    @property
    def variance(self) -> Fraction:  # of the return per unit bet
        mean = self.rtp * self.bet
        return (self.second - mean * mean) / (self.bet * self.bet)

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)


def _proportional(m: Model, bi: int) -> bool:
    c0, c = m.coins[0], m.coins[bi]
    same = all(x * c == y * c0 for r0, r in zip(m.cpay[0], m.cpay[bi]) for x, y in zip(r0, r))
    return same and all(x * c == y * c0 for x, y in zip(m.spay[0], m.spay[bi]))


def certify_model(raw: dict, jobs: int = 2) -> dict:
    """Exact figures per bet level; jobs > 1 lets a 5-reel game's two reel sets be worked out at once."""
    m = Model(raw)
    # the boot check's own recomputation first (games/exact.py, milliseconds): bounded by the same
    # limits, so a model the device would refuse at power-up is refused here in the same words
    # before any long work; its figures must be this module's, to the last digit
    device = [Fraction(*exact.rtp(m, bi)) for bi in range(len(m.bets))]
    out = {"id": m.id, "name": m.name, "math_hash": math_hash(raw), "cycle": m.base.cycle,
           "free_cycle": m.free.cycle if m.free else None, "bets": {}, "progressive": m.progressive}
    cache: dict[int, tuple] = {}
    for bi, bet in enumerate(m.bets):
        scale = Fraction(1)
        src = bi
        if bi and _proportional(m, bi):
            src, scale = 0, Fraction(m.coins[bi], m.coins[0])
        if src not in cache:
            # a bet level whose pays are those of the first level times its coins shares its
            # distributions, free-spin law (and the law's recursion tables) and win table
            # a 5-reel game's free-spin set is worked out in a child process while this one does
            # the base set (tools/certify/beside.py); 3-reel sets take milliseconds, not worth a fork
            free_of = beside(spin_distribution, m, m.free, src, m.multiplier,
                             fork=m.nreels >= BESIDE_REELS and jobs > 1) if m.free else None
            try:
                base = spin_distribution(m, m.base, src)
            finally:  # the child is waited for even when the base set fails
                free = free_of() if free_of else None
            law = SpinLaw(m, free, m.free.cycle) if free else None
            cache[src] = (base, free, law, line_entries(m, m.base, src))
        out["bets"][bet] = _figures(m, bi, bet, *cache[src], scale)
        out["bets"][bet].max_award = game_max(m, bi, cache[src][0], cache[src][1], scale)
        if out["bets"][bet].rtp != device[bi]:
            raise RuntimeError("bet %d: the certifier's return differs from the device's recomputation" % bet)
    return out


def _figures(m: Model, bi: int, bet: int, base: dict, free: dict | None, law: SpinLaw | None,
             lines: dict, scale: Fraction) -> BetFigures:
    f = BetFigures(bet)
    cyc = m.base.cycle
    if law:
        f._free = (m, law, free, scale)
    # integer sums over the base cycle (credits before scale): per initial free-spin count s the
    # weight and credits of the spins awarding s; the weight of each credit amount
    by_credits: dict[int, int] = {}
    x1 = x2 = 0
    trig: dict[int, list[int]] = {}  # s -> [weight, sum of credits]
    for (w, sc), c in base.items():
        by_credits[w] = by_credits.get(w, 0) + c
        x1 += c * w
        x2 += c * w * w
        s = m.award[sc] if m.free else 0
        if s:
            t = trig.setdefault(s, [0, 0])
            t[0] += c
            t[1] += c * w
    for w in sorted(by_credits):
        f.base_dist[w * scale] = Fraction(by_credits[w], cyc)
    mean = scale * x1
    second = scale * scale * x2
    feat_mean = Fraction(0)
    nohit = Fraction(by_credits.get(0, 0))
    for s in sorted(trig):  # sums over the cycle, divided by cyc below
        c, cw = trig[s]
        fm = feature_moments(m, law, s)
        fmean, fsec = fm.mean * scale, fm.second * scale * scale
        f.trigger += c
        f.triggers[s] = Fraction(c, cyc)
        f.feature_second += c * fsec
        feat_mean += c * fmean
        second += 2 * scale * cw * fmean + c * fsec
        # a spin that wins nothing and triggers: no hit unless the feature wins
        c0 = sum(cc for (w, sc), cc in base.items() if w == 0 and m.award[sc] == s)
        nohit += c0 * fm.p_zero - c0
    mean = (mean + feat_mean) / cyc
    feat_mean /= cyc
    f.trigger /= cyc
    f.feature_second /= cyc
    f.rtp = mean / bet
    f.second = second / cyc
    f.hit = 1 - nohit / cyc
    f.feature_share = feat_mean / mean if mean else Fraction(0)
    # each base-game win: expected count over the cycle, probability, 1 in N, share of the return
    for key, c in sorted(lines.items()):
        g, n, k, rev = key if len(key) == 4 else key + (1, False)  # v2: multiplier, right to left
        pay = m.cpay[bi][g][n] * k
        name = "%d %s" % (n, m.group_names[g]) + (" x%d" % k if k > 1 else "") + (" (R-L)" if rev else "")
        f.entries.append(_entry(name, pay, Fraction(c, cyc), mean, bet))
    if m.scatter is not None:
        counts: dict[int, int] = {}
        for (w, sc), c in base.items():
            counts[sc] = counts.get(sc, 0) + c
        for sc in sorted(counts):
            if m.spay[bi][sc]:
                f.entries.append(_entry("%d %s (scatter)" % (sc, m.symbols[m.scatter]), m.spay[bi][sc],
                                        Fraction(counts[sc], cyc), mean, bet))
    if f.trigger:
        e = _entry("free spins feature", None, f.trigger, mean, bet)
        e["return"] = feat_mean / bet
        e["share"] = float(feat_mean / mean) if mean else 0.0
        f.entries.append(e)
    return f


def _entry(name: str, pay: int | None, per_spin: Fraction, mean: Fraction, bet: int) -> dict:
    # per_spin: expected occurrences per spin (lines add up), probability-like for rare wins;
    # return: part of the RTP (per unit bet); share: part of the total return
    credits = per_spin * pay if pay is not None else Fraction(0)
    return {"name": name, "pay": pay, "per_spin": per_spin,
            "one_in": float(1 / per_spin) if per_spin else None,
            "return": credits / bet, "share": float(credits / mean) if mean else 0.0}


def convergence(f: BetFigures) -> list[dict]:
    """Range of the realised return after N games (normal approximation) at 90 % and 95 %."""
    rows = []
    r = float(f.rtp)
    for n in GAMES_N:
        row = {"games": n}
        for k, z in Z.items():
            half = z * f.std_dev / math.sqrt(n)
            row[k] = [r - half, r + half]
        rows.append(row)
    return rows


def feature_figures(f: BetFigures) -> dict | None:
    """The free-spin feature of one bet level, None without one: how often it comes (per game), its
    part of the return, the spins and win of one feature, and its volatility (σ of one feature's
    total per unit bet)."""
    if not f.trigger:
        return None
    ret = f.feature_share * f.rtp  # exact: feature credits per game / bet
    mean = ret * f.bet / f.trigger  # credits of one feature
    var = f.feature_second / f.trigger - mean * mean
    return {"trigger": f.trigger, "one_in": float(1 / f.trigger), "return": ret,
            "share": float(f.feature_share), "spins": float(f.free_spins / f.trigger),
            "mean_win": float(mean / f.bet), "std_dev": math.sqrt(var) / f.bet}


def frac_str(x: Fraction) -> str:
    """"p/q", every digit. Python refuses int -> str past 4,300 digits (sys.int_info's default, a
    guard against untrusted input); these are the certifier's own figures, bounded by the model's
    limits (games/limits.py: a variance at MAX_FREE_SPINS on the heaviest reels runs to some 5,000
    digits), and a certificate needs them whole, so the guard is lifted for this conversion only."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return "%d/%d" % (x.numerator, x.denominator)
    finally:
        sys.set_int_max_str_digits(old)


def frac_short(x: Fraction) -> str:
    """"p/q" for a line a person reads: whole up to 41 characters, else its size in digits (counted
    from the bits, without converting)."""
    if x.numerator.bit_length() + x.denominator.bit_length() <= 120:
        s = "%d/%d" % (x.numerator, x.denominator)
        if len(s) <= 41:
            return s
    return "(exact, %d/%d digits)" % (_digits(x.numerator), _digits(x.denominator))


def _digits(n: int) -> int:
    # decimal digits of n >= 0 without str(): from the bit length, then one exact correction
    n = abs(n)
    d = max(1, (n.bit_length() * 30103) // 100000)
    while n >= 10 ** d:
        d += 1
    while d > 1 and n < 10 ** (d - 1):
        d -= 1
    return d


def to_json(cert: dict) -> dict:
    """The machine-readable report (fractions as "p/q" strings, floats where only approximate)."""
    bets = {}
    for bet, f in cert["bets"].items():
        bets[str(bet)] = {
            "rtp": frac_str(f.rtp), "rtp_float": float(f.rtp),
            "hit_frequency": frac_str(f.hit), "hit_frequency_float": float(f.hit),
            "variance": frac_str(f.variance), "std_dev": f.std_dev,
            "volatility_index_90": Z["90"] * f.std_dev,
            "feature_trigger": frac_str(f.trigger), "feature_share": float(f.feature_share),
            "entries": [{"name": e["name"], "pay": e["pay"], "per_spin": frac_str(e["per_spin"]),
                         "count_per_cycle": str(e["per_spin"] * cert["cycle"]),
                         "one_in": e["one_in"], "return": frac_str(e["return"]), "share": e["share"]}
                        for e in f.entries],
            "convergence": convergence(f),
            "feature": _feature_json(f),
            "max_award": f.max_award,
        }
    prog = cert.get("progressive")
    return {"id": cert["id"], "math_hash": cert["math_hash"], "cycle": cert["cycle"],
            "free_cycle": cert["free_cycle"],
            "progressive": None if not prog else {
                "pay": prog["pay"], "bet": prog["bet"], "reset": prog["reset"], "ceiling": prog.get("ceiling"),
                "rate": "%d/%d" % (prog["num"], prog["den"]),
                "note": "rtp counts the progressive at its reset (a floor); contributions add rate of "
                        "every credit wagered at its bet, returned when the progressive is won (past the "
                        "ceiling, with the next reset)",
                **_progressive_json(cert)},
            "floor": frac_str(FLOOR), "by_law": "s. 93: return of each game >= 83 %",
            "rtp": {b: v["rtp"] for b, v in bets.items()},
            "hit_frequency": {b: v["hit_frequency"] for b, v in bets.items()},
            "std_dev": {b: v["std_dev"] for b, v in bets.items()},
            "max_award": {b: v["max_award"] for b, v in bets.items()},
            "bets": bets}


def _feature_json(f: BetFigures) -> dict | None:
    ff = feature_figures(f)
    if ff:
        ff = dict(ff, trigger=frac_str(ff["trigger"]), **{"return": frac_str(ff["return"])})
    return ff


def _progressive_json(cert: dict) -> dict:
    pf = progressive_figures(cert)
    return {"hit": frac_str(pf["hit"]), "one_in": pf["one_in"], "return_at_reset": frac_str(pf["return_at_reset"]),
            "mean_level_when_won": float(pf["mean_level"]), "long_run_return": frac_str(pf["long_run_return"]),
            "levels": [{"level": float(j), "return": frac_str(r), "return_float": float(r)} for j, r in pf["levels"]]}


def certificate(cert: dict) -> dict:
    """What ships with the firmware: the hash of the exact math and the exact return per bet."""
    return {"id": cert["id"], "math_hash": cert["math_hash"],
            "rtp": {str(b): frac_str(f.rtp) for b, f in cert["bets"].items()},
            "hit_frequency": {str(b): frac_str(f.hit) for b, f in cert["bets"].items()},
            # the most one game pays at each bet (null: nothing bounds it), for a prize limit (vlt)
            "max_award": {str(b): f.max_award for b, f in cert["bets"].items()},
            "floor": frac_str(FLOOR), "tool": "tools.certify", "format": "jeton-cert/1"}


def _pct(x: Fraction) -> str:
    return "%.4f %%" % (float(x) * 100)


def cert_mismatches(cert: dict, shipped: dict) -> list[str]:
    """How a shipped certificate differs from the one the model earns; empty when it matches.

    Compares what the device's boot check trusts (id, math hash, exact return per bet level) and
    the hit frequency, fraction by fraction (not string by string)."""
    want = certificate(cert)
    out = []
    if shipped.get("format") != want["format"]:
        out.append("format %r, expected %r" % (shipped.get("format"), want["format"]))
    if shipped.get("id") != want["id"]:
        out.append("certificate is for %r, the model is %r" % (shipped.get("id"), want["id"]))
    if shipped.get("math_hash") != want["math_hash"]:
        out.append("math hash %s... differs from the certificate's %s..."
                   % (want["math_hash"][:16], str(shipped.get("math_hash"))[:16]))
    for key, what in (("rtp", "return"), ("hit_frequency", "hit frequency")):
        have = shipped.get(key)
        have = have if isinstance(have, dict) else {}
        for bet, v in want[key].items():
            if bet not in have:
                out.append("bet %s: the certificate has no %s" % (bet, what))
                continue
            try:
                theirs = Fraction(have[bet])
            except (TypeError, ValueError, ZeroDivisionError):
                out.append("bet %s: unreadable certified %s %r" % (bet, what, have[bet]))
                continue
            if theirs != Fraction(v):
                out.append("bet %s: %s %s differs from the certificate's %s"
                           % (bet, what, _pct(Fraction(v)), _pct(theirs)))
        for bet in have:
            if bet not in want[key]:
                out.append("bet %s: certified %s for a bet the model does not offer" % (bet, what))
    return out + max_award_mismatches(want["max_award"], shipped.get("max_award"))


def below_floor(cert: dict) -> list[str]:
    return ["bet %d: return %s = %.4f %% is below the %d %% floor of by-law s. 93"
            % (b, frac_short(f.rtp), float(f.rtp) * 100, RTP_FLOOR_NUM)
            for b, f in cert["bets"].items() if f.rtp < FLOOR]


def load_model(path: str) -> dict:
    """The model file as the device reads it (games/model_json.py: strict JSON, bounded; a
    ModelError names the fault, an OSError the missing file)."""
    return read(path)
