# Video poker engine: RNG -> shuffled deck -> deal -> holds -> draw -> award. Pure logic: no
# hardware, no NVRAM. The whole deck is shuffled once (rng.shuffle, unbiased Fisher-Yates) before
# the deal: the hand is deck[0:5] and the replacement cards are deck[5], deck[6], ... in order, one
# per discarded position from left to right. The holds only choose which of these predetermined
# cards are shown; they never draw anything from the generator (by-law s. 88: the result rests on
# chance even when the player chooses). (deck, holds) replays the game: docs/games.md.
from games.model import read
from games.poker_hand import award
from games.poker_hold import pattern
from games.poker_model import HAND_SIZE, RANKS, PokerModel
from rng import shuffle

# the 24 orders of the four suits, 4 bytes each (new suit of clubs, diamonds, hearts, spades), in
# lexicographic order: a fixed enumeration (a literal: in flash on a board)
_PERMS = (b"\x00\x01\x02\x03\x00\x01\x03\x02\x00\x02\x01\x03\x00\x02\x03\x01\x00\x03\x01\x02\x00\x03\x02\x01"
          b"\x01\x00\x02\x03\x01\x00\x03\x02\x01\x02\x00\x03\x01\x02\x03\x00\x01\x03\x00\x02\x01\x03\x02\x00"
          b"\x02\x00\x01\x03\x02\x00\x03\x01\x02\x01\x00\x03\x02\x01\x03\x00\x02\x03\x00\x01\x02\x03\x01\x00"
          b"\x03\x00\x01\x02\x03\x00\x02\x01\x03\x01\x00\x02\x03\x01\x02\x00\x03\x02\x00\x01\x03\x02\x01\x00")


class PokerOutcome:
    """A finished hand, with the reel outcome's fields so the firmware's books, recall digest
    (firmware/recall.py) and sim.replay treat both alike: draws = the deck order then the holds."""
    __slots__ = ("bet", "draws", "deck", "holds", "stops", "window", "wins", "award", "award_index",
                 "triggered", "free")

    def __init__(self, bet, deck, holds, hand, award_index, win, name):
        self.bet = bet
        self.deck = deck  # the shuffled deck (bytes), as committed before the deal is shown
        self.holds = holds  # bit i: card i of the deal held
        self.draws = list(deck) + [holds]  # everything needed to replay the game
        self.stops = list(hand)  # the final five cards
        self.window = [[card_name(c) for c in hand]]  # one row of five, as a reel window[row][reel]
        self.award_index = award_index  # index into the model's awards, -1 for none
        self.award = win  # credits
        self.wins = [[-1, name, win]] if award_index >= 0 else []
        self.triggered = 0
        self.free = []

    def to_dict(self):
        return {"bet": self.bet, "deck": list(self.deck), "holds": self.holds, "hand": self.stops,
                "window": self.window, "award": self.award, "wins": self.wins}


def load(path):
    return PokerGame(read(path))


def card_name(c):
    """'As', 'Td', '2c', 'JK' (joker): rank then suit (c, d, h, s)."""
    if c == 52:
        return "JK"
    return RANKS[c >> 2] + "cdhs"[c & 3]


class PokerGame:
    kind = "cards"  # the game's kind, for the jurisdiction (firmware/jurisdiction.py check_kind)

    def __init__(self, model):
        self.m = m = PokerModel(model)
        self.model = {k: model[k] for k in model if k != "strategy"}
        self.id = m.id
        self.name = m.name
        self.bets = m.bets
        self._hand = bytearray(HAND_SIZE)
        self._rep = bytearray(HAND_SIZE)  # suggest(): the deal's canonical form, sorted
        self._back = bytearray(HAND_SIZE)  # suggest(): the dealt position of each card of _rep
        self._keys = [0] * HAND_SIZE  # canonical(): card * 8 + dealt position, sorted
        self._best = [0] * HAND_SIZE
        self.max_award = None  # the certificate's most one game pays per bet (games/certificate.py)

    def shuffle(self, gen):
        """A new deck order: every order equally likely. Commit it before showing deck[0:5]."""
        deck = bytearray(range(self.m.deck))
        shuffle(gen, deck)
        return bytes(deck)

    def check_deck(self, deck):
        """ValueError unless deck is a permutation of this game's cards (a recalled or resumed deck)."""
        n = self.m.deck
        if len(deck) != n:
            raise ValueError("deck: %d cards, the game uses %d" % (len(deck), n))
        seen = bytearray(n)
        for c in deck:
            if c >= n or seen[c]:
                raise ValueError("deck: card %r repeated or unknown" % c)
            seen[c] = 1

    def draw(self, deck, holds):
        """The final hand: held cards stay, each discarded position takes the next unseen card."""
        if not 0 <= holds < 32:
            raise ValueError("holds: a 5-bit mask")
        out = bytearray(HAND_SIZE)
        nxt = HAND_SIZE
        for i in range(HAND_SIZE):
            if holds >> i & 1:
                out[i] = deck[i]
            else:
                out[i] = deck[nxt]
                nxt += 1
        return bytes(out)

    def play(self, gen, bet):
        """A whole hand in one step, the holds chosen by the built-in strategy (auto-hold): the
        audit mode's test game and the benches' (the cabinet deals, waits for the player's holds
        and draws: firmware/play_poker.py). Its record holds the deck order and the holds."""
        self.m.bet_index(bet)  # ValueError before anything is drawn
        deck = self.shuffle(gen)
        return self.evaluate(bet, list(deck) + [self.suggest(deck[:HAND_SIZE])])

    def evaluate(self, bet, draws):
        """The whole game from its record, draws = the deck order then the holds (PokerOutcome.draws):
        replays bit for bit. ValueError on a record that is not a game of this model."""
        bi = self.m.bet_index(bet)
        if not draws:
            raise ValueError("draws: the deck order then the holds")
        deck = bytes(draws[:-1])
        holds = draws[-1]
        self.check_deck(deck)
        hand = self.draw(deck, holds)
        a = award(self.m, hand)
        return PokerOutcome(bet, deck, holds, hand, a, self.m.pays[bi][a] if a >= 0 else 0,
                            self.m.names[a]["en"] if a >= 0 else "")

    def describe(self, lang="fr"):
        """s. 89: the name, the unit cost of a wager and each award with its pays, shown before play."""
        from games.poker_text import describe  # the rules' words: loaded only when shown

        return describe(self, lang)

    def award_name(self, i, lang="fr"):
        return self.m.names[i].get(lang, self.m.names[i]["en"]) if i >= 0 else ""

    def suggest(self, deal):
        """The built-in strategy's holds for the five dealt cards (bit i: card i of the deal).

        The rule, the certifier's (tools/certify/poker.py strategy_holds), independent of the order
        the cards were dealt in: the deal is relabelled to its canonical form (canonical(): the
        suit relabelling whose sorted cards come first in colex order, which is the certifier's
        representative of the deal's suit-symmetry class), the hold whose pattern comes first in
        the model's strategy list is chosen over that sorted hand (ties: the lowest mask, bit i =
        its i-th card), and the held cards are mapped back to the dealt positions. So every order of
        the same five cards holds the same cards, and each deal holds the image of what the
        certifier's representative holds: the certified auto-hold return is the return of these
        holds (tests/host/test_poker_autohold.py). 0 (draw five) when no pattern is listed or the
        model has no strategy."""
        st = self.m.strategy
        if not st:
            return 0
        rep = self._rep
        back = self._back
        self.canonical(deal, rep, back)
        best = 0
        pos = len(st)
        for mask in range(32):
            p = st.get(pattern(self.m, rep, mask), pos)
            if p < pos:
                pos = p
                best = mask
        holds = 0
        for i in range(HAND_SIZE):
            if best >> i & 1:
                holds |= 1 << back[i]
        return holds

    def canonical(self, deal, rep, back):
        """rep <- the deal relabelled by the suit order (of the 24, the first in _PERMS) whose
        sorted cards are least in colex order (compared from the highest card down); back[i] <- the
        dealt position of rep[i]. The joker keeps its code. A function of the set of cards only."""
        keys = self._keys
        best = self._best
        have = False
        for p in range(0, 96, 4):
            for i in range(HAND_SIZE):
                c = deal[i]
                if c < 52:
                    c = (c & 0xFC) | _PERMS[p + (c & 3)]
                keys[i] = c << 3 | i
            for i in range(1, HAND_SIZE):  # insertion sort of five
                k = keys[i]
                j = i - 1
                while j >= 0 and keys[j] > k:
                    keys[j + 1] = keys[j]
                    j -= 1
                keys[j + 1] = k
            if have:
                j = HAND_SIZE - 1  # colex: the highest card first; cards only, not positions
                while j >= 0 and keys[j] >> 3 == best[j] >> 3:
                    j -= 1
                if j < 0 or keys[j] >> 3 > best[j] >> 3:
                    continue
            for i in range(HAND_SIZE):
                best[i] = keys[i]
            have = True
        for i in range(HAND_SIZE):
            rep[i] = best[i] >> 3
            back[i] = best[i] & 7
