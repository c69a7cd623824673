# Playing a game on the cabinet: the bet levels of the offered game, the wager, the draw and the
# award (paid when the reels stop, or forfeited on a disruption, s. 94), an RNG failure that voids
# the game (s. 95), tournament entries (s. 124, 126), the completion of a wager committed before a
# power cut, and the audit-mode test game. GamePlay plays a reel game; keno's and video poker's play
# subclass it (firmware/play_keno.py, firmware/play_poker.py): for_game picks the family's, so a
# cabinet loads only the engine it plays. The books it commits to are firmware/game_books.py.
#
# A part of the cabinet (firmware/cabinet.py), made at power-up (firmware/startup.py) with what it
# plays with: the game, the generator, the books, the configuration, the progressive, the security
# log (the prize tilt's evidence), the screen it sets (firmware/screen.py), the board's clock and
# the log. The state table (firmware/states.py) says when each action runs; the cabinet passes
# itself as `cab` where the play must tell it something: cab.set_tilt(kind, why), cab.show(), and
# cab.handle(event, *args) for a touch on the screen (an event of the state table).
from board.compat import ticks_add, ticks_diff
from firmware import jurisdiction
from firmware.audit_error import AuditError
from rng import RngFailure


def is_keno(game):
    # games/keno.py KenoGame, by what it does: not imported here, so a reel or poker cabinet never
    # loads the keno engine (about 4 KB of heap: tools/bench/bench_heap.py)
    return hasattr(game, "check_picks")


def is_poker(game):
    # games/poker.py PokerGame, by what it does: the poker engine is not imported here, so a reel or
    # keno cabinet never loads it (the heap: tools/bench/bench_heap.py)
    return hasattr(game, "check_deck")


def for_game(game, gen, ledger, config, progressive, audit, screen, clock, log):
    """The play of the game's family: its module is imported only for a game of that family."""
    if is_keno(game):
        from firmware.play_keno import KenoPlay as cls
    elif is_poker(game):
        from firmware.play_poker import PokerPlay as cls
    elif hasattr(game, "play_round"):  # games/table_game.py TableGame: roulette, craps, sic bo, wheel, baccarat
        from firmware.play_table import TablePlay as cls
    elif hasattr(game, "givable"):  # games/cardtable.py CardTable: 3 Card Poker, Caribbean Stud, Let It Ride ...
        from firmware.play_cards import CardPlay as cls
    else:
        cls = GamePlay
    return cls(game, gen, ledger, config, progressive, audit, screen, clock, log)


def played(game, outcome):
    """The display's record of the game on the screen (docs/screen.md `outcome`): the bet it was
    played at, a reel game's base-spin wins as [line index, credits] (-1: the scatter) for the
    winning lines drawn over the window, and [spins, credits] of its free spins; a table round's
    wagers as [key, credits, status, returned, key it stands under next] (games/table_outcome.py)."""
    if hasattr(outcome, "results"):  # a table round (no function of its own: each one costs a board heap)
        return {"bet": outcome.bet, "lines": [], "wagers": outcome.results}
    if hasattr(outcome, "decisions"):  # a card table's round: [wager, credits at risk, hand, returned, None]
        return {"bet": outcome.bet, "lines": [], "wagers": [[w, outcome.wagered[w], outcome.hands.get(w, ""),
                                                          outcome.returned[w], None] for w in sorted(outcome.wagered)]}
    reels = not (is_keno(game) or is_poker(game))  # keno's and poker's wins name no line
    out = {"bet": outcome.bet, "lines": [[w[0], w[2]] for w in outcome.wins] if reels else []}
    if reels and outcome.free:
        out["free"] = [len(outcome.free), sum(f[2] for f in outcome.free)]
    return out


class GamePlay:
    def __init__(self, game, gen, ledger, config, progressive, audit, screen, clock, log):
        self.game = game  # the certified game offered, or None: no game (the game tilt says why)
        self.gen = gen  # the DRBG (rng.open_generator), or None: the rng tilt
        self.ledger = ledger
        self.config = config
        self.progressive = progressive  # firmware/progressive.py Progressive for the game, or None
        self.audit = audit  # firmware/audit.py Audit, or None
        self.screen = screen
        self.clock = clock
        self.log = log
        self._spin_end = clock()

    def use_generator(self, gen):
        """A fresh generator, once the rng tilt's source passes its start-up tests again."""
        self.gen = gen

    # --- the state table's PLAY_ACTIONS (firmware/states.py): bet, play and the test game do not ask the
    # state again
    def bet_one(self, cab):
        bets = self.game.bets
        i = bets.index(self.ledger.bet) if self.ledger.bet in bets else -1
        self.ledger.set_bet(bets[(i + 1) % len(bets)])
        cab.show()

    def bet_max(self, cab):
        self.ledger.set_bet(self.game.bets[-1])
        self.play(cab)

    def offered_bet(self):
        """The bet to play: always one the offered game accepts, chosen before anything is committed."""
        bet = self.ledger.bet
        if bet not in self.game.bets:
            bet = self.game.bets[0]
            self.ledger.set_bet(bet)
        return bet

    def ready(self, cab):
        """True when the game may be played as it stands; else the screen says why (keno's card)."""
        return True

    def play(self, cab):
        if not self.ready(cab):
            return  # a card that cannot be played is refused before anything is committed
        sc = self.screen
        if self.ledger.tour and self.ledger.session is None:
            try:
                self.ledger.tour_enter()  # s. 124: an entry fee instead of wagers
            except ValueError:
                sc.message = ("entry", self.ledger.tour["fee"])
                cab.show()
                return
            except AuditError as e:
                cab.set_tilt("audit", str(e))
                return
        bet = self.offered_bet()
        refused = jurisdiction.check_wager(self.config.JURISDICTION, self.config.DENOM_CENTS, bet)
        if refused:  # again on every wager: nothing is committed (firmware/jurisdiction.py)
            self.ledger.event("bet-refused", refused)
            sc.message = ("bet_refused",)
            cab.show()
            return
        if bet > self.ledger.play_credits:
            sc.message = ("insert",)
            cab.show()
            return
        p = None if self.ledger.session else self.progressive
        f = p.feed if p is not None else None  # linked through SAS: firmware/sas/progressive.py
        lp = f.pays(p, bet) if f is not None else None
        if lp == -1:  # the controller's level went stale this very loop: watch() stops play
            return
        try:
            # deck: a table game's packed stake, committed with its wager (firmware/play_table.py);
            # lp: the SAS controller's level a hit pays
            self.ledger.wager(bet, p, self.game.id, getattr(self, "deck", None), lp)
        except AuditError as e:
            cab.set_tilt("audit", str(e))
            return
        self.draw_and_settle(cab, bet)
        sc.message = None
        cab.show()

    def draw_and_settle(self, cab, bet):
        try:
            if self.gen is None:
                raise RngFailure("source_off", "no generator")
            outcome = self.outcome(bet)
        except RngFailure as e:
            # s. 95: the machine failed, not the player: no outcome, the wager comes back
            self.ledger.void("rng failure")
            cab.set_tilt("rng", str(e))
            return
        if outcome is not None:
            self._settle(outcome)

    def outcome(self, bet):
        """The game's draw for a committed wager (RngFailure to the caller, which voids it); None
        when the game settles later (a dealt poker hand)."""
        return self.game.play(self.gen, bet)

    def _prize_refused(self, outcome):
        """None, or why this game's award, the progressive at its level in place of its fixed award,
        breaks the jurisdiction's prize limit (firmware/jurisdiction.py). A certified game never
        does (its certified maximum is held to the limit at boot): this is the guard behind it."""
        if self.ledger.session:
            return None  # a tournament game pays tournament credits, not a prize
        award = outcome.award
        p = self.progressive
        if p is not None:
            fixed = p.hit(outcome)
            if fixed:
                lp = self.ledger.game.get("lp")  # linked: the level committed with the wager
                award += (p.amount(self.ledger.st) if lp is None else lp) - fixed
        return jurisdiction.check_prize(self.config.JURISDICTION, self.config.DENOM_CENTS, award)

    def _settle(self, outcome):
        sc = self.screen
        why = self._prize_refused(outcome)
        if why:
            # s. 95: a machine whose game pays past the limit is defective: no prize, the wager is
            # refunded, and the prize tilt (kept in the same commit) stops play until a technician
            # sees to it. Never a silent cut of the prize: no payout is ever adjusted.
            self.ledger.void("game over the prize limit", ("prize", why))
            if self.audit is not None:
                self.audit.record("-", "tilt", "prize: %s" % why)  # evidence a RAM clear keeps
            self.log("TILT prize: %s" % why)
            sc.win = 0  # nothing of this outcome was committed: nothing of it is shown
            return
        spin = self.config.SPIN_MS > 0 and not self.ledger.session
        # L-6, r. 3, s. 7: where only a coupon pays (vlt) no win locks for a hand pay; it is credited
        coupon = jurisdiction.pays_by_coupon(self.config.JURISDICTION)
        self.ledger.settle(outcome, self.game.id, 0 if coupon else self.config.JACKPOT_LIMIT, self.progressive, spin)
        sc.reels = outcome.window
        sc.played = played(self.game, outcome)
        if spin:
            sc.win = 0  # shown when the reels stop
            self._spin_end = ticks_add(self.clock(), self.config.SPIN_MS)
        else:
            sc.win = self.ledger.game.get("award", 0)

    def service_spin(self, cab):
        g = self.ledger.game if self.ledger.st else None
        if g and g["phase"] == "spin" and ticks_diff(self.clock(), self._spin_end) >= 0:
            self.screen.win = self.ledger.conclude(self.progressive)
            cab.show()

    def disrupted(self, why):
        """s. 94: a player who disrupts the machine during a game gets no prize for it."""
        g = self.ledger.game if self.ledger.st else None
        if g and g["phase"] == "spin":
            self.ledger.conclude(self.progressive, forfeit=why)
            self.screen.win = 0

    def test_game(self, bet=None):
        """The audit key's test game: a real draw through the real engine that never touches the
        meters; its outcome."""
        if self.game is None:
            raise ValueError("no certified game to test")
        if self.gen is None:
            raise ValueError("no random number generator (rng tilt)")
        bet = bet or self.game.bets[0]
        if bet not in self.game.bets:
            raise ValueError("bet %d not offered (bets: %s)" % (bet, " ".join(str(b) for b in self.game.bets)))
        return self.test_outcome(bet)

    def test_outcome(self, bet):
        return self.game.play(self.gen, bet)

    # --- power-up -------------------------------------------------------------------------------------------
    def resume(self, cab):
        """After power-up: a committed wager without an outcome is completed, never lost or redone
        (or refunded when this boot's game cannot complete it, s. 95); the last game is shown again."""
        led = self.ledger
        rec = led.standing() if led.st is not None else None
        if rec is not None and (self.game is None or rec.get("id") != self.game.id):
            # wagers a table game's last round left standing, which this boot's game cannot decide
            # (a table game's own are firmware/play_table.py's): refunded, s. 95; inline, as a method
            # costs a board's heap
            led.refund_table(rec["n"], rec["draws"][3], "standing wagers: game %s no longer offered" % rec.get("id"))
            self.log("resume: standing wagers of %s refunded (%d credits)" % (rec.get("id"), rec["draws"][3]))
        g = self.ledger.game
        sc = self.screen
        if g and g["phase"] == "wager":
            why = self.cannot_complete(g)
            if why:
                # s. 95: the machine cannot finish the game it took the wager for: refunded, never lost
                self.log("resume: %s: wager %d refunded" % (why, g["bet"]))
                self.ledger.void(why)
            elif g.get("deck"):
                self.resume_hand()  # a poker hand dealt before the cut
            else:
                self.log("resume: completing game with bet %d" % g["bet"])
                self.draw_and_settle(cab, g["bet"])
            g = self.ledger.game
        if g and g["phase"] == "spin":
            # cut while the reels turned: nothing proves a disruption, the award is paid
            self.ledger.conclude(self.progressive)
            g = self.ledger.game
        if g and g["phase"] == "done":
            sc.win = g.get("award", 0)
            games = self.ledger.recall()
            rec = games[-1] if games else None
            if rec and self.game and rec["id"] == self.game.id:  # the last game again, rebuilt from its draws
                o = (self.game.evaluate_round if hasattr(self.game, "evaluate_round") else self.game.evaluate)(
                    rec["bet"], rec["draws"])
                sc.reels = o.window
                sc.played = played(self.game, o)
                self.shown_last(rec)
        if self.game and self.ledger.bet not in self.game.bets:
            self.ledger.set_bet(self.game.bets[0])  # a fresh machine, or the game set changed

    def cannot_complete(self, g):
        """Why a committed wager cannot be completed by this boot's game, or None."""
        if self.game is None:
            return "no certified game to complete it"
        if g.get("id") not in (None, self.game.id):
            return "game %s no longer offered" % g.get("id")
        if g["bet"] not in self.game.bets:
            return "bet %d not offered by %s" % (g["bet"], self.game.id)
        if g.get("deck"):  # a dealt hand needs no generator: its draw is in the committed deck
            return self.deck_cannot_complete(g)
        if self.gen is None:
            return "rng failure at power-up"
        return self.card_cannot_complete()

    def deck_cannot_complete(self, g):
        return "dealt hand, no poker game"

    def card_cannot_complete(self):
        return None

    def resume_hand(self):
        """A hand dealt before the cut waits for its draw: video poker's (firmware/play_poker.py);
        cannot_complete refuses a dealt hand on any other game."""

    def shown_last(self, rec):
        """The last game rebuilt from its recall record at power-up: what the family shows besides."""

    # --- what the cabinet asks ------------------------------------------------------------------------------
    def hand_open(self):
        """A dealt poker hand waits for its draw (never for a reel or keno game)."""
        return False

    def hand_screen(self):
        """The display's hand (video poker), or None."""
        return None

    def touch(self, cab, word, n):
        """A press on the player's touch screen: an event of the state table for this game's family;
        a press that is not this game's is lost."""
