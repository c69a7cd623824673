# The cabinet: one cooperative main loop over the board. Money path and game flow:
# coin (ccTalk 229 event) -> ledger.accept -> bet -> ledger.wager (NVRAM) -> RNG -> game.play ->
# ledger.settle (NVRAM) -> display -> cash-out -> ledger.cashout (NVRAM).
import rng
from board.cctalk import CcTalkError
from board.compat import ticks_add, ticks_diff
from board.switches import Button
from firmware import config
from firmware.ledger import AuditError

IDLE = "idle"
CREDIT = "credit"
TILT = "tilt"


class Cabinet:
    def __init__(self, board, ledger, game, gen, acceptor, log=print):
        self.board = board
        self.ledger = ledger
        self.game = game
        self.gen = gen
        self.acceptor = acceptor
        self.log = log
        self.tilt = None
        self.win = 0
        self.message = ""
        self.accepting = None
        self.acceptor_ok = False
        self.buttons = {}
        for name in ("bet_one", "bet_max", "play", "cashout"):
            self.buttons[name] = Button(board.pin(name))
        self._events = []
        self._next_poll = board.ticks_ms()
        self.console = None

    @property
    def state(self):
        if self.tilt:
            return TILT
        return CREDIT if self.ledger.credits else IDLE

    # --- boot -------------------------------------------------------------------------------------
    def resume(self):
        """After power-up: a committed wager without an outcome is completed, never lost or redone."""
        g = self.ledger.game
        if g and g["phase"] == "wager":
            self.log("resume: completing game with bet %d" % g["bet"])
            self._draw_and_settle(g["bet"])
        elif g:
            self.win = g.get("award", 0)

    # --- money in ---------------------------------------------------------------------------------
    def want_money(self):
        return not self.tilt and self.ledger.credits < config.CREDIT_LIMIT

    def service_acceptor(self):
        now = self.board.ticks_ms()
        if ticks_diff(now, self._next_poll) < 0:
            return
        self._next_poll = ticks_add(now, config.ACCEPTOR_POLL_MS)
        try:
            if not self.acceptor_ok:
                self.acceptor.begin()
                self.accepting = False
                self.acceptor_ok = True
                self.log("acceptor: online")
            want = self.want_money()
            if want != self.accepting:
                self.acceptor.enable(want)
                self.accepting = want
            self.acceptor.poll(self._events)
        except CcTalkError as e:
            if self.acceptor_ok:
                self.log("acceptor: %s" % e.reason)
            self.acceptor_ok = False  # set up again on the next good poll
            return
        while self._events:
            kind, a, b = self._events.pop(0)
            if kind == "coin":
                cents = config.COIN_CENTS.get(a)
                if cents is None:
                    self.log("coin position %d has no value configured" % a)
                    continue
                self.ledger.accept(cents // config.DENOM_CENTS)
                self.log("coin %d: +%d credits" % (a, cents // config.DENOM_CENTS))
            else:
                self.log("acceptor event code %d" % b)
        self.show()

    # --- play -------------------------------------------------------------------------------------
    def bet_one(self):
        bets = self.game.bets
        i = bets.index(self.ledger.bet) if self.ledger.bet in bets else -1
        self.ledger.bet = bets[(i + 1) % len(bets)]
        self.show()

    def play(self):
        if self.tilt:
            return
        bet = self.ledger.bet
        if bet > self.ledger.credits:
            self.message = "insert"
            self.show()
            return
        try:
            self.ledger.wager(bet)
            self._draw_and_settle(bet)
        except AuditError as e:
            self.set_tilt("self-audit: %s" % e)
            return
        self.message = ""
        self.show()

    def _draw_and_settle(self, bet):
        try:
            outcome = self.game.play(self.gen, bet)
        except getattr(rng, "RngFailure", ()) as e:
            self.set_tilt("rng: %s" % e)
            return
        self.ledger.settle(outcome)
        self.win = outcome.award

    def cashout(self):
        if self.tilt:
            return
        try:
            paid = self.ledger.cashout()
        except AuditError as e:
            self.set_tilt("self-audit: %s" % e)
            return
        if paid:
            self.log("cashout: %d credits" % paid)
            self.message = "paid %d" % paid
            self.win = 0
            self.show()

    def set_tilt(self, why):
        self.tilt = why
        self.log("TILT " + why)
        self.show()

    # --- display ----------------------------------------------------------------------------------
    def show(self):
        g = self.ledger.game or {}
        self.board.display.show({
            "state": self.state,
            "game": self.game.name,
            "credits": self.ledger.credits,
            "bet": self.ledger.bet,
            "win": self.win,
            "reels": g.get("window"),
            "games": self.ledger.meters["games_played"],
            "msg": self.tilt or self.message,
        })
        self.board.lamp("lamp_play").value(self.state == CREDIT)
        self.board.lamp("lamp_cashout").value(self.state == CREDIT)
        self.board.lamp("lamp_tower").value(self.state == TILT)

    def paytable(self, lang):
        describe = getattr(self.game, "describe", None)
        if describe:
            return describe(lang)
        lines = ["%s  (%s)" % (self.game.name.get(lang, self.game.name["en"]), ", ".join("%d" % b for b in self.game.bets))]
        for pay in self.game.pays:
            lines.append("%-14s %s" % (pay["name"], " / ".join("%d" % p for p in pay["pay"])))
        return lines

    # --- the loop ---------------------------------------------------------------------------------
    def step(self, idle_ms=20):
        b = self.buttons
        if b["bet_one"].take():
            self.bet_one()
        if b["bet_max"].take():
            self.ledger.bet = self.game.bets[-1]
            self.play()
        if b["play"].take():
            self.play()
        if b["cashout"].take():
            self.cashout()
        self.service_acceptor()
        if self.console:
            self.console.service()
        idle = getattr(self.gen, "idle", None)
        if idle:
            try:
                idle()
            except getattr(rng, "RngFailure", ()) as e:
                self.set_tilt("rng: %s" % e)
        self.board.idle(idle_ms)

    def run(self):
        while True:
            self.step()
