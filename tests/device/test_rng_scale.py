# Unbiased mapping, proven by exhaustion: a generator that walks its whole output space once.
import rng


class Enumerate:
    """randbits(k) returns 0, 1, ..., 2**k - 1 in turn: every bit pattern exactly once per cycle."""

    def __init__(self):
        self.next = {}

    def randbits(self, k):
        v = self.next.get(k, 0)
        self.next[k] = (v + 1) % (1 << k)
        return v


def test_below_every_value_once_per_cycle():
    for n in (1, 2, 3, 5, 6, 7, 10, 100, 255, 257):
        gen = Enumerate()
        counts = [0] * n
        for _ in range(3 * n):
            counts[rng.below(gen, n)] += 1
        assert counts == [3] * n, (n, counts)


def test_weighted_exactly_proportional():
    weights = [5, 0, 3, 9, 1]
    gen = Enumerate()
    total = sum(weights)
    counts = [0] * len(weights)
    for _ in range(2 * total):
        counts[rng.weighted(gen, weights)] += 1
    assert counts == [2 * w for w in weights]


def test_below_rejects_bad_n():
    from devtest import raises

    with raises(ValueError):
        rng.below(Enumerate(), 0)


def test_deal_distinct():
    gen = rng.open_generator(rng.open_source("emulated"))
    for _ in range(50):
        hand = rng.deal(gen, 52, 5)
        assert len(set(hand)) == 5
        assert all(0 <= c < 52 for c in hand)
