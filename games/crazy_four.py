# Crazy Four Poker (by-law s. 67.75-67.87), format jeton-crazy-four/1. One deck (s. 67.75 allows 1 or
# 2; the certifier enumerates one). The player stakes the ante and the Super Bonus, equal (s. 67.79: a
# stake {"ante": b} places 2 x b credits), and where the model offers it the "Queens Up" wager
# (s. 67.87). Ten cards are dealt: the player's five, then the dealer's five (s. 67.80); each hand is
# its best four cards (s. 67.82-67.83, games/hand4.py). The player folds (the ante and the Super
# Bonus are lost), plays 1 x the ante, or with a pair of aces or better 3 x the ante (s. 67.81). The
# dealer opens with a king high or better: if he does not, the play wins 1 to 1 and the ante pushes
# (s. 67.82); if he does, the higher hand wins ante and play 1 to 1 and equal hands push (s. 67.83,
# 67.84). The Super Bonus is paid on a straight or better whatever the dealer holds (s. 67.85), and
# otherwise pushes when the player's hand is not below the dealer's (or the dealer does not open) and
# loses when it is (s. 67.86). Queens Up pays on the player's hand alone (s. 67.87); the by-law ties
# it to no other wager, so it is settled whether the player plays or folds. Built-in strategy
# (auto()): 3 x with a pair of aces or better, 1 x from K-Q-8-4, fold below (tools/certify/
# crazy_four.py derives the optimum and counts the hands where this differs).
from games import hand4
from games.cardtable import CardTable
from games.cardtable_model import DECISION, ODDS, OPTIONAL, PART, STAKE

FOLD = 0
PLAY = 1
PLAY3 = 2
SUPER = ("four_aces", "four_of_a_kind", "straight_flush", "three_of_a_kind", "flush", "straight")
QUEENS = ("four_of_a_kind", "straight_flush", "three_of_a_kind", "flush", "straight", "two_pair", "pair_aces",
          "pair_kings", "pair_queens")
QUALIFY = hand4.HIGH << 16 | 11 << 12 | 2 << 8 | 1 << 4  # K-4-3-2: the dealer opens at it
ACES = hand4.PAIR << 16 | 12 << 12  # a pair of aces (with the lowest cards beside it) and better: 3 x
PLAY_AT = hand4.HIGH << 16 | 11 << 12 | 10 << 8 | 6 << 4 | 2  # K-Q-8-4: the built-in strategy plays 1 x


_SUPER = (-1, -1, -1, 5, 4, 3, 2, 1)  # hand4 category -> index in SUPER (four aces: 0)
_QUEENS = (-1, -1, 5, 4, 3, 2, 1, 0)  # hand4 category -> index in QUEENS (pairs: by rank)


def super_index(v):
    """The Super Bonus entry (index into SUPER) of a hand's value, -1 for none."""
    c = hand4.category(v)
    if c == hand4.FOUR and (v >> 12) & 15 == 12:
        return 0
    return _SUPER[c]


def queens_index(v):
    """The Queens Up entry (index into QUEENS) of a hand's value, -1 for none."""
    c = hand4.category(v)
    if c == hand4.PAIR:
        r = (v >> 12) & 15
        return 18 - r if r >= 10 else -1  # aces 6, kings 7, queens 8
    return _QUEENS[c]


class CrazyFourGame(CardTable):
    FORMAT = "jeton-crazy-four/1"
    CARDS = 10
    DECKS = (1,)
    WAGERS = (("ante", STAKE, ODDS, ()),
              ("super_bonus", PART, SUPER, ()),
              ("play", DECISION, ODDS, ()),
              ("queens_up", OPTIONAL, QUEENS, ()))
    DECISIONS = ("fold", "play 1 x", "play 3 x")
    RAISES = (("ante", 3),)  # the play, at most 3 x the ante (s. 67.81)

    def units(self, wager):
        return 2 if wager == "ante" else 1  # the ante and the Super Bonus, equal (s. 67.79)

    def _stake_rule(self, stake):
        if "ante" not in stake:
            raise ValueError("stake: Queens Up goes with the ante and Super Bonus (s. 67.87)")

    def pending(self, stake, cards, made):
        if made:
            return None
        return (FOLD, PLAY, PLAY3) if hand4.best(cards[0:5]) >= ACES else (FOLD, PLAY)

    def cost(self, stake, cards, made, d):
        return stake["ante"] * (0, 1, 3)[d]

    def auto(self, stake, cards, made):
        v = hand4.best(cards[0:5])
        return PLAY3 if v >= ACES else PLAY if v >= PLAY_AT else FOLD

    def shown(self, stake, cards, made):
        return 5 if not made else 10

    def _settle(self, stake, cards, made, out):
        m = self.m
        pv = hand4.best(cards[0:5])
        dv = hand4.best(cards[5:10])
        out.hands["player"] = hand4.NAMES[hand4.category(pv)]
        out.hands["dealer"] = hand4.NAMES[hand4.category(dv)]
        q = stake.get("queens_up")
        if q:
            i = queens_index(pv)
            odds = m.pays["queens_up"][i] if i >= 0 else 0
            out.pay("queens_up", q, q * (1 + odds) if odds else 0)
        a = stake["ante"]
        if made[0] == FOLD:
            out.pay("ante", a, 0)
            out.pay("super_bonus", a, 0)
            out.hands["ante"] = "fold"
            return
        p = a * (1, 3)[made[0] - 1]
        opens = dv >= QUALIFY
        if not opens:
            back_ante, back_play, level = a, p * (1 + m.pays["play"]), 0  # s. 67.82
            out.hands["ante"] = "dealer does not open"
        elif pv > dv:
            back_ante, back_play, level = a * (1 + m.pays["ante"]), p * (1 + m.pays["play"]), 0
            out.hands["ante"] = "win"
        elif pv == dv:
            back_ante, back_play, level = a, p, 0
            out.hands["ante"] = "push"
        else:
            back_ante, back_play, level = 0, 0, -1
            out.hands["ante"] = "lose"
        i = super_index(pv)
        odds = m.pays["super_bonus"][i] if i >= 0 else 0
        out.pay("ante", a, back_ante)
        out.pay("play", p, back_play)
        # s. 67.85: a straight or better is paid whatever the dealer holds; s. 67.86 otherwise
        out.pay("super_bonus", a, a * (1 + odds) if odds else (a if level == 0 else 0))
