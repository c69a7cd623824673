# Boston Poker (by-law s. 67.51-67.63), format jeton-boston/1. One deck (s. 67.51 allows 1 or 2; the
# certifier enumerates one). The player stakes the ante and the first additional bet, twice the ante
# (s. 67.56: a stake {"ante": b} places 3 x b credits), and where the model offers it the "Bonus" on
# his first three cards (s. 67.59). The player and the dealer receive three cards each (s. 67.57),
# then, if the player makes the second additional bet (twice the ante, s. 67.58; otherwise the ante
# and the first bet are lost), two more each (s. 67.60): ten cards are dealt at once, the player's
# three, the dealer's three, the player's two, the dealer's two. The higher five-card hand wins: the
# two additional bets are paid 1 to 1 and the ante pushes; a lower hand loses all three; equal hands
# push (s. 67.55, 67.62). A hand of two pairs or better is also paid on the ante by its table,
# whatever the dealer holds (s. 67.63): the ante's own fate stands (returned on a win or a tie, lost
# on a loss) and the bonus is paid beside it, as the game is published (the Wizard of Odds, "Boston
# 5": "if the player has a bonus hand but loses to the dealer he will still get the bonus but lose
# the ante bet itself"). Two pairs are paid from the model's "min_two_pair" up (the by-law: "two
# pairs of ten or better", read as the higher pair tens or better). The Bonus pays on the first three
# cards alone (s. 67.59), played or folded. Built-in strategy (auto()): the second bet on every
# hand, the exact optimum (tools/certify/boston.py derives it: no first three cards are worth a fold).
from games import hand3, hand5
from games.cardtable import CardTable
from games.cardtable_model import DECISION, ODDS, OPTIONAL, PART, RANK, STAKE

FOLD = 0
PLAY = 1
ANTE = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
        "three_of_a_kind", "two_pair")
BONUS = ("straight_flush", "three_of_a_kind", "straight", "flush", "pair")
_ANTE = (-1, -1, 7, 6, 5, 4, 3, 2, 1, 0)  # hand5 category -> index in ANTE
_BONUS = (-1, 4, 3, 2, 1, 0)  # hand3 category -> index in BONUS
PLAYER = (0, 1, 2, 6, 7)  # the player's cards in the deal
DEALER = (3, 4, 5, 8, 9)


def ante_index(v, min_two_pair):
    """The ante table's entry (index into ANTE) of a final hand's value, -1 for none."""
    c = hand5.category(v)
    if c == hand5.TWO_PAIR and hand5.top_rank(v) < min_two_pair:
        return -1
    return _ANTE[c]


class BostonGame(CardTable):
    FORMAT = "jeton-boston/1"
    CARDS = 10
    DECKS = (1,)
    WAGERS = (("ante", STAKE, ANTE, (("min_two_pair", RANK),)),
              ("first", PART, ODDS, ()),
              ("second", DECISION, ODDS, ()),
              ("bonus", OPTIONAL, BONUS, ()))
    DECISIONS = ("fold", "second bet")
    RAISES = (("ante", 2),)  # the second additional bet, twice the ante (s. 67.58)

    def units(self, wager):
        return 3 if wager == "ante" else 1  # the ante and the first bet, twice it (s. 67.56)

    def _stake_rule(self, stake):
        if "ante" not in stake:
            raise ValueError("stake: the Bonus goes with the ante and first bet (s. 67.56)")

    def pending(self, stake, cards, made):
        return (FOLD, PLAY) if not made else None

    def cost(self, stake, cards, made, d):
        return 2 * stake["ante"] if d == PLAY else 0

    def auto(self, stake, cards, made):
        return PLAY  # the optimum on every first three cards (tools/certify/boston.py)

    def shown(self, stake, cards, made):
        return 3 if not made else 10

    def _settle(self, stake, cards, made, out):
        m = self.m
        s = stake.get("bonus")
        v3 = hand3.value(cards[0:3])
        if s:
            i = _BONUS[hand3.category(v3)]
            odds = m.pays["bonus"][i] if i >= 0 else 0
            out.pay("bonus", s, s * (1 + odds) if odds else 0)
        a = stake["ante"]
        if made[0] == FOLD:
            out.pay("ante", a, 0)
            out.pay("first", 2 * a, 0)
            out.hands["ante"] = "fold"
            return
        pv = hand5.value([cards[i] for i in PLAYER])
        dv = hand5.value([cards[i] for i in DEALER])
        out.hands["player"] = hand5.NAMES[hand5.category(pv)]
        out.hands["dealer"] = hand5.NAMES[hand5.category(dv)]
        i = ante_index(pv, m.extra["ante"].get("min_two_pair", 8))
        bonus = a * m.pays["ante"][i] if i >= 0 else 0
        if pv > dv:
            out.pay("ante", a, a + bonus)
            out.pay("first", 2 * a, 2 * a * (1 + m.pays["first"]))
            out.pay("second", 2 * a, 2 * a * (1 + m.pays["second"]))
            out.hands["ante"] = "win"
        elif pv == dv:
            out.pay("ante", a, a + bonus)
            out.pay("first", 2 * a, 2 * a)
            out.pay("second", 2 * a, 2 * a)
            out.hands["ante"] = "push"
        else:
            out.pay("ante", a, bonus)
            out.pay("first", 2 * a, 0)
            out.pay("second", 2 * a, 0)
            out.hands["ante"] = "lose"
