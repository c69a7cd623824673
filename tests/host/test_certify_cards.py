"""The host's hand evaluators and deal enumeration for the card-poker table games
(tools/certify/cards.py, tools/certify/dealer_counts.py), checked against published counts and
against the device's evaluators (games/hand3.py, games/hand5.py), written apart:

- the 2,598,960 five-card hands by category (royal flush 4, straight flush 36, four of a kind 624,
  full house 3,744, flush 5,108, straight 10,200, three of a kind 54,912, two pairs 123,552, one pair
  1,098,240, high card 1,302,540) and their 7,462 distinct values (Wikipedia, "Poker probability",
  frequency of 5-card poker hands; the distinct ranks as listed there);
- the 22,100 three-card hands (48 straight flushes, 52 three of a kind, 720 straights, 1,096
  flushes, 3,744 pairs, 16,440 others: John Grochowski, "Three Card Poker and Pair Plus", Casino City
  Times, 8 July 2021);
- the device's order of hands equals the host's on every three-card hand and on a sample of 300,000
  five-card hands;
- the k-subsets in colex order, the suit classes' representatives (the least relabelling) and the
  positions outside a hand against their definitions, worked out card by card here; the suit
  classes' number by Burnside's lemma, counted apart here;
- the inclusion-exclusion sweep (dealer_counts) against direct counting on small decks with
  arbitrary strengths, with and without the dealer's card shown.
"""
from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from games import hand3, hand5
from tools.certify import cards
from tools.certify.dealer_counts import below_counts


@pytest.fixture(scope="module")
def five() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    hands = cards.subsets(52, 5).astype(np.int64)
    s, cat = cards.strength5(hands)
    return hands, s, cat


def test_five_card_categories_as_published(five) -> None:
    hands, s, cat = five
    counts = dict(zip(cards.C5, np.bincount(cat, minlength=10).tolist()))
    assert counts == {"royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624, "full_house": 3744,
                      "flush": 5108, "straight": 10200, "three_of_a_kind": 54912, "two_pair": 123552,
                      "pair": 1098240, "high_card": 1302540}
    assert len(np.unique(s)) == 7462


def test_three_card_categories_as_published() -> None:
    hands = cards.subsets(52, 3).astype(np.int64)
    s, cat = cards.strength3(hands)
    counts = dict(zip(cards.C3, np.bincount(cat, minlength=6).tolist()))
    assert counts == {"straight_flush": 48, "three_of_a_kind": 52, "straight": 720, "flush": 1096,
                      "pair": 3744, "high_card": 16440}


def test_the_device_orders_three_card_hands_as_the_host() -> None:
    hands = cards.subsets(52, 3).astype(np.int64)
    s, cat = cards.strength3(hands)
    dev = np.array([hand3.value([int(c) for c in h]) for h in hands])
    assert (cards.dense(s) == cards.dense(dev)).all()
    assert [hand3.NAMES[v >> 12] for v in dev[:50]] == [cards.C3[c] for c in cat[:50]]


def test_the_device_orders_five_card_hands_as_the_host(five) -> None:
    hands, s, cat = five
    pick = np.random.default_rng(26).choice(len(hands), 300_000, replace=False)
    dev = np.array([hand5.value([int(c) for c in hands[i]]) for i in pick])
    assert (cards.dense(s[pick]) == cards.dense(dev)).all()
    assert all(hand5.NAMES[hand5.category(int(v))] == cards.C5[c] for v, c in zip(dev, cat[pick]))


def _burnside(k: int) -> int:
    # orbits of k-card hands under the 24 relabellings of the suits: the mean number of hands each
    # relabelling leaves unchanged (a hand is fixed when it is a union of the relabelling's cycles
    # over suits, rank by rank: count the ways per rank and combine by the number of cards)
    total = 0
    for p in itertools.permutations(range(4)):
        cycles, seen = [], set()
        for s0 in range(4):
            if s0 not in seen:
                n, x = 0, s0
                while x not in seen:
                    seen.add(x)
                    x = p[x]
                    n += 1
                cycles.append(n)
        per_rank = [0] * 5  # ways to pick a fixed set of c cards of one rank
        for mask in range(1 << len(cycles)):
            per_rank[sum(cycles[i] for i in range(len(cycles)) if mask >> i & 1)] += 1
        poly = [1]
        for _ in range(13):
            poly = [sum(poly[i - j] * per_rank[j] for j in range(5) if 0 <= i - j < len(poly))
                    for i in range(len(poly) + 4)]
        total += poly[k]
    return total // 24


@pytest.mark.parametrize("k", [3, 4, 5])
def test_suit_classes_number_as_burnside_counts(k: int) -> None:
    hands = cards.subsets(52, k).astype(np.int64)
    best, reps, sizes = cards.suit_classes(hands, cards.binom_table(52, k))
    assert len(reps) == _burnside(k) and sizes.sum() == math.comb(52, k)
    if k == 5:
        assert len(reps) == 134459


def _colex_index(cs) -> int:  # the definition: sorted cards c1 < ... < ck, sum of C(ci, i)
    return sum(math.comb(c, i + 1) for i, c in enumerate(sorted(cs)))


@pytest.mark.parametrize("n,k", [(52, 3), (13, 5), (9, 1), (6, 6), (4, 5)])
def test_subsets_are_every_set_in_colex_order(n: int, k: int) -> None:
    want = sorted(itertools.combinations(range(n), k), key=_colex_index)
    got = cards.subsets(n, k)
    assert got.dtype == np.int16 and got.shape == (len(want), k)
    assert [tuple(int(c) for c in r) for r in got] == want
    assert [_colex_index(r) for r in want] == list(range(len(want)))


def test_suit_class_representatives_are_the_least_relabelling() -> None:
    # each three-card hand against its 24 relabellings, counted card by card here
    hands = cards.subsets(52, 3).astype(np.int64)
    best, reps, sizes = cards.suit_classes(hands, cards.binom_table(52, 3))
    want = [min(_colex_index((c & ~3) | p[c & 3] for c in h) for p in itertools.permutations(range(4)))
            for h in hands.tolist()]
    assert best.tolist() == want
    by = {}
    for w in want:
        by[w] = by.get(w, 0) + 1
    assert reps.tolist() == sorted(by) and sizes.tolist() == [by[r] for r in sorted(by)]


def test_complement_is_every_other_position_ascending() -> None:
    rng = random.Random(5)
    rows = np.array([rng.sample(range(52), 5) for _ in range(200)], dtype=np.int64)
    got = cards.complement(52, rows)
    assert got.dtype == np.int64
    assert got.tolist() == [sorted(set(range(52)) - set(r)) for r in rows.tolist()]


@pytest.mark.parametrize("n,h,up", [(12, 3, True), (12, 3, False), (11, 4, True), (10, 4, False)])
def test_the_sweep_counts_as_direct_enumeration(n: int, h: int, up: bool) -> None:
    rnd = random.Random(n * 10 + h)
    hands = np.array(list(itertools.combinations(range(n), h)), dtype=np.int64)
    strength = np.array([rnd.randrange(9) for _ in hands], dtype=np.int64)  # ties on purpose
    strength = cards.dense(strength)
    players = hands[rnd.sample(range(len(hands)), 25)]
    thresholds = np.array([[rnd.randrange(int(strength.max()) + 2) for _ in range(3)] for _ in players])
    got = below_counts(n, hands, strength, players, thresholds, up)
    by_set = {tuple(r): int(s) for r, s in zip(hands.tolist(), strength)}
    for i, p in enumerate(players.tolist()):
        others = [c for c in range(n) if c not in p]
        for j in range(3):
            x = thresholds[i, j]
            if up:
                for ui, u in enumerate(others):
                    want = sum(1 for d in by_set if u in d and not set(d) & set(p) and by_set[d] < x)
                    assert got[i, ui, j] == want, (p, u, x)
            else:
                want = sum(1 for d in by_set if not set(d) & set(p) and by_set[d] < x)
                assert got[i, j] == want, (p, x)
