"""The dealer's exact final-total probabilities for many shoes at once (host, exact integers).

The dealer's hand from an up card u is a path through drawn-card multisets: his total and softness
are functions of the multiset, so the multisets where he still draws (hits a soft 17 or not, s. 26)
form a small graph, the same for every shoe. For a shoe with c_v cards of value v (N in all), a
path's probability is prod falling(c_v, m_v) / falling(N, k) (m: the multiset drawn, k its size),
so the graph is walked once per up card with one vector of exact integers per node, a lane per shoe
(numpy object arrays: Python integers, no rounding). The first card drawn (the second card of the
dealer's hand) never completes a blackjack: what is returned is P(final total = o and no dealer
blackjack), the only probabilities the player's decisions act on (tools/certify/blackjack.py).

Outcomes: 0..4 = 17..21, 5 = bust.
"""
from __future__ import annotations

import numpy as np

from tools.certify.rational import Q

OUTCOMES = 6
BUST = 5


def _state(u: int, m: tuple[int, ...]) -> tuple[int, bool]:
    hard = u + sum((v + 1) * n for v, n in enumerate(m))
    soft = (u == 1 or m[0] > 0) and hard <= 11
    return (hard + 10 if soft else hard), soft


def draws(t: int, soft: bool, h17: bool) -> bool:
    """s. 26: the dealer draws below 17 and on a soft 17 unless the table stands on all 17."""
    return t < 17 or (t == 17 and soft and h17)


class Graph:
    """Nodes (multisets drawn, by layer) and edges (value index -> node or outcome) for up card u."""

    def __init__(self, u: int, h17: bool):
        self.u = u
        root = (0,) * 10
        self.layers: list[list[tuple[int, ...]]] = [[root]]
        # edges[m] = [(v, child multiset or None, outcome or -1)]
        self.edges: dict[tuple[int, ...], list[tuple[int, tuple[int, ...] | None, int]]] = {}
        bj = 9 if u == 1 else 0 if u == 10 else -1  # the value that would complete a blackjack
        while self.layers[-1]:
            nxt: dict[tuple[int, ...], None] = {}
            for m in self.layers[-1]:
                out = []
                for v in range(10):
                    if m == root and v == bj:
                        continue
                    c = list(m)
                    c[v] += 1
                    c = tuple(c)
                    t, soft = _state(u, c)
                    if t > 21:
                        out.append((v, None, BUST))
                    elif draws(t, soft, h17):
                        out.append((v, c, -1))
                        nxt[c] = None
                    else:
                        out.append((v, None, t - 17))
                self.edges[m] = out
            self.layers.append(list(nxt))
        self.layers.pop()
        self.depth = len(self.layers)  # most cards the dealer can draw after his up card

    def probabilities(self, shoes: list[tuple[int, ...]]) -> list[tuple[Q, ...]]:
        """For each shoe (counts of value 1..10 left after the up card), the six P(outcome, no
        dealer blackjack) as exact rationals (mpq: the player's analysis computes with them)."""
        n = len(shoes)
        cols = [np.array([s[v] for s in shoes], dtype=object) for v in range(10)]
        total = np.array([sum(s) for s in shoes], dtype=object)
        less: dict[tuple[int, int], np.ndarray] = {}

        def left(v: int, j: int) -> np.ndarray:
            key = (v, j)
            a = less.get(key)
            if a is None:
                a = less[key] = cols[v] - j
            return a

        K = self.depth

        # pos[j]: N - j, or 1 where a shoe has no j-th card (every longer path has no mass there)
        pos = [np.array([max(int(x) - j, 1) for x in total], dtype=object) for j in range(K)]

        mass = {self.layers[0][0]: np.ones(n, dtype=object)}
        acc = [np.zeros(n, dtype=object) for _ in range(OUTCOMES)]
        # a path of k cards is over falling(N, k): scale it to falling(N, K) with falling(N-k, K-k)
        for k, layer in enumerate(self.layers):
            scale = np.ones(n, dtype=object)
            for j in range(k + 1, K):
                scale = scale * pos[j]
            nxt: dict[tuple[int, ...], np.ndarray] = {}
            ended: list = [None] * OUTCOMES  # this layer's paths ended, by outcome (scaled once, below)
            for m in layer:
                w = mass.pop(m)
                ends = [None] * OUTCOMES
                for v, child, o in self.edges[m]:
                    f = left(v, m[v])
                    if child is not None:
                        x = w * f
                        if child in nxt:
                            nxt[child] += x
                        else:
                            nxt[child] = x
                    else:
                        ends[o] = f if ends[o] is None else ends[o] + f
                for o in range(OUTCOMES):
                    if ends[o] is not None:
                        x = w * ends[o]
                        ended[o] = x if ended[o] is None else ended[o] + x
            for o in range(OUTCOMES):
                if ended[o] is not None:
                    acc[o] += ended[o] * scale
            mass = nxt
        den = np.ones(n, dtype=object)
        for j in range(K):
            den = den * pos[j]
        return [tuple(Q(int(acc[o][i]), int(den[i])) for o in range(OUTCOMES)) for i in range(n)]
