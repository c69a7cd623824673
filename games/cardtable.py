# The engine every card-poker table game shares (by-law s. 63-67.87; docs/games.md "Card-poker table
# games"). A round: the stake ({wager: credits}, each a bet level of the model) is checked, then every
# card the round can need is dealt at once (games/cards.py deal: a partial Fisher-Yates of the shoe
# through rng.below) and committed before anything is shown; then the decisions, one at a time, each
# one of the legal decisions of its point (pending()), each committed as it is made; then the
# settlement. The decisions never draw (s. 88): a round is a function of (stake, deal, decisions),
# and evaluate(stake, draws) replays it bit for bit from draws = the dealt shoe positions then the
# decisions.
#
# A family module (games/three_card.py, ...) subclasses CardTable and gives FORMAT, CARDS (cards a
# round deals), DECKS (the decks the by-law allows), WAGERS (games/cardtable_model.py's schema) and:
#   _stake_rule(stake)                  ValueError when the stake's wagers do not go together
#   pending(stake, cards, made)         the legal decisions at this point, or None: the round is over
#   cost(stake, cards, made, d)         credits decision d adds to the wagers (< 0: given back now)
#   auto(stake, cards, made)            the built-in strategy's decision ("auto" on the cabinet)
#   shown(stake, cards, made)           how many of the dealt cards the player sees at this point
#   _settle(stake, cards, made, out)    fills out.wagered / out.returned / out.hands
# cards are card codes (games/cards.py), made the decisions so far (a list of small ints).
from games import cards as _cards
from games.cardtable_model import CardTableModel


class CardOutcome:
    """A finished round. wagered / returned: {wager id: credits} at risk at the end (the stake, the
    decisions' wagers, less what was withdrawn) and paid back (stake and win together; 0 when lost);
    bet and award their totals. draws: the dealt positions then the decisions (recall, replay)."""
    __slots__ = ("stake", "draws", "cards", "decisions", "wagered", "returned", "bet", "award", "hands",
                 "wins", "window", "stops", "triggered", "free")

    def __init__(self, stake, positions, cards, made):
        self.stake = stake
        self.draws = list(positions) + list(made)
        self.cards = cards
        self.decisions = list(made)
        self.wagered = {}
        self.returned = {}
        self.hands = {}
        self.bet = 0
        self.award = 0
        self.wins = []
        self.stops = cards
        self.window = [[_cards.name(c) for c in cards]]
        self.triggered = 0
        self.free = []

    def pay(self, wager, at_risk, back):
        self.wagered[wager] = self.wagered.get(wager, 0) + at_risk
        self.returned[wager] = self.returned.get(wager, 0) + back

    def to_dict(self):
        return {"stake": self.stake, "draws": self.draws, "cards": [_cards.name(c) for c in self.cards],
                "decisions": self.decisions, "wagered": self.wagered, "returned": self.returned,
                "bet": self.bet, "award": self.award, "hands": self.hands}


class CardTable:
    FORMAT = None
    kind = "cards"  # the game's kind, for the jurisdiction (firmware/jurisdiction.py check_kind): card games
    CARDS = 0
    DECKS = (1,)
    WAGERS = ()
    EVEN = False  # every bet level even (a wager may lose half of itself: War's surrender)
    DECISIONS = ()  # the decisions' names, by number
    RAISES = ()  # (wager, k): the decisions can add at most k times that wager's stake (risk())

    def __init__(self, model):
        self.m = m = CardTableModel(model, self.FORMAT, self.WAGERS, self.DECKS, self.EVEN)
        self.model = model
        self.path = None  # the model file the rules are read from again once let go (let_go_text)
        self.id = m.id
        self.name = m.name
        self.bets = m.bets
        self.decks = m.decks
        self.max_award = None  # per bet level, from the certificate (games/cardtable_cert.py)
        self.max_risk = None

    def check_stake(self, stake):
        """The credits the stake places before the deal; ValueError naming what is wrong."""
        if not isinstance(stake, dict) or not stake:
            raise ValueError("stake: {wager: credits} with at least one wager")
        total = 0
        for w in stake:
            if w not in self.m.stakes:
                raise ValueError("stake: %r is not a wager of %s (%s)" % (w, self.id, ", ".join(self.m.stakes)))
            c = stake[w]
            if c not in self.bets or isinstance(c, bool):
                raise ValueError("stake: %s of %r credits is not a bet level (%s)" % (
                    w, c, ", ".join(str(b) for b in self.bets)))
            total += c * self.units(w)
        self._stake_rule(stake)
        return total

    def units(self, wager):
        """How many times its credits a wager of the stake places (Let It Ride's three equal bets)."""
        return 1

    def _stake_rule(self, stake):
        pass

    def risk(self, stake):
        """The most the stake can put at risk in its round: what it places, and the most the
        decisions can add (3 Card Poker's play, Caribbean Stud's raise, War's war, Red Dog's raise):
        the credits a round needs before its deal and what the maximum bet counts (s. 93; vlt)."""
        n = self.check_stake(stake)
        for w, k in self.RAISES:
            n += k * stake.get(w, 0)
        return n

    def givable(self, stake, made):
        """Credits of the stake the decisions still to come may give back (Let It Ride's two wagers
        the player may take back): the cabinet counts them as wagered only once they ride."""
        return 0

    def deal(self, gen, stake):
        """The shoe positions of every card the round can need, in dealt order: commit them before
        showing any. The stake is checked first (nothing is drawn for a stake refused)."""
        self.check_stake(stake)
        return _cards.deal(gen, self.decks, self.CARDS)

    def cards(self, positions):
        """The card codes of dealt positions; ValueError unless they are a deal of this game."""
        return _cards.check(positions, self.decks, self.CARDS)

    def evaluate(self, stake, draws):
        """The round from its record (draws = the positions dealt, then the decisions): replays bit
        for bit; ValueError on a record that is not a round of this game."""
        self.check_stake(stake)
        if not isinstance(draws, (list, tuple)) or len(draws) < self.CARDS:
            raise ValueError("draws: the %d dealt positions, then the decisions" % self.CARDS)
        positions = draws[:self.CARDS]
        cards = self.cards(positions)
        made = []
        for d in draws[self.CARDS:]:
            legal = self.pending(stake, cards, made)
            if legal is None:
                raise ValueError("draws: decision %r after the round was over" % (d,))
            if d not in legal or isinstance(d, bool):
                raise ValueError("draws: decision %r is not one of %r at that point" % (d, legal))
            made.append(d)
        if self.pending(stake, cards, made) is not None:
            raise ValueError("draws: the round still waits for a decision")
        out = CardOutcome(stake, positions, cards, made)
        self._settle(stake, cards, made, out)
        bet = 0
        award = 0
        for w in sorted(out.wagered):  # a dict's order is not MicroPython's and CPython's alike: the digest's is
            bet += out.wagered[w]
            award += out.returned[w]
            if out.returned[w]:
                out.wins.append([w, out.hands.get(w, ""), out.returned[w]])
        out.bet = bet
        out.award = award
        return out

    def evaluate_round(self, bet, draws):
        """The round of a recall record: draws = [stake, the dealt positions then the decisions];
        ValueError when the record is not a round of this game or bet is not what it wagered."""
        if not isinstance(draws, list) or len(draws) != 2 or not isinstance(draws[0], dict):
            raise ValueError("draws: [stake, the dealt positions then the decisions]")
        o = self.evaluate(draws[0], draws[1])
        if o.bet != bet:
            raise ValueError("bet %r: the round wagered %d credits" % (bet, o.bet))
        o.draws = [draws[0], o.draws]
        return o

    def play(self, gen, stake):
        """A whole round, every decision the built-in strategy's (the audit mode's test game, the
        benches): deal, auto at each decision point, settle."""
        positions = self.deal(gen, stake)
        cards = self.cards(positions)
        made = []
        while self.pending(stake, cards, made) is not None:
            made.append(self.auto(stake, cards, made))
        return self.evaluate(stake, positions + made)

    def let_go_text(self, path):
        """The boot check's (games/cardtable_cert.py): the rules' paragraphs and the model as read are
        not held for the cabinet's life (2.5-3.5 KB of a board's heap, more than the engine's tables):
        rules() reads them again from the model file whose hash the check matched."""
        self.path = path
        self.model = None
        self.m.rules = None

    def rules(self, lang):
        """The rules' paragraphs (s. 89) in lang (English for another language)."""
        r = self.m.rules
        if r is None:
            from games.model import read

            r = read(self.path)["rules"]
        return r.get(lang, r["en"])

    def decision_name(self, d):
        return self.DECISIONS[d]

    def describe(self, lang="fr"):
        """s. 89: the name, the bets, the rules and every wager with what it pays, before play."""
        from games.cardtable_text import describe  # the rules' words: loaded only when shown

        return describe(self, lang)
