# Money out by redemption coupon (the `vlt` jurisdiction: S-13.1, r. 7, s. 4; L-6, r. 3, s. 6-7): the
# cash-out and the automatic coupon at $1,000 commit a coupon (firmware/coupon_books.py), then the
# printer (board/printer_epic.py) is driven until it reports the coupon issued. Mixed into
# firmware.cabinet.Cabinet. Its methods run only on a cabinet with a printer: the printer driver and
# the coupon's text are imported there, so a casino cabinet's heap does not hold them.
from board.compat import ticks_add, ticks_diff
from firmware import config
from firmware.books import AuditError

PRINTER_POLL_MS = 150  # while a coupon is owed or printing
PRINTER_IDLE_MS = 2000  # otherwise: paper low, head open and the like are still seen
PRINTER_BOOT_MS = 4000  # a printer silent at power-up has this long to answer before its tilt


class CouponOut:
    def _owed(self):
        return self.printer is not None and self.ledger.coupon_pending()

    def coupon_cashout(self, why="cash-out"):
        """All credits to one coupon: committed first, printed next (now, or once the printer is
        ready). Never two coupons owed at once: the second waits for the first."""
        self._cashout_asked = False
        try:
            rec = self.ledger.issue_coupon(config.MACHINE_ID, config.DENOM_CENTS, why, "audit" not in self.tilts)
        except AuditError as e:
            self.set_tilt("audit", str(e))
            return
        if rec is None:
            return
        from firmware import coupon

        self.log("%s: coupon %d (%s) for %s" % (why, rec["s"], rec["n"], coupon.dollars(rec["c"])))
        self.win = 0
        self.message = ("coupon", rec["c"])  # cents: the screen writes the amount in the player's language
        self._printer_next = self.board.ticks_ms()  # print now
        self.show()

    def printer_silent_at_boot(self):
        self._printer_wait = ticks_add(self.board.ticks_ms(), PRINTER_BOOT_MS)

    def auto_coupon_due(self):
        """L-6, r. 3, s. 6: credits worth the profile's amount or more are paid by coupon at once (the
        state table's COUPON event: in the credit state)."""
        limit = self.jurisdiction.get("auto_coupon_cents") if self.jurisdiction else 0
        return bool(limit) and self.printer is not None and self.ledger.credits * config.DENOM_CENTS >= limit

    def _print(self, rec, duplicate=False):
        from board.printer_epic import PrinterError
        from firmware import coupon

        # whose ticket this is: the printer's "printed" says only that the LAST ticket came out, and
        # a DUPLICATE still in the paper path must not issue the coupon owed after it
        self._printing_seq = None if duplicate else rec["s"]
        try:
            self.printer.print_ticket(coupon.lines(rec, config, duplicate), rec["n"])
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
        owed = self.ledger.coupon_owed() if self.ledger.coupon_pending() else None
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
                if self.ledger.coupon_issued(owed["s"]):
                    self.log("coupon %d issued" % owed["s"])
                    self.message = ("coupon", owed["c"])
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
        """The attendant's reprint of the last coupon issued, marked DUPLICATE (console `reprint`)."""
        if self.printer is None:
            raise ValueError("no coupon printer on this cabinet")
        from board.printer_epic import FAULTS, describe

        if self.ledger.coupon_pending():
            raise ValueError("a coupon is still owed: it prints first")
        f = self.printer.status()
        if f & FAULTS:
            raise ValueError("printer: %s" % describe(f))
        rec = self.ledger.coupon_duplicate()
        if rec is None:
            raise ValueError("no coupon issued yet")
        if not self._print(rec, duplicate=True):
            raise ValueError("printer refused the duplicate")
        return rec
