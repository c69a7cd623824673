# The card-poker table games with decisions on the cabinet (issue 26): firmware/play.py's play of a
# 3 Card Poker, Caribbean Stud, Let It Ride, Red Dog or War round (games/cardtable.py). The player
# stakes the game's wagers on the layout (WAGER, CLEAR: idle and credit, as firmware/play_table.py;
# the layout is the model's stake wagers, games/cardtable_model.py stakes), in RAM. PLAY checks the
# stake, and that the credits hold the most its round can put at risk (CardTable.risk: the play,
# raise or war the decisions may add) within the profile's maximum bet, before anything is
# committed. Then, each a commit before anything of it is shown (firmware/game_books.py):
#   wager      the stake's credits counted (coin_in) and the stake, packed in the game's "deck";
#   hand_step  every card the round can need (the shoe positions, games/cards.py deal), appended;
#   hand_step  each decision as it is made (HOLD state: hold key N is decision N-1, AUTO the built-in
#              strategy's), with the credits it wagers: coin_in counts what is at risk;
#   settle     the outcome and its recall record, draws = [stake, positions then decisions]
#              (CardTable.evaluate_round replays it bit for bit).
# Let It Ride's wagers taken back (a negative cost): the cabinet counts a wager when it rides, never
# before, so coin_in never counts a wager that was given back and never goes down: the wager commit
# counts the stake less what the decisions may give back (CardTable.givable), each "let it ride"
# counts one more; the credits of the two undecided wagers stay on the credit meter, which the
# round's risk check holds and nothing spends while the hand waits (a cash-out waits for the end of
# the round, as a dealt poker hand's does). War's surrender loses half the wager at the settlement.
# A power cut resumes the round at its last commit: the same cards, the decisions made; a round whose
# deal was not committed is dealt then (or refunded without a generator, s. 95).
from firmware import jurisdiction, states
from firmware.play import GamePlay
from games.cards import name as _name  # loaded already: the engine's


def pack(game, stake, positions=None, made=()):
    """The round's deck: each staked wager's number and bet level index (hex), then "." the dealt
    shoe positions (3 hex digits each) and "." the decisions (a hex digit each)."""
    m = game.m
    t = "".join("%x%x" % (m.stakes.index(w), game.bets.index(stake[w])) for w in sorted(stake))
    if positions is None:
        return t
    return t + "." + "".join("%03x" % p for p in positions) + "." + "".join("%x" % d for d in made)


def unpack(game, text):
    """pack's inverse, checked against the game: (stake, positions or None, cards, decisions);
    ValueError for a deck that is not a round of this game."""
    if not isinstance(text, str):
        raise ValueError("deck: not a packed round")
    parts = text.split(".")
    s = parts[0]
    if len(s) % 2 or len(parts) not in (1, 3):
        raise ValueError("deck: not a packed round")
    m = game.m
    stake = {}
    for i in range(0, len(s), 2):
        w, lv = int(s[i], 16), int(s[i + 1], 16)
        if w >= len(m.stakes) or lv >= len(game.bets):
            raise ValueError("deck: no wager %d at level %d" % (w, lv))
        stake[m.stakes[w]] = game.bets[lv]
    game.check_stake(stake)
    if len(parts) == 1:
        return stake, None, None, []
    p = parts[1]
    if len(p) % 3:
        raise ValueError("deck: not a packed round")
    positions = [int(p[i:i + 3], 16) for i in range(0, len(p), 3)]
    cards = game.cards(positions)
    made = []
    for ch in parts[2]:
        d = int(ch, 16)
        legal = game.pending(stake, cards, made)
        if legal is None or d not in legal:
            raise ValueError("deck: decision %d is not one of %r" % (d, legal))
        made.append(d)
    return stake, positions, cards, made


def counted(game, stake, cards, made):
    """The credits a round has wagered (coin_in) once these decisions are made."""
    n = game.check_stake(stake) - game.givable(stake, made)
    for i in range(len(made)):
        n += game.cost(stake, cards, made[:i], made[i])
    return n


class CardPlay(GamePlay):
    _stake = None  # the stake on the layout ({wager: credits}), in RAM
    deck = None  # the stake ready() checked, packed: GamePlay.play commits it with the wager
    _bet = 0  # what the wager commit counts of it

    def stake(self):
        return self._stake or {}

    # --- the layout (WAGER, CLEAR: idle and credit) ---------------------------------------------------
    def touch(self, cab, word, n):
        """The layout's 'wager N' (the model's stake wagers, by number) and 'clear'; a dealt hand's
        'hold N' (decision N-1) and 'auto' (the built-in strategy's)."""
        if word == "wager":
            cab.handle(states.WAGER, n)
        elif word == "clear":
            cab.handle(states.CLEAR)
        elif word == "hold":
            cab.handle(states.HOLD_KEY, n)
        elif word == "auto":
            cab.handle(states.AUTO)

    def table_wager(self, cab, key, credits=None):
        """key: a stake wager or its number; credits: its bet level (0: off), or None: its next level,
        then off. Refused, with the reason on the screen, for a wager or level the game has not or a
        round whose risk breaks the profile's maximum bet; nothing else changes."""
        sc = self.screen
        sc.message = None
        game = self.game
        stakes = game.m.stakes
        stake = dict(self.stake())
        if isinstance(key, int):
            key = stakes[key] if 0 <= key < len(stakes) else "%d" % key
        if key not in stakes:
            sc.message = "%s: not a wager of %s (%s)" % (key, game.id, ", ".join(stakes))
            cab.show()
            return
        if credits is None:
            up = [b for b in game.bets if b > stake.get(key, 0)]
            credits = up[0] if up else 0
        if credits:
            if credits not in game.bets:
                sc.message = "%s: %d credits is not a bet level" % (key, credits)
                cab.show()
                return
            stake[key] = credits
            try:
                risk = game.risk(stake)
            except ValueError:
                risk = 0  # a stake not yet whole (a side wager first): PLAY says why
            if jurisdiction.check_wager(self.config.JURISDICTION, self.config.DENOM_CENTS, risk):
                sc.message = ("bet_refused",)
                cab.show()
                return
        else:
            stake.pop(key, None)
        self._stake = stake
        cab.show()

    def keno_clear(self, cab):
        self.screen.message = None
        self._stake = {}
        cab.show()

    # --- the round -------------------------------------------------------------------------------------
    def ready(self, cab):
        """The stake checked, its risk against the credits, the maximum bet and prize; else the reason
        on the screen and nothing committed."""
        sc = self.screen
        game = self.game
        stake = self.stake()
        cfg = self.config
        try:
            if self.ledger.tour:
                raise ValueError("a card table is not a tournament game")
            risk = game.risk(stake)
            self._bet = game.check_stake(stake) - game.givable(stake, [])
            self.deck = pack(game, stake)
        except ValueError as e:
            sc.message = str(e) if stake else ("no_wager",)
            cab.show()
            return False
        why = jurisdiction.check_wager(cfg.JURISDICTION, cfg.DENOM_CENTS, risk)
        if why is None and game.max_award:
            why = jurisdiction.check_prize(cfg.JURISDICTION, cfg.DENOM_CENTS,
                                           game.max_award[game.bets.index(max(stake.values()))], "one round")
        if why:
            self.ledger.event("bet-refused", why)
            sc.message = ("bet_refused",)
            cab.show()
            return False
        if risk > self.ledger.play_credits:
            sc.message = ("insert",)  # the decisions' wagers too: a raise is never refused for credits
            cab.show()
            return False
        return True

    def offered_bet(self):
        return self._bet

    def bet_one(self, cab):
        cab.show()  # the bet levels are the wagers' own: a touch on the wager moves it

    def bet_max(self, cab):
        self.play(cab)

    def outcome(self, bet):
        """After the wager's commit: every card the round can need dealt and committed, then shown;
        the outcome now when the round has no decision, else None (the hand waits: HOLD)."""
        game = self.game
        stake = self.stake()
        positions = game.deal(self.gen, stake)
        self.ledger.hand_step(pack(game, stake, positions))
        return self._next(stake, positions, game.cards(positions), [])

    def _next(self, stake, positions, cards, made):
        # the outcome of a round whose decisions are made, or None with the hand shown as it waits
        game = self.game
        if game.pending(stake, cards, made) is None:
            return game.evaluate_round(self.ledger.game["bet"], [stake, positions + made])
        sc = self.screen
        sc.reels = [[_name(c) for c in cards[:game.shown(stake, cards, made)]]]
        sc.win = 0
        sc.played = None
        return None

    def hand_open(self):
        g = self.ledger.game if self.ledger.st else None
        return bool(g and g["phase"] == "wager" and "." in (g.get("deck") or ""))

    def toggle_hold(self, cab, key):
        self.decide(cab, key - 1)

    def auto_hold(self, cab):
        stake, positions, cards, made = unpack(self.game, self.ledger.game["deck"])
        self.decide(cab, self.game.auto(stake, cards, made))

    def draw(self, cab):
        self.screen.message = "decide: %s" % ", ".join(self._legal() or ())
        cab.show()

    def decide(self, cab, d):
        """Decision d of the waiting hand committed with the credits it wagers, then the next point
        shown, or the round settled; a decision not legal here is refused on the screen."""
        game = self.game
        sc = self.screen
        stake, positions, cards, made = unpack(game, self.ledger.game["deck"])
        legal = game.pending(stake, cards, made)
        if legal is None or d not in legal:
            sc.message = "decide: %s" % ", ".join(self._legal())
            cab.show()
            return
        after = made + [d]
        take = game.cost(stake, cards, made, d) + game.givable(stake, made) - game.givable(stake, after)
        try:
            self.ledger.hand_step(pack(game, stake, positions, after), take)
        except ValueError:
            sc.message = ("insert",)
            cab.show()
            return
        sc.message = None
        o = self._next(stake, positions, cards, after)
        if o is not None:
            self._settle(o)
        cab.show()

    def _legal(self):
        # the names of the waiting hand's decisions, hold key 1 first (none without books: a RAM error)
        if not self.hand_open():
            return None
        g = self.ledger.game
        stake, positions, cards, made = unpack(self.game, g["deck"])
        legal = self.game.pending(stake, cards, made) or ()
        return ["%d %s" % (d + 1, self.game.DECISIONS[d]) for d in legal]

    def _settle(self, outcome):
        GamePlay._settle(self, outcome)
        self.shown_last({"draws": outcome.draws})

    def shown_last(self, rec):
        """The round's cards as the player saw them at its end (War's cards of a war not fought stay
        down), from its recall record."""
        game = self.game
        stake, draws = rec["draws"]
        cards = game.cards(draws[:game.CARDS])
        made = draws[game.CARDS:]
        self.screen.reels = [[_name(c) for c in cards[:game.shown(stake, cards, made)]]]

    # --- power-up --------------------------------------------------------------------------------------
    def cannot_complete(self, g):
        """Why a committed round cannot be completed by this boot's game, or None."""
        if self.game is None:
            return "no certified game to complete it"
        if g.get("id") not in (None, self.game.id):
            return "game %s no longer offered" % g.get("id")
        try:
            stake, positions, cards, made = unpack(self.game, g.get("deck") or "")
            if positions is not None and counted(self.game, stake, cards, made) != g["bet"]:
                return "round of %d credits, its deck wagers %d" % (
                    g["bet"], counted(self.game, stake, cards, made))
        except (ValueError, TypeError, KeyError) as e:
            return "round not playable on %s: %s" % (self.game.id, e)
        if positions is None and self.gen is None:
            return "rng failure at power-up"
        return None

    def resume(self, cab):
        """Power-up: a round committed before the cut goes on from its last commit: dealt now if its
        deal was not committed, settled if its decisions were all made, else the hand waits again
        (GamePlay.resume: resume_hand); refunded when it cannot be (s. 95)."""
        g = self.ledger.game
        if g and g["phase"] == "wager" and self.cannot_complete(g) is None:
            stake, positions, cards, made = unpack(self.game, g["deck"])
            self._stake = stake
            if positions is None:
                self.log("resume: dealing the round of %d credits" % g["bet"])
                self.draw_and_settle(cab, g["bet"])
            elif self.game.pending(stake, cards, made) is None:
                self.log("resume: settling the round of %d credits" % g["bet"])
                self._settle(self._next(stake, positions, cards, made))
        GamePlay.resume(self, cab)

    def resume_hand(self):
        g = self.ledger.game
        stake, positions, cards, made = unpack(self.game, g["deck"])
        self._next(stake, positions, cards, made)
        self.log("resume: hand dealt, waiting for decision %d (bet %d)" % (len(made) + 1, g["bet"]))

    def test_outcome(self, bet):
        """Audit mode: the stake on the layout when it can be played, else a stake wager alone at bet,
        else every stake wager at bet (3-5-7's: none goes alone, s. 67.45); every decision the
        built-in strategy's."""
        game = self.game
        stakes = [self.stake()] + [{w: bet} for w in game.m.stakes] + [{w: bet for w in game.m.stakes}]
        for stake in stakes:
            try:
                game.check_stake(stake)
            except ValueError:
                continue
            o = game.play(self.gen, stake)
            o.draws = [stake, o.draws]
            return o
        raise ValueError("no stake of %s takes %d credits a wager" % (game.id, bet))

    # --- what the cabinet asks -------------------------------------------------------------------------
    def table_screen(self):
        """The display's layout: the stake placed, the most its round can take, and the decisions the
        dealt hand waits for (hold key N: decision N-1), or None."""
        stake = self.stake()
        try:
            takes = self.game.risk(stake)
        except ValueError:
            takes = 0
        return {"stake": stake, "table": None, "takes": takes, "decide": self._legal()}

