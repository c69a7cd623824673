"""How many of the dealer's hands are below a strength, against each player hand: by inclusion and
exclusion over the player's cards, in one sweep over the strengths (numpy).

The dealer's hand is any h cards of the deck the player's h cards leave, and when `up` is set it
contains a given card u, the dealer's card shown (Caribbean Stud: s. 67.15). For a player hand P, an
up card u and a strength x, the count wanted is

    N(P, u, x) = #{D : |D| = h, u in D, D and P disjoint, s(D) < x}
               = sum over T subset of P of (-1)^|T| #{D : T + u in D, s(D) < x}

so it needs, for every set A of at most h cards, cnt_A(x) = #{D containing A : s(D) < x}. Walking
x up through the strengths, each dealer hand is added to the counters of its subsets when x passes
its strength (levels 1 to h - 1 are arrays indexed by the subsets' colex index; a whole hand, level
h, is its own strength compared with x); a query (P, x) is answered when the sweep reaches x. Without
`up` the same holds with T in place of T + u (the dealer's hand is any h cards: 3 Card Poker).

The player hands asked about are usually suit-class representatives; the sweep's cost is the
dealer's hands times their subsets (2,598,960 x 31 for five cards) plus, per query, the up cards
times the subsets of P (47 x 31).
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from tools.certify import cards
from tools.certify.cards import binom_table


def _combos(h: int, k: int) -> list[tuple[int, ...]]:
    return list(itertools.combinations(range(h), k))


class Sweep:
    def __init__(self, n: int, hands: np.ndarray, strength: np.ndarray, up: bool):
        """n: cards in the deck (positions 0..n-1); hands: every h-subset as sorted rows; strength:
        a dense strength per hand (0, 1, ...); up: count only the hands holding a given card."""
        self.n = n
        self.h = h = hands.shape[1]
        self.up = up
        self.binom = binom_table(n, h + 1)
        self.hands = hands.astype(np.int64)
        self.strength = strength.astype(np.int64)
        order = np.argsort(self.strength, kind="stable")
        self.by_strength = order
        self.bounds = np.searchsorted(self.strength[order], np.arange(int(self.strength.max()) + 2))
        self.levels = [np.zeros(math.comb(n, k), dtype=np.int64) for k in range(h)]  # cnt_A, |A| = k < h
        self.x = 0  # the counters hold every hand of strength < x
        self.hand_strength = np.full(math.comb(n, h), -1, dtype=np.int64)  # by colex index
        self.hand_strength[self._colex(self.hands)] = self.strength

    def _colex(self, rows: np.ndarray) -> np.ndarray:
        acc = np.zeros(rows.shape[0], dtype=np.int64)
        for i in range(rows.shape[1]):
            acc += self.binom[rows[:, i], i + 1]
        return acc

    def advance(self, x: int) -> None:
        """Counters up to every hand of strength < x (x never goes back)."""
        if x < self.x:
            raise ValueError("the sweep goes up only")
        lo, hi = self.bounds[min(self.x, len(self.bounds) - 1)], self.bounds[min(x, len(self.bounds) - 1)]
        if hi > lo:
            rows = self.hands[self.by_strength[lo:hi]]
            for k in range(self.h):
                for c in _combos(self.h, k):
                    np.add.at(self.levels[k], self._colex(rows[:, list(c)]) if k else np.zeros(len(rows), dtype=np.int64), 1)
        self.x = x

    def count(self, players: np.ndarray, ups: np.ndarray | None) -> np.ndarray:
        """N(P, u, x) at the sweep's x for each player row (sorted positions) and each of its up
        cards (ups: (m, U) positions not in P), or N(P, x) without up cards: shape (m, U) / (m,)."""
        h, b = self.h, self.binom
        m = players.shape[0]
        x = self.x
        if ups is None:
            out = np.zeros(m, dtype=np.int64)
            for k in range(h + 1):
                sign = -1 if k % 2 else 1
                for c in _combos(h, k):
                    t = players[:, list(c)]
                    if k == h:
                        cnt = (self.hand_strength[self._colex(t)] < x).astype(np.int64)
                    else:
                        cnt = self.levels[k][self._colex(t)] if k else np.full(m, self.levels[0][0])
                    out += sign * cnt
            return out
        out = np.zeros(ups.shape, dtype=np.int64)
        for k in range(h):  # |T| = k, the set T + u has k + 1 cards
            sign = -1 if k % 2 else 1
            for c in _combos(h, k):
                idx = np.zeros(ups.shape, dtype=np.int64)
                below = np.zeros(ups.shape, dtype=np.int64)  # cards of T below u
                for j, pos in enumerate(c):
                    t = players[:, pos][:, None]
                    over = ups < t
                    idx += np.where(over, b[t, j + 2], b[t, j + 1])
                    below += ~over
                idx += b[ups, below + 1]
                if k + 1 == h:
                    cnt = (self.hand_strength[idx] < x).astype(np.int64)
                else:
                    cnt = self.levels[k + 1][idx]
                out += sign * cnt
        return out


def below_counts(n: int, hands: np.ndarray, strength: np.ndarray, players: np.ndarray,
                 thresholds: np.ndarray, up: bool, chunk: int = 4000) -> np.ndarray:
    """For each player row i and threshold j: N(P_i, u, thresholds[i, j]) for every up card u not in
    P_i (ascending positions), shape (m, n - h, t); without `up`, shape (m, t)."""
    sw = Sweep(n, hands, strength, up)
    m, t = thresholds.shape
    h = hands.shape[1]
    ups = cards.complement(n, players) if up else None  # the positions not in each player hand
    out = np.zeros((m, n - h, t) if up else (m, t), dtype=np.int64)
    flat = thresholds.ravel()
    order = np.argsort(flat, kind="stable")
    xs = flat[order]
    starts = np.flatnonzero(np.r_[True, xs[1:] != xs[:-1]])
    ends = np.r_[starts[1:], len(xs)]
    for s0, e0 in zip(starts, ends):
        sw.advance(int(xs[s0]))
        q = order[s0:e0]
        for c0 in range(0, len(q), chunk):
            qq = q[c0:c0 + chunk]
            rows, cols = qq // t, qq % t
            got = sw.count(players[rows], ups[rows] if up else None)
            if up:
                out[rows, :, cols] = got
            else:
                out[rows, cols] = got
    return out
