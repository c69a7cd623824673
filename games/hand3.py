# Three-card poker hands as the by-law ranks them (s. 67.22-67.24 3 Card Poker; the same combinations
# for the three-card hands of 3-5-7 Poker, s. 67.43, and Boston Poker, s. 67.53): straight flush,
# three of a kind, straight, flush, pair, then the highest card. Ace high, or low in A-2-3, the
# lowest straight (flush) (s. 67.23 (1), (3)); no wrap-around (K-A-2 is nothing). value() orders
# hands: a higher value is a higher hand, equal values are the by-law's push (s. 67.24).
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


HIGH = const(0)
PAIR = const(1)
FLUSH = const(2)
STRAIGHT = const(3)
THREE = const(4)
STRAIGHT_FLUSH = const(5)
NAMES = ("high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush")


def value(cards):
    """category << 12, then the ranks that break a tie, 4 bits each from bit 8 down (the pair first,
    then the odd card; a straight: its top card, the three for A-2-3). cards: three card codes."""
    a = cards[0] >> 2
    b = cards[1] >> 2
    c = cards[2] >> 2
    if a < b:
        a, b = b, a
    if b < c:
        b, c = c, b
    if a < b:
        a, b = b, a
    flush = cards[0] & 3 == cards[1] & 3 == cards[2] & 3
    if a == c:
        return THREE << 12 | a << 8
    if a == b:
        return PAIR << 12 | a << 8 | c << 4
    if b == c:
        return PAIR << 12 | b << 8 | a << 4
    top = -1
    if a - c == 2:
        top = a
    elif a == 12 and b == 1 and c == 0:  # A-2-3
        top = 1
    if top >= 0:
        return (STRAIGHT_FLUSH if flush else STRAIGHT) << 12 | top << 8
    return (FLUSH if flush else HIGH) << 12 | a << 8 | b << 4 | c


def category(v):
    return v >> 12
