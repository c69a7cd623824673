# Caribbean Stud Poker (by-law s. 67.10-67.21), format jeton-caribbean/1. One deck. The player stakes
# the initial wager ("ante", s. 67.14) and, where the model offers it, the supplemental wager
# ("progressive", s. 67.21). Ten cards are dealt: the player's five, then the dealer's five, the last
# of them face up (s. 67.15). The player sees his cards and the dealer's up card and folds (the ante
# is lost) or raises: the additional wager, twice the ante (s. 67.16). The dealer opens with an ace
# and a king or better (s. 67.17): if he does not, the ante wins 1 to 1 and the raise is a push; if
# he does, equal hands push (s. 67.19), the higher hand wins: the ante 1 to 1, the raise by the
# player's hand (s. 67.20: a high-card hand that wins is paid as a pair). The supplemental wager pays
# on the player's hand alone, even when the dealer does not open (s. 67.21); the by-law ties it to no
# other wager, so it is settled whether the player raises or folds. Its royal and straight flush pay
# a share of a progressive jackpot: a model gives them as fixed amounts, the return at those amounts
# (the jackpot's growth belongs with the cabinet's progressive meter, not to the engine).
# Built-in strategy (auto()): raise with a pair or better, fold below an ace and a king; with ace-king
# high, raise when ak_raise() says so (three rules of thumb, tools/certify/caribbean.py: how many
# decisions differ from the optimal and what it costs).
from games import hand5
from games.cardtable import CardTable
from games.cardtable_model import DECISION, ODDS, OPTIONAL, STAKE

FOLD = 0
RAISE = 1
HANDS = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
         "three_of_a_kind", "two_pair", "pair", "ace_king")
# hand5 category (HIGH .. ROYAL) -> index in HANDS; a winning high-card hand pays as "ace_king"
_CAT = (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
PROGRESSIVE = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush")
QUALIFY = hand5.HIGH << 20 | 12 << 16 | 11 << 12 | 2 << 8 | 1 << 4  # A-K-4-3-2: the dealer opens at it
UP = 9  # the dealer's card shown: the tenth dealt


def pay_index(v):
    return _CAT[hand5.category(v)]


def ak_raise(ranks, up):
    """With ace-king high and no pair (ranks: the player's five ranks, highest first, so A, K, x, y,
    z), whether to raise against the dealer's up card of rank `up`: raise when the up card is a 2 to
    a queen that pairs one of the player's cards; when it is an ace or a king and the player holds a
    queen or a jack; when it pairs none of them, the player holds a queen and it is below the
    player's fourth card."""
    match = up in ranks
    if match and up <= 10:
        return True
    if up >= 11:
        return 10 in ranks or 9 in ranks
    return not match and 10 in ranks and up < ranks[3]


class CaribbeanGame(CardTable):
    FORMAT = "jeton-caribbean/1"
    CARDS = 10
    DECKS = (1,)
    WAGERS = (("ante", STAKE, ODDS, ()),
              ("raise", DECISION, HANDS, ()),
              ("progressive", OPTIONAL, PROGRESSIVE, ()))
    DECISIONS = ("fold", "raise")
    RAISES = (("ante", 2),)  # the raise, twice the ante

    def _stake_rule(self, stake):
        if "ante" not in stake:
            raise ValueError("stake: the supplemental wager goes with an ante (s. 67.21)")

    def pending(self, stake, cards, made):
        return (FOLD, RAISE) if not made else None

    def cost(self, stake, cards, made, d):
        return 2 * stake["ante"] if d == RAISE else 0

    def auto(self, stake, cards, made):
        v = hand5.value(cards[0:5])
        if v >> 20 >= hand5.PAIR:
            return RAISE
        if v < QUALIFY:
            return FOLD
        ranks = [(v >> s) & 15 for s in (16, 12, 8, 4, 0)]
        return RAISE if ak_raise(ranks, cards[UP] >> 2) else FOLD

    def shown(self, stake, cards, made):
        return 5 if not made else 10  # the player's five and the up card, then everything

    def _settle(self, stake, cards, made, out):
        m = self.m
        pv = hand5.value(cards[0:5])
        dv = hand5.value(cards[5:10])
        out.hands["player"] = hand5.NAMES[hand5.category(pv)]
        out.hands["dealer"] = hand5.NAMES[hand5.category(dv)]
        s = stake.get("progressive")
        if s:
            c = hand5.category(pv)
            i = PROGRESSIVE.index(hand5.NAMES[c]) if hand5.NAMES[c] in PROGRESSIVE else -1
            odds = m.pays["progressive"][i] if i >= 0 else 0
            out.pay("progressive", s, s * (1 + odds) if odds else 0)
        a = stake["ante"]
        if made[0] == FOLD:
            out.pay("ante", a, 0)
            out.hands["ante"] = "fold"
            return
        r = 2 * a
        if dv < QUALIFY:
            back_ante, back_raise = a * (1 + m.pays["ante"]), r  # s. 67.17
            out.hands["ante"] = "dealer does not open"
        elif pv > dv:
            back_ante, back_raise = a * (1 + m.pays["ante"]), r * (1 + m.pays["raise"][pay_index(pv)])
            out.hands["ante"] = "win"
        elif pv == dv:
            back_ante, back_raise = a, r  # s. 67.19
            out.hands["ante"] = "push"
        else:
            back_ante, back_raise = 0, 0
            out.hands["ante"] = "lose"
        out.pay("ante", a, back_ante)
        out.pay("raise", r, back_raise)
