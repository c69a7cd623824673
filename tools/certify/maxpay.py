"""The most one game can pay, per bet level (issue 22.1: a prize limit is a limit on one game).

One game is the base spin's lines and scatter, the whole free-spin series it starts (retriggers and
the cap, every win times the multiplier) and, at the progressive's bet, the progressive at its
ceiling in place of its pay's fixed award. The figure is exact (the largest total some sequence of
draws of positive weight pays), or None when no total bounds it (an uncapped feature that can
retrigger a paying spin, or a progressive without a ceiling that can be won):

- one spin: the largest credits over the windows of positive weight, per number of scatters shown,
  read off the exact (credits, scatters) distribution the certifier already has (joint.py,
  enumerate.py); a window winning the progressive comes from `prog_maxima`, a (max, +) programme
  over the reels that follows each line's best pay and whether it is the progressive's pay;
- the feature: free spins are drawn one after the other from the same reels, so any spin may show
  any window of positive weight: with a cap, the best series is a recursion over (spins left,
  headroom under the cap), each spin taking the best window for the retrigger it gives;
- keno: the best pay of a catch that can happen (h of s spots caught when D of N are drawn needs
  h <= D and D - h <= N - s); video poker: the best award of a 5-card hand the deck can make (any
  hand can be dealt and held), from the certifier's classification of every hand.
"""
from __future__ import annotations

from fractions import Fraction

from games.model import Model, ReelSet
from tools.certify.joint import columns


def spin_maxima(dist: dict[tuple[int, int], int]) -> dict[int, int]:
    """{scatters: largest credits} over the (credits, scatters) outcomes of positive weight."""
    out: dict[int, int] = {}
    for (credits, sc), w in dist.items():
        if w > 0 and credits > out.get(sc, -1):
            out[sc] = credits
    return out


def feature_max(m: Model, free_max: dict[int, int], initial: int) -> int | None:
    """The most a feature started with `initial` spins can pay (free_max: one free spin's largest
    credits, multiplier in, per scatters shown); None when uncapped retriggers make it unbounded."""
    if not initial:
        return 0
    best: dict[int, int] = {}  # extra spins a spin gives -> the most such a spin pays
    for sc, w in free_max.items():
        a = m.retrigger[sc]
        if w > best.get(a, -1):
            best[a] = w
    top = max(best.values())
    if m.cap is None:
        if any(a for a in best) and top > 0:
            return None  # every retrigger can be followed by another: no total bounds the series
        return initial * top
    cap = m.cap
    # level L = spins left r + headroom h under the cap; every spin lowers L by one. M[r] at level L
    # is the most the rest of the feature can pay with r spins left; from level L - 1 (prev)
    prev = [0]
    items = sorted(best.items())
    for level in range(1, cap + 1):
        cur = [0] * (level + 1)
        for r in range(1, level + 1):
            h = level - r
            v = -1
            for a, w in items:
                x = w + prev[r - 1 + (a if a < h else h)]
                if x > v:
                    v = x
            cur[r] = v
        prev = cur
    return prev[min(initial, cap)]


def _named(cpay: list[int], n: int) -> int:
    # the run a win is named by: the shortest paying as much (games/reels.py _best)
    k = n
    while k > 1 and cpay[k - 1] == cpay[n]:
        k -= 1
    return k


def prog_maxima(m: Model, rs: ReelSet, bi: int, pay: str) -> dict[int, int]:
    """{scatters: largest credits} over the windows of positive weight whose base spin wins `pay`
    ("<count> <group>") on some line, the fixed award counted (jeton-reels/1, and /2 without
    multiplier wilds or both-ways pays: a progressive is refused with those, games/model.py).

    A (max, +) programme over the reels: per alive line its rows left, groups still matching, best
    pay so far and whether that best is `pay`; a line's best changes only to a strictly larger pay,
    the first group of those dying at one run that pays the most, named by its shortest run
    (games/reels.py _spin_wins). The value of a state is the largest settled credits per
    (scatters, progressive won yet)."""
    if m.general:
        raise ValueError("progressive: not with multiplier wilds or both-ways pays")
    nr = m.nreels
    cpay = m.cpay[bi]
    names = m.group_names
    firsts: dict[tuple[int, int], tuple[int, bool]] = {}

    def first_best(mask: int, n: int) -> tuple[int, bool]:
        # (largest pay for a run of n among the groups in mask, whether its first group is `pay`)
        key = (mask, n)
        r = firsts.get(key)
        if r is None:
            v, g = 0, -1
            for i in range(len(cpay)):
                if mask >> i & 1 and cpay[i][n] > v:
                    v, g = cpay[i][n], i
            r = firsts[key] = (v, g >= 0 and "%d %s" % (_named(cpay[g], n), names[g]) == pay)
        return r

    start = tuple(sorted((tuple(line), m.all_groups, 0, False) for line in m.lines))
    states: dict[tuple, dict[tuple[int, bool], int]] = {start: {(0, False): 0}}
    for n in range(nr):
        cols = [key for key, w in columns(m, rs, n).items() if w > 0]
        last = n == nr - 1
        nxt: dict[tuple, dict[tuple[int, bool], int]] = {}
        for alive, vals in states.items():
            for col, csc in cols:
                add, won, rest_alive = 0, False, []
                for rows, mask, best, is_prog in alive:
                    nm = mask & m.rgmask[n][col[rows[0]]]
                    died = mask & ~nm
                    if died:
                        v, p = first_best(died, n)
                        if v > best:
                            best, is_prog = v, p
                    if nm and last:  # the line ends on the last reel: its run is every reel
                        v, p = first_best(nm, nr)
                        if v > best:
                            best, is_prog = v, p
                        nm = 0
                    if nm:
                        rest_alive.append((rows[1:], nm, best, is_prog))
                    else:
                        add += best
                        won = won or (is_prog and best > 0)
                key = tuple(sorted(rest_alive))
                into = nxt.setdefault(key, {})
                for (sc, flag), v in vals.items():
                    k = (sc + csc, flag or won)
                    if v + add > into.get(k, -1):
                        into[k] = v + add
        states = nxt
    spay = m.spay[bi]
    out: dict[int, int] = {}
    for vals in states.values():
        for (sc, flag), v in vals.items():
            if flag and v + spay[sc] > out.get(sc, -1):
                out[sc] = v + spay[sc]
    return out


def _scaled(d: dict[int, int], scale: Fraction) -> dict[int, int]:
    out = {}
    for k, v in d.items():
        x = v * scale
        assert x.denominator == 1, "a proportional bet level pays whole credits"
        out[k] = int(x)
    return out


def game_max(m: Model, bi: int, base: dict, free: dict | None, scale: Fraction = Fraction(1)) -> int | None:
    """The most one game at bet index bi can pay, in credits, or None when nothing bounds it.
    base, free: the (credits, scatters) distributions of one spin of each reel set at the bet level
    they were computed for (free: multiplier in); scale: this level's coins over that one's."""
    base_max = _scaled(spin_maxima(base), scale)
    free_max = _scaled(spin_maxima(free), scale) if free else {}
    features: dict[int, int | None] = {}

    def feature(sc: int) -> int | None:
        s = m.award[sc] if m.free else 0
        if s and m.cap is not None and s > m.cap:
            s = m.cap
        if s not in features:
            features[s] = feature_max(m, free_max, s)
        return features[s]

    totals: list[int | None] = []
    for sc, credits in base_max.items():
        f = feature(sc)
        totals.append(None if f is None else credits + f)
    prog = m.progressive
    if prog and m.bets[bi] == prog["bet"]:
        for sc, credits in prog_maxima(m, m.base, bi, prog["pay"]).items():
            f = feature(sc)
            if prog.get("ceiling") is None or f is None:
                totals.append(None)  # the progressive can be won and nothing caps it
            else:
                totals.append(credits - prog["reset"] + prog["ceiling"] + f)
    if any(t is None for t in totals):
        return None
    return max(totals, default=0)


def keno_max(numbers: int, drawn: int, row: list[int], spots: int) -> int:
    """The best pay of a catch that can happen: h of `spots` caught needs h <= drawn (numbers drawn)
    and drawn - h <= numbers - spots (the rest of the draw among the numbers not marked)."""
    return max((row[h] for h in range(spots + 1) if h <= drawn and drawn - h <= numbers - spots), default=0)


def poker_max(pays: list[int], classes: set[int]) -> int:
    """The best award at one bet level among the award classes some 5-card hand falls into."""
    return max((pays[c] for c in classes if c < len(pays)), default=0)


def describe(v: int | None) -> str:
    return "unbounded" if v is None else "%d credits" % v


def max_award_mismatches(want: dict, have: object, label: str = "bet %s") -> list[str]:
    """How a shipped certificate's `max_award` ({bet: credits or null}) differs from the exact one."""
    if not isinstance(have, dict):
        return ["the certificate has no maximum one-game pay (max_award): recertify"]
    out = []
    for k, v in want.items():
        if k not in have:
            out.append((label + ": the certificate has no maximum one-game pay") % k)
        elif have[k] != v or isinstance(have[k], bool):
            out.append((label + ": maximum one-game pay %s differs from the certificate's %r") % (k, describe(v), have[k]))
    for k in have:
        if k not in want:
            out.append((label + ": maximum one-game pay for a bet the model does not offer") % k)
    return out
