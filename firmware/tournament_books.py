# Tournament mode in the books (by-law s. 123-127): the entry fee instead of wagers, tournament
# credits without cash value, scores, and prizes paid by hand from the pool when it ends. Mixed into
# firmware.ledger.Ledger; the rules and the arithmetic are firmware/tournament.py.

from firmware import eventlog, tournament
from firmware.game_books import RECALL
from firmware.recall import digest

TOUR_METERS_SIZE = 17  # the "trn" block: version, then four 4-byte counts (firmware/ledger.py LAYOUT)
_MOD = 10 ** 8  # SAS reports them as 4 BCD (8 digits): they roll over there


class TourMeters:
    """What SAS long polls 95-99 report (firmware/sas/tournament.py): the games played and won, the
    tournament credits wagered and won, since tournament mode was last entered (the console's
    'tournament start' or SAS 8C), kept after its end until the next start. A critical-memory
    record of its own (the state block has no room: tests/device/test_firmware_sizes.py), committed
    in the same transaction as the game that counts (Ledger._commit), as the notes' counts are.
    The block: version (1), then played, won, wagered, awarded (binary, LSB first)."""

    def __init__(self):
        self.counts = [0, 0, 0, 0]  # played, won, wagered, awarded
        self.dirty = False

    def load(self, raw):
        for i in range(4):
            self.counts[i] = 0
        if raw and raw[0] == 1 and len(raw) >= TOUR_METERS_SIZE:
            for i in range(4):
                o = 1 + 4 * i
                self.counts[i] = raw[o] | raw[o + 1] << 8 | raw[o + 2] << 16 | raw[o + 3] << 24
        self.dirty = False

    def block(self):
        out = bytearray(TOUR_METERS_SIZE)
        out[0] = 1
        for i in range(4):
            n = self.counts[i]
            o = 1 + 4 * i
            out[o] = n & 0xFF
            out[o + 1] = n >> 8 & 0xFF
            out[o + 2] = n >> 16 & 0xFF
            out[o + 3] = n >> 24 & 0xFF
        return bytes(out)

    def add(self, played, won, wagered, awarded):
        c = self.counts
        c[0] = (c[0] + played) % _MOD
        c[1] = (c[1] + won) % _MOD
        c[2] = (c[2] + wagered) % _MOD
        c[3] = (c[3] + awarded) % _MOD
        self.dirty = True

    def reset(self):
        for i in range(4):
            self.counts[i] = 0
        self.dirty = True


class TournamentBooks:
    @property
    def tour(self):
        return self.st.get("tour")

    @property
    def session(self):
        t = self.st.get("tour")
        return t["session"] if t else None

    @property
    def play_credits(self):
        """What the player bets with: tournament credits during an entry, else the credit meter."""
        s = self.session
        return s["credits"] if s else self.st["credits"]

    def tour_start(self, fee, credits, games, pct, date, hours, name="", shares=(50, 30, 20)):
        if self.st.get("tour"):
            raise tournament.TournamentError("a tournament is already running")
        self.st["tour"] = tournament.new(fee, credits, games, pct, date, hours, name, shares)
        self.tour_meters.reset()  # SAS 95-99 count from here (committed with the event)
        self.event("tournament", "started %s %s %dh: fee %d, %d credits, %d games, prizes %d %%" % (
            name, date, hours, fee, credits, games, pct))

    def tour_enter(self):
        """The entry fee comes off the credit meter (money), tournament credits are issued."""
        t = self.st["tour"]
        if t["session"] is not None:
            raise tournament.TournamentError("an entry is being played")
        if self.st["credits"] < t["fee"]:
            raise ValueError("entry fee %d exceeds credits %d" % (t["fee"], self.st["credits"]))
        self.audit()
        self.st["credits"] -= t["fee"]
        self._add("tournament_fees", t["fee"])
        self._add("tournament_entries", 1)
        t["entries"] += 1
        t["fees"] += t["fee"]
        t["session"] = {"entry": t["entries"], "credits": t["credits"], "left": t["games"]}
        self._commit()

    def _tour_wager(self, session, bet, game_id):
        if bet > session["credits"] or session["left"] <= 0:
            raise ValueError("bet %d exceeds tournament credits %d" % (bet, session["credits"]))
        self.st["game"] = {"phase": "wager", "bet": bet, "before": session["credits"], "t": eventlog.now(), "tour": 1,
                           "id": game_id}
        session["credits"] -= bet
        session["left"] -= 1
        self._add("games_played", 1)  # a tournament game is a game: counted, and on the hard meter
        self.tour_meters.add(1, 0, bet, 0)
        self.exception("game-start")  # SAS 7E: a tournament game is a game (counted in games_played)
        self._commit()

    def _tour_settle(self, g, outcome, game_id):
        t = self.st["tour"]
        session = t["session"]
        session["credits"] += outcome.award
        self.tour_meters.add(0, 1 if outcome.award else 0, 0, outcome.award)
        n = self.st["gn"]
        self.st["gn"] = n + 1
        rec = {"n": n + 1, "t": g["t"], "id": game_id, "bet": g["bet"], "before": g["before"],
               "after": session["credits"], "win": outcome.award, "hand": False, "draws": outcome.draws,
               "h": digest(outcome), "tour": session["entry"]}
        self.st["game"] = {"phase": "done", "bet": g["bet"], "award": outcome.award, "slot": n % RECALL}
        extra = {"g%d" % (n % RECALL): self._as_json(rec)}
        self.exception("game-end")  # SAS 7F, with the record that ends it
        if session["left"] <= 0 or session["credits"] <= 0:
            tournament.record_score(t, session["entry"], session["credits"])
            t["session"] = None
            self.event("tour-score", "entry %d scored %d" % (session["entry"], session["credits"]), extra)
        else:
            self._commit(extra)

    def tour_end(self):
        """Close the tournament: prizes (>= 30 % of fees, s. 127) are paid by hand and metered."""
        t = self.st.get("tour")
        if not t:
            raise tournament.TournamentError("no tournament running")
        if t["session"] is not None:
            raise tournament.TournamentError("an entry is still being played")
        prizes = tournament.allocate(t)
        paid = 0
        for entry, score, prize in prizes:
            paid += prize
        self._add("tournament_prizes", paid)
        self.st["tour"] = None
        self.event("tour-end", "%d entries, fees %d, prizes %d: %s" % (
            t["entries"], t["fees"], paid, ", ".join("#%d %d" % (e, p) for e, _, p in prizes)))
        return prizes
