# War (by-law s. 67.33-67.40), format jeton-war/1. Six or eight decks (s. 67.33); aces high, suits do
# not count (s. 67.34). The player stakes the initial wager and, where the model offers it, the
# supplemental wager on a tie ("tie", s. 67.36, 67.40). Ten cards are dealt, in the by-law's order:
# the player's card, the dealer's card (s. 67.37), and for a war three burnt cards, the player's
# card, three burnt cards, the dealer's card (s. 67.39; a round without a war never shows them). The
# higher card wins the initial wager 1 to 1; the lower loses it (s. 67.38). On a tie the player
# withdraws, losing half his wager (every bet level is even), or goes to war with an additional wager
# equal to it (s. 67.38 (3), 67.39): the model's "war" pays give what the two wagers win together
# per credit of the initial wager when the player's war card is higher ("win": 1, the initial wager
# 1 to 1 and the additional one returned, s. 67.39 (1)) or equal ("tie": 2, both 1 to 1, s. 67.39
# (3)); a lower card loses both. The tie wager pays 10 to 1 when the first two cards tie (s. 67.40).
# Built-in strategy (auto()): go to war, the optimum (tools/certify/war.py).
from games.cardtable import CardTable
from games.cardtable_model import DECISION, ODDS, OPTIONAL, STAKE

SURRENDER = 0
WAR = 1
WAR_PAYS = ("win", "tie")
PLAYER, DEALER, PLAYER_WAR, DEALER_WAR = 0, 1, 5, 9  # the cards' places in the deal


class WarGame(CardTable):
    FORMAT = "jeton-war/1"
    CARDS = 10
    DECKS = (6, 8)
    EVEN = True
    WAGERS = (("wager", STAKE, ODDS, ()),
              ("war", DECISION, WAR_PAYS, ()),
              ("tie", OPTIONAL, ODDS, ()))
    DECISIONS = ("surrender", "war")
    RAISES = (("wager", 1),)  # the additional wager of a war, equal to it (s. 67.39)

    def _stake_rule(self, stake):
        if "wager" not in stake:
            raise ValueError("stake: the tie wager goes with an initial wager (s. 67.40)")

    def pending(self, stake, cards, made):
        if not made and cards[PLAYER] >> 2 == cards[DEALER] >> 2:
            return (SURRENDER, WAR)
        return None

    def cost(self, stake, cards, made, d):
        return stake["wager"] if d == WAR else 0

    def auto(self, stake, cards, made):
        return WAR

    def shown(self, stake, cards, made):
        if self.pending(stake, cards, made) is not None or not made:
            return 2
        return 10 if made[0] == WAR else 2

    def _settle(self, stake, cards, made, out):
        m = self.m
        b = stake["wager"]
        p = cards[PLAYER] >> 2
        d = cards[DEALER] >> 2
        t = stake.get("tie")
        if t:
            out.pay("tie", t, t * (1 + m.pays["tie"]) if p == d else 0)
        if p > d:
            out.pay("wager", b, b * (1 + m.pays["wager"]))
            out.hands["wager"] = "win"
        elif p < d:
            out.pay("wager", b, 0)
            out.hands["wager"] = "lose"
        elif made[0] == SURRENDER:
            out.pay("wager", b, b // 2)  # s. 67.38 (3): half of it is lost
            out.hands["wager"] = "surrender"
        else:
            p2 = cards[PLAYER_WAR] >> 2
            d2 = cards[DEALER_WAR] >> 2
            if p2 < d2:
                out.pay("wager", b, 0)
                out.pay("war", b, 0)
                out.hands["wager"] = "war lost"
                return
            won = m.pays["war"][0 if p2 > d2 else 1] * b  # what the two wagers win together
            first = won if won < b else b  # booked on the initial wager first, up to 1 to 1
            out.pay("wager", b, b + first)
            out.pay("war", b, b + won - first)
            out.hands["wager"] = "war won" if p2 > d2 else "war tied"
