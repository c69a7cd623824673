"""Exact spin distribution of a jeton-reels/2 model with multiplier wilds or both-ways pays, by
reading every window: the second implementation that tools/certify/both_ends.py (what certifies
these models) is compared with in the tests and `make bench` (bench_reels2).

Every combination of the reels' distinct visible columns (stops showing the same column merged,
their weights summed), each window evaluated line by line, group by group. Exact integers
throughout; refused above LIMIT combinations.
"""
from __future__ import annotations

import itertools

from games.model import Model, ReelSet
from tools.certify.joint import columns

LIMIT = 4_000_000  # column combinations: about 20 s; a classic 3-reel game has some 10 000


def _best(m: Model, cpay: list[list[int]], cols: tuple, line: tuple, rev: bool) -> tuple[int, int, int, int]:
    """(credits, group, run, multiplier) of a line's best win in one direction (0 credits: none)."""
    nr = m.nreels
    reels = range(nr - 1, -1, -1) if rev else range(nr)
    best = (0, -1, 0, 1)
    for g in range(len(cpay)):
        bit = 1 << g
        run, k = 0, 1
        for i in reels:
            c = cols[i][0][line[i]]
            if not (m.rgmask[i][c] >> g) & 1:
                break
            if not m.rmember[i][c] & bit:  # a wild standing in for a member
                k *= m.wmult[c]
            run += 1
        if rev and run == nr:  # the left-to-right win pays a full line
            continue
        v = cpay[g][run] * k
        if v > best[0] or (v and v == best[0] and run < best[2]):
            best = (v, g, run, k)
    return best


def enumerate_spin(m: Model, rs: ReelSet, bi: int) -> tuple[dict[tuple[int, int], int], dict[tuple, int]]:
    """({(credits, scatters): weight}, {(group, run named, multiplier, right to left): weight})."""
    memo = _memo.get(id(m))
    if memo is None or memo[0] is not m:  # one model at a time: its distribution and its win table
        memo = (m, {})
        _memo.clear()
        _memo[id(m)] = memo
    key = (id(rs), bi)
    if key not in memo[1]:
        memo[1][key] = _enumerate(m, rs, bi)
    return memo[1][key]


_memo: dict[int, tuple] = {}


def _enumerate(m: Model, rs: ReelSet, bi: int) -> tuple[dict[tuple[int, int], int], dict[tuple, int]]:
    per = [list(columns(m, rs, i).items()) for i in range(m.nreels)]
    n = 1
    for p in per:
        n *= len(p)
    if n > LIMIT:
        raise ValueError("%d column combinations: too many to enumerate for multiplier wilds or both-ways "
                         "pays (limit %d)" % (n, LIMIT))
    cpay = m.cpay[bi]
    spay = m.spay[bi]
    dirs = (False, True) if m.both_ways else (False,)
    dist: dict[tuple[int, int], int] = {}
    entries: dict[tuple, int] = {}
    for combo in itertools.product(*per):
        w = 1
        sc = 0
        cols = []
        for col, cw in combo:
            w *= cw
            sc += col[1]
            cols.append(col)
        credits = spay[sc]
        for line in m.lines:
            for rev in dirs:
                v, g, run, k = _best(m, cpay, cols, line, rev)
                if v:
                    credits += v
                    named = run
                    while named > 1 and cpay[g][named - 1] == cpay[g][run]:
                        named -= 1
                    e = (g, named, k, rev)
                    entries[e] = entries.get(e, 0) + w
        dist[(credits, sc)] = dist.get((credits, sc), 0) + w
    return dist, entries
