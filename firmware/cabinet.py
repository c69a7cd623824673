# The cabinet: one cooperative main loop over the board. Money path and game flow:
# coin (ccTalk 229 event) -> ledger.accept -> bet -> ledger.wager (NVRAM) -> RNG -> game.play ->
# ledger.settle (NVRAM) -> display -> cash-out -> hopper or hand pay (NVRAM).
#
# States, highest priority first (what the cabinet shows and allows):
#   ramerror  critical memory unrecoverable: nothing works until a technician's RAM clear
#   handpay / jackpot   locked until an attendant turns the reset key (pays by hand)
#   door      a door is open: no play, no money
#   tilt      a fault (rng, self-audit, acceptor, fraud ...): no play, no money; see clear paths
#   audit     audit key on: no play, money refused; test games never touch the meters
#   credit / idle
from board.cctalk import CcTalkError
from board.compat import ticks_add, ticks_diff
from board.switches import Button
from firmware import config
from firmware.ledger import AuditError

try:
    from rng import RngFailure
except ImportError:  # until the DRBG lands

    class RngFailure(Exception):
        pass


DOORS = ("door_main", "door_logic", "door_cashbox")
DOOR_SETTLE_MS = 50  # a door level must hold this long to count (contact bounce, vibration)
# tilts the attendant's reset key clears once the cause is gone; the others need a technician
KEY_CLEARABLE = ("acceptor", "fraud", "hopper", "meter", "rng")


class Cabinet:
    def __init__(self, board, ledger, game, gen, acceptor, log=print):
        self.board = board
        self.ledger = ledger
        self.game = game
        self.gen = gen
        self.acceptor = acceptor
        self.log = log
        self.ram_error = None
        self.tilts = {}
        self.win = 0
        self.reels = None
        self.message = ""
        self.accepting = None
        self.acceptor_ok = False
        self.buttons = {}
        for name in ("bet_one", "bet_max", "play", "cashout", "key_reset"):
            self.buttons[name] = Button(board.pin(name))
        self.doors = {}
        self._door_seen = {}
        now = board.ticks_ms()
        for name in DOORS:
            self.doors[name] = board.pin(name).value()
            self._door_seen[name] = (self.doors[name], now)
        self.test_game = None
        self._events = []
        self._next_poll = now
        self.console = None
        self.hopper = None  # cash-out is by hand until a hopper driver is attached
        self.offered = []  # (id, ok, reason, game) from the boot check
        self.reopen_rng = None  # set by startup: () -> (gen, failure)
        if ledger.st is not None:
            acceptor.last = ledger.acceptor_counter  # None on a fresh machine: baseline at start-up

    # --- state ------------------------------------------------------------------------------------
    @property
    def state(self):
        if self.ram_error:
            return "ramerror"
        if self.ledger.st and self.ledger.lock:
            return self.ledger.lock["kind"]
        for name in DOORS:
            if self.doors[name]:
                return "door"
        if self.tilts:
            return "tilt"
        if self.audit_mode():
            return "audit"
        return "credit" if self.ledger.credits else "idle"

    def audit_mode(self):
        return self.board.pin("key_audit").value() == 1

    def playable(self):
        return self.state in ("idle", "credit")

    # --- boot -------------------------------------------------------------------------------------
    def resume(self):
        """After power-up: a committed wager without an outcome is completed, never lost or redone."""
        try:
            self.ledger.audit()
        except AuditError as e:
            self.set_tilt("audit", str(e))
            return
        g = self.ledger.game
        if g and g["phase"] == "wager":
            self.log("resume: completing game with bet %d" % g["bet"])
            self._draw_and_settle(g["bet"])
        elif g and g["phase"] == "done":
            self.win = g.get("award", 0)
            rec = self.last_recall()
            if rec and rec["id"] == self.game.id:  # show the last game again, rebuilt from its draws
                self.reels = self.game.evaluate(rec["bet"], rec["draws"]).window

    def last_recall(self):
        games = self.ledger.recall()
        return games[-1] if games else None

    # --- money in ---------------------------------------------------------------------------------
    def want_money(self):
        return self.playable() and self.ledger.credits < config.CREDIT_LIMIT

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
        credits = 0
        while self._events:
            kind, a, b = self._events.pop(0)
            if kind == "coin":
                cents = config.COIN_CENTS.get(a)
                if cents is None:
                    self.log("coin position %d has no value configured" % a)
                    continue
                credits += cents // config.DENOM_CENTS
                self.log("coin %d: +%d credits" % (a, cents // config.DENOM_CENTS))
            elif kind in ("missed", "fault", "fraud"):
                # lost events, a jam or a fraud attempt: no more money until an attendant looks
                self.set_tilt("fraud" if kind == "fraud" else "acceptor", "%s %d/%d" % (kind, a, b))
            else:
                self.log("acceptor %s %d/%d" % (kind, a, b))
                if kind == "reset":
                    self.ledger.event("acceptor", "acceptor reset (counter was %d)" % a)
        if self.acceptor.last != self.ledger.acceptor_counter:
            # one commit for the batch and the counter that ends it: no coin twice, none lost
            self.ledger.accept(credits, self.acceptor.last)
            if credits:
                self.show()

    # --- play -------------------------------------------------------------------------------------
    def bet_one(self):
        if not self.playable():
            return
        bets = self.game.bets
        i = bets.index(self.ledger.bet) if self.ledger.bet in bets else -1
        self.ledger.set_bet(bets[(i + 1) % len(bets)])
        self.show()

    def play(self):
        if not self.playable():
            return
        bet = self.ledger.bet
        if bet > self.ledger.credits:
            self.message = "insert"
            self.show()
            return
        try:
            self.ledger.wager(bet)
        except AuditError as e:
            self.set_tilt("audit", str(e))
            return
        self._draw_and_settle(bet)
        self.message = ""
        self.show()

    def _draw_and_settle(self, bet):
        try:
            outcome = self.game.play(self.gen, bet)
        except RngFailure as e:
            # s. 95: the machine failed, not the player: no outcome, the wager comes back
            self.ledger.void("rng failure")
            self.set_tilt("rng", str(e))
            return
        self.ledger.settle(outcome, self.game.id, config.JACKPOT_LIMIT)
        self.win = outcome.award
        self.reels = outcome.window

    def cashout(self):
        if not self.playable() or not self.ledger.credits:
            return
        try:
            amount = self.ledger.cashout(hand_pay=self.hopper is None or self.ledger.credits > config.HOPPER_LIMIT)
        except AuditError as e:
            self.set_tilt("audit", str(e))
            return
        self.log("cashout: %d credits (%s)" % (amount, "hand pay" if self.ledger.lock else "hopper"))
        self.win = 0
        self.show()

    def attendant_key(self):
        lock = self.ledger.clear_lock()
        if lock:
            self.log("attendant paid %s of %d" % (lock["kind"], lock["amount"]))
            self.message = "paid %d" % lock["amount"]
        else:
            for kind in list(self.tilts):
                if kind == "rng" and not self._retry_rng():
                    continue
                if kind in KEY_CLEARABLE:
                    del self.tilts[kind]
                    self.ledger.event("tilt-clear", kind)
                    if kind in ("acceptor", "fraud") and getattr(self.acceptor, "fault", None):
                        try:
                            self.acceptor.clear_fault()
                        except CcTalkError:
                            self.acceptor_ok = False
        self.show()

    def _retry_rng(self):
        """The RNG tilt clears only when a fresh generator passes its start-up tests again."""
        if self.reopen_rng is None:
            return False
        gen, failure = self.reopen_rng()
        if failure is not None:
            self.log("rng still failing: %s" % failure)
            return False
        self.gen = gen
        return True

    # --- faults -----------------------------------------------------------------------------------
    def set_tilt(self, kind, why):
        self.tilts[kind] = why
        self.log("TILT %s: %s" % (kind, why))
        if self.ledger.st is not None and not self.ram_error:
            self.ledger.event("tilt", "%s: %s" % (kind, why))
        self.show()

    def set_ram_error(self, why):
        self.ram_error = why
        self.log("RAM ERROR: %s" % why)
        self.show()

    def ram_clear(self):
        """Technician's RAM clear (console, audit key + PIN): fresh memory, recorded as its first event."""
        self.ledger.format()
        was = self.ram_error or "by technician"
        self.ram_error = None
        self.tilts = {}
        self.win = 0
        self.reels = None
        self.ledger.event("ramclear", str(was))
        self.show()

    # --- doors ------------------------------------------------------------------------------------
    def service_doors(self):
        now = self.board.ticks_ms()
        for name in DOORS:
            v = self.board.pin(name).value()
            seen, since = self._door_seen[name]
            if v != seen:
                self._door_seen[name] = (v, now)
            elif v != self.doors[name] and ticks_diff(now, since) >= DOOR_SETTLE_MS:
                self.doors[name] = v
                self.log("%s %s" % (name, "open" if v else "closed"))
                if not self.ram_error:
                    self.ledger.door(name, v)
                self.show()

    # --- audit-mode test game -----------------------------------------------------------------------
    def play_test_game(self, bet=None):
        """Audit mode only: a real draw through the real engine that never touches the meters."""
        if self.state != "audit":
            raise ValueError("test games need the audit key")
        outcome = self.game.play(self.gen, bet or self.game.bets[0])
        self.test_game = outcome
        self.board.display.show({"state": "audit", "test": True, "reels": outcome.window, "win": outcome.award})
        return outcome

    # --- display ----------------------------------------------------------------------------------
    def show(self):
        st = self.state
        lock = self.ledger.lock if self.ledger.st else None
        msg = self.message
        if self.ram_error:
            msg = "RAM ERROR"
        elif lock:
            msg = "%s %d" % (lock["kind"].upper(), lock["amount"])
        elif self.tilts:
            msg = "TILT " + ", ".join(sorted(self.tilts))
        self.board.display.show({
            "state": st,
            "game": self.game.name if self.game else {"fr": "aucun jeu", "en": "no game"},
            "credits": self.ledger.credits if self.ledger.st else 0,
            "bet": self.ledger.bet if self.ledger.st else 0,
            "win": self.win,
            "reels": self.reels,
            "games": self.ledger.meters["games_played"] if self.ledger.st else 0,
            "msg": msg,
        })
        self.board.lamp("lamp_play").value(st == "credit")
        self.board.lamp("lamp_cashout").value(st == "credit")
        self.board.lamp("lamp_tower").value(st not in ("idle", "credit"))

    def paytable(self, lang):
        """s. 89: name, unit cost, prizes and how they are won, before play."""
        if self.game is None:
            raise ValueError("no certified game")
        return self.game.describe(lang)

    # --- the loop ---------------------------------------------------------------------------------
    def step(self, idle_ms=20):
        b = self.buttons
        if b["key_reset"].take():
            self.attendant_key()
        if b["bet_one"].take():
            self.bet_one()
        if b["bet_max"].take():
            if self.playable():
                self.ledger.set_bet(self.game.bets[-1])
                self.play()
        if b["play"].take():
            self.play()
        if b["cashout"].take():
            self.cashout()
        self.service_doors()
        if not self.ram_error:
            self.service_acceptor()
        if self.console:
            self.console.service()
        idle = getattr(self.gen, "idle", None)
        if idle:
            try:
                idle()
            except RngFailure as e:
                self.set_tilt("rng", str(e))
        self.board.idle(idle_ms)

    def run(self):
        while True:
            self.step()
