"""Exact spin distribution of a jeton-reels/2 model with multiplier wilds or both-ways pays, without
enumerating column combinations.

A programme over the reels, taken from both ends (reel 1, reel n, the middle reel, then the others
from the outside in), so that a line's left-to-right run and its right-to-left run each start on the
first reel the programme takes for them and most lines are settled after a reel or two from each end.
Per line and direction a run is a small automaton: the groups still matching, split by the
multiplier their substituting wilds gave them, and the best pay of the groups already ended. A reel
a direction is not yet at (reel n for the left-to-right run, taken second) is kept, reduced to what
it does to that run's groups still alive, until the run reaches it; a run whose groups are all ended
is settled into the spin's credits. The state after each reel is the set of lines not yet settled,
with their automata; the columns of a reel are merged by what they do to a state (the symbols on
the rows its lines use, the scatters shown). The last reel (one way), or the last two (both ways),
are not stepped through line by line: a state becomes what its lines still pay for each symbol (or
pair of symbols) those reels can show on each row, packed in one integer (_Packing, _Packing2), and
states paying alike merge. Exact integers throughout (cycle weights); the last reel's sums go
through numpy only where int64 holds every figure (_convolve_np).

Figures are those of tools/certify/enumerate.py (kept for small models and the tests), which reads
every window; tools/certify/brute.py, written apart, checks both on small models. Bounded like
joint.py: a model whose states (in bytes) or steps pass the limits below is refused by name.
"""
from __future__ import annotations

import operator

from games.model import Model, ModelError, ReelSet
from tools.certify.joint import columns

MAX_STEPS = 120_000_000  # (state, column) pairs plus distribution entries carried, all reels: about a minute
# the states after one reel, in bytes as measured on CPython 3.11 (a state of unsettled lines with its
# distribution some 3 KB; a packed one its integer and some 1 KB): a 5x3 20-line both-ways game with
# a x2 wild and 32-stop strips takes some 190 MB, one with 64-stop strips and no x2 wild some 470 MB
MAX_MEMORY = 600_000_000
STATE_BYTES = 3_000
PACKED_BYTES = 1_000  # beside the packed integer
USE_NUMPY = True  # the last reel's sums with numpy (_convolve_np); False: in Python (_convolve), for the tests
ALIGN_FIELDS = True  # packed fields of 8 to 64 bits (read as bytes); False: as few bits as they need (tests)


def _order(nr: int) -> list[int]:
    # reel 1, reel n, the middle reel, then the others from the outside in (reel 2, reel n - 1, ...):
    # each direction starts on its first reel, and the last two reels taken (packed, _Packing2) are
    # the middle's neighbours, whose pays are least tied to each other (a 5x3 game: 1, 5, 3, 2, 4)
    if nr < 3:
        return list(range(nr))
    mid = nr // 2
    out = [0, nr - 1, mid]
    lo, hi = 1, nr - 2
    while lo <= hi:
        for r in (lo, hi) if lo != hi else (lo,):
            if r != mid:
                out.append(r)
        lo += 1
        hi -= 1
    return out


class _Runs:
    """Per bet level: the pay of a set of groups ended after a run of n (cached), and a reel's
    effect on a run's groups."""

    def __init__(self, m: Model, bi: int):
        self.m = m
        self.cpay = m.cpay[bi]
        self.nr = m.nreels
        self._pay: dict[tuple[int, int], int] = {}

    def pay(self, mask: int, n: int) -> int:
        key = (mask, n)
        v = self._pay.get(key)
        if v is None:
            v = 0
            g = 0
            mk = mask
            while mk:
                if mk & 1 and self.cpay[g][n] > v:
                    v = self.cpay[g][n]
                mk >>= 1
                g += 1
            self._pay[key] = v
        return v

    def effect(self, reel: int, code: int, alive: int) -> tuple[int, int, int]:
        """(groups it matches, groups it matches as a substituting wild, the wild's multiplier),
        restricted to the groups alive: all a run needs of this reel."""
        m = self.m
        match = m.rgmask[reel][code] & alive
        sub = match & ~m.rmember[reel][code]
        k = m.wmult[code] if sub else 1
        if k == 1:
            sub = 0
        return match, sub, k

    def step(self, run: tuple, eff: tuple[int, int, int], rev: bool) -> tuple[tuple, int]:
        """One more reel of a run: (run or None when every group ended, best pay so far)."""
        alive, best, n = run
        match, sub, k = eff
        nxt: dict[int, int] = {}
        for mask, mult in alive:
            died = mask & ~match
            if died:
                p = self.pay(died, n) * mult
                if p > best:
                    best = p
            keep = mask & match
            if keep:
                s = keep & sub
                if s:
                    nxt[mult * k] = nxt.get(mult * k, 0) | s
                    keep &= ~s
                if keep:
                    nxt[mult] = nxt.get(mult, 0) | keep
        if not nxt:
            return None, best
        if best and not rev:  # (right to left, a run over every reel pays nothing)
            # a group still running pays at least its pay at this run when it ends: a best that
            # every one of them reaches cannot decide the line any more (fewer states to carry)
            low = None
            for mu, mk in nxt.items():
                g = 0
                while mk:
                    if mk & 1:
                        v = self.cpay[g][n + 1] * mu
                        if low is None or v < low:
                            low = v
                    mk >>= 1
                    g += 1
            if low >= best:
                best = 0
        return (tuple(sorted((mk, mu) for mu, mk in nxt.items())), best, n + 1), best

    def finish(self, run: tuple, rev: bool) -> int:
        """The pay of a run over every reel: its best (right to left, a full run pays nothing)."""
        alive, best, n = run
        if rev:
            return best
        for mask, mult in alive:
            p = self.pay(mask, n) * mult
            if p > best:
                best = p
        return best


def distribution(m: Model, rs: ReelSet, bi: int) -> dict[tuple[int, int], int]:
    """{(credits, scatters): cycle weight} of one spin of reel set rs at bet index bi (line and
    scatter pays, no free-spin multiplier)."""
    nr = m.nreels
    runs = _Runs(m, bi)
    # both ways: from both ends; one way: left to right (no reel is kept for later)
    order = _order(nr) if m.both_ways else list(range(nr))
    dirs = (False, True) if m.both_ways else (False,)
    sk = nr * m.rows + 1  # (credits, scatters) as one int: credits * sk + scatters
    start_run = (((m.all_groups, 1),), 0, 0)
    # a line's state: (rows, runs per direction); a run: None (settled) or (automaton, next reel it
    # needs, kept reels {reel: effect} as a sorted tuple)
    first = []
    for line in m.lines:
        first.append((line, tuple((start_run, nr - 1 if rev else 0, ()) for rev in dirs)))
    states: dict[tuple, dict[int, int]] = {tuple(sorted(first)): {0: 1}}
    steps = 0
    # both ways, the last two reels are packed (_Packing2); one way, the last one (fewer, smaller states)
    two = m.both_ways and nr >= 3
    for reel in order[:-3] if two else order[:-2]:
        cols = columns(m, rs, reel)
        merged_of: dict[tuple, list] = {}
        rowcodes = [sorted({col[r] for col, _ in cols}) for r in range(m.rows)]
        nxt: dict[tuple, dict[int, int]] = {}
        memo: dict[tuple, tuple] = {}  # (line state, its symbol on this reel) -> (next state, credits settled)
        for state, dist in states.items():
            rows = tuple(sorted({line[reel] for line, _ in state}))
            merged = merged_of.get(rows)
            if merged is None:  # the columns merged by what the rows used show
                merged = {}
                for (col, sc), cw in cols.items():
                    key = (tuple(col[r] for r in rows), sc)
                    merged[key] = merged.get(key, 0) + cw
                merged = merged_of[rows] = list(merged.items())
            steps = _spend(steps, len(merged) * (1 + len(dist)))
            # per row used and per symbol on it: the next states of the lines on that row, and the
            # credits they settle (lines are independent given the column)
            by_row: dict[int, dict[int, tuple]] = {}
            for r in rows:
                lines_r = [ls for ls in state if ls[0][reel] == r]
                per: dict[int, tuple] = {}
                for code in rowcodes[r]:
                    add = 0
                    outs = []
                    for lstate in lines_r:
                        key = (lstate, code)
                        t = memo.get(key)
                        if t is None:
                            t = memo[key] = _line_step(runs, dirs, lstate, code, reel, False)
                        add += t[1]
                        if t[0] is not None:
                            outs.append(t[0])
                    per[code] = (outs, add)
                by_row[r] = per
            moves: dict[tuple, int] = {}
            for (codes, sc), cw in merged:
                add = 0
                lines_out = []
                for r, code in zip(rows, codes):
                    outs, a = by_row[r][code]
                    add += a
                    lines_out += outs
                lines_out.sort()
                mk = (tuple(lines_out), add * sk + sc)
                moves[mk] = moves.get(mk, 0) + cw
            for (ns, delta), cw in moves.items():
                into = nxt.get(ns)
                if into is None:
                    into = nxt[ns] = {}
                for k, w in dist.items():
                    k += delta
                    into[k] = into.get(k, 0) + w * cw
            _states(len(nxt), STATE_BYTES)
        states = nxt
    last = order[-1]
    pk = _Packing(m, rs, bi, runs, dirs, last)
    if nr == 1:
        paying = {}
        for state, dist in states.items():  # the start: every line's run needs the one reel
            f = 0
            for lstate in state:
                f += pk.vector(lstate)
            paying[f] = dist
    elif not two:
        paying, steps = _into_packed(m, rs, runs, dirs, order[-2], states, steps, pk.vector,
                                     pk.nbytes + PACKED_BYTES)
    else:
        pk2 = _Packing2(m, rs, runs, dirs, order[-2], pk)
        paying2, steps = _into_packed(m, rs, runs, dirs, order[-3], states, steps, pk2.vector,
                                      pk2.nbytes + PACKED_BYTES)
        paying, steps = pk2.unpack(m, paying2, steps)
    return _last_reel(m, rs, bi, last, paying, steps, pk)


def _states(n: int, each: int) -> None:
    if n * each > MAX_MEMORY:
        raise ModelError("too large to certify exactly: its states after one reel would take more than %g MB "
                         "(tools/certify/both_ends.py MAX_MEMORY)" % (MAX_MEMORY / 1e6))


def _spend(steps: int, n: int) -> int:
    steps += n
    if steps > MAX_STEPS:
        raise ModelError("too large to certify exactly: the programme over the reels passes %d steps "
                         "(tools/certify/both_ends.py MAX_STEPS)" % MAX_STEPS)
    return steps


class _Packing:
    """What a line still pays on the last reel, for each symbol the reel shows on its row, packed
    into one integer (a field of `bits` bits per (row, symbol)): the lines of a state add up into one
    such integer with plain additions (no field can carry into the next: `bits` holds every line
    paying its most both ways at the largest multiplier)."""

    def __init__(self, m: Model, rs: ReelSet, bi: int, runs: _Runs, dirs: tuple, reel: int):
        self.runs, self.dirs, self.reel = runs, dirs, reel
        self.cols = list(columns(m, rs, reel).items())
        self.rowcodes = [sorted({col[r] for (col, _), _ in self.cols}) for r in range(m.rows)]
        top = max([v for row in m.cpay[bi] for v in row] + [1]) * max(m.wmult + [1]) ** m.nreels
        bits = (top * len(m.lines) * len(dirs)).bit_length() + 1
        # a field of 8, 16, 32 or 64 bits is read back by memoryview.cast (_last_reel), not bit by bit
        self.fmt = None
        for size, fmt in ((8, "B"), (16, "H"), (32, "I"), (64, "Q")) if ALIGN_FIELDS else ():
            if bits <= size:
                bits, self.fmt = size, fmt
                break
        self.bits = bits
        self.mask = (1 << self.bits) - 1
        self.nbytes = sum(len(c) for c in self.rowcodes) * bits // 8 + 1  # one packed integer, at most
        self.shift: list[dict[int, int]] = []  # per row: symbol -> its field's shift
        k = 0
        for codes in self.rowcodes:
            self.shift.append({c: (k + j) * self.bits for j, c in enumerate(codes)})
            k += len(codes)
        self.ones = [sum(1 << sh for sh in row.values()) for row in self.shift]
        self._memo: dict[tuple, int] = {}

    def vector(self, lstate: tuple) -> int:
        v = self._memo.get(lstate)
        if v is None:
            v = 0
            for code, sh in self.shift[lstate[0][self.reel]].items():
                v += _line_step(self.runs, self.dirs, lstate, code, self.reel, True)[1] << sh
            self._memo[lstate] = v
        return v


class _Packing2:
    """What a line still pays on the last two reels (a, then the last), for each pair of symbols they
    show on its rows, packed as _Packing: field ((a's row, symbol), (last's row, symbol)), the last
    reel's fields in _Packing's order, so that a column of reel a cuts one _Packing vector out of it."""

    def __init__(self, m: Model, rs: ReelSet, runs: _Runs, dirs: tuple, reel: int, pk: _Packing):
        self.runs, self.dirs, self.reel, self.pk = runs, dirs, reel, pk
        self.cols = list(columns(m, rs, reel).items())
        self.rowcodes = [sorted({col[r] for (col, _), _ in self.cols}) for r in range(m.rows)]
        width = sum(len(c) for c in pk.rowcodes) * pk.bits  # one _Packing vector
        self.width_mask = (1 << width) - 1
        self.nbytes = sum(len(c) for c in self.rowcodes) * width // 8 + 1
        self.shift: list[dict[int, int]] = []  # per row of reel a: symbol -> its block's shift
        k = 0
        for codes in self.rowcodes:
            self.shift.append({c: (k + j) * width for j, c in enumerate(codes)})
            k += len(codes)
        self._memo: dict[tuple, int] = {}

    def vector(self, lstate: tuple) -> int:
        v = self._memo.get(lstate)
        if v is None:
            v = 0
            pk = self.pk
            ones = pk.ones[lstate[0][pk.reel]]  # 1 in every field of the line's row on the last reel
            for code, sh in self.shift[lstate[0][self.reel]].items():
                # paid on reel a (a), then on the last reel (the next state's own vector, shared)
                ns, a = _line_step(self.runs, self.dirs, lstate, code, self.reel, False)
                block = a * ones
                if ns is not None:
                    block += pk.vector(ns)
                v += block << sh
            self._memo[lstate] = v
        return v

    def unpack(self, m: Model, paying2: dict[int, dict[int, int]], steps: int) -> tuple[dict[int, dict[int, int]], int]:
        """Reel a: each column cuts, per row, the block of the symbol it shows there; their sum is
        what the lines pay on the last reel. Credits are paid there; scatters are counted here."""
        cuts = [(tuple(self.shift[r][col[r]] for r in range(m.rows)), sc, cw) for (col, sc), cw in self.cols]
        wm = self.width_mask
        width = wm.bit_length()
        aligned = width % 8 == 0  # blocks on byte boundaries: cut from the bytes, not shifted
        if aligned:
            wb = width // 8
            nb = sum(len(c) for c in self.rowcodes) * wb
            cuts = [(tuple(sh // 8 for sh in shs), sc, cw) for shs, sc, cw in cuts]
        paying: dict[int, dict[int, int]] = {}
        for f, dist in paying2.items():
            steps = _spend(steps, len(cuts) * (1 + len(dist)))
            b = f.to_bytes(nb, "little") if aligned else b""
            for shs, sc, cw in cuts:
                vec = 0
                if aligned:
                    for o in shs:
                        vec += int.from_bytes(b[o:o + wb], "little")
                else:
                    for sh in shs:
                        vec += (f >> sh) & wm
                into = paying.get(vec)
                if into is None:
                    into = paying[vec] = {}
                    _states(len(paying), self.pk.nbytes + PACKED_BYTES)
                for k, w in dist.items():
                    k += sc
                    into[k] = into.get(k, 0) + w * cw
        return paying, steps


def _into_packed(m: Model, rs: ReelSet, runs: _Runs, dirs: tuple, reel: int, states: dict, steps: int,
                 vector, each: int) -> tuple[dict[int, dict[int, int]], int]:
    """One reel before the packed ones: every state, every column, straight to what the lines pay on
    the reels left (packed by `vector`), with the credits settled on this one; states paying alike
    are one."""
    sk = m.nreels * m.rows + 1
    cols = columns(m, rs, reel)
    rowcodes = [sorted({col[r] for col, _ in cols}) for r in range(m.rows)]
    merged_of: dict[tuple, list] = {}
    memo: dict[tuple, tuple[int, int]] = {}  # (line state, symbol) -> (credits settled, packed vector)
    paying: dict[int, dict[int, int]] = {}
    for state, dist in states.items():
        rows = tuple(sorted({line[reel] for line, _ in state}))
        merged = merged_of.get(rows)
        if merged is None:
            merged = {}
            for (col, sc), cw in cols.items():
                key = (tuple(col[r] for r in rows), sc)
                merged[key] = merged.get(key, 0) + cw
            merged = merged_of[rows] = list(merged.items())
        steps = _spend(steps, len(merged) * (1 + len(dist)))
        by_row: dict[int, dict[int, tuple[int, int]]] = {}
        for r in rows:
            lines_r = [ls for ls in state if ls[0][reel] == r]
            per = {}
            for code in rowcodes[r]:
                add = vec = 0
                for lstate in lines_r:
                    key = (lstate, code)
                    t = memo.get(key)
                    if t is None:
                        ns, a = _line_step(runs, dirs, lstate, code, reel, False)
                        t = memo[key] = (a, vector(ns) if ns is not None else 0)
                    add += t[0]
                    vec += t[1]
                per[code] = (add, vec)
            by_row[r] = per
        for (codes, sc), cw in merged:
            add = vec = 0
            for r, code in zip(rows, codes):
                a, v = by_row[r][code]
                add += a
                vec += v
            into = paying.get(vec)
            if into is None:
                into = paying[vec] = {}
                _states(len(paying), each)
            delta = add * sk + sc
            for k, w in dist.items():
                k += delta
                into[k] = into.get(k, 0) + w * cw
    return paying, steps


def _last_reel(m: Model, rs: ReelSet, bi: int, reel: int, paying: dict[int, dict[int, int]], steps: int,
               pk: _Packing) -> dict[tuple[int, int], int]:
    """The last reel settles every line: each state, known by what its lines pay for each symbol on
    each row (packed), moves by the credits of each column of the reel."""
    sk = m.nreels * m.rows + 1
    bits = pk.bits
    # per row, the field each column reads there
    idx = [[pk.shift[r][col[r]] // bits for (col, _), _ in pk.cols] for r in range(m.rows)]
    nf = sum(len(c) for c in pk.rowcodes)
    nbytes = nf * bits // 8
    fmask = pk.mask
    scw = [(sc, cw) for (_, sc), cw in pk.cols]
    top_key = max((k for dist in paying.values() for k in dist), default=0) + (m.rows * fmask + 1) * sk
    if USE_NUMPY and pk.fmt and rs.cycle < 1 << 62 and top_key < 1 << 62:
        total = _convolve_np(paying, idx, nf, nbytes, pk.fmt, scw, sk)
        steps = _spend(steps, len(paying) * len(pk.cols))
    else:
        total = _convolve(paying, idx, nf, nbytes, pk, scw, sk, steps)
    out: dict[tuple[int, int], int] = {}
    spay = m.spay[bi]
    for k, w in total.items():
        credits, sc = divmod(k, sk)
        key = (credits + spay[sc], sc)
        out[key] = out.get(key, 0) + w
    return out


def _convolve(paying: dict[int, dict[int, int]], idx: list[list[int]], nf: int, nbytes: int, pk: _Packing,
              scw: list[tuple[int, int]], sk: int, steps: int) -> dict[int, int]:
    """{credits * sk + scatters: weight} after the last reel, state by state."""
    bits, fmask, rows = pk.bits, pk.mask, len(idx)
    total: dict[int, int] = {}
    for f, dist in paying.items():
        steps = _spend(steps, len(pk.cols))
        if pk.fmt:
            vals = memoryview(f.to_bytes(nbytes, "little")).cast(pk.fmt)
        else:
            vals = []
            for _ in range(nf):
                vals.append(f & fmask)
                f >>= bits
        adds = [vals[j] for j in idx[0]]
        for r in range(1, rows):
            adds = list(map(operator.add, adds, [vals[j] for j in idx[r]]))
        mv: dict[int, int] = {}
        for a, (sc, cw) in zip(adds, scw):
            d = a * sk + sc
            mv[d] = mv.get(d, 0) + cw
        steps = _spend(steps, len(mv) * len(dist))
        for delta, cw in mv.items():
            for k, w in dist.items():
                k += delta
                total[k] = total.get(k, 0) + w * cw
    return total


PART = 21  # bits of a weight summed at a time in float64 (below): 3 parts cover 63 bits
CHUNK = 2_000_000  # (distribution entry, column) pairs per numpy pass (some 16 MB an array)


def _convolve_np(paying: dict[int, dict[int, int]], idx: list[list[int]], nf: int, nbytes: int, fmt: str,
                 scw: list[tuple[int, int]], sk: int) -> dict[int, int]:
    """_convolve with numpy, as exact: keys and weights are int64 (the caller checks that every key and
    the cycle, which bounds every weight and sum, are below 2**62), and the weights are summed in
    float64 by bincount 21 bits at a time, each sum at most 2**21 * CHUNK < 2**53, so exact; the parts
    are added up in Python integers."""
    import numpy as np

    dtype = {"B": np.uint8, "H": np.uint16, "I": np.uint32, "Q": np.uint64}[fmt]
    sc = np.array([x for x, _ in scw], dtype=np.int64)
    cw = np.array([x for _, x in scw], dtype=np.int64)
    rows = [np.array(r, dtype=np.intp) for r in idx]
    per = max(1, CHUNK // len(scw))
    items = list(paying.items())
    total: dict[int, int] = {}
    mask = (1 << PART) - 1
    start = 0
    while start < len(items):
        chunk = []
        n = 0
        while start < len(items) and (not chunk or n + len(items[start][1]) <= per):
            chunk.append(items[start])
            n += len(items[start][1])
            start += 1
        v = np.frombuffer(b"".join(f.to_bytes(nbytes, "little") for f, _ in chunk), dtype=dtype)
        v = v.reshape(len(chunk), nf).astype(np.int64)
        adds = v[:, rows[0]]
        for r in rows[1:]:
            adds = adds + v[:, r]
        which, ks, ws = [], [], []
        for i, (_, dist) in enumerate(chunk):
            for k, w in dist.items():
                which.append(i)
                ks.append(k)
                ws.append(w)
        keys = (np.array(ks, dtype=np.int64)[:, None] + adds[np.array(which, dtype=np.intp)] * sk + sc[None, :]).ravel()
        weights = (np.array(ws, dtype=np.int64)[:, None] * cw[None, :]).ravel()
        for p in range(3):
            part = ((weights >> (PART * p)) & mask).astype(np.float64)
            sums = np.bincount(keys, weights=part)
            nz = np.nonzero(sums)[0]
            for k, x in zip(nz.tolist(), sums[nz].tolist()):
                total[k] = total.get(k, 0) + (int(x) << (PART * p))
    return total


def _line_step(runs: _Runs, dirs: tuple, lstate: tuple, code: int, reel: int, last: bool) -> tuple:
    """One line, one more reel (its symbol code): (the line's next state or None when settled,
    credits settled now)."""
    line, dstate = lstate
    add = 0
    new_runs = []
    for rev, rstate in zip(dirs, dstate):
        if rstate is None:
            new_runs.append(None)
            continue
        run, need, kept = rstate
        alive_union = 0
        for mk, _ in run[0]:
            alive_union |= mk
        if reel != need:  # not yet at this reel: keep what it does to the groups alive
            kept = tuple(sorted(kept + ((reel, runs.effect(reel, code, alive_union)),)))
            new_runs.append((run, need, kept))
            continue
        best = 0
        pending = dict(kept)
        eff = runs.effect(reel, code, alive_union)
        while True:
            run, best = runs.step(run, eff, rev)
            need = need - 1 if rev else need + 1
            if run is None or need not in pending:
                break
            eff = pending.pop(need)
        if run is None:
            add += best
            new_runs.append(None)
        elif last:
            add += runs.finish(run, rev)
            new_runs.append(None)
        else:
            # what a kept reel does, restricted again to the groups still alive
            u = 0
            for mk, _ in run[0]:
                u |= mk
            kept = tuple((r, (e[0] & u, e[1] & u, e[2] if e[1] & u else 1)) for r, e in sorted(pending.items()))
            new_runs.append((run, need, kept))
    if any(r is not None for r in new_runs):
        return (line, tuple(new_runs)), add
    return None, add


def entries(m: Model, rs: ReelSet, bi: int) -> dict[tuple, int]:
    """{(group, run named, multiplier, right to left): summed cycle weight over every line} of the
    win each line pays in each direction (ties: the shorter run, then the group listed first, as
    games/reels.py _line_best). Per line and direction, a programme over that line's symbols."""
    nr = m.nreels
    cpay = m.cpay[bi]
    ng = len(cpay)
    total: dict[tuple, int] = {}
    cols = [columns(m, rs, i) for i in range(nr)]
    for line in m.lines:
        syms = []
        for i in range(nr):
            d: dict[int, int] = {}
            for (col, _), cw in cols[i].items():
                d[col[line[i]]] = d.get(col[line[i]], 0) + cw
            syms.append(d)
        for rev in (False, True) if m.both_ways else (False,):
            reels = list(range(nr - 1, -1, -1)) if rev else list(range(nr))
            # state: (per group (run, multiplier) of the groups still running as a tuple, best key)
            # best key: (pay, -run, -group, multiplier), the largest wins
            states: dict[tuple, int] = {(tuple((g, 1) for g in range(ng)), (0, 0, 0, 1)): 1}
            for n, i in enumerate(reels):
                nxt: dict[tuple, int] = {}
                for (alive, best), w in states.items():
                    for code, cw in syms[i].items():
                        keep = []
                        b = best
                        for g, k in alive:
                            bit = 1 << g
                            if m.rgmask[i][code] & bit:
                                keep.append((g, k if m.rmember[i][code] & bit else k * m.wmult[code]))
                            else:
                                v = cpay[g][n] * k
                                if v and (v, -n, -g) > b[:3]:
                                    b = (v, -n, -g, k)
                        if not keep:
                            if b[0]:
                                key = _named(cpay, b, rev)
                                total[key] = total.get(key, 0) + w * cw * _rest(rs, reels[n + 1:])
                            continue
                        s = (tuple(keep), b)
                        nxt[s] = nxt.get(s, 0) + w * cw
                states = nxt
            for (alive, best), w in states.items():
                b = best
                if not rev:
                    for g, k in alive:
                        v = cpay[g][nr] * k
                        if v and (v, -nr, -g) > b[:3]:
                            b = (v, -nr, -g, k)
                if b[0]:
                    key = _named(cpay, b, rev)
                    total[key] = total.get(key, 0) + w
    return total


def _rest(rs: ReelSet, reels: list[int]) -> int:
    t = 1
    for i in reels:
        t *= rs.totals[i]
    return t


def _named(cpay: list[list[int]], b: tuple, rev: bool) -> tuple:
    g, run, k = -b[2], -b[1], b[3]
    named = run
    while named > 1 and cpay[g][named - 1] == cpay[g][run]:
        named -= 1
    return (g, named, k, rev)
