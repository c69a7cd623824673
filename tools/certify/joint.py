"""Exact joint distribution of one spin's (credits won, scatters shown) over a reel set.

A dynamic programme over the reels, not an enumeration of the cycle: after each reel a state holds,
for every line still matching some pay group, its group mask and best pay so far; lines that can no
longer grow are folded into a running sum. Reel stops showing the same column are merged first.
All weights are exact integers counting cycle positions (they sum to the reel set's cycle).
"""
from __future__ import annotations

from games.model import Model, ModelError, ReelSet

# The programme's work and memory on one reel set, bounded so that a model it cannot finish in
# reasonable time is refused by name rather than left running (a hostile pay table makes the lines'
# states multiply): steps are (alive set, column) pairs merged plus settled-credit entries carried,
# over every reel; the shipped 5x3 games take at most 0.5 M (0.2 s) and 4 220 alive sets.
MAX_STEPS = 20_000_000
MAX_ALIVE = 200_000  # alive sets after one reel


def _spend(steps: list[int], n: int) -> None:
    steps[0] += n
    if steps[0] > MAX_STEPS:
        raise ModelError("too large to certify exactly: the reel-by-reel programme passes %d steps "
                         "(tools/certify/joint.py MAX_STEPS)" % MAX_STEPS)



def columns(m: Model, rs: ReelSet, reel: int) -> dict[tuple[tuple[int, ...], int], int]:
    """Distinct visible columns of one reel -> (codes per row, scatter count) with their weight."""
    out: dict[tuple[tuple[int, ...], int], int] = {}
    strip = rs.strips[reel]
    n = len(strip)
    off = -(m.rows // 2)
    w = rs.weights[reel]
    for stop in range(n):
        col = tuple(strip[(stop + off + r) % n] for r in range(m.rows))
        key = (col, col.count(m.scatter) if m.scatter is not None else 0)
        out[key] = out.get(key, 0) + (1 if w is None else w[stop])
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
    if m.ways:  # jeton-reels/3
        from tools.certify.ways import distribution

        dist = distribution(m, rs, bi)
        return {(w * mult, sc): c for (w, sc), c in dist.items()}
    if m.general:  # multiplier wilds or both-ways pays (jeton-reels/2): from both ends
        from tools.certify.both_ends import distribution

        dist = distribution(m, rs, bi)
        return {(w * mult, sc): c for (w, sc), c in dist.items()}
    nr = m.nreels
    cpay = m.cpay[bi]
    lines = m.lines
    cache: dict = {}
    pay_at = [{} for _ in range(nr + 1)]  # pay_at[n][mask]: best pay of those groups for a run of n
    sk = nr * m.rows + 1  # a (credits, scatters) pair as one int: credits * sk + scatters
    # a line is known by the rows it has left to cross (lines that share them are alike from here
    # on, so the states that differ only by which of them is alive merge), its next rows by nxt_rows
    nxt_rows = {}
    for line in lines:
        for n in range(nr):
            nxt_rows[tuple(line[n:])] = tuple(line[n + 1:])
    start = tuple(sorted((tuple(line), m.all_groups, 0) for line in lines))
    # alive lines (rows left, groups still matching, best pay so far), sorted ->
    # {settled credits * sk + scatters: weight}
    states: dict[tuple, dict[int, int]] = {start: {0: 1}}
    steps = [0]
    for n in range(nr):
        cols = columns(m, rs, n)
        cscs = [csc for _, csc in cols]
        cws = list(cols.values())
        # the groups each row's symbol extends, per column; masked per (row, mask) on demand
        rowg = [[m.rgmask[n][col[r]] for col, _ in cols] for r in range(m.rows)]
        masked: dict[tuple[int, int], list[int]] = {}
        # the columns of this reel, merged by what they do to a set of alive (row, mask) pairs:
        # a line whose best so far is BEAR sees only BEAR/WILD or not, so 50 columns become 2-6
        moves_of: dict[tuple, list] = {}
        last = n == nr - 1
        pay_n, pay_last = pay_at[n], pay_at[nr]
        nxt: dict[tuple, dict[int, int]] = {}
        merged: dict[tuple, dict[int, int]] = {}  # last reel: moves -> the dists that take them
        _spend(steps, len(states) * len(cols))
        for alive, dist in states.items():
            sig = tuple((rest[0], mask) for rest, mask, _ in alive)
            tr = moves_of.get(sig)
            if tr is None:
                parts = []
                for e in sig:
                    v = masked.get(e)
                    if v is None:
                        v = masked[e] = [e[1] & g for g in rowg[e[0]]]
                    parts.append(v)
                acc: dict[tuple, int] = {}
                for k, cw in zip(zip(cscs, *parts), cws):
                    acc[k] = acc.get(k, 0) + cw
                tr = moves_of[sig] = [(k[0], k[1:], cw) for k, cw in acc.items()]
            moves: dict[tuple, int] = {}
            for csc, nms, cw in tr:
                add = 0
                new_alive = []
                for (rest, mask, best), nm in zip(alive, nms):
                    died = mask & ~nm
                    if died:
                        p = pay_n.get(died)
                        if p is None:
                            p = pay_n[died] = _maxpay(cpay, died, n, cache)
                        if p > best:
                            best = p
                    if not nm:
                        add += best
                    elif last:  # the line ends here: settle it
                        p = pay_last.get(nm)
                        if p is None:
                            p = pay_last[nm] = _maxpay(cpay, nm, nr, cache)
                        add += p if p > best else best
                    else:
                        new_alive.append((nxt_rows[rest], nm, best))
                new_alive.sort()
                mk = (tuple(new_alive), add * sk + csc)
                moves[mk] = moves.get(mk, 0) + cw
            if last:
                # every line is settled: alive sets that move alike are summed before the moves
                key = tuple(sorted((delta, cw) for (_, delta), cw in moves.items()))
                into = merged.get(key)
                if into is None:
                    merged[key] = dict(dist)
                else:
                    for k, w in dist.items():
                        into[k] = into.get(k, 0) + w
                continue
            _spend(steps, len(moves) * len(dist))
            if len(nxt) > MAX_ALIVE:
                raise ModelError("too large to certify exactly: more than %d sets of alive lines after one "
                                 "reel (tools/certify/joint.py MAX_ALIVE)" % MAX_ALIVE)
            for (na, delta), cw in moves.items():
                into = nxt.get(na)
                if into is None:
                    into = nxt[na] = {}
                for k, w in dist.items():
                    k += delta
                    into[k] = into.get(k, 0) + w * cw
        states = nxt
    final: dict[int, int] = {}
    for mv, dist in merged.items():
        for delta, cw in mv:
            for k, w in dist.items():
                k += delta
                final[k] = final.get(k, 0) + w * cw
    states = {(): final}
    out: dict[tuple[int, int], int] = {}
    spay = m.spay[bi]
    for dist in states.values():
        for k, w in dist.items():
            credits, sc = divmod(k, sk)
            key = ((credits + spay[sc]) * mult, sc)
            out[key] = out.get(key, 0) + w
    return out


def line_entries(m: Model, rs: ReelSet, bi: int) -> dict[tuple[int, int], int]:
    """{(group, run): summed cycle weight over all lines} of the single win each line pays.

    Ties go to the group seen first, shortest run, as in the engine (per line: marginal DP).
    Models with multiplier wilds or both-ways pays: {(group, run, multiplier, right to left): weight}.
    """
    if m.ways:  # jeton-reels/3: {(group, run): ways over the cycle}
        from tools.certify.ways import entries as ways_entries

        return ways_entries(m, rs, bi)
    if m.general:
        from tools.certify.both_ends import entries

        return entries(m, rs, bi)
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
                    nm = mask & m.rgmask[n][code]
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
