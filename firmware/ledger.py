# Credits and soft meters, committed to NVRAM before anything is shown.
#
# Meters (credits, industry meanings): coin_in = credits wagered, coin_out = credits won,
# acceptor_in = credits from the coin acceptor, cashout = credits paid out at cash-out,
# games_played, games_won, power_resets. Identity checked before every play and payout:
#     credits == acceptor_in + coin_out - coin_in - cashout
# A game is two commits: the wager (phase "wager"), then outcome + award (phase "done"). A restart
# between them completes the same game from the recorded wager (see Cabinet.resume).
import json

METERS = ("coin_in", "coin_out", "acceptor_in", "cashout", "games_played", "games_won", "power_resets")
METER_MODULO = 10 ** 10  # 10-digit meters roll over to 0, as electromechanical counters do


class AuditError(Exception):
    pass


class Ledger:
    def __init__(self, store):
        self.store = store
        self.meters = {}
        for name in METERS:
            self.meters[name] = 0
        self.credits = 0
        self.bet = 1
        self.game = None  # the last (or in-progress) game: {"phase", "bet", ...outcome}

    # --- persistence -----------------------------------------------------------------------------
    def load(self):
        raw = self.store.load()
        if raw is None:
            return False
        rec = json.loads(raw)
        for name in METERS:
            self.meters[name] = rec["meters"].get(name, 0)
        self.credits = rec["credits"]
        self.bet = rec["bet"]
        self.game = rec["game"]
        return True

    def commit(self):
        rec = {"meters": self.meters, "credits": self.credits, "bet": self.bet, "game": self.game}
        self.store.save(json.dumps(rec).encode())

    # --- money -----------------------------------------------------------------------------------
    def _add(self, meter, n):
        self.meters[meter] = (self.meters[meter] + n) % METER_MODULO

    def audit(self):
        m = self.meters
        expect = (m["acceptor_in"] + m["coin_out"] - m["coin_in"] - m["cashout"]) % METER_MODULO
        if self.credits % METER_MODULO != expect:
            raise AuditError("credits %d but meters say %d" % (self.credits, expect))

    def power_up(self):
        self._add("power_resets", 1)
        self.commit()

    def accept(self, credits):
        self._add("acceptor_in", credits)
        self.credits += credits
        self.commit()

    def wager(self, bet):
        """Commit the wager; the outcome comes from settle(). No credit is ever extended (s. 5)."""
        if self.game and self.game["phase"] == "wager":
            raise AuditError("a game is already in progress")
        if bet > self.credits:
            raise ValueError("bet %d exceeds credits %d" % (bet, self.credits))
        self.audit()
        self.credits -= bet
        self._add("coin_in", bet)
        self._add("games_played", 1)
        self.game = {"phase": "wager", "bet": bet}
        self.commit()

    def settle(self, outcome):
        """Commit outcome and award of the game in progress, before it is displayed."""
        g = self.game
        if not g or g["phase"] != "wager" or g["bet"] != outcome.bet:
            raise AuditError("no matching wager to settle")
        self.credits += outcome.award
        self._add("coin_out", outcome.award)
        if outcome.award:
            self._add("games_won", 1)
        rec = outcome.to_dict()
        rec["phase"] = "done"
        self.game = rec
        self.commit()

    def cashout(self):
        self.audit()
        paid = self.credits
        if paid:
            self._add("cashout", paid)
            self.credits = 0
            self.commit()
        return paid

    def snapshot(self):
        d = dict(self.meters)
        d["credits"] = self.credits
        return d
