# Playing a game on the cabinet: the bet levels of the offered game, the wager, the draw and the
# award (paid when the reels stop, or forfeited on a disruption, s. 94), an RNG failure that voids
# the game (s. 95), tournament entries (s. 124, 126) and the audit-mode test game. Mixed into
# firmware.cabinet.Cabinet; the books it commits to are firmware/game_books.py.
from board.compat import ticks_add, ticks_diff
from firmware import jurisdiction
from firmware.audit_error import AuditError
from firmware.play_keno import is_keno
from firmware.play_poker import is_poker
from rng import RngFailure


def played(game, outcome):
    """The display's record of the game on the screen (docs/screen.md `outcome`): the bet it was
    played at, a reel game's base-spin wins as [line index, credits] (-1: the scatter) for the
    winning lines drawn over the window, and [spins, credits] of its free spins."""
    reels = not (is_keno(game) or is_poker(game))  # keno's and poker's wins name no line
    out = {"bet": outcome.bet, "lines": [[w[0], w[2]] for w in outcome.wins] if reels else []}
    if reels and outcome.free:
        out["free"] = [len(outcome.free), sum(f[2] for f in outcome.free)]
    return out


class GamePlay:
    played = None  # played(): the outcome on the screen, None when none is

    # The state table (firmware/states.py) says when each of these runs: bet, play and the test game
    # do not ask the state again.
    def bet_one(self):
        bets = self.game.bets
        i = bets.index(self.ledger.bet) if self.ledger.bet in bets else -1
        self.ledger.set_bet(bets[(i + 1) % len(bets)])
        self.show()

    def bet_max(self):
        self.ledger.set_bet(self.game.bets[-1])
        self.play()

    def offered_bet(self):
        """The bet to play: always one the offered game accepts, chosen before anything is committed."""
        bet = self.ledger.bet
        if bet not in self.game.bets:
            bet = self.game.bets[0]
            self.ledger.set_bet(bet)
        return bet

    def play(self):
        if is_keno(self.game) and not self.keno_ready():
            return  # a card that cannot be played is refused before anything is committed
        if self.ledger.tour and self.ledger.session is None:
            try:
                self.ledger.tour_enter()  # s. 124: an entry fee instead of wagers
            except ValueError:
                self.message = ("entry", self.ledger.tour["fee"])
                self.show()
                return
            except AuditError as e:
                self.set_tilt("audit", str(e))
                return
        bet = self.offered_bet()
        refused = jurisdiction.check_wager(self.config.JURISDICTION, self.config.DENOM_CENTS, bet)
        if refused:  # again on every wager: nothing is committed (firmware/jurisdiction.py)
            self.ledger.event("bet-refused", refused)
            self.message = ("bet_refused",)
            self.show()
            return
        if bet > self.ledger.play_credits:
            self.message = ("insert",)
            self.show()
            return
        try:
            self.ledger.wager(bet, None if self.ledger.session else self.progressive, self.game.id)
        except AuditError as e:
            self.set_tilt("audit", str(e))
            return
        self._draw_and_settle(bet)
        self.message = None
        self.show()

    def _draw_and_settle(self, bet):
        try:
            if self.gen is None:
                raise RngFailure("source_off", "no generator")
            if is_poker(self.game):
                return self.deal(bet)  # the hand waits for its holds; draw() settles it
            outcome = self.keno_outcome(bet) if is_keno(self.game) else self.game.play(self.gen, bet)
        except RngFailure as e:
            # s. 95: the machine failed, not the player: no outcome, the wager comes back
            self.ledger.void("rng failure")
            self.set_tilt("rng", str(e))
            return
        self._settle(outcome)

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
                award += p.amount(self.ledger.st) - fixed
        return jurisdiction.check_prize(self.config.JURISDICTION, self.config.DENOM_CENTS, award)

    def _settle(self, outcome):
        why = self._prize_refused(outcome)
        if why:
            # s. 95: a machine whose game pays past the limit is defective: no prize, the wager is
            # refunded, and the prize tilt (kept in the same commit) stops play until a technician
            # sees to it. Never a silent cut of the prize: no payout is ever adjusted.
            self.ledger.void("game over the prize limit", ("prize", why))
            if self.audit is not None:
                self.audit.record("-", "tilt", "prize: %s" % why)  # evidence a RAM clear keeps
            self.log("TILT prize: %s" % why)
            self.win = 0  # nothing of this outcome was committed: nothing of it is shown
            return
        spin = self.config.SPIN_MS > 0 and not self.ledger.session
        # L-6, r. 3, s. 7: where only a coupon pays (vlt) no win locks for a hand pay; it is credited
        coupon = self.jurisdiction is not None and self.jurisdiction.get("payout") == "coupon"
        self.ledger.settle(outcome, self.game.id, 0 if coupon else self.config.JACKPOT_LIMIT, self.progressive, spin)
        self.reels = outcome.window
        self.played = played(self.game, outcome)
        if spin:
            self.win = 0  # shown when the reels stop
            self._spin_end = ticks_add(self.board.ticks_ms(), self.config.SPIN_MS)
        else:
            self.win = self.ledger.game.get("award", 0)

    def service_spin(self):
        g = self.ledger.game if self.ledger.st else None
        if g and g["phase"] == "spin" and ticks_diff(self.board.ticks_ms(), self._spin_end) >= 0:
            self.win = self.ledger.conclude(self.progressive)
            self.show()

    def disrupted(self, why):
        """s. 94: a player who disrupts the machine during a game gets no prize for it."""
        g = self.ledger.game if self.ledger.st else None
        if g and g["phase"] == "spin":
            self.ledger.conclude(self.progressive, forfeit=why)
            self.win = 0


    def play_test_game(self, bet=None):
        """The audit key's test game (the table: AUDIT, SERVICE): a real draw through the real engine
        that never touches the meters. The outcome is kept in self.tested for the console."""
        if self.game is None:
            raise ValueError("no certified game to test")
        if self.gen is None:
            raise ValueError("no random number generator (rng tilt)")
        bet = bet or self.game.bets[0]
        if bet not in self.game.bets:
            raise ValueError("bet %d not offered (bets: %s)" % (bet, " ".join(str(b) for b in self.game.bets)))
        outcome = self.keno_test_game(bet) if is_keno(self.game) else self.game.play(self.gen, bet)
        self.tested = outcome
        self.board.display.show({"state": self.state, "test": True, "reels": outcome.window,
                                 "win": outcome.award})
        return outcome

    def _tour_screen(self):
        """s. 126: a tournament machine says so; during an entry, its credits and games left."""
        t = self.ledger.tour if self.ledger.st else None
        if not t:
            return None
        s = t["session"]
        if s:
            return {"entry": s["entry"], "credits": s["credits"], "left": s["left"]}
        return {"fee": t["fee"], "credits": t["credits"], "games": t["games"]}
