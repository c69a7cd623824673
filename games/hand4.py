# Four-card poker hands as the by-law ranks them (s. 67.64-67.66 4-Card Poker; the same for Crazy Four
# Poker, s. 67.75-67.77): four of a kind, straight flush, three of a kind, flush, straight, two pairs,
# one pair, then the highest card; ace high, or low in A-2-3-4, the lowest straight (flush); no
# wrap-around (Q-K-A-2 is nothing). A player's or dealer's hand is the best four of his five (or six)
# cards (s. 67.71-67.72, 67.82-67.83). value() orders hands: a higher value is a higher hand, equal
# values are the by-law's push (s. 67.66, 67.77: the highest card when the combination is the same).
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


HIGH = const(0)
PAIR = const(1)
TWO_PAIR = const(2)
STRAIGHT = const(3)
FLUSH = const(4)
THREE = const(5)
STRAIGHT_FLUSH = const(6)
FOUR = const(7)
NAMES = ("high_card", "pair", "two_pair", "straight", "flush", "three_of_a_kind", "straight_flush",
         "four_of_a_kind")


def value(cards):
    """category << 16, then the ranks that break a tie, 4 bits each from bit 12 down (the largest
    group first; a straight: its top card, the four for A-2-3-4). cards: four card codes."""
    r = [cards[0] >> 2, cards[1] >> 2, cards[2] >> 2, cards[3] >> 2]
    for i in range(1, 4):  # insertion sort, highest first
        x = r[i]
        j = i - 1
        while j >= 0 and r[j] < x:
            r[j + 1] = r[j]
            j -= 1
        r[j + 1] = x
    s = cards[0] & 3
    flush = cards[1] & 3 == s and cards[2] & 3 == s and cards[3] & 3 == s
    a, b, c, d = r
    if a == d:
        return FOUR << 16 | a << 12
    if a == c:  # three of a kind and the odd card
        return THREE << 16 | a << 12 | d << 8
    if b == d:
        return THREE << 16 | b << 12 | a << 8
    if a == b and c == d:
        return TWO_PAIR << 16 | a << 12 | c << 8
    if a == b:
        return PAIR << 16 | a << 12 | c << 8 | d << 4
    if b == c:
        return PAIR << 16 | b << 12 | a << 8 | d << 4
    if c == d:
        return PAIR << 16 | c << 12 | a << 8 | b << 4
    top = -1
    if a - d == 3:
        top = a
    elif a == 12 and b == 2 and c == 1 and d == 0:  # A-2-3-4
        top = 2
    if top >= 0:
        return (STRAIGHT_FLUSH if flush else STRAIGHT) << 16 | top << 12
    return (FLUSH if flush else HIGH) << 16 | a << 12 | b << 8 | c << 4 | d


def category(v):
    return v >> 16


def best(cards):
    """The value of the best four of five or six cards."""
    n = len(cards)
    four = [0, 0, 0, 0]
    top = -1
    for i in range(n):
        for j in range(i + 1, n) if n == 6 else (n,):
            k = 0
            for x in range(n):
                if x != i and x != j:
                    four[k] = cards[x]
                    k += 1
            v = value(four)
            if v > top:
                top = v
    return top
