# Blackjack engine (by-law s. 13-26.7; jeton-blackjack/1): a round is a shuffled shoe and the
# player's decisions, nothing else. The shoe is shuffled anew for every round before the first card
# is shown: an unbiased partial Fisher-Yates (rng.deal) over every card of every deck picks, in
# order, as many cards as a round can ever use (BlackjackModel.cards: 25 of one deck, 62 of eight),
# exactly the first cards of a full shuffle in distribution. The cards are taken from it in the
# by-law's order (s. 22: player, dealer's up card, player; hits and split hands in play order,
# s. 24(3); then the dealer's second card and draws, hand after hand for multi-action, s. 26.7). A
# decision never draws from the generator: it only chooses which of the already shuffled cards are
# shown where, so (shoe, decisions) replays the round bit for bit and a power cut resumes the very
# same round. The round's state is {"stake", "shoe", "moves"}: small and JSON-serialisable (the shoe
# in hex, at most 166 characters), committed once at the deal and again after every decision. The
# round's record (BlackjackOutcome.draws) is shorter still: the cards it used, then the decisions.
# No hole card (s. 22, 26): the dealer takes his second card after the players' hands are complete;
# against a dealer blackjack a split or doubled hand loses only the initial wager (s. 20).
from binascii import hexlify, unhexlify

from games.blackjack_model import BlackjackModel, value
from games.blackjack_progressive import award as progressive_award
from rng import deal

MOVES = "HSDPIN"  # hit, stand, double, split, insurance taken, insurance declined
DECISION = 52  # in a record, decision i is 52 + i: after the cards (codes 0..51), never one of them


def total(cards):
    """(best total, soft): an ace counts 11 when that does not pass 21 (s. 13-14)."""
    t = 0
    ace = False
    for c in cards:
        v = value(c)
        t += v
        if v == 1:
            ace = True
    if ace and t <= 11:
        return t + 10, True
    return t, False


def hard_sum(cards):
    t = 0
    for c in cards:
        t += value(c)
    return t


def is_pair_ten_ace(cards):
    # an ace and a ten-value card (a blackjack when dealt, s. 15; never doubled, s. 23)
    return len(cards) == 2 and value(cards[0]) + value(cards[1]) == 11 and (value(cards[0]) == 1 or value(cards[1]) == 1)


def bonus(cards, pays):
    """The s. 18.1 pay (a, b) a hand of three cards earns, if the model offers it: three sevens, or a
    6, 7 and 8 of one suit; else None."""
    if len(cards) != 3:
        return None
    v = [value(c) for c in cards]
    if v[0] == 7 and v[1] == 7 and v[2] == 7:
        return pays.get("three_sevens")
    if sorted(v) == [6, 7, 8] and cards[0] & 3 == cards[1] & 3 == cards[2] & 3:
        return pays.get("six_seven_eight_suited")
    return None


def up_column(code):
    """The strategy table's column of the dealer's up card: 2..9 -> 0..7, ten -> 8, ace -> 9."""
    v = value(code)
    return 9 if v == 1 else v - 2


class _Hand:
    __slots__ = ("cards", "stake", "split", "doubled", "done")

    def __init__(self, cards, stake, split):
        self.cards = cards
        self.stake = stake  # credits per main wager (per dealer hand): the wager, twice when doubled
        self.split = split
        self.doubled = False
        self.done = False


class Round:
    """A round rebuilt from its shoe and the decisions made so far (replay of the state)."""

    def __init__(self, game, stake, shoe, moves):
        m = game.m
        self.m = m
        self.stake = stake
        self.shoe = shoe
        self.pos = 3
        self.up = shoe[1]
        self.hands = [_Hand([shoe[0], shoe[2]], 1, False)]
        self.insurance = -1  # -1 not offered, 0 undecided, 1 taken, 2 declined
        if "insurance" in m.pays and value(self.up) == 1:
            self.insurance = 0
        self.dealer = None
        self.active = 0
        if self._natural():
            self.hands[0].done = True
        for mv in moves:
            self.move(mv)

    def _natural(self):
        return is_pair_ten_ace(self.hands[0].cards) and not self.hands[0].split

    def _next(self):
        if self.pos >= len(self.shoe):  # a shoe holds what any round can use: a short record
            raise ValueError("record: the round needs more cards than it holds")
        c = self.shoe[self.pos]
        self.pos += 1
        return c

    def _advance(self):
        # past finished hands: a split hand gets its second card when it is reached (s. 24(3))
        while self.active < len(self.hands):
            h = self.hands[self.active]
            if len(h.cards) == 1:
                h.cards.append(self._next())
                if value(h.cards[0]) == 1:  # split aces: one card each (s. 24(4))
                    h.done = True
            if not h.done and total(h.cards)[0] == 21 and not total(h.cards)[1]:
                h.done = True  # no hit on a hard 21 (s. 22)
            if not h.done:
                return
            self.active += 1

    def legal(self):
        """The decisions open now, as letters of MOVES ('' once the player's part is over)."""
        if self.insurance == 0:
            return "IN"
        self._advance()
        if self.active >= len(self.hands):
            return ""
        h = self.hands[self.active]
        out = "HS"
        if len(h.cards) == 2:
            if self.m.das or not h.split:
                if not is_pair_ten_ace(h.cards) and (self.m.double_any or 9 <= hard_sum(h.cards) <= 11):
                    out += "D"
            if len(self.hands) == 1 and value(h.cards[0]) == value(h.cards[1]):
                out += "P"  # same value (s. 24), once: no re-split in this format
        return out

    def move(self, mv):
        if mv not in self.legal():
            raise ValueError("decision %r not open now (open: %r)" % (mv, self.legal()))
        if mv == "I" or mv == "N":
            self.insurance = 1 if mv == "I" else 2
            return
        h = self.hands[self.active]
        if mv == "S":
            h.done = True
        elif mv == "H":
            h.cards.append(self._next())
            if total(h.cards)[0] > 21:
                h.done = True
        elif mv == "D":
            h.doubled = True
            h.stake = 2
            h.cards.append(self._next())
            h.done = True
        else:  # split: each card a hand, the second wager equal to the first (s. 24(1)-(2))
            c = h.cards.pop()
            h.split = True
            self.hands.append(_Hand([c], 1, True))
        self._advance()

    def finished(self):
        return self.legal() == ""

    def dealer_hands(self):
        """Each dealer hand's cards (s. 26: hits a soft 17 unless the model stands on all 17;
        s. 26.7: every hand of multi-action keeps the first card)."""
        if self.dealer is None:
            out = []
            for _ in range(self.m.hands):
                d = [self.up, self._next()]
                while True:
                    t, soft = total(d)
                    if t < 17 or (t == 17 and soft and self.m.h17):
                        d.append(self._next())
                    else:
                        break
                out.append(d)
            self.dealer = out
        return self.dealer


class BlackjackOutcome:
    """A settled round: results[wager] = (credits staked, credits returned); award = the total
    returned; draws = the cards it used then its decisions (DECISION + MOVES index): its record."""
    __slots__ = ("stake", "bet", "shoe", "moves", "hands", "dealer", "results", "award", "wins")

    def __init__(self, stake, shoe, moves, hands, dealer, results):
        self.stake = stake
        self.shoe = shoe  # the cards the round used, in shoe order
        self.moves = moves
        self.hands = hands
        self.dealer = dealer
        self.results = results
        self.bet = 0
        self.award = 0
        self.wins = []
        for k in results:
            s, r = results[k]
            self.bet += s
            self.award += r
            if r > 0:
                self.wins.append([k, r])

    @property
    def draws(self):
        # made when asked (recall, replay)
        out = list(self.shoe)
        for mv in self.moves:
            out.append(DECISION + MOVES.index(mv))
        return out

    def to_dict(self):
        return {"stake": self.stake, "moves": self.moves, "hands": self.hands, "dealer": self.dealer,
                "results": {k: list(v) for k, v in self.results.items()}, "bet": self.bet, "award": self.award}


def load(path):
    from games.model import read

    return BlackjackGame(read(path))


class BlackjackGame:
    kind = "cards"  # the game's kind, for the jurisdiction (firmware/jurisdiction.py check_kind)

    def __init__(self, model):
        self.m = m = BlackjackModel(model)
        self.model = {k: model[k] for k in model if k != "strategy"}
        self.id = m.id
        self.name = m.name
        self.bets = m.bets
        self.max_award = None  # the certificate's (games/blackjack_check.py)
        self.max_risk = None

    # the shoe -----------------------------------------------------------------------------------
    def shuffle(self, gen):
        """The first m.cards cards of a fresh shuffle of the whole shoe (each card of each deck is one
        of 52 * decks; every ordered choice equally likely), as card codes."""
        idx = deal(gen, 52 * self.m.decks, self.m.cards)
        shoe = bytearray(len(idx))
        for i in range(len(idx)):
            shoe[i] = idx[i] % 52
        return bytes(shoe)

    def check_shoe(self, shoe, n=None):
        """ValueError unless shoe holds n cards (default: m.cards), none more than `decks` times."""
        n = self.m.cards if n is None else n
        if len(shoe) != n:
            raise ValueError("shoe: %d cards, the game deals %d" % (len(shoe), n))
        seen = bytearray(52)
        for c in shoe:
            if c >= 52 or seen[c] >= self.m.decks:
                raise ValueError("shoe: card %r unknown or more than %d times" % (c, self.m.decks))
            seen[c] += 1

    # the committed state: {"stake", "shoe" (hex), "moves"} --------------------------------------
    def deal(self, gen, stake):
        """The state of a new round: ValueError on a stake this model does not take (nothing drawn)."""
        self.m.check_stake(stake)
        return self.state(stake, self.shuffle(gen))

    def state(self, stake, shoe):
        """The state of a round on this shoe (bytes), no decision made yet (a recalled round)."""
        self.m.check_stake(stake)
        self.check_shoe(shoe)
        return {"stake": dict(stake), "shoe": hexlify(shoe).decode(), "moves": ""}

    def round(self, state):
        """The round of a state (a committed or resumed one is checked: ValueError if malformed)."""
        if not isinstance(state, dict) or not isinstance(state.get("moves"), str):
            raise ValueError("state: {stake, shoe, moves}")
        self.m.check_stake(state.get("stake"))
        try:
            shoe = unhexlify(state["shoe"])
        except Exception:  # noqa: BLE001 not hex, missing: one message
            raise ValueError("state: shoe is not hex")
        self.check_shoe(shoe)
        return Round(self, state["stake"], shoe, state["moves"])

    def legal(self, state):
        return self.round(state).legal()

    def decide(self, state, mv):
        """The state after decision mv (a letter of legal()); ValueError if it is not open."""
        r = self.round(state)
        r.move(mv)
        return {"stake": state["stake"], "shoe": state["shoe"], "moves": state["moves"] + mv}

    def auto(self, state):
        """The built-in strategy's decision (the model's table; insurance never taken), or ''."""
        return self.suggest(self.round(state))

    def suggest(self, r):
        ok = r.legal()
        if not ok:
            return ""
        if "N" in ok:
            return "N"
        h = r.hands[r.active]
        st = self.m.strategy
        col = up_column(r.up)
        if "P" in ok and st["pair"]["A23456789T"[value(h.cards[0]) - 1]][col] == "P":
            return "P"
        t, soft = total(h.cards)
        a = st["soft" if soft else "hard"][str(t)][col]
        if a == "D" or a == "E":
            if "D" in ok:
                return "D"
            a = "H" if a == "D" else "S"
        if a == "H" and "H" not in ok:
            a = "S"
        return a

    def at_risk(self, stake):
        """The most credits this stake can put at risk in its round (doubles, a split, insurance):
        what the cabinet holds to the jurisdiction's bet limit before the deal (s. 26.6: a double or
        a split adds a wager on every dealer hand). The certificate's max_risk is this with every
        wager at one bet level."""
        m = self.m
        m.check_stake(stake)
        per_hand = 4 if m.das else 2  # a split pair, both hands doubled (s. 26.1(3)); else a double or a split
        out = 0
        for k in stake:
            out += stake[k] * per_hand if k in m.mains else stake[k]
        if "insurance" in m.pays:
            out += stake["main"] // 2
        return out

    def settle(self, state):
        r = self.round(state)
        if not r.finished():
            raise ValueError("round not finished: decisions %r open" % r.legal())
        return self._outcome(r, state["stake"], state["moves"])

    # whole rounds (audit mode, benches, replay) --------------------------------------------------
    def play(self, gen, stake):
        """A whole round, every decision the built-in strategy's."""
        state = self.deal(gen, stake)
        r = self.round(state)
        moves = ""
        while True:
            mv = self.suggest(r)
            if not mv:
                break
            r.move(mv)
            moves += mv
        return self._outcome(r, stake, moves)

    def evaluate(self, stake, draws):
        """The round from its record (BlackjackOutcome.draws: the cards used, then DECISION + each
        decision): replays bit for bit; ValueError on a record that is not a finished round of this
        model, or that holds a card the round does not use."""
        self.m.check_stake(stake)
        if not isinstance(draws, (list, tuple)):
            raise ValueError("draws: the cards used then the decisions")
        n = 0
        while n < len(draws) and isinstance(draws[n], int) and 0 <= draws[n] < DECISION:
            n += 1
        if n > self.m.cards or n < 4:
            raise ValueError("draws: %d cards, a round uses 4 to %d" % (n, self.m.cards))
        shoe = bytes(draws[:n])
        self.check_shoe(shoe, n)
        moves = ""
        for d in draws[n:]:
            if not isinstance(d, int) or not DECISION <= d < DECISION + len(MOVES):
                raise ValueError("draws: decision %r unknown" % (d,))
            moves += MOVES[d - DECISION]
        r = Round(self, stake, shoe, moves)
        if not r.finished():
            raise ValueError("draws: round not finished")
        if n < 6 and self.m.progressive_wager in stake:
            raise ValueError("draws: %d cards, the progressive wager reads 6" % n)
        out = self._outcome(r, stake, moves)
        if self.used(r, stake) != n:
            raise ValueError("draws: %d cards recorded, the round used %d" % (n, self.used(r, stake)))
        return out

    def _outcome(self, r, stake, moves):
        m = self.m
        dealer = r.dealer_hands()
        res = {}
        for k, d in zip(m.mains, dealer):
            res[k] = self._main(r, stake[k], d, m.pays[k])
        shoe = r.shoe
        first = [shoe[0], shoe[2]]
        if r.insurance == 1:
            s = stake["main"] // 2  # s. 25(1): half the initial wager
            a, b = m.pays["insurance"]["dealer_blackjack"]
            res["insurance"] = (s, s + s * a // b if is_pair_ten_ace(dealer[0]) else 0)
        if "twelve_sixteen" in stake:  # s. 21.1: the first 2 cards total 12 to 16
            s = stake["twelve_sixteen"]
            t = total(first)[0]
            p = m.pays["twelve_sixteen"]
            v0 = value(first[0])
            key = None
            if 12 <= t <= 16:
                key = "two_aces_or_eights" if v0 == value(first[1]) and v0 in (1, 8) else "total_12_16"
            res["twelve_sixteen"] = (s, s + s * p[key][0] // p[key][1] if key else 0)
        if "sevens" in stake:  # s. 21.3: the first card, first 2, first 3 (the shoe's next card)
            res["sevens"] = (stake["sevens"], self._sevens(stake["sevens"], (shoe[0], shoe[2], shoe[3])))
        k = m.progressive_wager
        if k is not None and k in stake:  # s. 21.2: the first five cards, the shoe's next ones included
            a = progressive_award(k, (shoe[0], shoe[2], shoe[3], shoe[4], shoe[5]))
            s = stake[k]
            res[k] = (s, s + s * m.pays[k][a][0] // m.pays[k][a][1] if a else 0)
        for k in ("over_13", "under_13"):  # s. 21.4: aces count 1; 13 loses both
            if k in stake:
                t = hard_sum(first)
                won = t > 13 if k == "over_13" else t < 13
                a, b = m.pays[k]["win"]
                res[k] = (stake[k], stake[k] + stake[k] * a // b if won else 0)
        hands = [[list(h.cards), h.stake, h.doubled] for h in r.hands]
        return BlackjackOutcome(stake, shoe[:self.used(r, stake)], moves, hands, [list(d) for d in dealer], res)

    def used(self, r, stake):
        """The cards a finished round uses: its own, and the progressive wager's five (s. 21.2)."""
        k = self.m.progressive_wager
        return max(r.pos, 6) if k is not None and k in stake else r.pos

    def _main(self, r, b, d, pays):
        """(staked, returned) of one main wager of b against dealer hand d (s. 18-21)."""
        staked = 0
        for h in r.hands:
            staked += h.stake * b
        dbj = is_pair_ten_ace(d)
        if len(r.hands) == 1 and is_pair_ten_ace(r.hands[0].cards):  # a blackjack (s. 15)
            if dbj:
                return staked, staked  # s. 19: a push
            a, q = pays["blackjack"]
            return staked, b + b * a // q
        if dbj:  # s. 20: only the initial wager is lost
            return staked, staked - b
        a, q = pays["win"]
        dt = total(d)[0]
        ret = 0
        for h in r.hands:
            t = total(h.cards)[0]
            s = h.stake * b
            if t > 21:
                continue
            x = bonus(h.cards, pays)
            if x is not None:  # s. 18.1: wins whatever the dealer's total (not against his blackjack, s. 20)
                ret += s + s * x[0] // x[1]
            elif dt > 21 or t > dt:
                ret += s + s * a // q
            elif t == dt:
                ret += s
        return staked, ret

    def _sevens(self, s, cards):
        p = self.m.pays["sevens"]
        n = 0
        while n < 3 and value(cards[n]) == 7:
            n += 1
        if n == 0:
            return 0
        suited = n >= 2 and cards[0] & 3 == cards[1] & 3 and (n == 2 or cards[2] & 3 == cards[0] & 3)
        key = ("one", "two_suited" if suited else "two", "three_suited" if suited else "three")[n - 1]
        a, q = p[key]
        return s + s * a // q
