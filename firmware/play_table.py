# The table games on the cabinet (issue 26): firmware/play.py's play of a roulette, craps, sic bo,
# wheel of fortune or baccarat round (games/table_game.py). The player builds the round's stake on
# the layout ({key: credits}: a touch on a wager moves it to its next bet level, then off; the
# console's 'table put KEY CREDITS' sets it), kept in the books' state (st["stake"]) as keno's card
# is, so the wager's commit holds it. PLAY checks the whole stake against the table standing from
# earlier rounds (st["table"]: a craps point and its line, come, place ... wagers, a roulette double
# after its first hit), the profile's maximum bet on what the round takes and its maximum prize on
# the most the round can return, all before anything is committed; then the one wager of the round
# (the stake's credits and commissions) is committed, the outcome drawn through the rng, and the
# settle commit holds the recall record (draws = [stake, table before, the rng's draws]:
# games/table_game.py evaluate_round replays it) and the table left standing, together: a power cut
# at any instant completes the committed round on the committed stake and table, once.
# Standing wagers were taken by the round they were placed in (coin_in); they are decided by later
# rounds (a round may stake nothing new and roll for them alone) or, when the booted game can no
# longer decide them, refunded (meter refunds) at power-up.
import json

from firmware import jurisdiction, states
from firmware.play import GamePlay
from firmware.table_bounds import MAX_BYTES, MAX_KEYS, size


def standing(table):
    """The number of wagers a table holds (roulette {key: credits}; craps {"point", "bets"})."""
    if not table:
        return 0
    return len(table["bets"]) if "bets" in table else len(table)


def kept(table):
    """The table as the books keep it: None when nothing stands."""
    if not table or (not standing(table) and not table.get("point")):
        return None
    return table


class TablePlay(GamePlay):
    _round_bet = 0  # what ready() found the stake takes, for offered_bet()

    def stake(self):
        return self.ledger.st.get("stake") or {}

    def table(self):
        return self.ledger.st.get("table")  # another game's is refunded at power-up (refund_table)

    # --- the layout (firmware/states.py WAGER and CLEAR: idle and credit only) -----------------------
    def touch(self, cab, word, n):
        """A wager touched on the layout (by its index in game.layout()), or the layout cleared."""
        if word == "wager":
            cab.handle(states.WAGER, n)
        elif word == "clear":
            cab.handle(states.CLEAR)

    def table_wager(self, cab, key, credits=None):
        """key: a layout key or its index; credits: its new bet level (0: off), or None: the next
        level of that wager, then off. Refused, with the reason on the screen, when the layout has no
        such wager, the level is not one of its own, the round would hold more than MAX_KEYS wagers or
        take more than the profile's maximum bet; nothing else changes."""
        sc = self.screen
        sc.message = None
        game = self.game
        try:
            if isinstance(key, int):
                key = game.key_at(key)
            stake = dict(self.stake())
            wid = self._wager_id(key)
            levels = game.m.bets_of(wid)
            if credits is None:
                now = stake.get(key, 0)
                up = [b for b in levels if b > now]
                credits = up[0] if up else 0
            if credits:
                game.credits(wid, credits, key)
                stake[key] = credits
                self._bounded(stake, self.table())
                refused = jurisdiction.check_wager(self.config.JURISDICTION, self.config.DENOM_CENTS,
                                                   self._takes(stake))
                if refused:
                    sc.message = ("bet_refused",)
                    cab.show()
                    return
            else:
                stake.pop(key, None)
        except ValueError as e:
            sc.message = str(e)
            cab.show()
            return
        self._layout(cab, stake)

    def keno_clear(self, cab):
        """CLEAR on a table game: the layout emptied (the standing wagers stay)."""
        self.screen.message = None
        self._layout(cab, {})

    def _bounded(self, stake, table):
        # ValueError when the round holds more than the cabinet keeps of it
        if len(stake) + standing(table) > MAX_KEYS:
            raise ValueError("at most %d wagers a round, standing ones included" % MAX_KEYS)
        if size(stake, table) > MAX_BYTES:
            raise ValueError("the layout is full: remove a wager first")

    def _layout(self, cab, stake):
        self.ledger.st["stake"] = stake  # in RAM; the wager's commit writes it with the bet
        cab.show()

    def _wager_id(self, key):
        # the wager a key names, checked against the layout (ValueError naming the key otherwise)
        game = self.game
        if not isinstance(key, str):
            raise ValueError("stake: key %r is not a string" % (key,))
        if hasattr(game, "parse"):
            return game.parse(key)[0]  # roulette, craps, sic bo: "straight:17", "odds6:pass"
        game.m.wager(key)  # the wheel, baccarat: the key is the wager
        return key

    def _takes(self, stake):
        # credits a stake takes with its commissions (craps' buy and lay), without the table's rules
        game = self.game
        n = 0
        for key in stake:
            n += game.at_risk(key, stake[key]) if hasattr(game, "at_risk") else stake[key]
        return n

    # --- the round -------------------------------------------------------------------------------------
    def ready(self, cab):
        """The stake checked against the table, the maximum bet and the maximum prize; else the reason
        on the screen and nothing committed."""
        sc = self.screen
        stake = self.stake()
        table = self.table()
        try:
            self._bounded(stake, table)
            if not stake and not standing(table):
                sc.message = ("no_wager",)
                cab.show()
                return False
            bet = self.game.check_stake(stake, table)
            why = jurisdiction.check_prize(self.config.JURISDICTION, self.config.DENOM_CENTS,
                                           self.game.most(stake, table), "one round")
        except ValueError as e:
            sc.message = str(e)
            cab.show()
            return False
        if why:  # what the round could pay is over the profile's prize: refused before the commit
            self.ledger.event("bet-refused", why)
            sc.message = ("prize_refused",)
            cab.show()
            return False
        self._round_bet = bet
        return True

    def offered_bet(self):
        return self._round_bet

    def bet_one(self, cab):
        cab.show()  # a table game's levels are the wagers' own: a touch on the wager moves it

    def bet_max(self, cab):
        self.play(cab)  # the stake on the layout again

    def outcome(self, bet):
        return self.game.play_round(self.gen, self.stake(), self.table())

    def _settle(self, outcome):
        if self._prize_refused(outcome) is None:
            # the table left standing and the stake to repeat go in the settle commit with the record
            st = self.ledger.st
            table = kept(outcome.table)
            st["table"] = table
            again = self._repeatable(outcome.stake, table)
            st["stake"] = again if size(again, table) <= MAX_BYTES else {}
        GamePlay._settle(self, outcome)
        self.screen.reels = self._window(outcome)

    def _repeatable(self, stake, table):
        # the stake again when the table now takes it whole, else the wagers of it that may be
        # placed alone (craps: not a pass while the point is on)
        try:
            self.game.check_stake(stake, table)
            return stake
        except ValueError:
            pass
        out = {}
        for key in sorted(stake):
            try:
                self.game.check_stake({key: stake[key]}, table)
            except ValueError:
                continue
            out[key] = stake[key]
        return out

    def _window(self, outcome):
        return {"table": outcome.window, "results": outcome.results}

    def cannot_complete(self, g):
        """Why a committed round cannot be completed by this boot's game, or None."""
        if self.game is None:
            return "no certified game to complete it"
        if g.get("id") not in (None, self.game.id):
            return "game %s no longer offered" % g.get("id")
        try:
            bet = self.game.check_stake(self.stake(), self.table())
        except ValueError as e:
            return "round not playable on %s: %s" % (self.game.id, e)
        if bet != g["bet"]:
            return "round of %d credits, its stake takes %d" % (g["bet"], bet)
        if self.gen is None:
            return "rng failure at power-up"
        return None

    def replayed(self, rec):
        return self.game.evaluate_round(rec["bet"], rec["draws"])

    def shown_last(self, rec):
        self.screen.reels = self._window(self.replayed(rec))

    def resume(self, cab):
        GamePlay.resume(self, cab)
        self.refund_table()

    def refund_table(self):
        """Power-up: wagers standing for another game, or that this game cannot decide, are refunded
        (s. 95: the machine cannot finish them), in one commit with the event."""
        led = self.ledger
        st = led.st
        table = st.get("table")
        if not table:
            return
        # the table is the last round's: the game of the last recall record left it standing
        names = led.recall_blocks()
        gid = json.loads(led.mem.read(names[-1])).get("id") if names else None
        why = None
        if gid != self.game.id:
            why = "game %s no longer offered" % gid
        else:
            try:
                self.game.check_stake({}, table)
            except ValueError as e:
                why = str(e)
        if why is None:
            return
        back = 0
        bets = table["bets"] if "bets" in table else table
        for key in bets:
            back += bets[key]
        led.refund_table(back, "standing wagers: %s" % why)
        self.log("resume: standing wagers refunded (%d credits): %s" % (back, why))

    def test_outcome(self, bet):
        """Audit mode: the stake on the layout when it can be played, else the first wager at bet."""
        try:
            self.game.check_stake(self.stake(), self.table())
            return self.game.play_round(self.gen, self.stake(), self.table())
        except ValueError:
            pass
        for wid in self.game.m.ids:
            for key in self.game.selections(wid)[:1]:
                try:
                    return self.game.play_round(self.gen, {key: bet}, None)
                except ValueError:
                    continue
        raise ValueError("no wager of %s takes %d credits alone" % (self.game.id, bet))

    # --- what the cabinet asks -------------------------------------------------------------------------
    def table_screen(self):
        """The display's layout: the stake placed, the wagers standing, and what the round takes."""
        stake = self.stake()
        return {"stake": stake, "table": self.table(), "takes": self._takes(stake)}
