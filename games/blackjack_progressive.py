# The progressive wager of by-law s. 21.2: three pay tables ("manners") on the player's first 2 to 5
# cards. The first five cards are the player's two and the shoe's next three, whatever the player
# does (the cards he would draw: the same guarantee as the sevens wager of s. 21.3), so the wager
# reads cards, never decisions. Each award is a pattern: (name, cards, kind, ranks, colour rule);
# the first pattern of its table that the first `cards` cards form is paid (the by-law lists them
# from the highest pay down). The jackpot lines ("100 %" or "10 % of the progressive jackpot") are
# fixed pays the model states (jeton-blackjack/1 has no progressive meter).
# Card codes: rank * 4 + suit (rank 0 = two .. 8 = ten .. 12 = ace; suit 0 c, 1 d, 2 h, 3 s).
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


SET = const(0)  # the ranks, one card each, are exactly those of the mask
SAME = const(1)  # every card of one rank, a rank of the mask
BJ = const(2)  # an ace and a ten-value card
ANY = const(0)
SUIT = const(1)  # every card of one suit
COLOUR = const(2)  # every card red, or every card black
RED = const(3)
BLACK = const(4)
_A = 1 << 12
_TENS = (1 << 8) | (1 << 9) | (1 << 10) | (1 << 11)  # ten, jack, queen, king


def _r(*ranks):
    m = 0
    for r in ranks:
        m |= 1 << r
    return m


# s. 21.2 (1), (2), (3), in the by-law's order
TABLES = {
    "progressive_1": (
        ("ace_to_five_suited", 5, SET, _A | _r(0, 1, 2, 3), SUIT),
        ("two_to_five_suited", 4, SET, _r(0, 1, 2, 3), SUIT),
        ("four_five_six_suited", 3, SET, _r(2, 3, 4), SUIT),
        ("ace_jack_suited", 2, SET, _A | _r(9), SUIT),
        ("blackjack_suited", 2, BJ, 0, SUIT),
        ("pair_ten_to_ace", 2, SAME, _A | _TENS, ANY),
        ("blackjack", 2, BJ, 0, ANY),
    ),
    "progressive_2": (
        ("four_aces_one_colour", 4, SAME, _A, COLOUR),
        ("three_aces_suited", 3, SAME, _A, SUIT),
        ("three_aces", 3, SAME, _A, ANY),
        ("two_aces_suited", 2, SAME, _A, SUIT),
        ("two_aces", 2, SAME, _A, ANY),
    ),
    "progressive_3": (
        ("ace_to_five_suited", 5, SET, _A | _r(0, 1, 2, 3), SUIT),
        ("four_low_red", 4, SAME, _r(0, 1, 2, 3), RED),
        ("four_low_black", 4, SAME, _r(0, 1, 2, 3), BLACK),
        ("three_low_suited", 3, SAME, _r(1, 2, 3, 4), SUIT),
        ("three_low", 3, SAME, _r(1, 2, 3, 4), ANY),
        ("two_high_suited", 2, SAME, _TENS, SUIT),
    ),
}


def _red(code):
    s = code & 3
    return s == 1 or s == 2


def colours_ok(rule, cards, n):
    """True when the first n cards keep to the colour rule (a prefix does when it still can)."""
    if rule == ANY or n == 0:
        return True
    c0 = cards[0]
    for i in range(n):
        c = cards[i]
        if rule == SUIT and c & 3 != c0 & 3:
            return False
        if rule == COLOUR and _red(c) != _red(c0):
            return False
        if rule == RED and not _red(c):
            return False
        if rule == BLACK and _red(c):
            return False
    return True


def ranks_ok(kind, mask, cards, n, whole):
    """True when the first n cards keep to the pattern's ranks; whole: n is all its cards."""
    seen = 0
    r0 = cards[0] >> 2 if n else 0
    for i in range(n):
        r = cards[i] >> 2
        b = 1 << r
        if kind == SET:
            if not mask & b or seen & b:
                return False
            seen |= b
        elif kind == SAME:
            if r != r0 or not mask & b:
                return False
        else:  # BJ: an ace and a ten-value card
            if not (_A | _TENS) & b or (seen & _A and b == _A) or (seen & _TENS and b & _TENS):
                return False
            seen |= _A if b == _A else _TENS
    if whole and kind == SET:
        return seen == mask
    return True


def award(table, cards):
    """The award name the first five cards (codes) form under table, or None."""
    for name, n, kind, mask, rule in TABLES[table]:
        if ranks_ok(kind, mask, cards, n, True) and colours_ok(rule, cards, n):
            return name
    return None


def awards(table):
    return tuple(p[0] for p in TABLES[table])
