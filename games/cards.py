# Cards of the card-poker table games (by-law s. 63-67.87): codes, names, and the deal from a shoe.
# A card is rank * 4 + suit, rank 0 = two ... 12 = ace, suit 0..3 = clubs, diamonds, hearts, spades
# (the video poker codes, games/poker.py). A shoe of D decks has 52 * D positions; position p holds
# card p % 52 (deck copy p // 52). A round deals all the cards it can need at once, before anything
# is shown, by a partial Fisher-Yates shuffle of the shoe (rng.deal: each position drawn with
# rng.below, no modulo bias): every ordered deal of distinct positions is equally likely, which is a
# fresh shuffle of the whole shoe for every round (docs/games.md, "Card-poker table games": why that
# is at least as random as the by-law's s. 7-8). The player's decisions never draw: they only choose
# which of these committed cards are shown and paid (s. 88).
from rng import deal as _deal

RANKS = "23456789TJQKA"
SUITS = "cdhs"
ACE = 12
KING = 11
QUEEN = 10
JACK = 9
TEN = 8


def rank(c):
    return c >> 2


def name(c):
    """'As', 'Td', '2c': rank then suit."""
    return RANKS[c >> 2] + SUITS[c & 3]


def rank_index(ch):
    """0..12 for a rank letter of RANKS, -1 for anything else."""
    if not isinstance(ch, str) or len(ch) != 1:
        return -1
    return RANKS.find(ch)


def deal(gen, decks, k):
    """k distinct shoe positions of a shoe of `decks` decks, in dealt order (a list of ints)."""
    return _deal(gen, 52 * decks, k)


def check(positions, decks, k):
    """ValueError unless positions are k distinct positions of the shoe (a recalled or resumed deal).
    The cards they hold, as a list of card codes, otherwise."""
    n = 52 * decks
    if len(positions) != k:
        raise ValueError("deal: %d cards, the round deals %d" % (len(positions), k))
    seen = bytearray((n + 7) // 8)
    out = []
    for p in positions:
        if not isinstance(p, int) or isinstance(p, bool) or p < 0 or p >= n:
            raise ValueError("deal: position %r is not in the shoe of %d cards" % (p, n))
        if seen[p >> 3] >> (p & 7) & 1:
            raise ValueError("deal: position %d dealt twice" % p)
        seen[p >> 3] |= 1 << (p & 7)
        out.append(p % 52)
    return out
