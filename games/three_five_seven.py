# 3-5-7 Poker (by-law s. 67.41-67.50), format jeton-three-five-seven/1. One deck (s. 67.41 allows 1
# or 2; the certifier enumerates one). The player stakes the 3-card and the 5-card wagers (both are
# required, s. 67.45) and, where the model offers it, the optional 7-card wager. Seven cards are dealt
# at once: the player's three, then the dealer's four (s. 67.46). A player with a 7-card wager may
# withdraw it after seeing his three cards, losing half of it (s. 67.47): the one decision, and so
# every bet level is even. The 3-card wager is paid on the player's three cards (s. 67.48), the
# 5-card wager on them with the dealer's first two (s. 67.49), the 7-card wager on the best five of
# all seven (s. 67.50); no dealer's hand is beaten, each is paid by its table. The pair paid on the
# 5-card wager starts at the model's "min_pair" (the by-law: sixes), the two pairs on the 7-card
# wager at "min_two_pair" (the by-law: "two pairs of tens or better", read as the higher pair tens
# or better, as the game is published). Straights: s. 67.41 lets the ace complete A-2-3 (straight
# and straight flush) in three cards, but in five only the straight flush A-2-3-4-5: an A-2-3-4-5
# of mixed suits is no straight here (games/hand5.py wheel=False; Boston Poker's s. 67.51 names
# both). Built-in strategy (auto()): the exact optimum of the shipped pays, derived by tools/certify/
# three_five_seven.py: withdraw only on three cards of three suits ranked as in WITHDRAW_RANKS (240 of
# the 22,100 first hands), where the 7-card wager kept returns less than the half a withdrawal keeps.
from games import hand3, hand5
from games.cardtable import CardTable
from games.cardtable_model import OPTIONAL, RANK, STAKE

WITHDRAW = 0
KEEP = 1
THREE = ("straight_flush", "three_of_a_kind", "straight", "flush", "pair")
FIVE = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
        "three_of_a_kind", "two_pair", "pair")
SEVEN = FIVE[:-1]
# the three cards' ranks (rank 0 = two), highest first, as (hi * 13 + mid) * 13 + lo, on which the
# 7-card wager is worth withdrawing when the three are of three suits: 7-3-2, 7-4-2, 7-5-2, 8-3-2,
# 8-4-2, 8-4-3, 9-3-2, 9-4-2, 9-4-3, 9-5-2
WITHDRAW_RANKS = (858, 871, 884, 1027, 1040, 1041, 1196, 1209, 1210, 1222)
_THREE = (-1, 4, 3, 2, 1, 0)  # hand3 category -> index in THREE
_FIVE = (-1, 8, 7, 6, 5, 4, 3, 2, 1, 0)  # hand5 category -> index in FIVE (and SEVEN but the pair)


def five_index(v, min_pair):
    """The 5-card table's entry (index into FIVE) of a hand's value (wheel=False), -1 for none."""
    c = hand5.category(v)
    if c == hand5.PAIR and hand5.top_rank(v) < min_pair:
        return -1
    return _FIVE[c]


def seven_index(v, min_two_pair):
    """The 7-card table's entry (index into SEVEN) of the best five's value, -1 for none."""
    c = hand5.category(v)
    if c == hand5.PAIR or c == hand5.TWO_PAIR and hand5.top_rank(v) < min_two_pair:
        return -1
    return _FIVE[c]


class ThreeFiveSevenGame(CardTable):
    FORMAT = "jeton-three-five-seven/1"
    CARDS = 7
    DECKS = (1,)
    EVEN = True  # the 7-card wager withdrawn loses half (s. 67.47)
    WAGERS = (("three", STAKE, THREE, ()),
              ("five", STAKE, FIVE, (("min_pair", RANK),)),
              ("seven", OPTIONAL, SEVEN, (("min_two_pair", RANK),)))
    DECISIONS = ("withdraw", "keep")

    def _stake_rule(self, stake):
        if "three" not in stake or "five" not in stake:
            raise ValueError("stake: the 3-card and the 5-card wagers are both required (s. 67.45)")

    def pending(self, stake, cards, made):
        return (WITHDRAW, KEEP) if "seven" in stake and not made else None

    def cost(self, stake, cards, made, d):
        return 0  # a withdrawal's half comes back at the settlement, as War's surrender

    def auto(self, stake, cards, made):
        a, b, c = cards[0], cards[1], cards[2]
        if a & 3 == b & 3 or a & 3 == c & 3 or b & 3 == c & 3:
            return KEEP
        r = sorted((a >> 2, b >> 2, c >> 2))
        return WITHDRAW if (r[2] * 13 + r[1]) * 13 + r[0] in WITHDRAW_RANKS else KEEP

    def shown(self, stake, cards, made):
        return 3 if self.pending(stake, cards, made) is not None else 7

    def _settle(self, stake, cards, made, out):
        m = self.m
        b = stake["three"]
        i = _THREE[hand3.category(hand3.value(cards[0:3]))]
        odds = m.pays["three"][i] if i >= 0 else 0
        out.pay("three", b, b * (1 + odds) if odds else 0)
        out.hands["three"] = THREE[i] if odds else "nothing"
        b = stake["five"]
        i = five_index(hand5.value(cards[0:5], False), m.extra["five"].get("min_pair", 4))
        odds = m.pays["five"][i] if i >= 0 else 0
        out.pay("five", b, b * (1 + odds) if odds else 0)
        out.hands["five"] = FIVE[i] if odds else "nothing"
        b = stake.get("seven")
        if not b:
            return
        if made[0] == WITHDRAW:
            out.pay("seven", b, b // 2)  # s. 67.47: half of it is lost
            out.hands["seven"] = "withdrawn"
            return
        i = seven_index(hand5.best_of_7(cards, False), m.extra["seven"].get("min_two_pair", 8))
        odds = m.pays["seven"][i] if i >= 0 else 0
        out.pay("seven", b, b * (1 + odds) if odds else 0)
        out.hands["seven"] = SEVEN[i] if odds else "nothing"
