# Unbiased mapping of generator bits onto outcomes: integers only, no floats, no modulo bias.
# A generator is any object with randbits(k) -> uniform int in [0, 2**k).


def bitlen(n):
    """n.bit_length() for n >= 0 (MicroPython's int has no bit_length)."""
    k = 0
    while n >> 16:
        n >>= 16
        k += 16
    while n:
        n >>= 1
        k += 1
    return k


def below(gen, n):
    """Uniform integer in [0, n) by rejection: draw just enough bits, retry when >= n."""
    if n <= 0:
        raise ValueError("below: n must be positive")
    if n == 1:
        return 0
    k = bitlen(n - 1)
    while True:
        v = gen.randbits(k)
        if v < n:
            return v


def weighted(gen, weights):
    """Index i with probability weights[i] / sum(weights), exactly (integer weights >= 0)."""
    total = 0
    for w in weights:
        if w < 0:
            raise ValueError("weighted: negative weight")
        total += w
    if total <= 0:
        raise ValueError("weighted: weights sum to zero")
    r = below(gen, total)
    for i, w in enumerate(weights):
        if r < w:
            return i
        r -= w
    raise AssertionError("unreachable")


def shuffle(gen, seq):
    """Fisher-Yates in place: every permutation exactly equally likely."""
    for i in range(len(seq) - 1, 0, -1):
        j = below(gen, i + 1)
        seq[i], seq[j] = seq[j], seq[i]


def deal(gen, n, k):
    """k distinct values from range(n), in dealt order (partial Fisher-Yates)."""
    if not 0 <= k <= n:
        raise ValueError("deal: need 0 <= k <= n")
    # the pool range(n) is held only where a swap moved it (moved[p]: what position p holds now): a
    # six-deck shoe's pool is 312 items, one piece of 1-2 KB a fragmented board heap may not have
    moved = {}
    out = []
    for i in range(k):
        j = i + below(gen, n - i)
        out.append(moved.get(j, j))
        moved[j] = moved.get(i, i)  # position i is never drawn from again (j >= i)
    return out
