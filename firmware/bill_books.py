# Notes in the books (firmware/bills.py drives the validator). A note held in escrow is committed
# as pending, with what it will credit and the validator's event counter, BEFORE the validator is
# told to stack it; the stacked event credits that amount, clears the pending note and moves the
# counter in ONE commit. After any restart the counter says which buffered events are still to be
# read, so a note is credited exactly once, and one stacked without a commit is never credited.
# Mixed into firmware.ledger.Ledger.


class BillBooks:
    @property
    def bill_counter(self):
        return self.st.get("bill_ev")

    @property
    def bill_pending(self):
        """{"t": bill type, "k": credits} of the note being stacked, or None."""
        return self.st.get("bill")

    def bill_seen(self, counter):
        """The validator's events up to counter were read (nothing to book with them)."""
        self.st["bill_ev"] = counter
        self._commit()

    def bill_escrow(self, bill_type, credits, counter):
        """Commit the note in escrow and what it will credit: only then is it stacked."""
        self.st["bill"] = {"t": bill_type, "k": credits}
        self.st["bill_ev"] = counter
        self._commit()

    def bill_stacked(self, counter, what):
        """The pending note is in the stacker: credit it, once. Returns the credits."""
        p = self.st["bill"]
        self.st["bill"] = None
        self.st["bill_ev"] = counter
        self._add("bill_in", p["k"])
        self.st["credits"] += p["k"]
        self.money_in(p["k"])
        self.event("bill", "%s: +%d credits" % (what, p["k"]))  # the same commit
        return p["k"]

    def bill_dropped(self, counter, code, why):
        """The pending note went back to the player (or its fate is for the attendant): no credit."""
        self.st["bill"] = None
        if counter is not None:
            self.st["bill_ev"] = counter
        self.event(code, why)
