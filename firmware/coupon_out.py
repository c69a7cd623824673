# Money out by redemption coupon (the `vlt` jurisdiction: S-13.1, r. 7, s. 4; L-6, r. 3, s. 6-7): the
# cash-out and the automatic coupon at $1,000 commit a coupon (in the books, firmware/coupon_books.py,
# then in the coupon memory, firmware/coupon_store.py, which numbers it: firmware/coupon_number.py),
# then the printer (board/printer_epic.py) is driven until it reports the coupon issued. A hopper
# cabinet's money out is firmware/hopper_out.py, with the same interface.
#
# A part of the cabinet (firmware/cabinet.py), made at power-up (firmware/startup.py
# open_coupon_out) with the printer and the coupon memory (either None when it could not be had:
# the config or coupons tilt says why), the books, the configuration, the jurisdiction's profile,
# the screen it sets, the board's clock and the log. The cabinet calls service(cab) every loop pass
# (it never waits on the printer: a status request is sent, its answer taken in a later pass, so the
# SAS line is answered meanwhile, docs/sas.md "What the loop waits on") and cashout(cab) from the
# state table; cab provides tilts, set_tilt(kind, why), condition(kind, why) and show(). It exists
# only on a coupon cabinet: the printer driver and the coupon's text are imported where they are
# used, so a casino cabinet's heap holds none of it.
#
# Under system validation (the coupon memory's SYSTEM flag: SAS 7B cancelled the secure enhanced
# configuration, firmware/sas/ticket_data.py) a cash-out first asks the system for the coupon's
# number: the request is committed in the books (firmware/coupon_books.py ask_validation), the
# cabinet waits in the payout state (no play, no money in), SAS exception 57 tells the system
# (firmware/sas/machine.py), which reads the amount (long poll 57) and answers with the number or a
# refusal (58: validated() / refused(), firmware/sas/system_validation.py). No answer within
# VALIDATION_MS is a refusal (SAS 6.02 s. 15.8): the request goes, the credits stay on the meter,
# the player may cash out again.
from board.compat import ticks_add, ticks_diff
from firmware.audit_error import AuditError

PRINTER_POLL_MS = 150  # while a coupon is owed or printing
PRINTER_IDLE_MS = 2000  # otherwise: paper low, head open and the like are still seen
PRINTER_BOOT_MS = 4000  # a printer silent at power-up has this long to answer before its tilt
# "If the host doesn't respond within ten seconds, the gaming machine proceeds as though system
# validation had been denied" (SAS 6.02 s. 15.8, as its public summary gsa-p0013.004.00 words it;
# Monaco's HostValidationProvider ValidationTimeOut, 10 s, alike): counted from the request, or from
# the power-up that found it
VALIDATION_MS = 10000
REPEAT_MS = 800  # exception 57 told again this often until the system reads long poll 57 (Monaco's figure)
AUTO_RETRY_MS = 10000  # after a refusal, the automatic coupon is not asked again before this (Jeton's)


class CouponOut:
    def __init__(self, printer, store, ledger, config, profile, screen, clock, log):
        self.printer = printer  # board.printer_epic.Printer, or None
        self.store = store  # firmware/coupon_store.py CouponStore (the coupon memory), or None
        self.ledger = ledger
        self.config = config
        self.profile = profile  # firmware/jurisdiction.py PROFILES entry: claim_s, reprint, auto_coupon_cents
        self.screen = screen
        self.clock = clock
        self.log = log
        self._next = clock()  # the next printer poll
        self._wait = None  # ticks by which a printer silent at power-up must answer, or None
        self._printing_seq = None  # the coupon whose ticket was sent last (None: a DUPLICATE, or nothing)
        self._key = 0  # the attendant's key waits for the printer's answer: 2 (a request in flight before it), 1
        self._out = []  # the driver's events of one status
        # system validation (SAS 57/58), in RAM: a power-up that finds the request asks it again
        self._asked = None  # ticks the request waiting was made (or found) at, or None
        self.sv_read = False  # the system has read it (long poll 57)
        self._told = None  # ticks 57 was last reported at
        self._auto_after = None  # no automatic coupon asked before these ticks (after a refusal)

    def owed(self):
        """A coupon committed and not yet printed, or a cash-out waiting for the system's number
        (the payout state)."""
        if self.printer is None or self.store is None:
            return False
        return self.store.owed_seq() != 0 or (self.ledger.st is not None and
                                              self.ledger.validation_request() is not None)

    def condition(self, cab):
        """The coupon memory's condition that stops money in and play (a tilt found afresh at every
        power-up, never stored): no validation id, or the records awaiting the system near full."""
        if self.printer is None or self.store is None:
            return
        cab.condition("coupons", self.store.stop_reason())

    def cashout(self, cab, hopper=True):
        """Where only a coupon pays (S-13.1, r. 7, s. 4), every cash-out is a coupon; with no printer
        the credits stay on the meter (its config tilt says why)."""
        if self.printer is None:
            self.log("cashout: no coupon printer: the credits stay")
            return
        self.coupon_cashout(cab)

    def coupon_cashout(self, cab, why="cash-out"):
        """All credits to one coupon: committed first (the books, then the coupon memory), printed
        next (now, or once the printer is ready). Never two coupons owed at once: the second waits
        for the first. Refused (the credits stay on the meter) while the coupon memory cannot number
        one: its condition says why."""
        store = self.store
        credits = self.ledger.credits
        if store is None or not credits or store.owed_seq() or self.ledger.validation_request() is not None:
            return
        refused = store.refusal()
        if refused:
            self.log("%s refused: %s" % (why, refused))
            self.condition(cab)
            return
        from firmware.eventlog import now

        if store.system():
            self._ask(cab, credits, now(), why)
            return
        try:
            rec = store.draft(credits, credits * self.config.DENOM_CENTS, now(), why)
        except ValueError as e:  # an amount no record holds: the credits stay, the log says why
            self.log("%s refused: %s" % (why, e))
            return
        try:
            rec = self.ledger.issue_coupon(rec, why, "audit" not in cab.tilts)
        except AuditError as e:
            cab.set_tilt("audit", str(e))
            return
        if rec is None:
            return
        store.add(rec)
        from firmware import coupon

        self.log("%s: coupon %d (%s) for %s" % (why, rec["s"], rec["n"], coupon.dollars(rec["c"])))
        sc = self.screen
        sc.win = 0
        sc.message = ("coupon", rec["c"])  # cents: the screen writes the amount in the player's language
        self._next = self.clock()  # print now
        self.condition(cab)
        cab.show()

    # --- system validation (SAS 57/58) -----------------------------------------------------------------
    def _ask(self, cab, credits, t, why):
        """Ask the system for the number of a coupon of all the credits (SAS 57)."""
        cents = credits * self.config.DENOM_CENTS
        refused = "system validation and no SAS line" if cab.sas is None else \
            "a coupon of %d cents is beyond a record's 32 bits" % cents if cents > 0xFFFFFFFF else None
        if refused:  # the credits stay; the automatic coupon is not asked again at every loop pass
            self.log("%s refused: %s" % (why, refused))
            self._auto_after = ticks_add(self.clock(), AUTO_RETRY_MS)
            return
        try:
            req = self.ledger.ask_validation(credits, cents, t, why, "audit" not in cab.tilts)
        except AuditError as e:
            cab.set_tilt("audit", str(e))
            return
        if req is None:
            return
        self._asked = self.clock()
        self.sv_read = False
        self._told = None
        self.log("%s: %d credits, the system's number asked" % (why, credits))
        self.screen.win = 0
        self.screen.message = ("validating", cents)
        cab.show()

    def sv_due(self, now):
        """Whether a general poll now reports 57 (system validation request): a request waits, the
        system has not read it, and 57 was not told in the last REPEAT_MS. A priority exception,
        not queued (SAS 6.02 s. 2.2.1): derived from the request the books keep."""
        if self._asked is None or self.sv_read or self.ledger.st is None or self.ledger.validation_request() is None:
            return False
        if self._told is not None and ticks_diff(now, self._told) < REPEAT_MS:
            return False
        self._told = now
        return True

    def validated(self, cab, number):
        """The system's number for the request (SAS 58): the coupon committed with it, the books
        first (the request replaced in the same transaction), then the coupon memory; printed next.
        None when taken, else why not ("not in cashout": nothing was asked)."""
        led = self.ledger
        req = led.validation_request() if led.st is not None else None
        if req is None:
            return "not in cashout"
        store = self.store
        why = None
        if store.numbered(number):
            why = "number %s already on a coupon" % number
        elif led.credits != req["k"]:
            why = "credits %d, %d asked" % (led.credits, req["k"])
        else:
            why = store.refusal()
        if why is None:
            from firmware.eventlog import now

            rec = store.draft(req["k"], req["c"], now(), req["why"], number)
            try:
                rec = led.issue_coupon(rec, req["why"], "audit" not in cab.tilts)
            except AuditError as e:
                cab.set_tilt("audit", str(e))
                rec = None
                why = str(e)
            if rec is not None:
                store.add(rec)
                self._asked = None
                self.log("%s: coupon %d (%s), the system's number" % (req["why"], rec["s"], rec["n"]))
                self.screen.message = ("coupon", rec["c"])
                self._next = self.clock()  # print now
                self.condition(cab)
                cab.show()
                return None
            why = why or "refused by the books"
        self.refused(cab, "number refused: " + why)
        return why

    def refused(self, cab, why):
        """The system refused (SAS 58, id 00), or did not answer in time: the request goes, the
        credits stay on the meter."""
        if self.ledger.st is None or not self.ledger.drop_validation(why):
            return False
        self._asked = None
        self._auto_after = ticks_add(self.clock(), AUTO_RETRY_MS)
        self.log("no coupon: %s; the credits stay" % why)
        self.screen.message = ("validation_refused",)
        cab.show()
        return True

    def _watch(self, cab, now):
        """The request's time (VALIDATION_MS), from when it was made or from the power-up that found it."""
        if self.ledger.st is None or self.ledger.validation_request() is None:
            self._asked = None
            return
        if self._asked is None:
            self._asked = now
            self.sv_read = False
            self._told = None
        elif ticks_diff(now, self._asked) >= VALIDATION_MS:
            self.refused(cab, "no answer from the system in %d s" % (VALIDATION_MS // 1000))

    def silent_at_boot(self):
        """A printer powered up with the cabinet may still be starting: it gets a moment, then its
        silence is a tilt (not only at the first coupon)."""
        self._wait = ticks_add(self.clock(), PRINTER_BOOT_MS)

    def due(self):
        """L-6, r. 3, s. 6: credits worth the profile's amount or more are paid by coupon at once (the
        state table's COUPON event: in the credit state)."""
        limit = self.profile.get("auto_coupon_cents")
        if self._auto_after is not None:  # the system refused the last one: not asked again at once
            if ticks_diff(self.clock(), self._auto_after) < 0:
                return False
            self._auto_after = None
        return bool(limit) and self.printer is not None and self.ledger.credits * self.config.DENOM_CENTS >= limit

    def _print(self, cab, rec, flags, duplicate=False):
        from board.printer_epic import PrinterError
        from firmware import coupon

        # whose ticket this is: the printer's "printed" says only that the LAST ticket came out, and
        # a DUPLICATE still in the paper path must not issue the coupon owed after it
        self._printing_seq = None if duplicate else rec["s"]
        from firmware.coupon_store import claim_s

        t = self.store.ticket()  # what the system set (SAS 7B-7D): its texts and days
        try:
            self.printer.print_ticket(coupon.each_line(rec, self.config, duplicate,
                                                       claim_s(self.profile.get("claim_s"), t["days"]), t),
                                      rec["n"], flags)
        except PrinterError as e:
            self._fault(cab, 0, str(e))
            return False
        return True

    def service(self, cab):
        pr = self.printer
        if pr is None:
            return
        from board.printer_epic import FAULTS, OFFLINE, describe

        now = self.clock()
        if self.store is not None:
            self._watch(cab, now)
        if not pr.asking:
            if ticks_diff(now, self._next) < 0:
                return
            self._next = now  # the request's time: the next one is counted from it
        out = self._out
        out.clear()
        flags = pr.service(out)  # never waits (SAS 6.02 s. 2.3.2): the answer comes in a later pass
        if flags is None:
            return
        owed = self.store.owed() if self.store is not None and self.store.owed_seq() else None
        # a silent printer is asked again only after a pause, as an idle one
        self._next = ticks_add(self._next, PRINTER_POLL_MS if (owed or pr.printing or self._key) and
                               not flags & OFFLINE else PRINTER_IDLE_MS)
        if self._wait is not None:
            # silent since power-up: no "fault" event comes (it was silent before), so its time is kept here
            if not flags & OFFLINE:
                self._wait = None
            elif ticks_diff(now, self._wait) >= 0:
                self._wait = None
                self._fault(cab, OFFLINE, describe(OFFLINE) + " since power-up")
        for kind, a, b in out:
            if kind == "printed" and owed and self._printing_seq == owed["s"]:
                # the coupon memory first, then the books (firmware/coupon_books.py)
                if self.store.issued(owed["s"]):
                    self.ledger.coupon_issued(owed["s"])  # False when the books were cleared since
                    self.log("coupon %d issued" % owed["s"])
                    self.screen.message = ("coupon", owed["c"])
                    self.condition(cab)
                    cab.show()
                owed = None
            elif kind == "fault":
                self._fault(cab, a, describe(a))
            elif kind == "low":
                self.log("printer: paper %s" % ("low" if a else "loaded"))
                if a:
                    self.ledger.exception("printer low")  # SAS 74, committed with the event
                    self.ledger.event("printer", "paper low")
            elif kind == "clear":
                self.log("printer: ready")
        if self._key:
            self._keyed(cab, now)
        if owed and not pr.printing and not flags & FAULTS and "printer" not in cab.tilts:
            # owed and not on its way: first print, or again after a cut or a fault, same number
            self.log("printing coupon %d" % owed["s"])
            self._print(cab, owed, pr.last)  # the status just read, as the printer gave it

    def _fault(self, cab, flags, why):
        """The printer tilt, and the system told which fault it is (SAS Table A-1: 61 paper out, 78
        carriage jammed, 60 communication error for silence or any other), once per tilt."""
        from board.printer_epic import JAM, OUT, PATH

        if "printer" not in cab.tilts:  # raised before the tilt's event: committed with it
            self.ledger.exception("printer out" if flags & OUT else "printer jam" if flags & (JAM | PATH) else
                                  "printer fault")
        cab.set_tilt("printer", why)

    def ready(self):
        """The printer tilt clears only when the printer reports no fault, in its answer to a status
        request sent after the key turned: asked now, not waited for (the loop answers the SAS line
        meanwhile); service() clears the tilt when the answer comes (_keyed)."""
        if self.printer is None:
            return True
        self._key = 2 if self.printer.asking else 1  # a request in flight was sent before the key
        self._next = self.clock()
        return False

    def _keyed(self, cab, now):
        """A status answered while the key waits: the request sent after the key clears the tilt
        when the printer reports no fault."""
        pr = self.printer
        self._key -= 1
        if self._key:
            self._next = now  # that answer was to a request sent before the key: asked again
            return
        from board.printer_epic import FAULTS, describe

        f = pr.last  # as the printer gave it: one silence is a fault here
        if f & FAULTS:
            self.log("printer still at fault: %s" % describe(f))
            return
        if "printer" in cab.tilts:
            if pr.printing:
                pr.printing = False  # the ticket it was printing is owed again: printed anew
            cab.clear_boot_tilt("printer")
            cab.show()

    def clear_faults(self):
        """No hopper: the attendant's key clears nothing more here."""

    def reprint(self, cab):
        """The attendant's reprint of the last coupon issued, marked DUPLICATE (console `reprint`),
        where the jurisdiction profile allows it: never under vlt, where a coupon printed is never
        printed again (an interrupted one is completed under its own number: service)."""
        if self.printer is None or self.store is None:
            raise ValueError("no coupon printer on this cabinet")
        if not self.profile.get("reprint"):
            raise ValueError("no reprint: a coupon printed is never printed again (the jurisdiction's rule)")
        from board.printer_epic import FAULTS, describe

        if self.owed():
            raise ValueError("a coupon is still owed: it prints first")
        f = self.printer.status()
        if f & FAULTS:
            raise ValueError("printer: %s" % describe(f))
        last = self.store.last_issued()
        if last is None:
            raise ValueError("no coupon issued yet")
        rec = self.store.duplicate(last["s"])
        if self.ledger.st is not None:
            self.ledger.event("coupon-dup", "no %d reprinted as DUPLICATE" % rec["s"])
        if not self._print(cab, rec, f, duplicate=True):
            raise ValueError("printer refused the duplicate")
        return rec
