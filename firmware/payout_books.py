# A hopper cash-out in the books. The hopper driver's record and the ledger's "paying" mark are
# saved in ONE transaction, and the final result clears both in ONE transaction: after any restart
# either the payout is still open (the driver finishes or proves it) or it is booked, never both,
# never twice.
# Mixed into firmware.ledger.Ledger; the hopper itself is board/hopper_cctalk.py.
import json


class PayoutBooks:
    @property
    def paying(self):
        return self.st.get("paying")

    def start_payout(self, coins, credits_per_coin):
        """Mark a hopper cash-out in RAM; it reaches NVRAM with the driver's first record save."""
        self.audit()
        ref = self.st.get("ref", 0) + 1
        self.st["ref"] = ref
        self.st["paying"] = {"ref": ref, "coins": coins, "cpc": credits_per_coin}
        return ref

    def abandon_payout(self):
        self.st["paying"] = None

    def unsaved_payout(self):
        """At power-up: a paying mark without the driver's record is a cash-out cut before that
        record's first save (board/hopper_cctalk.py reads the hopper's counters over loop passes
        first, and another commit took the mark along meanwhile). The 167 goes out only after that
        save: no coin left, the credits are still on the meter. The mark is dropped (True)."""
        if self.st.get("paying") and not self.mem.read("hop"):
            self.st["paying"] = None
            return True
        return False

    def hopper_record(self):
        raw = self.mem.read("hop")
        return json.loads(raw) if raw else None

    def save_hopper_record(self, rec):
        if rec is None and not self.mem.read("hop"):
            return  # already cleared by the booking commit
        self._commit({"hop": self._as_json(rec) if rec else b""})

    def book_payout(self, ref, paid, unpaid, uncertain=False):
        """The hopper's final result for payout `ref`: coins paid leave the credit meter; coins not
        paid stay as credits, or (uncertain) lock the machine for an attendant's hand pay."""
        p = self.st.get("paying")
        if not p or p["ref"] != ref:
            return False  # booked before a restart: nothing to do twice
        cpc = p["cpc"]
        self.st["credits"] -= paid * cpc
        self._add("hopper_out", paid * cpc)
        self._add("cashout", paid * cpc)
        self.st["paying"] = None
        if uncertain and unpaid:
            self.st["lock"] = {"kind": "handpay", "amount": unpaid * cpc}
        self.event("payout", "hopper paid %d coins, %d %s" % (
            paid, unpaid, "uncertain: hand pay" if uncertain else "unpaid"), {"hop": b""})
        return True
