# Five-card poker hands as the by-law ranks them (s. 67.1-67.2 Let It Ride, 67.11-67.12 Caribbean
# Stud, 67.44 3-5-7 Poker, 67.54-67.55 Boston Poker): ace high, or low in a straight or straight
# flush from two to five only (A-2-3-4-5, the lowest); no wrap-around (Q-K-A-2-3 is nothing).
# value(cards) orders hands: a higher value is a higher hand, equal values are the by-law's push
# (same combination, then the highest card: s. 67.12, 67.55 -- the pair, or the higher pair, is
# compared before the cards beside it, as everywhere in poker). A royal flush is the highest
# straight flush (its value); category() names it apart for the pay tables.
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


HIGH = const(0)
PAIR = const(1)
TWO_PAIR = const(2)
THREE = const(3)
STRAIGHT = const(4)
FLUSH = const(5)
FULL_HOUSE = const(6)
FOUR = const(7)
STRAIGHT_FLUSH = const(8)
ROYAL = const(9)  # category() only: value() ranks it as the ace-high straight flush
NAMES = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
         "four_of_a_kind", "straight_flush", "royal_flush")
WHEEL = 0x100F  # ranks A, 2, 3, 4, 5 (bits 12, 0-3)

_cnt = bytearray(13)  # cards per rank of the hand being valued (preallocated)


def value(cards, wheel=True):
    """The hand's value: category << 20, then the ranks that break a tie, 4 bits each from bit 16
    down (the largest group first, higher ranks first within a group; a straight: its top card, the
    five for A-2-3-4-5). cards: any sequence of five card codes (rank * 4 + suit). wheel=False: an
    A-2-3-4-5 of mixed suits is no straight, only its straight flush counts (3-5-7 Poker, s. 67.41)."""
    cnt = _cnt
    for r in range(13):
        cnt[r] = 0
    mask = 0
    suit = cards[0] & 3
    flush = True
    for c in cards:
        r = c >> 2
        cnt[r] += 1
        mask |= 1 << r
        if c & 3 != suit:
            flush = False
    top = -1  # a straight's top rank
    if mask == WHEEL:
        if flush or wheel:
            top = 3
    else:
        lo = 0
        while not mask >> lo & 1:
            lo += 1
        if mask == 0x1F << lo:
            top = lo + 4
    if top >= 0:
        return (STRAIGHT_FLUSH if flush else STRAIGHT) << 20 | top << 16
    tie = 0
    shift = 16
    big = 0  # the largest group
    groups = 0
    for n in (4, 3, 2, 1):
        for r in range(12, -1, -1):
            if cnt[r] == n:
                tie |= r << shift
                shift -= 4
                groups += 1
                if big == 0:
                    big = n
    if flush:
        cat = FLUSH
    elif big == 4:
        cat = FOUR
    elif big == 3:
        cat = FULL_HOUSE if groups == 2 else THREE
    elif big == 2:
        cat = TWO_PAIR if groups == 3 else PAIR
    else:
        cat = HIGH
    return cat << 20 | tie


def category(v):
    """The combination of a value (ROYAL for the ace-high straight flush)."""
    c = v >> 20
    if c == STRAIGHT_FLUSH and (v >> 16) & 15 == 12:
        return ROYAL
    return c


def top_rank(v):
    """The rank of the first tie-break group: the pair's rank for a pair, the higher pair's for two
    pairs, the highest card for a high-card hand."""
    return (v >> 16) & 15


# the 21 ways to keep 5 of 7 cards, as the two positions left out
_OUT7 = b"\x00\x01\x00\x02\x00\x03\x00\x04\x00\x05\x00\x06\x01\x02\x01\x03\x01\x04\x01\x05\x01\x06" \
        b"\x02\x03\x02\x04\x02\x05\x02\x06\x03\x04\x03\x05\x03\x06\x04\x05\x04\x06\x05\x06"


def best_of_7(cards, wheel=True):
    """The value of the best five of seven cards (s. 67.50: five of the seven form the hand); wheel
    as for value()."""
    five = [0] * 5
    best = -1
    for k in range(0, 42, 2):
        a = _OUT7[k]
        b = _OUT7[k + 1]
        j = 0
        for i in range(7):
            if i != a and i != b:
                five[j] = cards[i]
                j += 1
        v = value(five, wheel)
        if v > best:
            best = v
    return best
