# Five-card hand -> award index (-1: no award). The ranks are the by-law's (s. 67.1, 67.2): ace
# high, or low in a straight / straight flush from two to five only; no wrap-around (Q-K-A-2-3).
# A wild card (deuces, the joker) stands for any card, a duplicate included (five of a kind), and
# a hand is paid the FIRST award of the model it can form (docs/game-format.md).
from games.poker_model import (
    FIVE,
    FLUSH,
    FOUR,
    FOUR_WILD,
    FULL_HOUSE,
    ROYAL,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE,
    TWO_PAIR,
    WILD_ROYAL,
)

_cnt = bytearray(13)  # natural cards per rank of the hand being evaluated (preallocated)


def award(m, cards):
    """Index of the award the 5 cards form in model m (a PokerModel), -1 when none."""
    cnt = _cnt
    for r in range(13):
        cnt[r] = 0
    w = 0
    suit = -1
    flush = True
    rmask = 0
    for c in cards:
        if m.is_wild(c):
            w += 1
            continue
        r = c >> 2
        cnt[r] += 1
        rmask |= 1 << r
        s = c & 3
        if suit < 0:
            suit = s
        elif s != suit:
            flush = False
    c1 = c2 = 0  # the two largest rank counts
    d = 0  # distinct natural ranks
    for r in range(13):
        n = cnt[r]
        if n:
            d += 1
            if n > c1:
                c2 = c1
                c1 = n
            elif n > c2:
                c2 = n
    distinct = c1 <= 1
    straight = False
    royal = False
    if distinct:
        # every natural rank inside one window of 5 consecutive ranks; the ace also low (bit -1)
        high = rmask << 1  # bit r+1: rank r; bit 0: the ace played as one
        low = (rmask & 0xFFF) << 1 | 1 if rmask >> 12 else high
        for lo in range(10):
            win = 0x1F << lo
            if high & ~win == 0 or low & ~win == 0:
                straight = True
                break
        royal = rmask & 0xFF == 0  # ten to ace only
    for i in range(len(m.kind)):
        k = m.kind[i]
        if k == ROYAL:
            ok = w == 0 and flush and distinct and royal
        elif k == WILD_ROYAL:
            ok = flush and distinct and royal
        elif k == FOUR_WILD:
            ok = w == 4
        elif k == FIVE:
            ok = c1 + w >= 5
        elif k == STRAIGHT_FLUSH:
            ok = flush and straight
        elif k == FOUR:
            ok = _of_a_kind(cnt, m.ranks[i], w, 4)
            if ok and m.kicker[i]:
                ok = False
                for r in range(13):
                    if cnt[r] == 1 and m.kicker[i] >> r & 1:
                        ok = True
        elif k == FULL_HOUSE:
            ok = (d == 2 and c1 <= 3 and c2 <= 2) or (d == 1 and c1 <= 3)
        elif k == FLUSH:
            ok = flush
        elif k == STRAIGHT:
            ok = straight
        elif k == THREE:
            ok = _of_a_kind(cnt, m.ranks[i], w, 3)
        elif k == TWO_PAIR:
            ok = (2 - c1 if c1 < 2 else 0) + (2 - c2 if c2 < 2 else 0) <= w
        else:  # PAIR
            ok = _of_a_kind(cnt, m.ranks[i], w, 2)
        if ok:
            return i
    return -1


def _of_a_kind(cnt, ranks, w, n):
    # n cards of one rank of the mask, the wild cards standing for that rank
    for r in range(13):
        if ranks >> r & 1 and cnt[r] + w >= n:
            return True
    return False
