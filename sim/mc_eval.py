"""Vectorised (numpy) evaluation of a reel game: a chunk of games at once, award for award the
device engine's (games/reels.py; tests/host/test_montecarlo_crosscheck.py plays both on the same
draws).

One function per kind of pay, so a new kind is one more function:
- line_pays: left-to-right line pays, highest win per line (the device's group-mask runs, per reel:
  jeton-reels/2's per-reel member sets);
- line_pays_general: jeton-reels/2 with multiplier wilds or both-ways pays (the device's
  _line_best: each group scanned on its own, the wilds' multipliers multiplied, both directions);
- ways_pays: jeton-reels/3's true ways (games/reels.py _ways_wins: every group's ways through the
  window, a reel's factor its members shown plus its wilds' multipliers);
- scatter_pays: pays by the number of scatters visible;
- free_spins: the feature (award by scatters, retriggers, cap, multiplier, its own reels);
- the progressive: which base games win it (its meter is run by sim/montecarlo.py).
A line pays by its symbols only, so line_pays is tabulated once per bet over every symbol
combination (one gather per line and game at run time) when that table is small enough.

The model is compiled by games.model (the device's tables: symbol codes, group masks, cumulative
pays); what this module does not implement it refuses with Unsupported, naming the feature, rather
than mis-evaluate: an unknown format, an unknown key in the model or in a pay group.
"""
from __future__ import annotations

import numpy as np

from games.model import FORMAT, FORMAT2, FORMAT3, Model
from sim.mc_stream import Streams

# keys this evaluator knows the meaning of; display-only keys (name, family, version, ...) included
MODEL_KEYS = {"format", "id", "name", "family", "version", "description", "source", "rows", "symbols",
              "wild", "scatter", "reels", "lines", "bets", "pays", "scatter_pays", "free_spins",
              "progressive"}
MODEL2_KEYS = MODEL_KEYS | {"wilds", "both_ways"}  # jeton-reels/2 adds these ...
MODEL3_KEYS = (MODEL2_KEYS - {"lines", "both_ways", "progressive"}) | {"ways"}  # jeton-reels/3: ways, no lines
REEL_KEYS = {"strip", "weights"}
WAYS_KEYS = {"cost", "wild_alone"}
PAY_KEYS = {"name", "symbols", "pays"}
PAY2_KEYS = PAY_KEYS | {"reels"}  # ... and per-reel member sets in a pay group
FREE_KEYS = {"reels", "award", "retrigger", "multiplier", "cap", "uncapped"}
BLOCK = 8192  # games evaluated together: their temporaries stay in the CPU cache
LUT_MAX = 1 << 22  # line-pay table entries (symbols ** reels) kept per bet: 16 MB of int32
PAIR_MAX = 1 << 20  # entries of a two-reel line-index table (stops * stops * lines)


class Unsupported(ValueError):
    """The model uses a feature the vectorised evaluator does not implement."""


def check_supported(raw: dict) -> None:
    fmt = raw.get("format", FORMAT)
    if fmt not in (FORMAT, FORMAT2, FORMAT3):
        raise Unsupported("sim.mc_eval evaluates %s, %s and %s only, not %r" % (FORMAT, FORMAT2, FORMAT3, fmt))
    v2 = fmt != FORMAT
    _known(raw, MODEL3_KEYS if fmt == FORMAT3 else MODEL2_KEYS if v2 else MODEL_KEYS, "model")
    _known(raw.get("ways") or {}, WAYS_KEYS, "ways")
    fs = raw.get("free_spins") or {}
    _known(fs, FREE_KEYS, "free_spins")
    for i, reel in enumerate(list(raw.get("reels") or []) + list(fs.get("reels") or [])):
        _known(reel, REEL_KEYS, "reel %d" % i)
    for p in raw.get("pays") or []:
        _known(p, PAY2_KEYS if v2 else PAY_KEYS, "pay group %r" % p.get("name"))


def _known(d: dict, keys: set, where: str) -> None:
    extra = sorted(set(d) - keys)
    if extra:
        raise Unsupported("sim.mc_eval does not implement %s: %s" % (where, ", ".join(map(str, extra))))


class ReelTables:
    """One reel set compiled for gathers: per reel, per stop, the symbol code on every line's row
    (times symbols**reel, so a line's table index is a sum) and the number of scatters shown."""

    def __init__(self, m: Model, rs, nsym: int) -> None:
        self.rs = rs
        code = np.int32 if nsym ** m.nreels < 1 << 31 else np.int64
        self.uniform = [w is None for w in rs.weights]
        self.sizes = [len(s) for s in rs.strips]
        self.cum = [None if w is None else np.cumsum(np.array(w, dtype=np.int64)) for w in rs.weights]
        self.line_code = []  # [reel] -> (stops, lines): code * nsym**reel
        self.scat = []  # [reel] -> (stops,) scatters shown
        for i, strip in enumerate(rs.strips):
            cols = np.array([m.column(rs, i, s) for s in range(len(strip))], dtype=np.int64)  # (stops, rows)
            rows = np.array([line[i] for line in m.lines], dtype=np.int64)
            self.line_code.append((cols[:, rows] * nsym ** i).astype(code))
            self.scat.append((cols == m.scatter).sum(1) if m.scatter is not None else np.zeros(len(strip), np.int64))
        if m.ways:
            self._ways(m, rs)
        # reels taken two by two: one gather per pair of reels instead of one per reel (when the
        # pair's table stays small: long virtual reels are gathered one by one)
        self.pairs = []  # (first reel, second reel or None, table (stops*stops or stops, lines))
        i = len(rs.strips) if m.ways else 0  # ways: no lines
        while i < len(rs.strips):
            if i + 1 < len(rs.strips) and self.sizes[i] * self.sizes[i + 1] * len(m.lines) <= PAIR_MAX:
                t = (self.line_code[i][:, None, :] + self.line_code[i + 1][None, :, :]).reshape(-1, len(m.lines))
                self.pairs.append((i, i + 1, t))
                i += 2
            else:
                self.pairs.append((i, None, self.line_code[i]))
                i += 1

    def _ways(self, m: Model, rs) -> None:
        """jeton-reels/3: per reel, per stop, every group's factor (ways_a: its members shown plus
        the multipliers of the wilds standing in) and the wilds' share of it (ways_b)."""
        groups = len(m.group_names)
        self.ways_a, self.ways_b = [], []
        for i, strip in enumerate(rs.strips):
            a = np.zeros((len(strip), groups), dtype=np.int64)
            b = np.zeros((len(strip), groups), dtype=np.int64)
            for s in range(len(strip)):
                for c in m.column(rs, i, s):
                    for g in range(groups):
                        if m.rmember[i][c] >> g & 1:
                            a[s, g] += 1
                        elif m.wmult[c]:
                            a[s, g] += m.wmult[c]
                            b[s, g] += m.wmult[c]
            self.ways_a.append(a)
            self.ways_b.append(b)

    def draw(self, st: Streams, rows: np.ndarray, pos: np.ndarray) -> np.ndarray:
        """Stops (len(rows), reels): reel by reel, as games/reels.py _spin_draws takes them."""
        out = np.empty((len(rows), len(self.sizes)), dtype=np.int64)
        for i in range(len(self.sizes)):
            if self.uniform[i]:
                out[:, i] = st.below(rows, pos, self.sizes[i])
            else:
                out[:, i] = st.weighted(rows, pos, self.cum[i])
        return out


def line_pays(m: Model, bi: int, sym: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Left-to-right line pay of symbol codes sym (count, reels): (credits, win id). Every group's
    run is its count of leading reels whose symbol extends it (a wild extends all); the line pays the
    best cpay[group][run]. On a tie the win is named as the device names it (games/reels.py weighs
    the groups as their runs end, shortest run first, then in group order, and keeps the first
    best): win id = group * (reels + 1) + the shortest run paying that much, -1 for none."""
    nr = m.nreels
    gmask = _per_reel(m.rgmask, sym)  # jeton-reels/1: the same mask on every reel
    best = np.zeros(len(sym), dtype=np.int64)
    bestrun = np.zeros(len(sym), dtype=np.int64)
    wid = np.full(len(sym), -1, dtype=np.int64)
    for g, row in enumerate(m.cpay[bi]):
        has = (gmask >> g) & 1
        run = np.cumprod(has, axis=1).sum(1)
        cp = np.array(row, dtype=np.int64)
        pay = cp[run]
        short = np.array([min(k for k in range(1, nr + 1) if row[k] == row[n]) if n else 0
                          for n in range(nr + 1)], dtype=np.int64)
        better = (pay > best) | ((pay == best) & (pay > 0) & (run < bestrun))
        best[better] = pay[better]
        bestrun[better] = run[better]
        wid[better] = g * (nr + 1) + short[run[better]]
    return best, wid


def line_pays_general(m: Model, bi: int, sym: np.ndarray) -> tuple[np.ndarray, None]:
    """jeton-reels/2 with multiplier wilds or both-ways pays (games/reels.py _general_wins and
    _line_best): per direction, every group's run is its count of leading reels (from the left, or
    from the right) whose symbol extends it there; the run pays cpay[group][run] times the product
    of the multipliers of the wilds in it that stand in for a member (a wild that is itself a member
    of the group on that reel does not multiply); the line pays the best group left to right plus,
    both ways, the best right to left whose run does not cover every reel (that one was paid left
    to right). Credits only: the name of the win is needed by the progressive alone, which such a
    model may not have (games.model refuses it)."""
    nr = m.nreels
    ext = _per_reel(m.rgmask, sym)
    mem = _per_reel(m.rmember, sym)
    mult = np.array(m.wmult, dtype=np.int64)[sym]
    total = np.zeros(len(sym), dtype=np.int64)
    for rev in (False, True) if m.both_ways else (False,):
        e, mm, k = (ext[:, ::-1], mem[:, ::-1], mult[:, ::-1]) if rev else (ext, mem, mult)
        best = np.zeros(len(sym), dtype=np.int64)
        for g, row in enumerate(m.cpay[bi]):
            lead = np.cumprod((e >> g) & 1, axis=1)
            run = lead.sum(1)
            # a reel in the run multiplies by its wild's multiplier when it is no member there
            f = np.where((lead == 1) & (((mm >> g) & 1) == 0), k, 1).prod(1)
            v = np.array(row, dtype=np.int64)[run] * f
            if rev:
                v[run == nr] = 0
            np.maximum(best, v, out=best)
        total += best
    return total, None


def ways_pays(m: Model, bi: int, t: ReelTables, stops: np.ndarray) -> np.ndarray:
    """jeton-reels/3 (games/reels.py _ways_wins): every group's run is its count of leading reels
    whose factor is nonzero, its ways the product of the factors over the run, less the wilds'
    alone when they may not pay as the group (wild_alone false); the group pays cpay[group][run]
    times its ways, and the groups add up. Credits of the stops (count, reels)."""
    a = np.stack([t.ways_a[i][stops[:, i]] for i in range(m.nreels)], axis=1)  # (count, reels, groups)
    lead = np.cumprod(a > 0, axis=1).astype(bool)
    run = lead.sum(1)  # (count, groups)
    ways = np.where(lead, a, 1).prod(1)
    if not m.wild_alone:
        b = np.stack([t.ways_b[i][stops[:, i]] for i in range(m.nreels)], axis=1)
        ways -= np.where(lead, b, 1).prod(1)
    cp = np.array(m.cpay[bi], dtype=np.int64)  # (groups, reels + 1)
    return (cp[np.arange(cp.shape[0])[None, :], run] * ways).sum(1)


def _per_reel(table: list, sym: np.ndarray) -> np.ndarray:
    """table[reel][code] of every symbol of sym (count, reels), reel by reel."""
    t = np.array(table, dtype=np.int64)
    return t[np.arange(sym.shape[1])[None, :], sym]


def win_id(m: Model, name: str) -> int:
    count, _, group = name.partition(" ")
    return m.group_names.index(group) * (m.nreels + 1) + int(count)


class VectorGame:
    """A model at one bet, evaluated a chunk of games at a time."""

    def __init__(self, raw: dict, bet: int) -> None:
        check_supported(raw)
        self.m = m = Model(raw)
        self.bet = bet
        self.bi = bi = m.bet_index(bet)
        self.nsym = nsym = len(m.symbols)
        self.base = ReelTables(m, m.base, nsym)
        self.free = None
        if m.free:
            self.free = self.base if m.free is m.base else ReelTables(m, m.free, nsym)
        self.spay = np.array(m.spay[bi], dtype=np.int64)
        self.award_n = np.array(m.award, dtype=np.int64)
        self.retrigger = np.array(m.retrigger, dtype=np.int64)
        prog = m.progressive
        self.prog_id = win_id(m, prog["pay"]) if prog and prog["bet"] == bet else None
        self.pays = line_pays_general if m.general else line_pays
        self.lut = self.lut_id = None
        if not m.ways and nsym ** m.nreels <= LUT_MAX:
            combos = np.arange(nsym ** m.nreels, dtype=np.int64)
            sym = np.stack([(combos // nsym ** i) % nsym for i in range(m.nreels)], axis=1)
            pay, wid = self.pays(m, bi, sym)
            self.lut = pay.astype(np.int32)
            if self.prog_id is not None:
                self.lut_id = wid

    # -- one spin of every row --------------------------------------------------------------------
    def _line_index(self, t: ReelTables, stops: np.ndarray) -> np.ndarray:
        idx = None
        for i, j, table in t.pairs:
            at = stops[:, i] if j is None else stops[:, i] * t.sizes[j] + stops[:, j]
            idx = table[at] if idx is None else idx + table[at]
        return idx  # (count, lines)

    def _line_wins(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.lut is not None:
            return self.lut[idx], (self.lut_id[idx] if self.lut_id is not None else None)
        nsym, nr = self.nsym, self.m.nreels
        flat = idx.reshape(-1)
        sym = np.stack([(flat // nsym ** i) % nsym for i in range(nr)], axis=1)
        pay, wid = self.pays(self.m, self.bi, sym)
        return pay.reshape(idx.shape), (None if wid is None else wid.reshape(idx.shape))

    def spin(self, t: ReelTables, stops: np.ndarray, mult: int):
        """(credits, scatters shown, line index) of one spin per row: line (or ways) pays + scatter pay."""
        sc = t.scat[0][stops[:, 0]]
        for i in range(1, self.m.nreels):
            sc = sc + t.scat[i][stops[:, i]]
        if self.m.ways:
            idx = None
            credits = ways_pays(self.m, self.bi, t, stops) + self.spay[sc]
        else:
            idx = self._line_index(t, stops)
            credits = self._line_wins(idx)[0].sum(1, dtype=np.int64) + self.spay[sc]
        return credits * mult, sc, idx

    def progressive_wins(self, idx: np.ndarray) -> np.ndarray:
        """Fixed credits the progressive replaces in each base spin (0: not won): the first line
        whose win is the progressive's pay, as firmware/progressive.py hit() reads outcome.wins."""
        pay, wid = self._line_wins(idx)
        won = wid == self.prog_id
        first = np.argmax(won, axis=1)
        rows = np.arange(len(idx))
        return np.where(won.any(1), pay[rows, first], 0).astype(np.int64)

    # -- whole games --------------------------------------------------------------------------------
    def play(self, st: Streams, block: int = BLOCK) -> dict:
        """Every game of the chunk: award (free spins included), base award, feature award, free
        spins played, bytes of stream read, base stops, and the progressive's fixed credits won.
        Base spins go in blocks of rows small enough for their temporaries to stay in cache; the
        free spins of the whole chunk go together (few games, many rounds)."""
        n = st.n
        pos = np.zeros(n, dtype=np.int64)
        stops = np.empty((n, self.m.nreels), dtype=np.int64)
        base = np.empty(n, dtype=np.int64)
        sc = np.empty(n, dtype=np.int64)
        prog = np.zeros(n, dtype=np.int64) if self.prog_id is not None else None
        for a in range(0, n, block):
            rows = np.arange(a, min(a + block, n), dtype=np.int64)
            p = pos[a:a + block]
            stops[a:a + block] = self.base.draw(st, rows, p)
            base[a:a + block], sc[a:a + block], idx = self.spin(self.base, stops[a:a + block], 1)
            if prog is not None:
                prog[a:a + block] = self.progressive_wins(idx)
        award = base.copy()
        spins = np.zeros(n, dtype=np.int64)
        if self.m.free:
            self.free_spins(st, np.arange(n, dtype=np.int64), sc, pos, award, spins)
        return {"award": award, "base": base, "free": award - base, "spins": spins, "pos": pos,
                "stops": stops, "prog": prog}

    def free_spins(self, st: Streams, rows: np.ndarray, sc: np.ndarray, pos: np.ndarray,
                   award: np.ndarray, spins: np.ndarray) -> None:
        """The feature, round by round over the games still in it (games/reels.py evaluate())."""
        m = self.m
        left = self.award_n[sc]
        if m.cap is not None:
            left = np.minimum(left, m.cap)
        given = left.copy()
        act = np.nonzero(left)[0]
        st.extend(rows[act])
        left, given = left[act], given[act]
        while act.size:
            p = pos[act]
            stops = self.free.draw(st, rows[act], p)
            pos[act] = p
            credits, fsc, _ = self.spin(self.free, stops, m.multiplier)
            award[act] += credits
            spins[act] += 1
            left -= 1
            extra = self.retrigger[fsc]
            if m.cap is not None:
                extra = np.minimum(extra, m.cap - given)
            given += extra
            left += extra
            keep = left > 0
            act, left, given = act[keep], left[keep], given[keep]
