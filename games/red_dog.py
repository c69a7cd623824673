# Red Dog (by-law s. 63-67), format jeton-red-dog/1. One to eight decks (s. 63: at least one; the
# model's "decks"). Cards count their face value, the jack 11, queen 12, king 13, ace 14 (s. 63);
# suits do not count. The player stakes the wager (s. 65); three cards are dealt (the third is used
# only when the round needs it, s. 66). Two cards of consecutive value: a push (s. 66 (1)). A pair:
# the third card makes three of a kind and wins, or the round is a push (s. 66 (2)). Otherwise a
# "spread" of the values strictly between them: the player may raise by up to his wager (s. 66 (3);
# the engine offers the whole wager or nothing, the only amounts an optimal player uses: a raise's
# expectation is its amount times the spread's), then the third card wins when its value falls
# between the first two; the wager and the raise are paid by the spread (s. 67), and lost otherwise.
# Built-in strategy (auto()): raise on a spread of 7 or more, the exact optimum at every deck count
# (tools/certify/red_dog.py derives it).
from games.cardtable import CardTable
from games.cardtable_model import DECISION, STAKE

NO_RAISE = 0
RAISE = 1
HANDS = ("three_of_a_kind", "spread_1", "spread_2", "spread_3", "spread_4")  # spread_4: 4 and over
RAISE_AT = 7  # the built-in strategy raises on this spread and wider


def spread(cards):
    """The two first cards' spread: the values strictly between them; -1 for a pair, 0 for
    consecutive values."""
    a = cards[0] >> 2
    b = cards[1] >> 2
    if a == b:
        return -1
    return (a - b if a > b else b - a) - 1


class RedDogGame(CardTable):
    FORMAT = "jeton-red-dog/1"
    CARDS = 3
    DECKS = (1, 2, 3, 4, 5, 6, 7, 8)
    WAGERS = (("wager", STAKE, HANDS, ()),
              ("raise", DECISION, None, ()))
    DECISIONS = ("no raise", "raise")
    RAISES = (("wager", 1),)  # the raise, up to the wager (s. 66 (3))

    def pending(self, stake, cards, made):
        return (NO_RAISE, RAISE) if not made and spread(cards) > 0 else None

    def cost(self, stake, cards, made, d):
        return stake["wager"] if d == RAISE else 0

    def auto(self, stake, cards, made):
        return RAISE if spread(cards) >= RAISE_AT else NO_RAISE

    def shown(self, stake, cards, made):
        return 2 if self.pending(stake, cards, made) is not None else 3

    def _settle(self, stake, cards, made, out):
        pays = self.m.pays["wager"]
        b = stake["wager"]
        k = spread(cards)
        third = cards[2] >> 2
        if k < 0:
            out.hands["wager"] = "pair"
            if third == cards[0] >> 2 and pays[0]:
                out.pay("wager", b, b * (1 + pays[0]))
                out.hands["wager"] = "three_of_a_kind"
            else:
                out.pay("wager", b, b)
            return
        if k == 0:
            out.pay("wager", b, b)
            out.hands["wager"] = "consecutive"
            return
        lo = cards[0] >> 2
        hi = cards[1] >> 2
        if lo > hi:
            lo, hi = hi, lo
        r = b if made[0] == RAISE else 0
        odds = pays[k if k < 4 else 4]
        out.hands["wager"] = "spread_%d" % k
        if lo < third < hi and odds:
            out.pay("wager", b, b * (1 + odds))
            if r:
                out.pay("raise", r, r * (1 + odds))
        else:
            out.pay("wager", b, 0)
            if r:
                out.pay("raise", r, 0)
