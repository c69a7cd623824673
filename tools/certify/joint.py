"""Exact joint distribution of one spin's (credits won, scatters shown) over a reel set.

A dynamic programme over the reels, not an enumeration of the cycle: after each reel a state holds,
for every line still matching some pay group, its group mask and best pay so far; lines that can no
longer grow are folded into a running sum. Reel stops showing the same column are merged first.
All weights are exact integers counting cycle positions (they sum to the reel set's cycle).
"""
from __future__ import annotations

from games.model import Model, ReelSet

State = tuple  # (alive: tuple[(line, mask, best)], dead_sum: int, scatters: int)


def columns(m: Model, rs: ReelSet, reel: int) -> dict[tuple[tuple[int, ...], int], int]:
    """Distinct visible columns of one reel -> (codes per row, scatter count) with their weight."""
    out: dict[tuple[tuple[int, ...], int], int] = {}
    for stop in range(len(rs.strips[reel])):
        col = tuple(m.column(rs, reel, stop))
        sc = sum(1 for c in col if c == m.scatter) if m.scatter is not None else 0
        key = (col, sc)
        out[key] = out.get(key, 0) + rs.weight(reel, stop)
    return out


def _maxpay(cpay: list[list[int]], mask: int, n: int, cache: dict) -> int:
    key = (mask, n)
    v = cache.get(key)
    if v is None:
        v = max((cpay[g][n] for g in range(len(cpay)) if mask >> g & 1), default=0)
        cache[key] = v
    return v


def spin_distribution(m: Model, rs: ReelSet, bi: int, mult: int = 1) -> dict[tuple[int, int], int]:
    """{(credits, scatters): cycle weight} for one spin of reel set rs at bet index bi."""
    nr = m.nreels
    cpay = m.cpay[bi]
    cache: dict = {}
    start = tuple((li, m.all_groups, 0) for li in range(len(m.lines)))
    states: dict[State, int] = {(start, 0, 0): 1}
    for n in range(nr):
        cols = columns(m, rs, n)
        nxt: dict[State, int] = {}
        for (alive, dead, sc), w in states.items():
            for (col, csc), cw in cols.items():
                new_alive = []
                d = dead
                for li, mask, best in alive:
                    nm = mask & m.gmask[col[m.lines[li][n]]]
                    died = mask & ~nm
                    if died:
                        p = _maxpay(cpay, died, n, cache)
                        if p > best:
                            best = p
                    if nm:
                        new_alive.append((li, nm, best))
                    else:
                        d += best
                key = (tuple(new_alive), d, sc + csc)
                nxt[key] = nxt.get(key, 0) + w * cw
        states = nxt
    out: dict[tuple[int, int], int] = {}
    spay = m.spay[bi]
    for (alive, dead, sc), w in states.items():
        total = dead
        for li, mask, best in alive:
            total += max(best, _maxpay(cpay, mask, nr, cache))
        total = (total + spay[sc]) * mult
        out[(total, sc)] = out.get((total, sc), 0) + w
    return out


def line_entries(m: Model, rs: ReelSet, bi: int) -> dict[tuple[int, int], int]:
    """{(group, run): summed cycle weight over all lines} of the single win each line pays.

    Ties go to the group seen first, shortest run, as in the engine (per line: marginal DP).
    """
    nr = m.nreels
    cpay = m.cpay[bi]
    cols = [columns(m, rs, n) for n in range(nr)]
    total: dict[tuple[int, int], int] = {}

    def settle(mask: int, n: int, best: tuple[int, int, int]) -> tuple[int, int, int]:
        v, bg, bn = best
        for g in range(len(cpay)):
            if mask >> g & 1 and cpay[g][n] > v:
                v, bg, k = cpay[g][n], g, n
                while k > 1 and cpay[g][k - 1] == v:
                    k -= 1
                bn = k
        return v, bg, bn

    for line in m.lines:
        states: dict[tuple[int, tuple[int, int, int]], int] = {(m.all_groups, (0, -1, 0)): 1}
        for n in range(nr):
            rowsym: dict[int, int] = {}
            for (col, _), cw in cols[n].items():
                rowsym[col[line[n]]] = rowsym.get(col[line[n]], 0) + cw
            nxt: dict = {}
            tail = 1
            for k in range(n + 1, nr):
                tail *= rs.totals[k]
            for (mask, best), w in states.items():
                for code, cw in rowsym.items():
                    nm = mask & m.gmask[code]
                    b = settle(mask & ~nm, n, best) if mask & ~nm else best
                    if nm:
                        nxt[(nm, b)] = nxt.get((nm, b), 0) + w * cw
                    elif b[0]:
                        key = (b[1], b[2])
                        total[key] = total.get(key, 0) + w * cw * tail
            states = nxt
        for (mask, best), w in states.items():
            b = settle(mask, nr, best)
            if b[0]:
                total[(b[1], b[2])] = total.get((b[1], b[2]), 0) + w
    return total
