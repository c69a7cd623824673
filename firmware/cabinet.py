# The cabinet: one cooperative main loop over the board. Money path and game flow:
# coin (ccTalk 229 event) -> ledger.accept -> bet -> ledger.wager (NVRAM) -> RNG -> game.play ->
# ledger.settle (NVRAM) -> display -> cash-out -> hopper or hand pay (NVRAM).
#
# Its states, the events it takes and what each does are the table in firmware/states.py; each
# action the table names is a method here, or for the table's PLAY_ACTIONS the game's play's (handle
# passes it the event). The
# cabinet is made whole at power-up (firmware/startup.py boot builds every part, Cabinet receives
# them): the configuration (firmware/config.py Config), the game's play (firmware/play.py and its
# families), money in (firmware/coin_in.py, firmware/bill_in.py), money out (firmware/hopper_out.py
# or, on a coupon cabinet, firmware/coupon_out.py), the EM meters, the security log, the screen
# (firmware/screen.py); the console and the SAS link, which need the cabinet, come in through
# attach(). Here: the state, tilts, doors and keys, meters, the display frame, the loop.
#
# A part is given what it uses when it is made; what it must tell the cabinet goes through the
# cabinet passed to its service or action as `cab`: set_tilt(kind, why), condition(kind, why),
# disrupted(why), show(), want_money(), handle(event, *args) and the tilts.
import rng
from board.doors import Doors
from board.switches import Button
from firmware import jurisdiction, states
from firmware.audit_error import AuditError
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
# tilts the attendant's reset key clears once the cause is gone; the others need a technician
KEY_CLEARABLE = ("acceptor", "fraud", "hopper", "meter", "rng")
# tilts found afresh at every power-up, so never kept in critical memory: the boot check of the
# offered games (limits: each one refused by the jurisdiction's limits), the configuration's and
# the software's authentication (firmware/authenticate.py), the coupon memory's condition (no
# validation id, records awaiting the system: firmware/coupon_out.py), and the central system's link
# where the jurisdiction requires it, and its orders kept in the SAS queue's block (maintenance mode,
# game disabled: firmware/sas/control.py), set again from there (firmware/sas/machine.py), and a progressive
# linked through SAS while the system's level broadcasts have stopped (firmware/sas/progressive.py)
# and a ticket of unknown fate (firmware/bill_in.py: set again at power-up from the books' record of it)
BOOT_TILTS = ("game", "limits", "config", "software", "coupons", "link", "maintenance", "sas-game", "progressive",
              "ticket")
# tilts of a device whose fault is a physical condition read from it again at power-up, so kept in RAM
# only, and cleared by the reset key once the device reports no fault (the coupon printer)
DEVICE_TILTS = ("printer",)
# tilts that say the program or its records may have been tampered with: kept in the security log too
SECURITY_TILTS = ("software", "game", "config")


class Cabinet:
    def __init__(self, board, ledger, config, gameplay, coins, money_out, screen, bills=None, em=None, audit=None,
                 offered=(), open_rng=None, log=print):
        self.board = board
        self.ledger = ledger
        self.config = config  # firmware/config.py Config: what it runs under
        ledger.cents = config.DENOM_CENTS  # what a note's credits are worth (firmware/note_counts.py)
        self.gameplay = gameplay  # firmware/play.py GamePlay (or its family's): the game offered, its generator
        self.coins = coins  # firmware/coin_in.py CoinIn: money in by coin
        self.bills = bills  # firmware/bill_in.py BillIn, when the jurisdiction profile takes notes
        self.money_out = money_out  # firmware/hopper_out.py HopperOut, or coupon_out.py CouponOut
        self.screen = screen  # firmware/screen.py Screen: what the parts show besides the books
        self.em = em  # board.meters_em.EmMeters, when the board has meter coils
        self.audit = audit  # firmware/audit.py Audit: the security log, when the part holds one
        self.offered = offered  # (id, ok, reason, game) from the boot check
        self.starved = ()  # ids of offered games whose boot check ran out of memory (firmware/startup.py)
        # what the parts hold that the console, the SAS link and the display read
        self.game = gameplay.game  # the certified game offered, or None
        self.progressive = gameplay.progressive  # its progressive, or None
        self.coupons = money_out.store  # a coupon cabinet's coupon memory (firmware/coupon_store.py), else None
        self._open_rng = open_rng  # () -> (gen, failure) when the rng tilt is cleared; None: open_rng() here
        self.log = log
        self.ram_error = None
        self._boot_tilts = {}  # found afresh at every power-up (game, config): never persisted
        self._cashout_asked = False  # a cash-out pressed while it must wait (reels turning, a lock)
        self.buttons = {}
        for name in ("bet_one", "bet_max", "play", "cashout"):
            self.buttons[name] = Button(board.pin(name), clock=board.ticks_ms)
        self.switches = Doors(board, clock=board.ticks_ms)  # doors and key switches, debounced levels
        self.console = None  # firmware/console.py Console (attach)
        self.sas = None  # firmware/sas/machine.py SasMachine, when the board has a SAS port (attach)
        self.tested = None  # the outcome of the last test game (console 'testgame' reads it)

    def attach(self, console=None, sas=None):
        """The console and the central system's link, made once the cabinet is (they read it)."""
        self.console = console
        self.sas = sas

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
        return states.derive(False, lock["kind"] if lock else None, st.get("paying") or self.money_out.owed(),
                             g and g["phase"] == "spin",
                             self.switches.any_open(), self._boot_tilts or st.get("tilts"), self.audit_mode(),
                             st["credits"], bool(g and g["phase"] == "wager" and g.get("deck")),
                             self.ledger.owed() is not None)

    def audit_mode(self):
        return self.switches.is_open("key_audit")

    def handle(self, event, *args):
        """Carry out a player's, attendant's or technician's event as the state table says; an event
        the current state does not take is refused (False) and changes nothing."""
        name = states.action(self.state, event)
        if name is None:
            return False
        if name in states.PLAY_ACTIONS:
            getattr(self.gameplay, name)(self, *args)  # the game's play carries it out (firmware/play.py)
        else:
            getattr(self, name)(*args)
        if self._cashout_asked and event != states.CASHOUT:
            self.handle(states.CASHOUT)  # the wait this event ended: paid before anyone reads credits idle
        return True

    def why_refused(self, event):
        """One line for the technician: why the state table refuses `event` now."""
        st = self.state
        if event in (states.RAMCLEAR, states.TEST) and st != states.RAMERROR and not self.audit_mode():
            return "turn the audit key first"
        if event == states.RAMCLEAR:
            return "RAM clear refused: " + self.owed_text()
        return "%s refused in state %s" % (event, st)

    def owed_text(self):
        """What the books still owe, in words (the RAM clear's refusal names it)."""
        led = self.ledger
        what = led.owed()
        if what == "lock":
            return "a %s of %d credits waits for the attendant's key" % (
                "hand pay" if led.lock["kind"] == "handpay" else led.lock["kind"], led.lock["amount"])
        if what == "payout":
            return "the hopper is paying a cash-out"
        if what == "coupon":
            return "a coupon is owed: it prints first"
        if what == "game":
            return "a dealt hand waits for the draw" if self.gameplay.hand_open() else "a game is in progress"
        if what == "note":
            return "a note is in escrow"
        if what == "unknown note":
            return "a note of unknown fate waits for the attendant ('note stacked|returned')"
        if what == "ticket":
            return "a ticket is being redeemed"
        if what == "unknown ticket":
            return "a ticket of unknown fate waits for the attendant"
        if what == "credits":
            return "%d credits on the meter: cash them out first" % led.credits
        if what == "tournament":
            return "a tournament is running: 'tournament end' pays its prizes first"
        return "nothing is owed"

    # --- boot -------------------------------------------------------------------------------------
    def resume(self):
        """After power-up: doors opened while the power was off are recorded; the books audit
        themselves; then the game's play completes a wager committed before the cut (firmware/play.py)."""
        out = []
        self.switches.check_boot(out, self.ledger.st.get("doors"), self.board.door_latch)
        for _, name, _ in out:
            self.ledger.exception(name + " off")  # SAS 98-9B, before the door's own 11/15/19
            self.ledger.door(name, True, self.switches.levels())
            self.ledger.event("door-off", "%s opened while powered off" % name)
        try:
            self.ledger.audit()
        except AuditError as e:
            self.set_tilt("audit", str(e))
            return
        self.gameplay.resume(self)

    # --- play (the state table's PLAY_ACTIONS are the game's play's: firmware/play.py) -------------------
    def disrupted(self, why):
        """s. 94: a player who disrupts the machine during a game gets no prize for it."""
        self.gameplay.disrupted(why)

    def play_test_game(self, bet=None):
        """The audit key's test game (the table: AUDIT, SERVICE): a real draw through the real engine
        that never touches the meters. The outcome is kept in self.tested for the console."""
        outcome = self.gameplay.test_game(bet)
        self.tested = outcome
        self.board.display.show({"state": self.state, "test": True, "reels": outcome.window,
                                 "win": outcome.award})
        return outcome

    # --- money in ---------------------------------------------------------------------------------
    def want_money(self):
        # a note of unknown fate stops money in at once, even while reels turn (spin outranks its tilt)
        # a ticket of unknown fate (firmware/ticket_books.py stage 4, UNKNOWN) stops it too
        return self.state in states.MONEY_STATES and self.ledger.credits < self.config.CREDIT_LIMIT \
            and self.ledger.bill_unknown is None and self.ledger.ticket_stage() != 4

    def want_notes(self):
        """Money in by note: as want_money, unless the central system disabled the bill acceptor (SAS 07)."""
        return self.want_money() and not (self.sas is not None and self.sas.notes_off())

    def service_acceptor(self):
        self.coins.service(self.board.ticks_ms(), self)
        if self.bills is not None:
            self.bills.service(self.board.ticks_ms(), self)

    def _inhibit(self):
        self.coins.inhibit()
        if self.bills is not None:
            self.bills.inhibit()

    # --- money out (firmware/hopper_out.py, or firmware/coupon_out.py on a coupon cabinet) -------------
    def cashout(self, hopper=True):
        """Credits belong to the player. The state table (firmware/states.py) says where this runs:
        every state but a RAM error, and where a press is kept instead (keep_cashout); money out
        pays them (by hopper where the table names this method, by hand, or by coupon)."""
        if self.gameplay.hand_open():
            return self.keep_cashout()  # a dealt poker hand is drawn first, even under a door or a tilt
        self._cashout_asked = False
        if not self.ledger.credits:
            return
        self.money_out.cashout(self, hopper)

    def cashout_by_hand(self):
        """A cash-out where the hopper must not pay (a door open, the audit key on): a hand pay, or
        the coupon where only a coupon pays."""
        self.cashout(hopper=False)

    def keep_cashout(self):
        self._cashout_asked = True  # carried out by step() once the game, payout or lock has ended

    def coupon_cashout(self, why="cash-out"):
        """The automatic coupon (the state table's COUPON event): firmware/coupon_out.py."""
        self._cashout_asked = False
        self.money_out.coupon_cashout(self, why)

    def coupon_condition(self):
        self.money_out.condition(self)

    def reprint_coupon(self):
        return self.money_out.reprint(self)

    def attendant_key(self):
        lock = self.ledger.clear_lock()
        if lock:
            self.log("attendant paid %s of %d" % (lock["kind"], lock["amount"]))
            self.screen.message = ("paid", lock["amount"])
        else:
            for kind in list(self.tilts):
                if kind == "rng" and not self._retry_rng():
                    continue
                if kind in DEVICE_TILTS:
                    if self.money_out.ready():
                        self._boot_tilts.pop(kind, None)
                        self.ledger.event("tilt-clear", kind)
                    continue
                if kind in KEY_CLEARABLE:
                    self.ledger.clear_tilt(kind)
                    if kind in ("acceptor", "fraud"):
                        self.coins.clear_fault()
                    if kind in ("acceptor", "fraud") and self.bills is not None:
                        self.bills.clear_fault()
                    if kind in ("hopper", "fraud"):
                        self.money_out.clear_faults()
        self.show()

    def settle_note(self, stacked, who="-", ticket=False):
        """The attendant's word on the note of unknown fate (firmware/bill_in.py), once the cash box is
        counted: stacked (credited, bill_in) or returned (nothing credited); the note tilt goes. With
        `ticket`, on the ticket of unknown fate (firmware/ticket_books.py): its tilt goes."""
        if ticket:
            from firmware import ticket_books

            ticket_books.settle(self.ledger, stacked, who)
            self.clear_boot_tilt("ticket")
            self.log("ticket %s settled by %s: %s" % (ticket_books.digits(self.ledger), who,
                                                      "stacked" if stacked else "returned"))
            self.show()
            return
        u = self.ledger.settle_note(stacked, who)
        self.log("note %s (%d credits) settled by %s: %s" % (u["id"], u["k"], who, "stacked" if stacked else "returned"))
        self.show()

    def _retry_rng(self):
        """The RNG tilt clears only when a fresh generator passes its start-up tests again."""
        if self._open_rng is not None:
            gen, failure = self._open_rng()
        else:
            gen, failure = open_rng(self.board, self.ledger, self.config.MACHINE_ID)
        if failure is not None:
            self.log("rng still failing: %s" % failure)
            return False
        self.gameplay.use_generator(gen)
        return True

    # --- the central system (SAS long polls 01/02: firmware/sas/polls.py) ---------------------------
    def host_disable(self):
        self.ledger.tilt("host", "disabled by the central system")  # kept: only its enable clears it
        self.show()

    def host_enable(self):
        self.ledger.clear_tilt("host")
        self.show()

    def host_tournament(self, rules=None):
        """SAS 8C (firmware/sas/tournament.py): enter tournament mode with `rules` (the arguments of
        the console's 'tournament start', Ledger.tour_start), or leave it (None: 'tournament end',
        the prizes paid by hand). The books' refusals (TournamentError) reach the caller."""
        if rules is None:
            self.ledger.tour_end()
        else:
            self.ledger.tour_start(*rules)
        self.show()

    def clear_boot_tilt(self, kind):
        if self._boot_tilts.pop(kind, None) is not None and self.ledger.st is not None:
            self.ledger.event("tilt-clear", kind)

    # --- faults -----------------------------------------------------------------------------------
    def set_tilt(self, kind, why):
        self.log("TILT %s: %s" % (kind, why))
        if kind not in self.tilts:  # new: the central system is told (SAS, firmware/sas/exceptions.py)
            self.ledger.exception("tilt note-acceptor" if why.startswith("bill validator") else
                                  "tilt validation-id" if kind == "coupons" and why.startswith("no validation id") else
                                  "tilt " + kind)
        if kind in SECURITY_TILTS and self.audit is not None:
            self.audit.record("-", "tilt", "%s: %s" % (kind, why))  # evidence a RAM clear keeps
        if kind in BOOT_TILTS or kind in DEVICE_TILTS or self.ledger.st is None or self.ram_error:
            self._boot_tilts[kind] = why
            if self.ledger.st is not None and not self.ram_error:
                self.ledger.event("tilt", "%s: %s" % (kind, why))
        else:
            self.ledger.tilt(kind, why)  # kept in critical memory with its event: one commit
        self.show()

    def condition(self, kind, why):
        """A boot tilt that follows a condition read again and again (the coupon memory's: why, or
        None when it no longer stands): set with its event when it appears, its reason updated
        silently while it stands (the same condition, no new event), cleared with its event when it
        goes."""
        had = self._boot_tilts.get(kind)
        if why and not had:
            self.set_tilt(kind, why)
        elif why:
            self._boot_tilts[kind] = why
        elif had:
            del self._boot_tilts[kind]
            if self.ledger.st is not None and not self.ram_error:
                self.ledger.event("tilt-clear", kind)
            self.show()

    def set_ram_error(self, why):
        self.ram_error = why
        if self.audit is not None:
            self.audit.record("-", "ramerror", why)
        self.log("RAM ERROR: %s" % why)
        self.show()

    def ram_clear(self, who):
        """Administrator's RAM clear (console 'ramclear'). The state table takes it in two states
        only: a RAM error (memory really lost: what was owed can no longer be read) and SERVICE (the
        audit key on and nothing owed: L-6, r. 3, s. 7, nothing but a coupon erases credits). Fresh
        memory, recorded as its first event with who cleared and which kind of clear it was; the
        security log, in a memory of its own, keeps the same record."""
        if self.em is not None and self.em.busy():
            # the clear keeps each coil's recorded position: not while a stroke is on its way
            raise ValueError("the hard meters are still counting: try again in a moment")
        if self.ram_error or self.ledger.st is None:
            why = "by %s after RAM error: %s" % (who, self.ram_error or "memory not loaded")
        else:
            t = self.tilts
            why = "by %s, audit key, nothing owed%s" % (who, "; tilt " + " ".join(sorted(t)) if t else "")
        # the basis it runs under
        led = self.ledger
        n = led.clears
        try:
            led.format(("ramclear", why), [self.config.JURISDICTION, self.config.DENOM_CENTS],
                       unlogged=who if self.audit is not None else None)
        except MemoryError:
            if led.clears == n:
                raise  # not on record: nothing changed, and the console says so
            # on record, its copies not all written: it happened (the next commit finishes them)
        self.ram_error = None
        kept = {}
        for kind in self._boot_tilts:  # read from the world at power-up, not from the books: still so
            if kind in BOOT_TILTS or kind in DEVICE_TILTS:
                kept[kind] = self._boot_tilts[kind]
        self._boot_tilts = kept
        self._cashout_asked = False
        if self.audit is not None:  # a cut before this is made good at power-up (startup.open_audit)
            try:
                if self.audit.record(who, "ramclear", why):
                    led.logged()
            except Exception:  # out of memory, or the security memory's own fault: the clear stands
                pass  # the books keep the clearing account (st["cl"]): recorded at the next power-up
        self.screen.clear()
        self.money_out.condition(self)  # the coupon memory is not cleared: its condition stands
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

    # --- display ----------------------------------------------------------------------------------
    def show(self):
        st = self.state
        p = self.progressive
        lock = self.ledger.lock if self.ledger.st else None
        # say: the player's message as an id and its arguments, which the screen translates
        # (docs/screen.md); msg: a technician's line (the id and arguments, a tilt's reasons)
        say = self.screen.message
        if self.ram_error:
            say = ("ramerror",)
            msg = "RAM ERROR"
        elif lock:
            say = ("lock", lock["kind"], lock["amount"])
            msg = "%s %d" % (lock["kind"].upper(), lock["amount"])
        elif self.tilts:
            t = self.tilts
            say = ["tilt"] + sorted(t)
            msg = "TILT " + "; ".join("%s: %s" % (k, t[k]) for k in sorted(t))  # why play is stopped
        elif isinstance(say, str):
            msg = say  # a plain line: shown as it is
            say = (say,)
        else:
            msg = " ".join(str(a) for a in say) if say else ""
        self.board.display.show({
            "state": st,
            "game": self.game.name if self.game else {"fr": "aucun jeu", "en": "no game"},
            "credits": self.ledger.credits if self.ledger.st else 0,
            "bet": self.ledger.bet if self.ledger.st else 0,
            "win": self.screen.win,
            "reels": self.screen.reels,
            "games": self.ledger.meters["games_played"] if self.ledger.st else 0,
            "msg": msg,
            "say": say,
            # linked through SAS: the controller's amount (firmware/sas/progressive.py Linked.shown)
            "jackpot": (p.amount(self.ledger.st) if p.feed is None else p.feed.shown(p, self.ledger.st))
            if p and self.ledger.st else None,
            "tournament": self._tour_screen(),
            # s. 89: name, unit cost, prizes and how they are won, before play: French, then English
            # (a page reference, as a video slot shows its stored rules screens: the display renders
            # the certified model's own text, games.ReelGame.describe, in both languages)
            "rules": self.game.id if self.game and st == states.IDLE else None,
            "id": self.game.id if self.game else None,  # the certified model: symbol names, pay table
            "cents": self.config.DENOM_CENTS,  # one credit's value: the screen shows dollars too
            "hand": self.gameplay.hand_screen(),  # video poker: the cards held, and a hand waiting for DRAW
            # a table game (firmware/play_table.py): the stake on the layout, the wagers standing
            "table": self.gameplay.table_screen() if hasattr(self.gameplay, "table_screen") else None,
            "outcome": self.screen.played if st != "spin" else None,  # its bet and winning lines, once the reels stop
            "limits": self._limits(),  # the profile's bet and prize limits in cents (vlt), for the player's words
            "link": ("up" if self.sas.link.up else "down") if self.sas else None,  # the central system's (SAS)
        })
        if self.coins.accepting and not self.want_money():
            self._inhibit()  # no money the moment the machine must not take it, not at the next poll
        self.board.lamp("lamp_play").value(st == states.CREDIT)
        self.board.lamp("lamp_cashout").value(st == states.CREDIT)
        self.board.lamp("lamp_tower").value(st not in (states.IDLE, states.CREDIT))

    def service_touch(self):
        """The player's touch screen: a press is an event of the state table for the game played
        (keno's card, poker's hold keys); a press that is not this game's is lost."""
        t = self.board.touch.take()
        if t is None:
            return
        self.gameplay.touch(self, t[0], t[1])

    def _tour_screen(self):
        """s. 126: a tournament machine says so; during an entry, its credits and games left."""
        t = self.ledger.tour if self.ledger.st else None
        if not t:
            return None
        s = t["session"]
        if s:
            return {"entry": s["entry"], "credits": s["credits"], "left": s["left"]}
        return {"fee": t["fee"], "credits": t["credits"], "games": t["games"]}

    def _limits(self):
        # why a game or a bet is refused, in the player's words with the figures (docs/screen.md)
        p = jurisdiction.PROFILES.get(self.config.JURISDICTION)
        if not p or p["max_bet_cents"] is None:
            return None
        return {"bet": p["max_bet_cents"], "prize": p["max_prize_cents"]}

    def paytable(self, lang):
        """s. 89: name, unit cost, prizes and how they are won, before play."""
        if self.game is None:
            raise ValueError("no certified game")
        text = getattr(self.game, "text_lines", None)  # a table game's lines one at a time (games/table_text.py)
        return text(lang) if text is not None else self.game.describe(lang)

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
        if b["cashout"].take():
            self.ledger.exception("cashout button")  # SAS 66: committed with the cash-out, or by the SAS loop
            self.handle(states.CASHOUT)  # kept (keep_cashout) where the table says it must wait
        if self.board.touch is not None:
            self.service_touch()
        if not self.ram_error:
            self.service_acceptor()
            self.money_out.service(self)
            self.gameplay.service_spin(self)
            if self.money_out.due():
                self.handle(states.COUPON, "automatic coupon")
        if self._cashout_asked:
            # a kept press again, after the game's and payout's services (the wait may have ended
            # just now): paid before the console or the system reads the credit meter as idle
            self.handle(states.CASHOUT)
        idle_ms = min(idle_ms, self.service_meters())
        if self.console:
            self.console.service()
        if self.sas:
            self.sas.service()
        idle = getattr(self.gameplay.gen, "idle", None)
        if idle:
            try:
                idle()
            except RngFailure as e:
                self.set_tilt("rng", str(e))
        self.board.idle(idle_ms)

    def run(self):
        while True:
            self.step()
