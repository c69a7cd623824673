# Money out by redemption coupon (the `vlt` jurisdiction: S-13.1, r. 7, s. 4; L-6, r. 3, s. 6-7): the
# cash-out and the automatic coupon at $1,000 commit a coupon (in the books, firmware/coupon_books.py,
# then in the coupon memory, firmware/coupon_store.py, which numbers it: firmware/coupon_number.py),
# then the printer (board/printer_epic.py) is driven until it reports the coupon issued. Mixed into
# firmware.cabinet.Cabinet. Its methods run only on a cabinet with a printer: the printer driver and
# the coupon's text are imported there, so a casino cabinet's heap does not hold them.
from board.compat import ticks_add, ticks_diff
from firmware.audit_error import AuditError

PRINTER_POLL_MS = 150  # while a coupon is owed or printing
PRINTER_IDLE_MS = 2000  # otherwise: paper low, head open and the like are still seen
PRINTER_BOOT_MS = 4000  # a printer silent at power-up has this long to answer before its tilt


class CouponOut:
    def _owed(self):
        return self.printer is not None and self.coupons is not None and self.coupons.owed_seq() != 0

    def coupon_condition(self):
        """The coupon memory's condition that stops money in and play (a tilt found afresh at every
        power-up, never stored): no validation id, or the records awaiting the system near full."""
        store = self.coupons
        if self.printer is None or store is None:
            return
        why = store.stop_reason()
        had = self._boot_tilts.get("coupons")
        if why and not had:
            self.set_tilt("coupons", why)
        elif why:
            self._boot_tilts["coupons"] = why  # the count moved: the same condition, no new event
        elif had:
            del self._boot_tilts["coupons"]
            if self.ledger.st is not None and not self.ram_error:
                self.ledger.event("tilt-clear", "coupons")
            self.show()

    def coupon_cashout(self, why="cash-out"):
        """All credits to one coupon: committed first (the books, then the coupon memory), printed
        next (now, or once the printer is ready). Never two coupons owed at once: the second waits
        for the first. Refused (the credits stay on the meter) while the coupon memory cannot number
        one: its condition says why."""
        self._cashout_asked = False
        store = self.coupons
        credits = self.ledger.credits
        if store is None or not credits or store.owed_seq():
            return
        refused = store.refusal()
        if refused:
            self.log("%s refused: %s" % (why, refused))
            self.coupon_condition()
            return
        from firmware.clock import now

        try:
            rec = store.draft(credits, credits * self.config.DENOM_CENTS, now(), why)
        except ValueError as e:  # an amount no record holds: the credits stay, the log says why
            self.log("%s refused: %s" % (why, e))
            return
        try:
            rec = self.ledger.issue_coupon(rec, why, "audit" not in self.tilts)
        except AuditError as e:
            self.set_tilt("audit", str(e))
            return
        if rec is None:
            return
        store.add(rec)
        from firmware import coupon

        self.log("%s: coupon %d (%s) for %s" % (why, rec["s"], rec["n"], coupon.dollars(rec["c"])))
        self.win = 0
        self.message = ("coupon", rec["c"])  # cents: the screen writes the amount in the player's language
        self._printer_next = self.board.ticks_ms()  # print now
        self.coupon_condition()
        self.show()

    def printer_silent_at_boot(self):
        self._printer_wait = ticks_add(self.board.ticks_ms(), PRINTER_BOOT_MS)

    def auto_coupon_due(self):
        """L-6, r. 3, s. 6: credits worth the profile's amount or more are paid by coupon at once (the
        state table's COUPON event: in the credit state)."""
        limit = self.jurisdiction.get("auto_coupon_cents") if self.jurisdiction else 0
        return bool(limit) and self.printer is not None and self.ledger.credits * self.config.DENOM_CENTS >= limit

    def _print(self, rec, duplicate=False):
        from board.printer_epic import PrinterError
        from firmware import coupon

        # whose ticket this is: the printer's "printed" says only that the LAST ticket came out, and
        # a DUPLICATE still in the paper path must not issue the coupon owed after it
        self._printing_seq = None if duplicate else rec["s"]
        try:
            self.printer.print_ticket(coupon.lines(rec, self.config, duplicate, self.jurisdiction.get("claim_s")), rec["n"])
        except PrinterError as e:
            self.set_tilt("printer", str(e))
            return False
        return True

    def service_printer(self):
        pr = self.printer
        if pr is None:
            return
        from board.printer_epic import FAULTS, OFFLINE, describe

        now = self.board.ticks_ms()
        if ticks_diff(now, self._printer_next) < 0:
            return
        owed = self.coupons.owed() if self._owed() else None
        self._printer_next = ticks_add(now, PRINTER_POLL_MS if owed or pr.printing else PRINTER_IDLE_MS)
        out = []
        flags = pr.poll(out)
        if flags & OFFLINE:  # each unanswered request waits the driver's timeout: not every loop pass
            self._printer_next = ticks_add(now, PRINTER_IDLE_MS)
        if self._printer_wait is not None:
            # silent since power-up: no "fault" event comes (it was silent before), so its time is kept here
            if not flags & OFFLINE:
                self._printer_wait = None
            elif ticks_diff(now, self._printer_wait) >= 0:
                self._printer_wait = None
                self.set_tilt("printer", describe(OFFLINE) + " since power-up")
        for kind, a, b in out:
            if kind == "printed" and owed and self._printing_seq == owed["s"]:
                # the coupon memory first, then the books (firmware/coupon_books.py)
                if self.coupons.issued(owed["s"]):
                    self.ledger.coupon_issued(owed["s"])  # False when the books were cleared since
                    self.log("coupon %d issued" % owed["s"])
                    self.message = ("coupon", owed["c"])
                    self.coupon_condition()
                    self.show()
                owed = None
            elif kind == "fault":
                self.set_tilt("printer", describe(a))
            elif kind == "low":
                self.log("printer: paper %s" % ("low" if a else "loaded"))
                if a:
                    self.ledger.event("printer", "paper low")
            elif kind == "clear":
                self.log("printer: ready")
        if owed and not pr.printing and not flags & FAULTS and "printer" not in self.tilts:
            # owed and not on its way: first print, or again after a cut or a fault, same number
            self.log("printing coupon %d" % owed["s"])
            self._print(owed)

    def printer_ready(self):
        """The printer tilt clears only when the printer reports no fault."""
        if self.printer is None:
            return True
        from board.printer_epic import FAULTS, describe

        f = self.printer.status()
        if f & FAULTS:
            self.log("printer still at fault: %s" % describe(f))
            return False
        if self.printer.printing:
            self.printer.printing = False  # the ticket it was printing is owed again: printed anew
        return True

    def reprint_coupon(self):
        """The attendant's reprint of the last coupon issued, marked DUPLICATE (console `reprint`),
        where the jurisdiction profile allows it: never under vlt, where a coupon printed is never
        printed again (an interrupted one is completed under its own number: service_printer)."""
        if self.printer is None or self.coupons is None:
            raise ValueError("no coupon printer on this cabinet")
        if not self.jurisdiction.get("reprint"):
            raise ValueError("no reprint: a coupon printed is never printed again (the jurisdiction's rule)")
        from board.printer_epic import FAULTS, describe

        if self._owed():
            raise ValueError("a coupon is still owed: it prints first")
        f = self.printer.status()
        if f & FAULTS:
            raise ValueError("printer: %s" % describe(f))
        last = self.coupons.last_issued()
        if last is None:
            raise ValueError("no coupon issued yet")
        rec = self.coupons.duplicate(last["s"])
        if self.ledger.st is not None:
            self.ledger.event("coupon-dup", "no %d reprinted as DUPLICATE" % rec["s"])
        if not self._print(rec, duplicate=True):
            raise ValueError("printer refused the duplicate")
        return rec
