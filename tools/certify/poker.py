"""Exact video poker analysis (host, numpy): optimal-strategy return of a jeton-poker/1 model per
bet level over every deal and all 32 holds, and the exact return of the model's built-in strategy.

Method (docs/games.md, "Video poker certification"):
1. every 5-card hand of the deck is ranked once (vectorised, the device's first-match rules) into
   an award class (K awards + "nothing");
2. for every subset S of 0..4 cards, the histogram of award classes over the final hands that
   contain S (tables indexed by the colex rank of S);
3. deals are grouped by suit symmetry (the multiset of the four suits' rank masks: 134,459 classes
   for 52 cards), each with its weight;
4. for a deal and hold H with discards D, the final hands over the unseen cards are those that
   contain H and avoid D: by inclusion-exclusion sum over T in D of (-1)^|T| table[H + T]
   (3^5 = 243 lookups per deal, vectorised over all deals at once);
5. expected values are compared exactly: num / C(u, 5 - |H|) with integer cross-multiplication
   (u unseen cards); ties keep the lowest hold mask.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from games.poker_model import (
    DEUCES,
    FIVE,
    FLUSH,
    FOUR,
    FOUR_WILD,
    FULL_HOUSE,
    JOKER_WILD,
    ROYAL,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE,
    TWO_PAIR,
    WILD_ROYAL,
    PokerModel,
)

_COMBOS: dict = {}


def binom_table(n: int) -> np.ndarray:
    b = np.zeros((n + 1, 7), dtype=np.int64)
    for c in range(n + 1):
        for j in range(7):
            b[c, j] = math.comb(c, j)
    return b


def combos(n: int, k: int) -> np.ndarray:
    """All k-subsets of range(n), sorted ascending within a row, rows in colex order (row i has
    colex rank i)."""
    key = (n, k)
    if key in _COMBOS:
        return _COMBOS[key]
    if k == 0:
        out = np.zeros((1, 0), dtype=np.int16)
    else:
        prev = combos(n, k - 1)
        parts = []
        for last in range(k - 1, n):
            p = prev[:math.comb(last, k - 1)]
            parts.append(np.concatenate([p, np.full((len(p), 1), last, dtype=np.int16)], axis=1))
        out = np.concatenate(parts) if parts else np.zeros((0, k), dtype=np.int16)
    _COMBOS[key] = out
    return out


def colex(cards: np.ndarray, binom: np.ndarray) -> np.ndarray:
    """Colex rank of each row (sorted ascending) of cards."""
    r = np.zeros(len(cards), dtype=np.int64)
    for j in range(cards.shape[1]):
        r += binom[cards[:, j], j + 1]
    return r


def _wild_mask(m: PokerModel, cards: np.ndarray) -> np.ndarray:
    if m.wild == DEUCES:
        return cards < 4
    if m.wild == JOKER_WILD:
        return cards == 52
    return np.zeros(cards.shape, dtype=bool)


class HandStats:
    """Per-row features of a set of held cards (natural ranks and suits, wild count)."""

    def __init__(self, m: PokerModel, cards: np.ndarray, need_sorted: bool = False):
        n, k = cards.shape
        cards = cards.astype(np.int64)
        wild = _wild_mask(m, cards)
        self.w = wild.sum(axis=1)
        self.nat = k - self.w
        rank = np.where(wild, 13, cards >> 2)
        rows = np.arange(n, dtype=np.int64)[:, None] * 14
        cnt = np.bincount((rows + rank).ravel(), minlength=n * 14).reshape(n, 14)
        self.cnt = cnt = cnt[:, :13].astype(np.int8)
        bits = np.where(wild, 0, np.int64(1) << np.minimum(rank, 12))
        self.rmask = np.bitwise_or.reduce(bits, axis=1) if k else np.zeros(n, np.int64)
        self.c1 = c1 = cnt.max(axis=1).astype(np.int64)
        self.c2 = np.where((cnt == c1[:, None]).sum(axis=1) >= 2, c1,
                           np.where(cnt < c1[:, None], cnt, 0).max(axis=1)).astype(np.int64)
        self.sorted = -np.sort(-cnt, axis=1) if need_sorted else None
        self.d = (cnt > 0).sum(axis=1)
        suit = cards & 3
        smin = np.where(wild, 9, suit).min(axis=1, initial=9)
        smax = np.where(wild, -9, suit).max(axis=1, initial=-9)
        self.suited = (smin == smax) | (self.nat == 0)
        high = self.rmask << 1
        low = np.where(self.rmask >> 12 & 1 == 1, (self.rmask & 0xFFF) << 1 | 1, high)
        wins = np.zeros(n, dtype=np.int64)
        for lo in range(10):
            win = ~np.int64(0x1F << lo)
            wins += ((high & win) == 0) | ((low & win) == 0)
        self.windows = wins
        self.distinct = self.c1 <= 1

    def of_a_kind(self, ranks: int, k: int) -> np.ndarray:
        sel = np.array([ranks >> r & 1 for r in range(13)], dtype=bool)
        return ((self.cnt[:, sel].max(axis=1) + self.w) >= k) if sel.any() else np.zeros(len(self.w), bool)


def classify(m: PokerModel, cards: np.ndarray) -> np.ndarray:
    """Award index of each 5-card row, len(awards) for none (first match, as games/poker_hand)."""
    s = HandStats(m, cards)
    na = len(m.kind)
    out = np.full(len(cards), na, dtype=np.int8)
    flush = s.suited
    straight = s.distinct & (s.windows > 0)
    royal = s.distinct & ((s.rmask & 0xFF) == 0)
    for i in range(na):
        k = m.kind[i]
        if k == ROYAL:
            ok = (s.w == 0) & flush & royal
        elif k == WILD_ROYAL:
            ok = flush & royal
        elif k == FOUR_WILD:
            ok = s.w == 4
        elif k == FIVE:
            ok = s.c1 + s.w >= 5
        elif k == STRAIGHT_FLUSH:
            ok = flush & straight
        elif k == FOUR:
            ok = s.of_a_kind(m.ranks[i], 4)
            if m.kicker[i]:
                ksel = np.array([m.kicker[i] >> r & 1 for r in range(13)], dtype=bool)
                ok = ok & ((s.cnt[:, ksel] == 1).any(axis=1))
        elif k == FULL_HOUSE:
            ok = ((s.d == 2) & (s.c1 <= 3) & (s.c2 <= 2)) | ((s.d == 1) & (s.c1 <= 3))
        elif k == FLUSH:
            ok = flush
        elif k == STRAIGHT:
            ok = straight
        elif k == THREE:
            ok = s.of_a_kind(m.ranks[i], 3)
        elif k == TWO_PAIR:
            ok = (np.maximum(0, 2 - s.c1) + np.maximum(0, 2 - s.c2)) <= s.w
        else:
            ok = s.of_a_kind(m.ranks[i], 2)
        out[(out == na) & ok] = i
    return out


def columns(c5: np.ndarray) -> list[np.ndarray]:
    """The columns of c5, each contiguous and of numpy's index type: the per-card lookups below
    gather column by column (np.take, no conversion of the indices; numpy reduces along a short
    row axis slowly)."""
    return [np.ascontiguousarray(c5[:, j], dtype=np.intp) for j in range(c5.shape[1])]


def classify_all(m: PokerModel, c5: np.ndarray, code: np.ndarray | None = None,
                 cols: list[np.ndarray] | None = None) -> np.ndarray:
    """classify() of every row of c5 (sorted cards), through its sorted ranks and its flush: the
    8,568 rank multisets (x 2) are classified once, then looked up for the 2.6 million hands.
    code: when given, c5 holds indices into it (the deck's card codes) rather than codes."""
    reps = combos(18, 5).astype(np.int64) - np.arange(5)  # non-decreasing 5-tuples over 0..13
    syn = []
    for flush in (0, 1):
        suits = np.zeros(5, np.int64) if flush else np.array([0, 1, 2, 3, 0])
        cards = np.where(reps == 13, 52, reps * 4 + suits)
        syn.append(cards)
    syn = np.concatenate(syn)
    skey = ((((syn >> 2).clip(max=13) @ (14 ** np.arange(4, -1, -1))) * 2)
            + np.repeat([0, 1], len(reps)))
    table = np.zeros(14 ** 5 * 2, dtype=np.int8)
    table[skey] = classify(m, syn)
    # per card (lookup tables over the deck): its rank digit and its suit bit (none for a wild);
    # a flush when the natural cards' suit bits OR to at most one bit
    cards = np.arange(53, dtype=np.int64) if code is None else np.asarray(code, dtype=np.int64)
    rank = np.minimum(cards >> 2, 13)
    sbit = np.where(_wild_mask(m, cards), 0, np.int64(1) << (cards & 3))
    key = np.zeros(len(c5), dtype=np.int64)
    sor = np.zeros(len(c5), dtype=np.int64)
    for j, col in enumerate(cols if cols is not None else columns(c5)):
        key += np.take(rank * (2 * 14 ** (4 - j)), col)
        sor |= np.take(sbit, col)
    return table[key + ((sor & (sor - 1)) == 0)]


DIG = "0123456789abcdef"


def hold_patterns(m: PokerModel, cards: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """games/poker_hold.pattern of held subsets (rows of < 5 cards), as ids into a list of strings."""
    k = cards.shape[1]
    s = HandStats(m, cards, need_sorted=True)
    n = len(cards)
    mult = np.zeros(n, dtype=np.int64)
    for j in range(4):
        mult = mult * 5 + s.sorted[:, j]
    ranks = np.arange(13)
    cls = np.frombuffer(bytes(m.rank_class), dtype=np.uint8).astype(np.int64)
    ispair = s.c1 >= 2
    top = np.where(ispair, np.where(s.cnt == s.c1[:, None], ranks, -1).max(axis=1), -1)
    b = np.where(top >= 0, cls[np.maximum(top, 0)], 15)
    single = np.where(s.cnt == 1, ranks, -1).max(axis=1)
    a = np.where(single >= 0, cls[np.maximum(single, 0)], 15)
    hsel = np.array([m.high >> r & 1 for r in range(13)], dtype=bool)
    h = ((s.cnt == 1) & hsel).sum(axis=1)
    suited = ((s.nat >= 2) & s.suited).astype(np.int64)
    x = np.where((s.nat >= 2) & (s.c1 == 1), s.windows, 0)
    rr = suited & ((s.rmask & 0xFF) == 0)
    key = (((((((k * 5 + s.w) * 625 + mult) * 16 + b) * 8 + h) * 16 + a) * 2 + suited) * 16 + x) * 2 + rr
    uniq, inv = np.unique(key, return_inverse=True)
    names = []
    for kv in uniq.tolist():
        kv, rr_ = divmod(kv, 2)
        kv, x_ = divmod(kv, 16)
        kv, s_ = divmod(kv, 2)
        kv, a_ = divmod(kv, 16)
        kv, h_ = divmod(kv, 8)
        kv, b_ = divmod(kv, 16)
        kv, mu = divmod(kv, 625)
        k_, w_ = divmod(kv, 5)
        digs = []
        for _ in range(4):
            mu, dgt = divmod(mu, 5)
            digs.append(dgt)
        ms = "".join(str(d) for d in reversed(digs) if d)
        names.append("%d%d|%s|%s%d%s|%d%s%d" % (k_, w_, ms or "-", "-" if b_ == 15 else DIG[b_], h_,
                                                 "-" if a_ == 15 else DIG[a_], s_, DIG[x_], rr_))
    return inv.astype(np.int32), names


class Analysis:
    """Everything that depends on the deck and the ranking, not on the pays: built once per model."""

    def __init__(self, m: PokerModel, patterns: bool = True, cards: list[int] | None = None):
        """cards: the deck's card codes (sorted; default the model's whole deck). A smaller deck,
        whole ranks in all four suits, is for the brute-force cross-checks of the tests."""
        self.m = m
        self.code = np.array(sorted(cards) if cards is not None else range(m.deck), dtype=np.int64)
        n = len(self.code)
        self.n = n
        self.na = na = len(m.kind)
        self.binom = binom = binom_table(n)
        c5 = combos(n, 5)
        cols = columns(c5)
        self.cls5 = cls5 = classify_all(m, c5, self.code, cols).astype(np.int64)
        # tables[k][S, class]: final hands containing the k-subset S, per award class
        tables: list = [None] * 6
        nk = math.comb(n, 4)
        acc = np.zeros(nk * (na + 1), dtype=np.int64)
        # colex rank of a hand without its card at position d: the cards before d keep their
        # place (binom[c, j + 1]), those after move down one (binom[c, j]); scaled by the number
        # of classes, so rank * (na + 1) + class indexes the flat table. From d to d + 1, card d
        # goes back to its place and card d + 1 leaves.
        keep = [np.take(binom[:, j + 1] * (na + 1), col) for j, col in enumerate(cols)]
        down = [np.take(binom[:, j] * (na + 1), col) for j, col in enumerate(cols)]
        idx = cls5 + down[1] + down[2] + down[3] + down[4]
        for drop in range(5):
            if drop:
                idx += keep[drop - 1]
                idx -= down[drop]
            acc += np.bincount(idx, minlength=nk * (na + 1))
        del keep, down, idx
        tables[4] = acc.reshape(nk, na + 1)
        for k in (3, 2, 1, 0):
            ck1 = combos(n, k + 1)
            up = tables[k + 1]
            nk = math.comb(n, k)
            t = np.zeros((nk, na + 1), dtype=np.int64)
            for drop in range(k + 1):
                idx = colex(np.delete(ck1, drop, axis=1), binom) if k else np.zeros(len(ck1), np.int64)
                for c in range(na + 1):
                    t[:, c] += np.bincount(idx, weights=up[:, c], minlength=nk).astype(np.int64)
            tables[k] = t // (5 - k)
        self.tables = tables
        # deals by suit symmetry: the sorted rank masks of the four suits (+ the joker), from one
        # bit per natural card (suit * 13 + rank) looked up column by column
        nat = self.code < 52
        bit = np.where(nat, np.int64(1) << np.minimum((self.code & 3) * 13 + (self.code >> 2), 62), 0)
        hand = np.zeros(len(c5), dtype=np.int64)
        joker = np.zeros(len(c5), dtype=bool)
        for col in cols:
            hand |= np.take(bit, col)
            joker |= np.take(~nat, col)
        ms = [(hand >> (13 * s) & 0x1FFF).astype(np.int32) for s in range(4)]
        for i, j in ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)):  # sorting network of four
            lo, hi = np.minimum(ms[i], ms[j]), np.maximum(ms[i], ms[j])
            ms[i], ms[j] = lo, hi
        key = ((ms[0].astype(np.int64) * 8192 + ms[1]) * 8192 + ms[2]) * 8192 + ms[3]
        key = key * 2 + joker
        _, first, weight = np.unique(key, return_index=True, return_counts=True)
        self.rep = first
        self.weight = weight.astype(np.int64)
        deals = c5[first]
        self.deals = deals
        self.unseen = n - 5
        # colex index of the subset of the deal's cards at each position mask
        self.idx = []
        for u in range(32):
            pos = [i for i in range(5) if u >> i & 1]
            self.idx.append(colex(deals[:, pos], binom) if pos else np.zeros(len(deals), np.int64))
        self.size = [bin(u).count("1") for u in range(32)]
        self.den = [math.comb(self.unseen, 5 - self.size[u]) for u in range(32)]
        if patterns:
            self.pattern_ids, self.pattern_names = self._patterns(c5, cls5)

    def _patterns(self, c5, cls5):
        names: list[str] = []
        per_k = []
        for k in range(5):
            ids, nm = hold_patterns(self.m, self.code[combos(self.n, k)])
            per_k.append(ids + len(names))
            names += nm
        pat5 = len(names)
        names += ["P%d" % i for i in range(self.na)] + ["P-"]
        out = np.zeros((len(self.deals), 32), dtype=np.int32)
        for u in range(32):
            k = self.size[u]
            out[:, u] = per_k[k][self.idx[u]] if k < 5 else pat5 + cls5[self.rep]
        return out, names

    def ev_numerators(self, pays: list[int]) -> np.ndarray:
        """num[deal, hold]: sum of pays over the draws of that hold (divide by den[hold])."""
        pv = np.array(list(pays) + [0], dtype=np.int64)
        ev = [self.tables[k] @ pv for k in range(5)] + [pv[self.cls5]]
        terms = [ev[self.size[u]][self.idx[u]] for u in range(32)]  # one gather per subset
        num = np.zeros((32, len(self.deals)), dtype=np.int64)
        for h in range(32):
            row = num[h]
            for t in range(32):
                if t & h:
                    continue
                if self.size[t] & 1:
                    row -= terms[h | t]
                else:
                    row += terms[h | t]
        return num.T

    def best_holds(self, num: np.ndarray) -> np.ndarray:
        """Optimal hold per deal, compared exactly (integer cross-multiplication); ties: lowest mask."""
        num = np.ascontiguousarray(num.T)
        best = np.zeros(num.shape[1], dtype=np.int64)
        bn = num[0].copy()
        bd = np.full(num.shape[1], self.den[0], dtype=np.int64)
        for h in range(1, 32):
            better = num[h] * bd > bn * self.den[h]
            best[better] = h
            bn[better] = num[h][better]
            bd[better] = self.den[h]
        return best

    def class_freq(self, holds: np.ndarray) -> list[Fraction]:
        """Probability of each award class (last: nothing) when every deal plays its hold."""
        total = math.comb(self.n, 5)
        out = [Fraction(0)] * (self.na + 1)
        for h in range(32):
            sel = holds == h
            if not sel.any():
                continue
            w = self.weight[sel]
            acc = np.zeros(self.na + 1, dtype=np.int64)
            for t in range(32):
                if t & h:
                    continue
                u = h | t
                k = self.size[u]
                idx = self.idx[u][sel]
                if k < 5:
                    rows = w @ self.tables[k][idx]
                else:
                    rows = np.bincount(self.cls5[idx], weights=w, minlength=self.na + 1).astype(np.int64)
                acc += -rows if self.size[t] & 1 else rows
            d = total * self.den[h]
            for c in range(self.na + 1):
                out[c] += Fraction(int(acc[c]), d)
        return out

    def ret(self, num: np.ndarray, holds: np.ndarray) -> Fraction:
        """Expected credits per game when every deal plays holds[deal]."""
        total = math.comb(self.n, 5)
        chosen = num[np.arange(len(num)), holds]
        r = Fraction(0)
        for h in range(32):
            sel = holds == h
            if sel.any():
                r += Fraction(int((chosen[sel] * self.weight[sel]).sum()), total * self.den[h])
        return r

    def strategy_holds(self, order: dict) -> np.ndarray:
        """The built-in strategy's hold per deal class, as a mask over its representative's sorted
        cards: the first-listed pattern, ties to the lowest mask, 0 when no pattern is listed. The
        device (games/poker.py suggest) holds on each deal's canonical form, which is this
        representative, by the same rule: the cabinet's holds are these (issue 23.11)."""
        big = len(order)
        pos = np.full(len(self.pattern_names), big, dtype=np.int64)
        for i, nm in enumerate(self.pattern_names):
            if nm in order:
                pos[i] = order[nm]
        score = pos[self.pattern_ids] * 32 + np.arange(32)
        best = score.argmin(axis=1)
        return np.where(score[np.arange(len(score)), best] >= big * 32, 0, best)


def _reduced(pays: list[int]) -> tuple:
    g = 0
    for p in pays:
        g = math.gcd(g, p)
    return tuple(p // g for p in pays)


def analyse(raw: dict, analysis: Analysis | None = None) -> dict:
    """Exact figures per bet level, optimal play and built-in strategy. Bet levels whose pays are
    proportional share their holds and frequencies (the choice of hold does not change with scale)."""
    m = PokerModel(raw)
    a = analysis or Analysis(m)
    out = {"bets": {}, "analysis": a}
    cache: dict = {}
    strat = a.strategy_holds(m.strategy) if m.strategy else None  # the same holds at every bet
    for bi, bet in enumerate(m.bets):
        pays = list(m.pays[bi])
        key = _reduced(pays)
        if key not in cache:
            num = a.ev_numerators(list(key))
            best = a.best_holds(num)
            cache[key] = {"optimal": a.class_freq(best), "strategy": None if strat is None else a.class_freq(strat),
                          "holds": best, "strategy_holds": strat, "num": num}
        c = cache[key]
        f = {"bet": bet, "pays": pays, "holds": c["holds"], "strategy_holds": c["strategy_holds"]}
        for name in ("optimal", "strategy"):
            freq = c[name]
            if freq is None:
                f[name] = None
                continue
            pv = pays + [0]
            mean = sum((p * v for p, v in zip(freq, pv)), Fraction(0))
            second = sum((p * v * v for p, v in zip(freq, pv)), Fraction(0))
            f[name] = {"rtp": mean / bet, "hit": 1 - freq[-1], "freq": freq,
                       "variance": (second - mean * mean) / (bet * bet)}
        out["bets"][bet] = f
    return out
