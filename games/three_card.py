# 3 Card Poker (by-law s. 67.22-67.32), format jeton-three-card/1. One deck. The player stakes the
# initial wager ("ante"), the "pair or plus" wager, or both (s. 67.26). Six cards are dealt: the
# player's three, then the dealer's three (s. 67.27). With an ante, the player sees his three cards
# and folds (the ante is lost) or plays: the additional wager, equal to the ante (s. 67.28). The
# dealer opens with a queen high or better (s. 67.29): if he does not, the ante wins 1 to 1 and the
# play is a push; if he does, the higher hand wins ante and play 1 to 1, a tie pushes both
# (s. 67.30). A player who played is also paid the ante bonus on a straight flush, three of a kind
# or a straight, whatever the dealer holds (s. 67.31). Pair or plus pays on the player's three cards
# alone (s. 67.32); the by-law ties it to no other wager, so it is settled whether the ante is
# played or folded. Built-in strategy: play Q-6-4 or better (auto()), the exact optimum
# (tools/certify/three_card.py derives it and the tests check they are the same hands).
from games import hand3
from games.cardtable import CardTable
from games.cardtable_model import DECISION, ODDS, OPTIONAL, STAKE

FOLD = 0
PLAY = 1
HANDS = ("straight_flush", "three_of_a_kind", "straight", "flush", "pair")
_CAT = (-1, 4, 3, 2, 1, 0)  # hand3 category -> index in HANDS (-1: high card)
BONUS = ("straight_flush", "three_of_a_kind", "straight")
QUALIFY = hand3.HIGH << 12 | 10 << 8  # the dealer opens with a queen high (Q-3-2) or better
PLAY_AT = hand3.HIGH << 12 | 10 << 8 | 4 << 4 | 2  # Q-6-4: the weakest hand the built-in strategy plays


def pay_index(v):
    """The pay-table entry (index into HANDS) of a hand's value, -1 for none."""
    return _CAT[hand3.category(v)]


class ThreeCardGame(CardTable):
    FORMAT = "jeton-three-card/1"
    CARDS = 6
    DECKS = (1,)
    WAGERS = (("ante", STAKE, ODDS, (("bonus", BONUS),)),
              ("play", DECISION, ODDS, ()),
              ("pair_plus", OPTIONAL, HANDS, ()))
    DECISIONS = ("fold", "play")
    RAISES = (("ante", 1),)  # the play wager, equal to the ante (s. 67.28)

    def _stake_rule(self, stake):
        pass  # the ante, pair or plus, or both (s. 67.26): any non-empty stake

    def pending(self, stake, cards, made):
        if "ante" in stake and not made:
            return (FOLD, PLAY)
        return None

    def cost(self, stake, cards, made, d):
        return stake["ante"] if d == PLAY else 0

    def auto(self, stake, cards, made):
        return PLAY if hand3.value(cards[0:3]) >= PLAY_AT else FOLD

    def shown(self, stake, cards, made):
        return 3 if self.pending(stake, cards, made) is not None else 6

    def _settle(self, stake, cards, made, out):
        m = self.m
        pv = hand3.value(cards[0:3])
        dv = hand3.value(cards[3:6])
        pi = pay_index(pv)
        out.hands["player"] = hand3.NAMES[hand3.category(pv)]
        out.hands["dealer"] = hand3.NAMES[hand3.category(dv)]
        p = stake.get("pair_plus")
        if p:
            odds = m.pays["pair_plus"][pi] if pi >= 0 else 0
            out.pay("pair_plus", p, p * (1 + odds) if odds else 0)
            out.hands["pair_plus"] = HANDS[pi] if odds else ""
        a = stake.get("ante")
        if not a:
            return
        if made[0] == FOLD:
            out.pay("ante", a, 0)
            out.hands["ante"] = "fold"
            return
        ante = m.pays["ante"]
        play = m.pays["play"]
        if dv < QUALIFY:
            back_ante, back_play = a * (1 + ante), a  # s. 67.29: ante even money, play a push
            out.hands["ante"] = "dealer does not open"
        elif pv > dv:
            back_ante, back_play = a * (1 + ante), a * (1 + play)
            out.hands["ante"] = "win"
        elif pv == dv:
            back_ante, back_play = a, a
            out.hands["ante"] = "push"
        else:
            back_ante, back_play = 0, 0
            out.hands["ante"] = "lose"
        bonus = m.extra["ante"].get("bonus")
        if bonus and pi >= 0 and pi < len(BONUS) and bonus[pi]:
            back_ante += a * bonus[pi]  # s. 67.31: whatever the dealer holds
            out.hands["bonus"] = BONUS[pi]
        out.pay("ante", a, back_ante)
        out.pay("play", a, back_play)
