"""Card hands for the certification of the card-poker table games, vectorised (numpy).

Written apart from the device's evaluators (games/hand3.py, games/hand5.py) from the by-law's
text, so that each checks the other (tests/host/test_certify_cards.py compares them on every hand):
a hand's strength here is its category times 13**5 plus its ranks sorted by (how many, rank), read
as base-13 digits; a straight (flush) counts its top card only, the five for A-2-3-4-5 (s. 67.11
(6)), the three for A-2-3 (s. 67.23 (3)). A card is rank * 4 + suit (rank 0 = two ... 12 = ace).

Deals are enumerated as k-subsets of a deck, indexed in colex order (the index of the sorted cards
c1 < ... < ck is the sum of C(ci, i)), and grouped by suit symmetry: two hands that differ by a
relabelling of the suits have the same figures in every game here (no game ranks a suit), so each
class is worked out once and weighted by its size.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

# categories, low to high, in each game's own order (s. 67.11, 67.23)
C5 = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
      "four_of_a_kind", "straight_flush", "royal_flush")
C3 = ("high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush")
BASE = 13 ** 5


def binom_table(n: int, k: int) -> np.ndarray:
    """t[c, i] = C(c, i) for c < n, i <= k (int64)."""
    t = np.zeros((n + 1, k + 1), dtype=np.int64)
    for c in range(n + 1):
        for i in range(k + 1):
            t[c, i] = math.comb(c, i)
    return t


def subsets(n: int, k: int) -> np.ndarray:
    """Every k-subset of range(n) as sorted rows, row i being the subset of colex index i (int16).

    Built block by block, not sorted: in colex order the sets come by their highest card c, and
    those with highest card c are the (k-1)-subsets of range(c), in their colex order, then c."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.int16)
    if n < k:
        return np.zeros((0, k), dtype=np.int16)
    lower = subsets(n - 1, k - 1)  # its first C(c, k-1) rows are the (k-1)-subsets of range(c)
    out = np.empty((math.comb(n, k), k), dtype=np.int16)
    at = 0
    for c in range(k - 1, n):
        m = math.comb(c, k - 1)
        out[at:at + m, :k - 1] = lower[:m]
        out[at:at + m, k - 1] = c
        at += m
    return out


def colex(rows: np.ndarray, binom: np.ndarray) -> np.ndarray:
    """Colex index of each row of sorted cards (ascending)."""
    acc = np.zeros(rows.shape[0], dtype=np.int64)
    for i in range(rows.shape[1]):
        acc += binom[rows[:, i].astype(np.int64), i + 1]
    return acc


def _sorted_desc(ranks: np.ndarray) -> np.ndarray:
    return -np.sort(-ranks, axis=1)


def _grouped(ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ranks ordered by how many of each then by rank, both descending; the largest count)."""
    n = ranks.shape[1]
    counts = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    key = counts * 16 + ranks
    order = np.argsort(-key, axis=1, kind="stable")
    return np.take_along_axis(ranks, order, axis=1), counts.max(axis=1) if n else None


def _digits(ranks: np.ndarray) -> np.ndarray:
    acc = np.zeros(ranks.shape[0], dtype=np.int64)
    for i in range(ranks.shape[1]):
        acc = acc * 13 + ranks[:, i]
    return acc * 13 ** (5 - ranks.shape[1])


def strength5(cards: np.ndarray, chunk: int = 1 << 18) -> tuple[np.ndarray, np.ndarray]:
    """(strength, category index into C5) of each row of five card codes (in chunks of rows: the
    rank comparisons take 25 words a row)."""
    if len(cards) > chunk:
        parts = [_strength5(cards[i:i + chunk]) for i in range(0, len(cards), chunk)]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    return _strength5(cards)


def _strength5(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ranks = _sorted_desc((cards >> 2).astype(np.int64))
    suits = cards & 3
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = (ranks[:, :-1] != ranks[:, 1:]).all(axis=1)
    wheel = distinct & (ranks[:, 0] == 12) & (ranks[:, 1] == 3) & (ranks[:, 4] == 0)
    run = distinct & (ranks[:, 0] - ranks[:, 4] == 4)
    straight = run | wheel
    top = np.where(wheel, 3, ranks[:, 0])
    grouped, big = _grouped(ranks)
    pairs = ((grouped[:, :-1] == grouped[:, 1:]).sum(axis=1))  # equal neighbours: 1 pair, 2 two pair/trips...
    cat = np.zeros(len(cards), dtype=np.int64)
    cat[big == 2] = 1
    cat[(big == 2) & (pairs == 2)] = 2
    cat[big == 3] = 3
    cat[(big == 3) & (pairs == 3)] = 6
    cat[big == 4] = 7
    cat[straight] = 4
    cat[flush] = 5
    cat[straight & flush] = 8
    tie = np.where(straight, top * 13 ** 4, _digits(grouped))
    strength = cat * BASE + tie
    named = cat.copy()
    named[(cat == 8) & (top == 12)] = 9
    return strength, named


def strength3(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(strength, category index into C3) of each row of three card codes (s. 67.23)."""
    ranks = _sorted_desc((cards >> 2).astype(np.int64))
    suits = cards & 3
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = (ranks[:, :-1] != ranks[:, 1:]).all(axis=1)
    wheel = distinct & (ranks[:, 0] == 12) & (ranks[:, 1] == 1) & (ranks[:, 2] == 0)
    straight = (distinct & (ranks[:, 0] - ranks[:, 2] == 2)) | wheel
    top = np.where(wheel, 1, ranks[:, 0])
    grouped, big = _grouped(ranks)
    cat = np.zeros(len(cards), dtype=np.int64)
    cat[big == 2] = 1
    cat[flush] = 2
    cat[straight] = 3
    cat[big == 3] = 4
    cat[straight & flush] = 5
    tie = np.where(straight, top * 13 ** 4, _digits(grouped))
    return cat * BASE + tie, cat


C4 = ("high_card", "pair", "two_pair", "straight", "flush", "three_of_a_kind", "straight_flush", "four_of_a_kind")


def strength4(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(strength, category index into C4) of each row of four card codes (s. 67.65: four of a kind
    above a straight flush above three of a kind above a flush; A-2-3-4 the lowest straight)."""
    ranks = _sorted_desc((cards >> 2).astype(np.int64))
    suits = cards & 3
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = (ranks[:, :-1] != ranks[:, 1:]).all(axis=1)
    wheel = distinct & (ranks[:, 0] == 12) & (ranks[:, 1] == 2) & (ranks[:, 3] == 0)
    straight = (distinct & (ranks[:, 0] - ranks[:, 3] == 3)) | wheel
    top = np.where(wheel, 2, ranks[:, 0])
    grouped, big = _grouped(ranks)
    pairs = (grouped[:, :-1] == grouped[:, 1:]).sum(axis=1)
    cat = np.zeros(len(cards), dtype=np.int64)
    cat[big == 2] = 1
    cat[(big == 2) & (pairs == 2)] = 2
    cat[straight] = 3
    cat[flush] = 4
    cat[big == 3] = 5
    cat[straight & flush] = 6
    cat[big == 4] = 7
    tie = np.where(straight, top * 13 ** 4, _digits(grouped))
    return cat * BASE + tie, cat


def dense(strength: np.ndarray) -> np.ndarray:
    """Strengths renumbered 0, 1, ... in the same order (ties kept equal)."""
    return np.unique(strength, return_inverse=True)[1].astype(np.int64)


# the 24 relabellings of the four suits
PERMS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)


def suit_classes(rows: np.ndarray, binom: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(representative colex index of each row's class, the representatives, their class sizes):
    the representative is the least colex index over the 24 relabellings of the suits.

    Of sets of one size, colex order is the order of their masks (sum of 2**card) as integers, so the
    least relabelled mask is taken (each relabelling moves the four suits' bit planes, no sort) and
    only the classes' masks are turned into colex indexes."""
    m = masks(rows)
    plane = np.uint64(sum(1 << 4 * r for r in range(13)))  # the bits of suit 0
    planes = [(m >> np.uint64(s)) & plane for s in range(4)]
    best = None
    for p in PERMS:
        x = planes[0] << np.uint64(p[0])
        for s in range(1, 4):
            x |= planes[s] << np.uint64(p[s])
        best = x if best is None else np.minimum(best, x)
    uniq, inverse, counts = np.unique(best, return_inverse=True, return_counts=True)
    bits = (uniq[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    reps = colex(np.nonzero(bits)[1].reshape(len(uniq), rows.shape[1]), binom)
    return reps[inverse.reshape(-1)], reps, counts


def complement(n: int, rows: np.ndarray) -> np.ndarray:
    """The positions 0..n-1 not in each row (rows of distinct positions), ascending, one row each."""
    keep = np.ones((rows.shape[0], n), dtype=bool)
    keep[np.arange(rows.shape[0])[:, None], rows] = False
    return np.nonzero(keep)[1].reshape(rows.shape[0], n - rows.shape[1]).astype(np.int64)


def masks(rows: np.ndarray) -> np.ndarray:
    """One bit per card of each row (uint64)."""
    m = np.zeros(rows.shape[0], dtype=np.uint64)
    for i in range(rows.shape[1]):
        m |= np.left_shift(np.uint64(1), rows[:, i].astype(np.uint64))
    return m
