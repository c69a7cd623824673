# Video poker model (jeton-poker/1, docs/game-format.md): validate the dict loaded from JSON and
# compile it into small integer tables shared by the hand evaluator (games/poker_hand.py), the
# engine (games/poker.py) and the host certifier (tools/certify/poker.py).
# Cards are codes 0..51 = rank * 4 + suit (rank 0 = two ... 12 = ace), 52 = the joker.
from games.limits import MAX_POKER_COINS, MAX_STRATEGY, ModelError, known_keys, quote
from games.model import bet_list, describe, fr_en

FORMAT = "jeton-poker/1"
RANKS = "23456789TJQKA"
JOKER = 52
NONE = 0
DEUCES = 1
JOKER_WILD = 2
WILDS = ("none", "deuces", "joker")
HAND_SIZE = 5

# award kinds, in the order of the by-law's ranks (s. 67.2) plus the video-poker awards
ROYAL = 0  # natural royal flush: no wild card in the hand
FOUR_WILD = 1  # four deuces (deuces wild)
WILD_ROYAL = 2  # royal flush, wild cards allowed
FIVE = 3  # five of a kind (wild cards only)
STRAIGHT_FLUSH = 4
FOUR = 5
FULL_HOUSE = 6
FLUSH = 7
STRAIGHT = 8
THREE = 9
TWO_PAIR = 10
PAIR = 11
HANDS = ("royal_flush", "four_wild", "wild_royal_flush", "five_of_a_kind", "straight_flush",
         "four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind", "two_pair", "pair")
ALL_RANKS = 0x1FFF
# every key the format knows, per object: any other is refused by name
KEYS = ("format", "id", "family", "version", "name", "source", "wild", "deck", "bets", "awards", "strategy")
AWARD_KEYS = ("hand", "name", "pays", "ranks", "kicker")


def _need(cond, msg):
    if not cond:
        raise ModelError(msg)


def _rank_mask(v, what):
    _need(isinstance(v, list) and v, "%s must be a non-empty list of ranks" % what)
    m = 0
    for r in v:
        _need(isinstance(r, str) and len(r) == 1 and r in RANKS, "%s: unknown rank %r (use %s)" % (what, r, RANKS))
        m |= 1 << RANKS.index(r)
    return m


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


class PokerModel:
    """kind[i], ranks[i], kicker[i]: award i's hand, rank mask and kicker mask (0: no kicker
    condition); pays[bet index][i] in credits. Awards are tried in the model's order: a hand is
    paid the first it forms."""

    def __init__(self, m):
        _need(isinstance(m, dict), "model must be an object")
        _need(m.get("format") == FORMAT, "unknown format %s" % quote(m.get("format")))
        self.id = describe(m, FORMAT, KEYS)
        self.name = m["name"]
        wild = m.get("wild", "none")
        _need(wild in WILDS, "wild must be one of none, deuces, joker (not %r)" % (wild,))
        self.wild = WILDS.index(wild)
        deck = m.get("deck", 53 if self.wild == JOKER_WILD else 52)
        _need(deck in (52, 53), "deck must be 52 or 53 cards")
        _need((deck == 53) == (self.wild == JOKER_WILD), "a 53-card deck goes with the joker wild, and only with it")
        self.deck = deck
        # one credit per coin, 1 to 5 coins: the pay table's columns (a royal's 4000 at 5 coins)
        self.bets = bets = bet_list(m.get("bets"))
        _need(bets[-1] <= MAX_POKER_COINS, "bet %d: a video poker bet is 1 to %d coins (limits.MAX_POKER_COINS)" % (
            bets[-1], MAX_POKER_COINS))
        self.progressive = None  # no progressive jackpot on a poker model (jeton-poker/1)
        awards = m.get("awards")
        _need(isinstance(awards, list) and awards, "awards missing")
        _need(len(awards) <= 32, "at most 32 awards")
        nb = len(bets)
        self.kind = bytearray(len(awards))
        self.ranks = []
        self.kicker = []
        self.names = []
        self.pays = [[0] * len(awards) for _ in range(nb)]
        for i, a in enumerate(awards):
            _need(isinstance(a, dict), "award %d must be an object" % i)
            known_keys(a, AWARD_KEYS, "award %d" % i)
            h = a.get("hand")
            _need(h in HANDS, "award %d: unknown hand %r" % (i, h))
            k = HANDS.index(h)
            _need(self.wild != NONE or k not in (FOUR_WILD, WILD_ROYAL, FIVE), "award %d: %s needs wild cards" % (i, h))
            _need(k != FOUR_WILD or self.wild == DEUCES, "award %d: four_wild needs deuces wild" % i)
            self.kind[i] = k
            self.names.append(fr_en(a.get("name"), "award %d name" % i))
            r = a.get("ranks")
            if r is None:
                self.ranks.append(ALL_RANKS)
            else:
                _need(k in (FOUR, THREE, PAIR), "award %d: ranks only for four_of_a_kind, three_of_a_kind, pair" % i)
                self.ranks.append(_rank_mask(r, "award %d ranks" % i))
            kk = a.get("kicker")
            if kk is None:
                self.kicker.append(0)
            else:
                _need(k == FOUR and self.wild == NONE, "award %d: kicker only for four_of_a_kind without wild cards" % i)
                self.kicker.append(_rank_mask(kk, "award %d kicker" % i))
            v = a.get("pays")
            for bi in range(nb):
                if isinstance(v, list):
                    _need(len(v) == nb, "award %d: one pay per bet level" % i)
                    c = v[bi]
                else:
                    c = v * bets[bi] if _is_int(v) else None
                _need(_is_int(c) and c > 0, "award %d: pays are positive integers" % i)
                self.pays[bi][i] = c
        # a hand is paid the first award it forms, so awards go from the highest hand down (s. 67.2);
        # five of a kind and the wild royal flush exclude each other: either may come first
        prev = 0
        for i in range(len(awards)):
            k = WILD_ROYAL if self.kind[i] == FIVE else self.kind[i]
            _need(k >= prev, "award %d: %s listed below a lower hand" % (i, HANDS[self.kind[i]]))
            prev = k
        st = m.get("strategy")
        if st is None:
            self.strategy = None
        else:
            _need(isinstance(st, list) and st, "strategy must be a non-empty list of hold patterns")
            _need(len(st) <= MAX_STRATEGY, "strategy: %d patterns, at most %d (limits.MAX_STRATEGY)" % (
                len(st), MAX_STRATEGY))
            self.strategy = {}
            for i, s in enumerate(st):
                _need(isinstance(s, str) and s not in self.strategy, "strategy: bad or repeated pattern %r" % (s,))
                self.strategy[s] = i
        # rank classes for the hold patterns: which ranked awards a rank can form, and the ranks of
        # the lowest ranked award (the "high cards": jacks or better, kings or better)
        cls = {}
        self.rank_class = bytearray(13)
        self.high = 0
        for i in range(len(awards)):
            if self.ranks[i] != ALL_RANKS:
                self.high = self.ranks[i]
        for r in range(13):
            key = 0
            for i in range(len(awards)):
                if self.ranks[i] != ALL_RANKS and self.ranks[i] >> r & 1:
                    key |= 1 << i
            if key not in cls:
                cls[key] = len(cls)
            self.rank_class[r] = cls[key]

    def bet_index(self, bet):
        for i, b in enumerate(self.bets):
            if b == bet:
                return i
        raise ValueError("bet %r not offered" % (bet,))

    def is_wild(self, c):
        if self.wild == DEUCES:
            return c < 4
        return c == JOKER
