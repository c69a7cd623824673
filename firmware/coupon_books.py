# Redemption coupons in the books (S-13.1, r. 7, s. 4 and 9; L-6, r. 3, s. 6-7): the credits leave the
# meter, and the coupon's number and amount are committed, in ONE transaction, before the first byte
# goes to the printer. The coupon is then "owed" until the printer reports it issued (its number and
# bar code printed, the ticket out of the paper path), which is committed in a second transaction.
# A power cut or a printer fault in between leaves it owed: it is printed again, with the SAME
# control number, once the printer is ready. A coupon half printed before the fault may carry that
# number too, so there is never more than one valid coupon for those credits (a validation system
# pays a control number once, s. 10), and the credits are never lost (they are the owed coupon).
#
# The books keep only the latest coupon (the `cpn` block): their half of a transaction over two
# memories. The coupon memory (firmware/coupon_store.py), which a RAM clear does not reach, keeps the
# validation id, the sequence and every record until a system acknowledges it. A coupon is committed
# here first, then there; issued there first, then here; firmware/coupon_out.py reconciles the two at
# power-up, so a cut between the two commits loses nothing.
# Under system validation (SAS 57/58, firmware/sas/system_validation.py) a cash-out first asks the
# system for the coupon's number: the request ("asked": its credits and cents, committed in the same
# block, with its event, the credits still on the meter) is kept until the system answers. Its
# number then commits the coupon, which replaces the request in the same transaction (issue_coupon):
# a power cut leaves the request (asked again after the power-up) or the coupon, never both and
# never neither. A refusal, or no answer in time, drops it (drop_validation): the credits stay.
# Mixed into firmware.ledger.Ledger; the contents are firmware/coupon.py, the number
# firmware/coupon_number.py, the printer board/printer_epic.py.
import json

KEEP = 1  # the latest coupon: {"s" seq, "n" number, "c" cents, "k" credits, "t" time, "st", "d", "why"[, "v"]}
ASKED = "asked"  # the request for a number: {"st": ASKED, "k" credits, "c" cents, "t" time, "why"}


class CouponBooks:
    def _cpn(self):
        raw = self.mem.read("cpn")
        return json.loads(raw) if raw else []

    def coupons(self):
        """The coupons the books hold: the latest one, or none (a fresh or RAM-cleared ledger)."""
        return [r for r in self._cpn() if r["st"] != ASKED]

    def validation_request(self):
        """The cash-out waiting for the system's number (SAS 57/58), or None (cached as
        coupon_pending is: the cabinet asks at every state read)."""
        self._cpn_cache()
        return self._cpn_req

    def coupon_last(self):
        keep = self.coupons()
        return keep[-1] if keep else None

    def coupon_owed(self):
        """The coupon committed but not yet seen issued, or None (never more than one)."""
        last = self.coupon_last()
        return last if last and last["st"] == "owed" else None

    def coupon_pending(self):
        """Whether a coupon is owed, without reading NVRAM each time the cabinet's state is asked:
        read once per loaded state (open() and format() replace self.st), then kept in step."""
        self._cpn_cache()
        return self._cpn_owed

    def _cpn_cache(self):
        if getattr(self, "_cpn_st", None) is not self.st:
            self._cpn_owed = False
            self._cpn_req = None
            for r in self._cpn():
                if r["st"] == "owed":
                    self._cpn_owed = True
                elif r["st"] == ASKED:
                    self._cpn_req = r
            self._cpn_st = self.st

    def ask_validation(self, credits, cents, t, why="cash-out", audited=True):
        """A cash-out of all the credits asks the system for its coupon's number (SAS 57): the
        request committed with its event (the credits stay on the meter). None when there are no
        credits, or a coupon is owed, or a request is waiting already."""
        if audited:
            self.audit()
        if not credits or credits != self.st["credits"] or self.coupon_owed() is not None or \
                self.validation_request() is not None:
            return None
        req = {"st": ASKED, "k": credits, "c": cents, "t": t, "why": why}
        self.event("coupon", "%s: %d credits, a number asked of the system" % (why, credits),
                   {"cpn": self._as_json(self.coupons() + [req])})
        self._cpn_req = req
        self._cpn_st = self.st
        return req

    def drop_validation(self, why):
        """The request goes (the system refused it, or did not answer in time): the credits stay on
        the meter, the player may cash out again. False when none was waiting."""
        if self.validation_request() is None:
            return False
        self.event("coupon", "no number from the system: %s; credits kept" % why,
                   {"cpn": self._as_json(self.coupons())})
        self._cpn_req = None
        self._cpn_st = self.st
        return True

    def issue_coupon(self, rec, why="cash-out", audited=True):
        """All credits to the coupon rec (firmware/coupon_store.py draft: numbered for exactly these
        credits), committed with its number before anything is printed. None when there are no
        credits, or a coupon is owed already. audited=False: under the self-audit tilt the credit
        meter is still paid, as it stands. A request for the system's number (ask_validation) is
        replaced by the coupon in the same transaction."""
        if audited:
            self.audit()
        credits = self.st["credits"]
        if not credits or self.coupon_owed() is not None or rec["k"] != credits:
            return None
        self.st["credits"] = 0
        self._add("coupon_out", credits)
        self._add("cashout", credits)
        self.event("coupon", "%s: no %d %s, %d credits owed" % (why, rec["s"], rec["n"], credits),
                   {"cpn": self._as_json([rec])})
        self._cpn_owed = True
        self._cpn_req = None
        self._cpn_st = self.st
        return rec

    def coupon_issued(self, seq):
        """The printer issued coupon `seq`: it is no longer owed (idempotent)."""
        last = self.coupon_last()
        if not last or last["s"] != seq or last["st"] != "owed":
            return False
        last["st"] = "issued"
        self.exception("coupon")  # SAS 3D, a cash out ticket printed
        self.event("coupon", "no %d issued" % seq, {"cpn": self._as_json([last])})
        self._cpn_owed = False
        self._cpn_req = None
        self._cpn_st = self.st
        return True
