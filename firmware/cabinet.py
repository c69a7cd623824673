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
from board.doors import Doors
from board import hopper_codes
from board.hopper_cctalk import HopperError
from board.switches import Button
from firmware import config, states
from firmware.coins import CoinIn, payout_credits
from firmware.ledger import AuditError

import rng
from rng import RngFailure


def open_rng(board, ledger, machine_id):
    """HMAC_DRBG seeded from the board's health-tested source, personalised with the machine id and
    the power-up count, so a restart never repeats a sequence. (gen, None) or (None, failure)."""
    ups = ledger.meters["power_resets"] if ledger.st is not None else 0
    # the emulated board wires its own noise (the host can make it fail); a real board's is its chip's
    wire = board.entropy_source()
    try:
        src = rng.open_source(board.ENTROPY, wire.urandom if wire is not None else None)
        gen = rng.open_generator(src, personalization=("%s/%d" % (machine_id, ups)).encode())
    except RngFailure as e:
        return None, e
    if wire is not None:
        wire.watch(gen)  # the generator its reseeds come from: a wire gone bad is found at once
    return gen, None


# soft meter(s) each electromechanical meter counts, in credits (board/hal.py METERS)
HARD_METERS = {"meter_in": ("coin_in",), "meter_out": ("coin_out",), "meter_drop": ("acceptor_in",),
               "meter_jackpot": ("jackpot", "cancelled"), "meter_games": ("games_played",)}
HOPPER_RETRY_MS = 5000
# tilts the attendant's reset key clears once the cause is gone; the others need a technician
KEY_CLEARABLE = ("acceptor", "fraud", "hopper", "meter", "rng")
# tilts found afresh at every power-up, so never kept in critical memory: the boot check of the
# offered games, and the configuration's
BOOT_TILTS = ("game", "config")


class Cabinet:
    def __init__(self, board, ledger, game, gen, acceptor, log=print):
        self.board = board
        self.ledger = ledger
        self.game = game
        self.gen = gen
        self.acceptor = acceptor
        self.log = log
        self.ram_error = None
        self._boot_tilts = {}  # found afresh at every power-up (game, config): never persisted
        self._cashout_asked = False  # a cash-out pressed while it must wait (reels turning, a lock)
        self.win = 0
        self.reels = None
        self.message = ""
        self.coins = CoinIn(acceptor, ledger, config, log)  # money in: polling, identities, credits
        self.buttons = {}
        for name in ("bet_one", "bet_max", "play", "cashout"):
            self.buttons[name] = Button(board.pin(name), clock=board.ticks_ms)
        self.switches = Doors(board, clock=board.ticks_ms)  # doors and key switches, debounced levels
        now = board.ticks_ms()
        self.console = None
        self._spin_end = now
        self.hopper = None  # board.hopper_cctalk.Hopper, or None: cash-out by hand pay
        self.hopper_ok = False
        self._hopper_retry = now
        self.em = None  # board.meters_em.EmMeters, when the board has meter coils
        self.offered = []  # (id, ok, reason, game) from the boot check
        self.progressive = None  # firmware.progressive.Progressive for the game played, if any
        self.reopen_rng = None  # () -> (gen, failure); None: a fresh open_rng() on this board

    # --- state ------------------------------------------------------------------------------------
    @property
    def tilts(self):
        """{kind: reason}: the ones that need an attendant or a technician are kept in critical
        memory (they survive a power cycle); the ones found at power-up are kept here."""
        if self.ledger.st is None or not self.ledger.tilts:
            return self._boot_tilts
        if not self._boot_tilts:
            return self.ledger.tilts
        d = dict(self.ledger.tilts)
        d.update(self._boot_tilts)
        return d

    @property
    def state(self):
        """Derived, never stored: firmware/states.py spells out the priority."""
        st = self.ledger.st
        if self.ram_error or st is None:
            return states.RAMERROR
        lock = st["lock"]
        g = st["game"]
        return states.derive(False, lock["kind"] if lock else None, st.get("paying"), g and g["phase"] == "spin",
                             self.switches.any_open(), self._boot_tilts or st.get("tilts"), self.audit_mode(),
                             st["credits"])

    def audit_mode(self):
        return self.switches.is_open("key_audit")

    def playable(self):
        return self.state in states.PLAY_STATES

    def handle(self, event):
        """Carry out a player's, attendant's or technician's event as the state table says; an event
        the current state does not take is refused (False) and changes nothing."""
        name = states.action(self.state, event)
        if name is None:
            return False
        getattr(self, name)()
        return True

    # --- boot -------------------------------------------------------------------------------------
    def resume(self):
        """After power-up: a committed wager without an outcome is completed, never lost or redone;
        doors opened while the power was off are recorded."""
        out = []
        self.switches.check_boot(out, self.ledger.st.get("doors"), self.board.door_latch)
        for _, name, _ in out:
            self.ledger.door(name, True, self.switches.levels())
            self.ledger.event("door-off", "%s opened while powered off" % name)
        try:
            self.ledger.audit()
        except AuditError as e:
            self.set_tilt("audit", str(e))
            return
        g = self.ledger.game
        if g and g["phase"] == "wager":
            why = self._cannot_complete(g)
            if why:
                # s. 95: the machine cannot finish the game it took the wager for: refunded, never lost
                self.log("resume: %s: wager %d refunded" % (why, g["bet"]))
                self.ledger.void(why)
            else:
                self.log("resume: completing game with bet %d" % g["bet"])
                self._draw_and_settle(g["bet"])
            g = self.ledger.game
        if g and g["phase"] == "spin":
            # cut while the reels turned: nothing proves a disruption, the award is paid
            self.ledger.conclude(self.progressive)
            g = self.ledger.game
        if g and g["phase"] == "done":
            self.win = g.get("award", 0)
            rec = self.last_recall()
            if rec and self.game and rec["id"] == self.game.id:  # the last game again, rebuilt from its draws
                self.reels = self.game.evaluate(rec["bet"], rec["draws"]).window
        if self.game and self.ledger.bet not in self.game.bets:
            self.ledger.set_bet(self.game.bets[0])  # a fresh machine, or the game set changed

    def _cannot_complete(self, g):
        """Why a committed wager cannot be completed by this boot's game, or None."""
        if self.game is None:
            return "no certified game to complete it"
        if g.get("id") not in (None, self.game.id):
            return "game %s no longer offered" % g.get("id")
        if g["bet"] not in self.game.bets:
            return "bet %d not offered by %s" % (g["bet"], self.game.id)
        if self.gen is None:
            return "rng failure at power-up"
        return None

    def last_recall(self):
        games = self.ledger.recall()
        return games[-1] if games else None

    # --- money in ---------------------------------------------------------------------------------
    def want_money(self):
        return self.state in states.MONEY_STATES and self.ledger.credits < config.CREDIT_LIMIT

    def service_acceptor(self):
        self.coins.service(self.board.ticks_ms(), self)

    def _inhibit(self):
        self.coins.inhibit()

    # --- play -------------------------------------------------------------------------------------
    def bet_one(self):
        if not self.playable():
            return
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
        if not self.playable():
            return
        if self.ledger.tour and self.ledger.session is None:
            try:
                self.ledger.tour_enter()  # s. 124: an entry fee instead of wagers
            except ValueError:
                self.message = "entry %d" % self.ledger.tour["fee"]
                self.show()
                return
            except AuditError as e:
                self.set_tilt("audit", str(e))
                return
        bet = self.offered_bet()
        if bet > self.ledger.play_credits:
            self.message = "insert"
            self.show()
            return
        try:
            self.ledger.wager(bet, None if self.ledger.session else self.progressive, self.game.id)
        except AuditError as e:
            self.set_tilt("audit", str(e))
            return
        self._draw_and_settle(bet)
        self.message = ""
        self.show()

    def _draw_and_settle(self, bet):
        try:
            if self.gen is None:
                raise RngFailure("source_off", "no generator")
            outcome = self.game.play(self.gen, bet)
        except RngFailure as e:
            # s. 95: the machine failed, not the player: no outcome, the wager comes back
            self.ledger.void("rng failure")
            self.set_tilt("rng", str(e))
            return
        spin = config.SPIN_MS > 0 and not self.ledger.session
        self.ledger.settle(outcome, self.game.id, config.JACKPOT_LIMIT, self.progressive, spin)
        self.reels = outcome.window
        if spin:
            self.win = 0  # shown when the reels stop
            self._spin_end = ticks_add(self.board.ticks_ms(), config.SPIN_MS)
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

    def cashout(self):
        """Credits belong to the player: a cash-out is possible in every state but a RAM error
        (and the self-audit tilt, which says the books themselves are wrong). While the reels turn,
        a hopper pays or a hand pay waits for the attendant, the press is kept and carried out
        when that ends. Outside idle/credit, or with the hopper at fault, it is a hand pay."""
        self._cashout_asked = False
        st = self.state
        if st == states.RAMERROR or not self.ledger.credits:
            return
        if st in states.CASHOUT_WAITS:
            self._cashout_asked = True
            return
        if "audit" in self.tilts:
            return
        credits = self.ledger.credits
        cpc = payout_credits(config)
        coins = credits // cpc
        try:
            if st in ("idle", "credit", "tilt") and self.hopper_usable() and coins and credits <= config.HOPPER_LIMIT:
                ref = self.ledger.start_payout(coins, cpc)
                try:
                    self.hopper.payout(coins, ref)  # saves its record (and our mark) before any coin
                except (CcTalkError, HopperError) as e:
                    self.ledger.abandon_payout()
                    self.hopper_ok = False
                    self.log("hopper refused the payout (%s): hand pay" % e)
                    self.ledger.cashout(hand_pay=True)
                else:
                    self.log("cashout: hopper pays %d coins (ref %d)" % (coins, ref))
            else:
                self.ledger.cashout(hand_pay=True)
                self.log("cashout: %d credits by hand pay" % credits)
        except AuditError as e:
            self.set_tilt("audit", str(e))
            return
        self.win = 0
        self.show()

    def keep_cashout(self):
        self._cashout_asked = True  # carried out by step() once the game, payout or lock has ended

    def hopper_usable(self):
        t = self.tilts  # a wrong configuration may price the hopper's coin wrong: hand pay then
        return self.hopper is not None and self.hopper_ok and "hopper" not in t and "fraud" not in t \
            and "config" not in t

    def service_hopper(self):
        h = self.hopper
        if h is None:
            return
        now = self.board.ticks_ms()
        out = []
        try:
            if not self.hopper_ok:
                if ticks_diff(now, self._hopper_retry) < 0:
                    return
                self._hopper_retry = ticks_add(now, HOPPER_RETRY_MS)
                h.begin(out)  # finishes or proves a payout left open by a restart
                self.hopper_ok = True
                self.log("hopper: online")
            elif h.busy() or ticks_diff(now, self._hopper_retry) >= 0:
                if not h.busy():
                    self._hopper_retry = ticks_add(now, HOPPER_RETRY_MS)
                h.service(out)
        except (CcTalkError, HopperError) as e:
            if self.hopper_ok:
                self.log("hopper: %s" % e)
            self.hopper_ok = False
            return
        for kind, a, b in out:
            self.hopper_event(kind, a, b)

    def hopper_event(self, kind, a, b):
        h = self.hopper
        if kind == "paying":
            self.message = "paying %d" % b
            self.show()
        elif kind in ("payout", "uncertain"):
            ref = h.record["ref"] if h.record else None
            if kind == "payout":
                paid, unpaid = a, b
            else:
                paid, unpaid = b, a - b
            if self.ledger.book_payout(ref, paid, unpaid, uncertain=(kind == "uncertain")):
                self.log("hopper %s: %d paid, %d unpaid" % (kind, paid, unpaid))
            h.settle()
            if kind == "payout" and unpaid:
                self.set_tilt("hopper", "partial payout: %d coins unpaid stay as credits" % unpaid)
            elif not self.ledger.lock and 0 < self.ledger.credits < payout_credits(config):
                self.ledger.cashout(hand_pay=True)  # less than one coin left: the attendant pays it
            self.message = "paid %d" % (paid * payout_credits(config))
            self.show()
        elif kind == "extra":
            self.set_tilt("hopper", "runaway: %d coins paid unasked" % a)
        elif kind == "fraud":
            self.disrupted("hopper fraud flag %d: %s" % (a, hopper_codes.name(a)))
            self.set_tilt("fraud", "hopper flag %d: %s" % (a, hopper_codes.name(a)))
        elif kind == "fault":
            self.set_tilt("hopper", "hopper flag %d: %s" % (a, hopper_codes.name(a)))
        else:
            self.log("hopper %s flag %d: %s" % (kind, a, hopper_codes.name(a)))

    def attendant_key(self):
        if self.ram_error:
            return  # nothing to pay or clear from memory that cannot be trusted: a technician's job
        lock = self.ledger.clear_lock()
        if lock:
            self.log("attendant paid %s of %d" % (lock["kind"], lock["amount"]))
            self.message = "paid %d" % lock["amount"]
        else:
            for kind in list(self.tilts):
                if kind == "rng" and not self._retry_rng():
                    continue
                if kind in KEY_CLEARABLE:
                    self.ledger.clear_tilt(kind)
                    if kind in ("acceptor", "fraud"):
                        self.coins.clear_fault()
                    if kind in ("hopper", "fraud") and self.hopper is not None and self.hopper_ok:
                        try:
                            self.hopper.clear_faults()
                        except CcTalkError:
                            self.hopper_ok = False
        self.show()

    def _retry_rng(self):
        """The RNG tilt clears only when a fresh generator passes its start-up tests again."""
        if self.reopen_rng is not None:
            gen, failure = self.reopen_rng()
        else:
            gen, failure = open_rng(self.board, self.ledger, config.MACHINE_ID)
        if failure is not None:
            self.log("rng still failing: %s" % failure)
            return False
        self.gen = gen
        return True

    # --- faults -----------------------------------------------------------------------------------
    def set_tilt(self, kind, why):
        self.log("TILT %s: %s" % (kind, why))
        if kind in BOOT_TILTS or self.ledger.st is None or self.ram_error:
            self._boot_tilts[kind] = why
            if self.ledger.st is not None and not self.ram_error:
                self.ledger.event("tilt", "%s: %s" % (kind, why))
        else:
            self.ledger.tilt(kind, why)  # kept in critical memory with its event: one commit
        self.show()

    def set_ram_error(self, why):
        self.ram_error = why
        self.log("RAM ERROR: %s" % why)
        self.show()

    def ram_clear(self):
        """Technician's RAM clear (console, audit key + PIN): fresh memory, recorded as its first event."""
        self.ledger.format(("ramclear", str(self.ram_error or "by technician")))
        self.ram_error = None
        self._boot_tilts = {}
        self.win = 0
        self.reels = None
        self.show()

    # --- doors and keys --------------------------------------------------------------------------
    def service_switches(self):
        out = []
        self.switches.scan(out)
        for kind, name, v in out:
            self.log("%s %s" % (name, ("open" if v else "closed") if kind == "door" else ("on" if v else "off")))
            if kind == "door":
                if not self.ram_error:
                    self.ledger.door(name, v, self.switches.levels())
            elif name == "key_reset" and v:
                self.handle(states.KEY)
            elif name == "key_audit" and not self.ram_error:
                self.ledger.event("audit", "audit key %s" % ("on" if v else "off"))
            self.show()

    # --- electromechanical meters ------------------------------------------------------------------
    def service_meters(self):
        """Hard meters chase the soft meters; returns ms until a coil needs us again."""
        em = self.em
        if em is None or self.ram_error:
            return 1000
        m = self.ledger.meters
        base = self.ledger.em_base()  # where each counter stood at the last RAM clear
        for coil, names in HARD_METERS.items():
            if coil in em.coils:
                total = base.get(coil, 0)
                for name in names:
                    total += m[name]
                em.target(coil, total)
        wait = em.service(self.board.ticks_ms())
        if em.mismatch and "meter" not in self.tilts:
            self.set_tilt("meter", "hard meter ahead of soft: %s" % em.mismatch)
        return wait

    # --- audit-mode test game -----------------------------------------------------------------------
    def play_test_game(self, bet=None):
        """Audit mode only: a real draw through the real engine that never touches the meters."""
        if states.action(self.state, states.TEST) is None:
            raise ValueError("test games need the audit key")
        if self.gen is None:
            raise ValueError("no random number generator (rng tilt)")
        outcome = self.game.play(self.gen, bet or self.game.bets[0])
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
            t = self.tilts
            msg = "TILT " + "; ".join("%s: %s" % (k, t[k]) for k in sorted(t))  # why play is stopped
        self.board.display.show({
            "state": st,
            "game": self.game.name if self.game else {"fr": "aucun jeu", "en": "no game"},
            "credits": self.ledger.credits if self.ledger.st else 0,
            "bet": self.ledger.bet if self.ledger.st else 0,
            "win": self.win,
            "reels": self.reels,
            "games": self.ledger.meters["games_played"] if self.ledger.st else 0,
            "msg": msg,
            "jackpot": self.progressive.amount(self.ledger.st) if self.progressive and self.ledger.st else None,
            "tournament": self._tour_screen(),
            # s. 89: name, unit cost, prizes and how they are won, before play: French, then English
            # (a page reference, as a video slot shows its stored rules screens: the display renders
            # the certified model's own text, games.ReelGame.describe, in both languages)
            "rules": self.game.id if self.game and st == "idle" else None,
        })
        if self.coins.accepting and not self.want_money():
            self._inhibit()  # no money the moment the machine must not take it, not at the next poll
        self.board.lamp("lamp_play").value(st == "credit")
        self.board.lamp("lamp_cashout").value(st == "credit")
        self.board.lamp("lamp_tower").value(st not in ("idle", "credit"))

    def _tour_screen(self):
        """s. 126: a tournament machine says so; during an entry, its credits and games left."""
        t = self.ledger.tour if self.ledger.st else None
        if not t:
            return None
        s = t["session"]
        if s:
            return {"entry": s["entry"], "credits": s["credits"], "left": s["left"]}
        return {"fee": t["fee"], "credits": t["credits"], "games": t["games"]}

    def paytable(self, lang):
        """s. 89: name, unit cost, prizes and how they are won, before play."""
        if self.game is None:
            raise ValueError("no certified game")
        return self.game.describe(lang)

    # --- the loop ---------------------------------------------------------------------------------
    def step(self, idle_ms=20):
        b = self.buttons
        self.service_switches()
        if b["bet_one"].take():
            self.handle(states.BET)
        if b["bet_max"].take():
            self.handle(states.MAX)
        if b["play"].take():
            self.handle(states.PLAY)
        if b["cashout"].take() or (self._cashout_asked and self.state not in states.CASHOUT_WAITS):
            self.handle(states.CASHOUT)
        if not self.ram_error:
            self.service_acceptor()
            self.service_hopper()
            self.service_spin()
        idle_ms = min(idle_ms, self.service_meters())
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
