# Redemption coupons in the books (S-13.1, r. 7, s. 4 and 9; L-6, r. 3, s. 6-7): the credits leave the
# meter, and the coupon's number and amount are committed, in ONE transaction, before the first byte
# goes to the printer. The coupon is then "owed" until the printer reports it issued (its number and
# bar code printed, the ticket out of the paper path), which is committed in a second transaction.
# A power cut or a printer fault in between leaves it owed: it is printed again, with the SAME
# control number, once the printer is ready. A coupon half printed before the fault may carry that
# number too, so there is never more than one valid coupon for those credits (a validation system
# pays a control number once, s. 10), and the credits are never lost (they are the owed coupon).
# Mixed into firmware.ledger.Ledger; the contents are firmware/coupon.py, the printer
# board/printer_epic.py, the cabinet's side firmware/coupon_out.py.
import json

from firmware.books import now

KEEP = 4  # coupons kept for the console, newest last (with recall, in critical memory)
DUP_MAX = 99  # duplicates counted per coupon (the record's size is bounded by construction)


class CouponBooks:
    def coupons(self):
        """The last coupons, oldest first: [{"s" seq, "n" number, "c" cents, "k" credits, "t" time,
        "st" "owed"|"issued", "d" duplicates printed}]."""
        raw = self.mem.read("cpn")
        return json.loads(raw) if raw else []

    def coupon_owed(self):
        """The coupon committed but not yet seen issued, or None (never more than one)."""
        keep = self.coupons()
        return keep[-1] if keep and keep[-1]["st"] == "owed" else None

    def coupon_pending(self):
        """Whether a coupon is owed, without reading NVRAM each time the cabinet's state is asked:
        read once per loaded state (open() and format() replace self.st), then kept in step."""
        if getattr(self, "_cpn_st", None) is not self.st:
            self._cpn_owed = self.coupon_owed() is not None
            self._cpn_st = self.st
        return self._cpn_owed

    def issue_coupon(self, machine_id, cents_per_credit, why="cash-out", audited=True):
        """All credits to a new coupon, committed with its number before anything is printed.
        audited=False: under the self-audit tilt the credit meter is still paid, as it stands."""
        if audited:
            self.audit()
        credits = self.st["credits"]
        keep = self.coupons()
        if not credits or (keep and keep[-1]["st"] == "owed"):
            return None
        from firmware import coupon  # only a coupon cabinet's: not in a casino's heap

        seq = keep[-1]["s"] + 1 if keep else 1  # (a RAM clear starts the sequence again, as the meters)
        rec = {"s": seq, "n": coupon.control_number(machine_id, seq), "c": credits * cents_per_credit,
               "k": credits, "t": now(), "st": "owed", "d": 0}
        keep = keep[-(KEEP - 1):]
        keep.append(rec)
        self.st["credits"] = 0
        self._add("coupon_out", credits)
        self._add("cashout", credits)
        self.event("coupon", "%s: no %d %s, %d credits owed" % (why, seq, rec["n"], credits),
                   {"cpn": json.dumps(keep).encode()})
        self._cpn_owed = True
        self._cpn_st = self.st
        return rec

    def coupon_issued(self, seq):
        """The printer issued coupon `seq`: it is no longer owed (idempotent)."""
        keep = self.coupons()
        if not keep or keep[-1]["s"] != seq or keep[-1]["st"] != "owed":
            return False
        keep[-1]["st"] = "issued"
        self.event("coupon", "no %d issued" % seq, {"cpn": json.dumps(keep).encode()})
        self._cpn_owed = False
        self._cpn_st = self.st
        return True

    def coupon_duplicate(self):
        """The attendant's reprint of the last issued coupon: counted, logged; worth nothing more."""
        keep = self.coupons()
        if not keep or keep[-1]["st"] != "issued":
            return None
        rec = keep[-1]
        rec["d"] = min(rec["d"] + 1, DUP_MAX)
        self.event("coupon-dup", "no %d reprinted as DUPLICATE" % rec["s"], {"cpn": json.dumps(keep).encode()})
        return rec
