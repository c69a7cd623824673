"""Brute force, written apart from the engine and the certifier, for checking both on small models.

Reads the raw model dict (not games.model), enumerates every stop combination of the full cycle,
evaluates each window by scanning every pay group on every line, then enumerates the free-spin
feature as an explicit tree of spin outcomes (every path, no recursion formula, no Wald).
"""
from __future__ import annotations

import itertools
from fractions import Fraction


def _credits(v, bi: int, coins: int) -> int:
    return v[bi] if isinstance(v, list) else v * coins


def _coins(raw: dict, bi: int) -> int:
    ways = raw.get("ways")
    return raw["bets"][bi] // (ways["cost"] if ways else len(raw["lines"]))


def _ways_pay(groups: list, wilds: dict, alone: bool, window: list[list[str]]) -> int:
    """jeton-reels/3, path by path: a group's run is the reels from the left showing a member or a
    wild in some row; every path through one row of each of those reels whose symbols all match is
    one way, worth the pay of the run times the multipliers of its standing-in wilds; with alone
    false a path of wilds only is no way of the group."""
    total = 0
    for sets, table in groups:
        run = 0
        while run < len(window) and any(s in sets[run] or s in wilds for s in window[run]):
            run += 1
        value = max((v for k, v in table.items() if k <= run), default=0)
        if not value:
            continue
        for path in itertools.product(*[window[i] for i in range(run)]):
            mult, member = 1, False
            for i, s in enumerate(path):
                if s in sets[i]:
                    member = True
                elif s in wilds:
                    mult *= wilds[s]
                else:
                    break
            else:
                if member or alone:
                    total += value * mult
    return total


def _evaluator(raw: dict, bi: int):
    """window (list of reels, each a list of rows) -> (line + scatter credits, scatters shown)."""
    scat = raw.get("scatter")
    v2 = raw.get("format") in ("jeton-reels/2", "jeton-reels/3")
    # every wild with its multiplier (version 1: the one plain wild)
    wilds = {raw["wild"]: 1} if raw.get("wild") else {}
    if v2:
        wilds.update(raw.get("wilds") or {})
    both = v2 and raw.get("both_ways") is True
    nr = len(raw["reels"])
    coins = _coins(raw, bi)
    groups = []
    for p in raw.get("pays", []):
        table = {int(k): _credits(v, bi, coins) for k, v in p["pays"].items()}
        per_reel = p["reels"] if v2 and "reels" in p else [p["symbols"]] * nr
        groups.append(([set(x) for x in per_reel], table))
    spays = {int(k): _credits(v, bi, coins) for k, v in (raw.get("scatter_pays") or {}).items()}

    def line_pay(syms: list[str], reels: list[int], rev: bool) -> int:
        # best of the groups on this reading of the line (syms[j] is on reel reels[j])
        best = 0
        for sets, table in groups:
            sets = [sets[j] for j in reels]
            run, mult = 0, 1
            for s, allowed in zip(syms, sets):
                if s in allowed:
                    run += 1
                elif s in wilds and s != scat:
                    run += 1
                    mult *= wilds[s]
                else:
                    break
            if rev and run == nr:
                continue  # right to left over the whole line: paid left to right already
            for k, v in table.items():
                if k <= run and v * mult > best:
                    best = v * mult
        return best

    def evaluate(window: list[list[str]]) -> tuple[int, int]:
        total = 0
        if "ways" in raw:
            total += _ways_pay(groups, {s: k for s, k in wilds.items() if s != scat},
                               raw["ways"].get("wild_alone", True), window)
        for line in raw.get("lines", ()):
            syms = [window[i][row] for i, row in enumerate(line)]
            total += line_pay(syms, list(range(nr)), False)
            if both:
                total += line_pay(syms[::-1], list(range(nr - 1, -1, -1)), True)
        n = sum(col.count(scat) for col in window) if scat else 0
        return total + spays.get(n, 0), n

    return evaluate


def _window(reels: list, stops, rows: int) -> list[list[str]]:
    return [[r["strip"][(s + k - rows // 2) % len(r["strip"])] for k in range(rows)] for r, s in zip(reels, stops)]


def spin_outcomes(raw: dict, reels: list, bi: int, mult: int) -> dict[tuple[int, int], int]:
    """{(credits, scatters): weight} by enumerating every stop combination."""
    rows = raw.get("rows", 1)
    evaluate = _evaluator(raw, bi)
    out: dict[tuple[int, int], int] = {}
    for stops in itertools.product(*[range(len(r["strip"])) for r in reels]):
        w = 1
        for reel, s in zip(reels, stops):
            if reel.get("weights"):
                w *= reel["weights"][s]
        if not w:
            continue
        credits, n = evaluate(_window(reels, stops, rows))
        key = (credits * mult, n)
        out[key] = out.get(key, 0) + w
    return out


def game_distribution(raw: dict, bi: int) -> dict[int, Fraction]:
    """Exact distribution of a whole game's credits (base spin + feature), by brute force."""
    base = spin_outcomes(raw, raw["reels"], bi, 1)
    fs = raw.get("free_spins")
    tot_b = sum(base.values())
    dist: dict[int, Fraction] = {}
    if not fs:
        for (w, _), c in base.items():
            dist[w] = dist.get(w, Fraction(0)) + Fraction(c, tot_b)
        return dist
    award = {int(k): v for k, v in fs["award"].items()}
    retrig = {int(k): v for k, v in (fs.get("retrigger") or {}).items()}
    cap = fs.get("cap")
    if cap is None and retrig:
        raise ValueError("brute force needs a cap to enumerate the feature tree")
    free = spin_outcomes(raw, fs.get("reels") or raw["reels"], bi, fs.get("multiplier", 1))
    tot_f = sum(free.values())
    spins = [(w, retrig.get(n, 0), Fraction(c, tot_f)) for (w, n), c in free.items()]
    feature_cache: dict[int, dict[int, Fraction]] = {}

    def walk(left: int, given: int, acc: int, p: Fraction, into: dict) -> None:
        # one explicit path of the feature tree per call chain
        if left == 0:
            into[acc] = into.get(acc, Fraction(0)) + p
            return
        for w, a, q in spins:
            extra = a if cap is None else min(a, cap - given)
            walk(left - 1 + extra, given + extra, acc + w, p * q, into)

    for (w, n), c in base.items():
        p = Fraction(c, tot_b)
        s = award.get(n, 0)
        if cap is not None:
            s = min(s, cap)
        if not s:
            dist[w] = dist.get(w, Fraction(0)) + p
            continue
        if s not in feature_cache:
            into: dict[int, Fraction] = {}
            walk(s, s, 0, Fraction(1), into)
            feature_cache[s] = into
        for f, q in feature_cache[s].items():
            dist[w + f] = dist.get(w + f, Fraction(0)) + p * q
    return dist


def figures(raw: dict, bi: int) -> tuple[Fraction, Fraction, Fraction]:
    """(rtp, hit frequency, E[X^2]) by brute force."""
    d = game_distribution(raw, bi)
    bet = raw["bets"][bi]
    mean = sum(x * p for x, p in d.items())
    return mean / bet, sum(p for x, p in d.items() if x > 0), sum(x * x * p for x, p in d.items())


def replay(raw: dict, bet: int, draws: list[int]) -> int:
    """Credits won by one recorded game, recomputed from the raw model (flow written afresh)."""
    bi = raw["bets"].index(bet)
    rows = raw.get("rows", 1)
    nr = len(raw["reels"])
    fs = raw.get("free_spins") or {}
    evaluate = _evaluator(raw, bi)
    award, n = evaluate(_window(raw["reels"], draws[:nr], rows))
    award_tab = {int(k): v for k, v in (fs.get("award") or {}).items()}
    retrig = {int(k): v for k, v in (fs.get("retrigger") or {}).items()}
    cap = fs.get("cap")
    left = award_tab.get(n, 0)
    if cap is not None:
        left = min(left, cap)
    given, pos = left, nr
    while left:
        credits, n = evaluate(_window(fs.get("reels") or raw["reels"], draws[pos:pos + nr], rows))
        award += credits * fs.get("multiplier", 1)
        pos += nr
        extra = retrig.get(n, 0)
        if cap is not None:
            extra = min(extra, cap - given)
        given += extra
        left += extra - 1
    if pos != len(draws):
        raise ValueError("draws do not match the game flow")
    return award
