# Unbiased mapping, proven by exhaustion on both runtimes.
#
# Two enumerating generators:
#   Enumerate  randbits(k) walks 0 .. 2**k - 1 in turn: one full cycle per value of n.
#   exhaust()  walks the whole tree of generator answers (every k-bit value at every draw, up to a
#              depth bound) and adds up each outcome's exact probability 2**-(bits drawn). Paths cut
#              by the bound are dropped; since a rejection only restarts the same draw, the mass
#              kept is equal for every outcome iff the mapping is unbiased, at any bound.
from devtest import raises

import rng


class Enumerate:
    """randbits(k) returns 0, 1, ..., 2**k - 1 in turn: every bit pattern exactly once per cycle."""

    def __init__(self):
        self.next = {}

    def randbits(self, k):
        v = self.next.get(k, 0)
        self.next[k] = (v + 1) % (1 << k)
        return v


class _Branch(Exception):
    pass


class _Replay:
    """Answers the draws of a recorded path, then stops at the first draw beyond it."""

    def __init__(self, path):
        self.path = path
        self.i = 0
        self.k = 0

    def randbits(self, k):
        if self.i < len(self.path):
            v, kk = self.path[self.i]
            assert kk == k  # the mapping must be deterministic given the answers
            self.i += 1
            return v
        self.k = k
        raise _Branch()


def exhaust(f, max_draws, top=256):
    """{outcome: probability * 2**top} over every path of at most max_draws draws."""
    mass = {}
    stack = [[]]
    while stack:
        path = stack.pop()
        gen = _Replay(path)
        try:
            out = f(gen)
        except _Branch:
            if len(path) < max_draws:
                for v in range(1 << gen.k):
                    stack.append(path + [(v, gen.k)])
            continue
        bits = 0
        for _, k in path:
            bits += k
        mass[out] = mass.get(out, 0) + (1 << (top - bits))
    return mass


def factorial(n):
    r = 1
    for i in range(2, n + 1):
        r *= i
    return r


def test_below_every_value_once_per_cycle():
    for n in (1, 2, 3, 5, 6, 7, 10, 100, 255, 256, 257):
        gen = Enumerate()
        counts = [0] * n
        for _ in range(3 * n):
            counts[rng.below(gen, n)] += 1
        assert counts == [3] * n, (n, counts)


def test_below_exhaustive_tree():
    for n in range(1, 34):
        mass = exhaust(lambda g: rng.below(g, n), 3)
        assert sorted(mass) == list(range(n)), n
        assert len(set(mass.values())) == 1, (n, mass)


def test_weighted_exactly_proportional():
    weights = [5, 0, 3, 9, 1]
    gen = Enumerate()
    total = sum(weights)
    counts = [0] * len(weights)
    for _ in range(2 * total):
        counts[rng.weighted(gen, weights)] += 1
    assert counts == [2 * w for w in weights]


def test_weighted_exhaustive_tree():
    for weights in ([1, 2], [5, 0, 3, 9, 1], [7, 7, 7], [1, 60], [3, 0, 0, 2]):
        mass = exhaust(lambda g: rng.weighted(g, weights), 3)
        unit = None
        for i, w in enumerate(weights):
            if w == 0:
                assert i not in mass
                continue
            assert mass[i] % w == 0
            if unit is None:
                unit = mass[i] // w
            assert mass[i] == unit * w, (weights, mass)


def test_shuffle_every_permutation_equally_likely():
    for m, depth in ((1, 0), (2, 1), (3, 4), (4, 5), (5, 6)):
        def f(g):
            seq = list(range(m))
            rng.shuffle(g, seq)
            return tuple(seq)

        mass = exhaust(f, depth)
        assert len(mass) == factorial(m), (m, len(mass))
        assert len(set(mass.values())) == 1, (m, set(mass.values()))


def test_deal_every_ordered_hand_equally_likely():
    for n, k, depth in ((5, 0, 0), (5, 1, 2), (5, 2, 3), (6, 3, 4), (7, 3, 4), (5, 5, 6)):
        mass = exhaust(lambda g: tuple(rng.deal(g, n, k)), depth)
        assert len(mass) == factorial(n) // factorial(n - k), (n, k, len(mass))
        assert len(set(mass.values())) == 1, (n, k)
        for hand in mass:
            assert len(set(hand)) == k and all(0 <= c < n for c in hand)


def test_bad_arguments():
    with raises(ValueError):
        rng.below(Enumerate(), 0)
    with raises(ValueError):
        rng.weighted(Enumerate(), [0, 0])
    with raises(ValueError):
        rng.weighted(Enumerate(), [1, -1])
    with raises(ValueError):
        rng.deal(Enumerate(), 3, 4)


def test_large_n_uses_enough_bits():
    class Top:
        def randbits(self, k):
            self.k = k
            return (1 << k) - 1 if not hasattr(self, "once") else 0

    for n in (2**31 + 1, 2**64, 10**30 + 7):
        g = Top()
        g.once = True
        rng.below(g, n)
        assert (1 << g.k) >= n > (1 << (g.k - 1))


def test_the_proof_has_teeth():
    # a modulo mapping and the naive shuffle (swap with any position) are caught as biased
    mass = exhaust(lambda g: g.randbits(3) % 5, 1)
    assert len(set(mass.values())) > 1

    def naive(g):
        seq = list(range(3))
        for i in range(3):
            j = rng.below(g, 3)
            seq[i], seq[j] = seq[j], seq[i]
        return tuple(seq)

    mass = exhaust(naive, 5)
    assert len(mass) == 6 and len(set(mass.values())) > 1
