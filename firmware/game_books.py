# A game in the books: the wager, the outcome with its recall record, the award when the reels
# stop (or its forfeit, s. 94), and the refund of a wager the machine could not complete (s. 95).
# Mixed into firmware.ledger.Ledger, whose persistence (self.st, self._commit, self.event, self.mem)
# it uses. A game is three commits, and nothing is displayed before its commit:
#   wager   (phase "wager": credits, coin_in, games_played, progressive contribution and, linked
#            through SAS, the controller's level the game plays for ("lp"); video poker then
#            commits its shuffled deck in the same phase, deal, before the hand is shown)
#   settle  (phase "spin": outcome and recall record, the award pending while the reels turn)
#   conclude (phase "done": the award onto credits, or a hand-pay lock, and the completed record)
import json

from firmware import eventlog
from firmware.audit_error import AuditError
from firmware.recall import digest

RECALL = 10  # games kept for recall: the books' blocks g0 .. g9 (firmware/ledger.py LAYOUT)


class GameBooks:
    def wager(self, bet, progressive=None, game_id=None, deck=None, linked=None):
        """Commit the wager (and its progressive contribution); the outcome comes from settle().
        No credit is ever extended (s. 5). game_id: the game that must complete it after a cut.
        deck: what the round is played on, committed with the wager (a table game's packed stake,
        firmware/play_table.py; video poker commits its deck after, deal). linked: the credits a
        hit of the progressive pays, the SAS controller's level (firmware/sas/progressive.py pays),
        committed with the wager so a later broadcast or a power cut cannot change it."""
        g = self.st["game"]
        if g and g["phase"] == "wager":
            raise AuditError("a game is already in progress")
        session = self.session
        if session is not None:
            self._tour_wager(session, bet, game_id)
            if deck:  # a tournament round's stake: one commit more (a cut before it refunds the round)
                self.st["game"]["deck"] = deck
                self._commit()
            return None
        if bet > self.st["credits"]:
            raise ValueError("bet %d exceeds credits %d" % (bet, self.st["credits"]))
        self.audit()
        self.mem.verify()
        before = self.st["credits"]
        self.st["credits"] -= bet
        self._add("coin_in", bet)
        self._add("games_played", 1)
        if progressive is not None:
            progressive.contribute(self.st, bet)
        self.st["game"] = {"phase": "wager", "bet": bet, "before": before, "t": eventlog.now(), "id": game_id}
        if deck:
            self.st["game"]["deck"] = deck
        if linked is not None:
            self.st["game"]["lp"] = linked
        self.exception("game-start")
        self._commit()

    def deal(self, deck):
        """Video poker: commit the shuffled deck (firmware/play_poker.py pack_deck) with the wager
        before the hand is shown; the holds come with the outcome (settle)."""
        g = self.st["game"]
        if not g or g["phase"] != "wager" or g.get("deck"):
            raise AuditError("no wager to deal a hand for")
        g["deck"] = deck
        self._commit()

    def hand_step(self, deck, take=0):
        """A card-table round's deal or decision (firmware/play_cards.py): the round's deck (stake,
        dealt positions, decisions) committed before anything of it is shown, with the credits the
        decision wagers (a play, a raise, a wager let ride: coin_in counts what is at risk)."""
        g = self.st["game"]
        if not g or g["phase"] != "wager" or g.get("tour"):
            raise AuditError("no wager to deal or decide for")
        if take > self.st["credits"]:
            raise ValueError("bet %d exceeds credits %d" % (take, self.st["credits"]))
        if take:
            self.st["credits"] -= take
            self._add("coin_in", take)
            g["bet"] += take
        g["deck"] = deck
        self._commit()

    def settle(self, outcome, game_id, jackpot_limit=0, progressive=None, spin=False):
        """Commit the outcome and its recall record, before anything is displayed.

        spin=False: the award is concluded in the same commit. spin=True: the award stays pending
        (phase "spin", in neither credits nor coin_out) while the reels turn, and conclude() pays it
        or, when the player disrupted the machine meanwhile, forfeits it (s. 94).
        """
        g = self.st["game"]
        if not g or g["phase"] != "wager" or g["bet"] != outcome.bet:
            raise AuditError("no matching wager to settle")
        if g.get("tour"):
            return self._tour_settle(g, outcome, game_id)
        n = self.st["gn"]
        self.st["gn"] = n + 1
        slot = n % RECALL
        rec = {"n": n + 1, "t": g["t"], "id": game_id, "bet": g["bet"], "before": g["before"],
               "after": None, "win": outcome.award, "hand": False, "draws": outcome.draws,
               "h": digest(outcome)}
        fixed = progressive.hit(outcome) if progressive is not None else 0
        self.st["game"] = {"phase": "spin", "bet": g["bet"], "award": outcome.award, "fixed": fixed,
                           "limit": jackpot_limit, "slot": slot}
        if g.get("in"):
            self.st["game"]["in"] = g["in"]
        if fixed and "lp" in g:
            self.st["game"]["lp"] = g["lp"]  # the level the wager committed: what the hit pays
        if spin:
            self._commit({"g%d" % slot: self._as_json(rec)})
            self._spinning = (n + 1, rec)  # conclude() completes it without reading it back
        else:
            self.conclude(progressive, rec=rec)
        self.mem.verify()

    def conclude(self, progressive=None, forfeit=None, rec=None):
        """End the game whose reels are turning: pay its award (onto credits, or locked for a hand
        pay at or above its jackpot limit; a progressive hit replaces its fixed award and is
        hand-paid where the progressive says so: not under vlt), or with forfeit=reason withhold
        it: the player disrupted the machine (s. 94), the wager is not refunded. One commit with
        the completed recall record."""
        g = self.st["game"]
        if not g or g["phase"] != "spin":
            return None
        slot = "g%d" % g["slot"]
        kept = self._spinning
        self._spinning = None
        if rec is None:  # read back only after a restart: a piece of the heap as long as the record
            rec = kept[1] if kept is not None and kept[0] == self.st["gn"] else json.loads(self.mem.read(slot))
        award = g["award"]
        hand = False
        if forfeit:
            rec["forfeit"] = eventlog.clean(forfeit, eventlog.TEXT)  # bounded: the record always fits
        else:
            if g["fixed"] and progressive is not None:
                # linked: the level committed with the wager (the meter here is not paid); else the meter
                prog = g["lp"] if "lp" in g else progressive.won(self.st)
                award = award - g["fixed"] + prog
                self._add("progressive_paid", prog)
                self.exception("progressive")
                rec["prog"] = [prog, g["fixed"]]  # the progressive paid, and the fixed award it replaced
                hand = progressive.hand
            if award:
                self._add("games_won", 1)
            hand = hand or bool(g["limit"] and award >= g["limit"])
            if hand:
                self.st["lock"] = {"kind": "jackpot", "amount": award}
                self.exception("handpay")
            else:
                self.st["credits"] += award
                self._add("coin_out", award)
        rec["after"] = self.st["credits"]
        if g.get("in"):
            rec["in"] = g["in"]  # money in while the reels turned: in "after", not won
        rec["win"] = award
        rec["hand"] = hand
        self.st["game"] = {"phase": "done", "bet": g["bet"], "award": 0 if forfeit else award, "slot": g["slot"]}
        self.exception("game-end")
        extra = {slot: self._as_json(rec)}
        if forfeit:
            self.event("forfeit", "%s: award %d withheld (s. 94)" % (forfeit, award), extra)
        else:
            self._commit(extra)
        return award

    def money_in(self, credits):
        """Coins or a note credited while a game is open (the reels turn: s. 94 does not refuse
        them): the game's recall record counts them, so its credits before and after balance."""
        g = self.st["game"]
        if g and g["phase"] in ("wager", "spin") and not g.get("tour"):
            g["in"] = g.get("in", 0) + credits

    def standing(self):
        """The last recall record when it left wagers standing (a table round's draws are [stake,
        table, drawn, credits standing]: games/table_game.py), or None: nothing stands, or it was
        refunded (st["tref"])."""
        names = self.recall_blocks()
        if not names:
            return None
        rec = json.loads(self.mem.read(names[-1]))
        d = rec.get("draws")
        if not isinstance(d, list) or len(d) != 4 or not isinstance(d[0], dict) or not isinstance(d[3], int) \
                or d[3] <= 0 or self.st.get("tref") == rec["n"]:
            return None
        return rec

    def refund_table(self, n, credits, why):
        """The wagers recall record n left standing, which this boot's game cannot decide: their
        stakes come back (s. 95), marked refunded (st["tref"]), in one commit with the event."""
        self.st["credits"] += credits
        self._add("refunds", credits)
        self.st["tref"] = n
        self.event("void", "%s: %d refunded" % (why, credits))

    def void(self, why, tilt=None):
        """s. 95: the machine failed during the game, not the player: the wager is refunded.
        tilt: (kind, reason) kept in the same commit, so a cut never leaves the refund without it."""
        g = self.st["game"]
        if not g or g["phase"] != "wager":
            return 0
        bet = g["bet"]
        if g.get("tour"):  # a tournament game: its tournament credits and its game come back
            session = self.st["tour"]["session"]
            session["credits"] += bet
            session["left"] += 1
            self.tour_meters.add(-1, 0, -bet, 0)  # SAS 95/97: the game and its wager come back too
            self.st["game"] = {"phase": "void", "bet": bet, "award": 0}
            self.exception("game-end")
            self.event("void", "%s: tournament game refunded" % why)
            return bet
        self.st["credits"] += bet
        self._add("refunds", bet)
        self.st["game"] = {"phase": "void", "bet": bet, "award": 0}
        if tilt:
            if tilt[0] not in self.tilts:  # new: the system is told, as Cabinet.set_tilt tells it
                self.exception("tilt " + tilt[0])
            self.tilts[tilt[0]] = eventlog.clean(tilt[1], eventlog.TEXT)
        self.exception("game-end")
        self.event("void", "%s: wager %d refunded" % (why, bet))
        return bet
