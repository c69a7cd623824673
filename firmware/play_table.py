# The table games on the cabinet (issue 26): firmware/play.py's play of a roulette, craps, sic bo,
# wheel of fortune or baccarat round (games/table_game.py). The player builds the round's stake on
# the layout ({key: credits}: a touch on a wager moves it to its next bet level, then off; the
# console's 'table put KEY CREDITS' sets it), in RAM: nothing is owed for a stake not yet played.
# PLAY checks the whole stake against the wagers standing from earlier rounds (a craps point and its
# line, come, place ... wagers, a roulette double after its first hit), the profile's maximum bet on
# what the round takes and its maximum prize on the most the round can return, all before anything
# is committed; then the round's wager is committed with its stake (packed in the game's "deck":
# firmware/table_bounds.py), the outcome drawn through the rng, and the settle commit holds the
# recall record: draws = [stake, table before, the rng's draws, credits left standing]
# (games/table_game.py evaluate_round replays it). The table standing is the last record's outcome,
# replayed at power-up: no other copy to disagree with it. A power cut at any instant completes the
# committed round on the committed stake and table, once, or finds nothing committed.
# Standing wagers were taken by the round they were placed in (coin_in); they are decided by later
# rounds (a round may stake nothing new and roll for them alone) or, when the booted game cannot
# decide them (another game, a record it does not replay), refunded at power-up (refunds, s. 95).
from firmware import jurisdiction, states
from firmware.play import GamePlay
from firmware.table_bounds import KEY_LEN, MAX_CREDITS, MAX_KEYS, pack, unpack


def standing(table):
    """The number of wagers a table holds (roulette {key: credits}; craps {"point", "bets"})."""
    if not table:
        return 0
    return len(table["bets"]) if "bets" in table else len(table)


def kept(table):
    """The table as the cabinet keeps it: None when nothing stands."""
    if not table or (not standing(table) and not table.get("point")):
        return None
    return table


class TablePlay(GamePlay):
    _round_bet = 0  # what ready() found the stake takes, for offered_bet()
    _stake = None  # the stake on the layout ({key: credits}), in RAM
    deck = None  # the stake ready() checked, packed: GamePlay.play commits it with the wager
    _table = None  # the wagers standing: the last round's outcome (resume, _settle)

    def stake(self):
        return self._stake or {}

    def table(self):
        return self._table

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
            game.index_of(key)  # on the layout: a standing key ("pass8") is the table's, never placed
            if len(key) > KEY_LEN:
                raise ValueError("%s: a key of at most %d characters" % (key[:KEY_LEN], KEY_LEN))
            stake = dict(self.stake())
            wid = self._wager_id(key)
            levels = game.m.bets_of(wid)
            if credits is None:
                now = stake.get(key, 0)
                up = [b for b in levels if b > now]
                credits = up[0] if up else 0
            if credits:
                game.credits(wid, credits, key)
                if credits > MAX_CREDITS:
                    raise ValueError("%s: at most %d credits on a wager" % (key, MAX_CREDITS))
                stake[key] = credits
                if len(stake) + standing(self._table) > MAX_KEYS:
                    raise ValueError("at most %d wagers a round, standing ones included" % MAX_KEYS)
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
        self._stake = stake
        cab.show()

    def keno_clear(self, cab):
        """CLEAR on a table game: the layout emptied (the standing wagers stay)."""
        self.screen.message = None
        self._stake = {}
        cab.show()

    def _wager_id(self, key):
        # the wager a key names (ValueError naming the key otherwise)
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

    def _packed(self, stake):
        # the stake as the wager's commit keeps it: each key's layout number and bet level index
        pairs = []
        for key in sorted(stake):
            pairs.append((self.game.index_of(key), self.game.m.bets_of(self._wager_id(key)).index(stake[key])))
        return pack(pairs)

    def _unpacked(self, text):
        # the committed stake; ValueError when it is not one of this game's layout
        stake = {}
        for i, lv in unpack(text):
            key = self.game.key_at(i)
            levels = self.game.m.bets_of(self._wager_id(key))
            if lv >= len(levels):
                raise ValueError("%s: no bet level %d" % (key, lv))
            stake[key] = levels[lv]
        return stake

    # --- the round -------------------------------------------------------------------------------------
    def ready(self, cab):
        """The stake checked against the table, the maximum bet and the maximum prize; else the reason
        on the screen and nothing committed."""
        sc = self.screen
        stake = self.stake()
        table = self._table
        if not stake and not standing(table):
            sc.message = ("no_wager",)
            cab.show()
            return False
        try:
            bet = self.game.check_stake(stake, table)
            self.deck = self._packed(stake)  # GamePlay.play commits it with the wager
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
        return self.game.play_round(self.gen, self.stake(), self._table)

    def _settle(self, outcome):
        if self._prize_refused(outcome) is None:
            table = kept(outcome.table)
            self._table = table
            self._stake = self._repeatable(outcome.stake, table)
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
            stake = self._unpacked(g.get("deck") or "")
            bet = self.game.check_stake(stake, self._table)
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

    def resume_hand(self):
        """Never: resume completes a committed round before GamePlay.resume sees it."""

    def resume(self, cab):
        """Power-up: the table is the last round's (or its wagers refunded), then a committed round is
        completed on its committed stake (or refunded when it cannot be, s. 95)."""
        self._table = self._last_table()
        g = self.ledger.game
        if g and g["phase"] == "wager":
            why = self.cannot_complete(g)
            if why:
                self.log("resume: %s: wager %d refunded" % (why, g["bet"]))
                self.ledger.void(why)
            else:
                self.log("resume: completing the round of %d credits" % g["bet"])
                self._stake = self._unpacked(g["deck"])
                self.draw_and_settle(cab, g["bet"])
        GamePlay.resume(self, cab)

    def _last_table(self):
        """The wagers the last recall record left standing, replayed; refunded (None) when this game
        cannot decide them: another game's, or a record it does not replay."""
        rec = self.ledger.standing() if self.ledger.st is not None else None
        if rec is None:
            return None
        why = None
        table = None
        if rec.get("id") != self.game.id:
            why = "game %s no longer offered" % rec.get("id")
        else:
            try:
                table = kept(self.replayed(rec).table)
            except (ValueError, TypeError, KeyError) as e:
                why = str(e)
        if why is None:
            return table
        credits = rec["draws"][3]
        self.ledger.refund_table(rec["n"], credits, "standing wagers: %s" % why)
        self.log("resume: standing wagers refunded (%d credits): %s" % (credits, why))
        return None

    def test_outcome(self, bet):
        """Audit mode: the stake on the layout when it can be played, else the first wager at bet."""
        try:
            self.game.check_stake(self.stake(), self._table)
            return self.game.play_round(self.gen, self.stake(), self._table)
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
        return {"stake": stake, "table": self._table, "takes": self._takes(stake)}

