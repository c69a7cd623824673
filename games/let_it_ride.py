# Let It Ride Poker (by-law s. 67.1-67.9), format jeton-let-it-ride/1. One deck. The player places
# three equal wagers (s. 67.4: a stake {"ride": b} places 3 x b credits) and, where the model offers
# it, the supplemental wager ("bonus", s. 67.9). Five cards are dealt: the player's three, then the
# two cards in front of the dealer, in the order he exposes them (s. 67.5-67.6; the card he burns
# is not needed: every card is dealt from a fresh shuffle). The player sees his three cards and takes
# back the first wager or lets it ride; the first community card is shown and he takes back the
# second wager or lets it ride; the third always rides (s. 67.6). His three cards and the two
# community cards form his hand: every wager still riding wins at the hand's odds when it is a pair
# of tens or better (s. 67.7-67.8, the model's "min_pair"), and is lost otherwise. The bonus pays on
# the same hand (s. 67.9). Built-in strategy (auto(), ride3() and ride4()): the exact optimum
# (tools/certify/let_it_ride.py derives it and counts the hands where a rule differs); where riding
# and taking back are worth exactly the same, the wager is taken back (less at risk).
from games import hand5
from games.cardtable import CardTable
from games.cardtable_model import OPTIONAL, RANK, STAKE

PULL = 0
RIDE = 1
HANDS = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
         "three_of_a_kind", "two_pair", "pair")
BONUS = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight")
_CAT = (-1, 8, 7, 6, 5, 4, 3, 2, 1, 0)  # hand5 category -> index in HANDS (-1: high card)
TEN = 8


def pay_index(v, min_pair):
    """The pay-table entry (index into HANDS) of a final hand's value, -1 when it pays nothing: a
    pair pays only from min_pair up (s. 67.7: a pair of tens or better)."""
    c = hand5.category(v)
    if c == hand5.PAIR and hand5.top_rank(v) < min_pair:
        return -1
    return _CAT[c]


def _straight_window(ranks):
    """The fewest consecutive ranks holding every rank given (distinct ranks, highest first), the ace
    counted high or, where that is fewer, low; and whether the ace counts low."""
    span = ranks[0] - ranks[-1] + 1
    if ranks[0] == 12:  # the ace played low: A-2-3-4-5
        low = ranks[1] + 2 if len(ranks) > 1 else 1
        if low < span:
            return low, True
    return span, False


def ride3(c):
    """Let the first wager ride on these three cards? A paying hand (a pair of tens or better, three
    of a kind); or three suited cards to a straight flush: in a row (but 2-3-4 and A-2-3), with one
    gap and a ten or better, with two gaps and two cards ten or better (an ace played low is not)."""
    r = sorted((c[0] >> 2, c[1] >> 2, c[2] >> 2), reverse=True)
    if r[0] == r[2] or (r[1] == r[0] or r[1] == r[2]) and r[1] >= TEN:
        return True
    if r[0] == r[1] or r[1] == r[2] or not (c[0] & 3 == c[1] & 3 == c[2] & 3):
        return False
    span, low = _straight_window(r)
    high = 0 if low else (r[0] >= TEN) + (r[1] >= TEN) + (r[2] >= TEN)
    if span == 3:
        return r[2] >= 1 and not low  # not 2-3-4, not A-2-3
    if span == 4:
        return high >= 1
    return span == 5 and high >= 2


def ride4(c):
    """Let the second wager ride on these four cards (the player's three and the first community
    card)? A paying hand (a pair of tens or better, two pairs, three or four of a kind); four to a
    flush; four in a row open at both ends (not A-K-Q-J) with a ten or better."""
    r = sorted((c[0] >> 2, c[1] >> 2, c[2] >> 2, c[3] >> 2), reverse=True)
    pairs = 0
    for i in range(3):
        if r[i] == r[i + 1]:
            pairs += 1
            if r[i] >= TEN or i + 2 < 4 and r[i + 2] == r[i]:
                return True  # a pair of tens or better, three or four of a kind
    if pairs >= 2:
        return True  # two pairs
    if c[0] & 3 == c[1] & 3 == c[2] & 3 == c[3] & 3:
        return True
    return pairs == 0 and r[0] - r[3] == 3 and r[0] < 12 and r[0] >= TEN


class LetItRideGame(CardTable):
    FORMAT = "jeton-let-it-ride/1"
    CARDS = 5
    DECKS = (1,)
    WAGERS = (("ride", STAKE, HANDS, (("min_pair", RANK),)),
              ("bonus", OPTIONAL, BONUS, ()))
    DECISIONS = ("take back", "let it ride")

    def units(self, wager):
        return 3 if wager == "ride" else 1  # s. 67.4: three separate and equal wagers

    def _stake_rule(self, stake):
        if "ride" not in stake:
            raise ValueError("stake: the supplemental wager goes with the three wagers (s. 67.9)")

    def givable(self, stake, made):
        return (2 - len(made)) * stake["ride"]  # the first two wagers, until each is decided

    def pending(self, stake, cards, made):
        return (PULL, RIDE) if len(made) < 2 else None

    def cost(self, stake, cards, made, d):
        return -stake["ride"] if d == PULL else 0  # a wager taken back is given back at once

    def auto(self, stake, cards, made):
        ok = ride3(cards) if not made else ride4(cards)
        return RIDE if ok else PULL

    def shown(self, stake, cards, made):
        return (3, 4, 5)[len(made)]

    def _settle(self, stake, cards, made, out):
        m = self.m
        v = hand5.value(cards[0:5])
        out.hands["player"] = hand5.NAMES[hand5.category(v)]
        b = stake["ride"]
        riding = 1 + made[0] + made[1]
        i = pay_index(v, m.extra["ride"].get("min_pair", TEN))
        odds = m.pays["ride"][i] if i >= 0 else 0
        out.pay("ride", riding * b, riding * b * (1 + odds) if odds else 0)
        s = stake.get("bonus")
        if s:
            c = hand5.category(v)
            j = BONUS.index(hand5.NAMES[c]) if hand5.NAMES[c] in BONUS else -1
            odds = m.pays["bonus"][j] if j >= 0 else 0
            out.pay("bonus", s, s * (1 + odds) if odds else 0)
