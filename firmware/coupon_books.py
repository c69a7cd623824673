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
# Mixed into firmware.ledger.Ledger; the contents are firmware/coupon.py, the number
# firmware/coupon_number.py, the printer board/printer_epic.py.
import json

KEEP = 1  # the latest coupon: {"s" seq, "n" number, "c" cents, "k" credits, "t" time, "st", "d", "why"}


class CouponBooks:
    def coupons(self):
        """The coupons the books hold: the latest one, or none (a fresh or RAM-cleared ledger)."""
        raw = self.mem.read("cpn")
        return json.loads(raw) if raw else []

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
        if getattr(self, "_cpn_st", None) is not self.st:
            self._cpn_owed = self.coupon_owed() is not None
            self._cpn_st = self.st
        return self._cpn_owed

    def issue_coupon(self, rec, why="cash-out", audited=True):
        """All credits to the coupon rec (firmware/coupon_store.py draft: numbered for exactly these
        credits), committed with its number before anything is printed. None when there are no
        credits, or a coupon is owed already. audited=False: under the self-audit tilt the credit
        meter is still paid, as it stands."""
        if audited:
            self.audit()
        credits = self.st["credits"]
        if not credits or self.coupon_owed() is not None or rec["k"] != credits:
            return None
        self.st["credits"] = 0
        self._add("coupon_out", credits)
        self._add("cashout", credits)
        self.event("coupon", "%s: no %d %s, %d credits owed" % (why, rec["s"], rec["n"], credits),
                   {"cpn": json.dumps([rec]).encode()})
        self._cpn_owed = True
        self._cpn_st = self.st
        return rec

    def coupon_issued(self, seq):
        """The printer issued coupon `seq`: it is no longer owed (idempotent)."""
        last = self.coupon_last()
        if not last or last["s"] != seq or last["st"] != "owed":
            return False
        last["st"] = "issued"
        self.exception("coupon")  # SAS 3D, a cash out ticket printed
        self.event("coupon", "no %d issued" % seq, {"cpn": json.dumps([last]).encode()})
        self._cpn_owed = False
        self._cpn_st = self.st
        return True
