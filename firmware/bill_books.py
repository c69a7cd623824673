# Notes in the books (firmware/bill_in.py drives the validator). A note held in escrow is committed
# as pending, with what it will credit and the validator's event counter at its escrow event, BEFORE
# the validator is told to stack it; the stacked event credits that amount, clears the pending note
# and moves the counter in ONE commit. After any restart the counter says which buffered events are
# still to be read, so a note is credited exactly once, and one stacked without a commit is never
# credited. Only the pending note's own fate clears its record: stacked, returned to the player, or
# unknown. A note of unknown fate (the validator reset, or its events were lost, before its fate was
# read) is kept as its own record with the "note" tilt, in one commit; money in stops until an
# attendant settles it from the cash box: stacked (credited, bill_in) or returned (no credit).
# Meters: bill_unproven (count), bill_unproven_credits, bill_settled_stacked, bill_settled_returned
# (credits); self-audit: bill_unproven_credits == settled stacked + settled returned + the one standing.
# Mixed into firmware.ledger.Ledger.
from firmware import eventlog

WHY_TEXT = 48  # an unknown note's reason, cut on entry: the state block's size is bounded


class BillBooks:
    @property
    def bill_counter(self):
        return self.st.get("bill_ev")

    @property
    def bill_pending(self):
        """{"t": bill type, "k": credits, "c": its escrow event's counter} of the note being stacked, or None."""
        return self.st.get("bill")

    @property
    def bill_unknown(self):
        """{"id": bill id, "k": credits, "s": time, "why"} of the note whose fate could not be proved, or None."""
        return self.st.get("unk")

    def bill_seen(self, counter):
        """The validator's events up to counter were read (nothing to book with them)."""
        self.st["bill_ev"] = counter
        self._commit()

    def bill_escrow(self, bill_type, credits, counter):
        """Commit the note in escrow and what it will credit: only then is it stacked."""
        self.st["bill"] = {"t": bill_type, "k": credits, "c": counter}
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
        self.exception("note %d" % p["k"])  # SAS 47-50: a note of this value accepted
        self._by_value(p["k"])
        self.event("bill", "%s stacked: +%d credits" % (what, p["k"]))  # the same commit
        return p["k"]

    def _by_value(self, credits):
        """The note counted by its value (firmware/note_counts.py), in the commit that credits it."""
        self.notes.count(credits * self.cents if self.cents else 0)

    def bill_returned(self, counter, what):
        """The pending note came back out of the escrow to the player: no credit."""
        self.st["bill"] = None
        self.st["bill_ev"] = counter
        self.event("bill-back", "%s returned to the player from escrow" % what)

    def bill_refused(self, counter, why):
        """A note in escrow handed back at once (its own event): the pending note's record, if any,
        is not this note's and is left alone."""
        if counter is not None:
            self.st["bill_ev"] = counter
        self.event("bill-back", why)

    def bill_unproven(self, counter, what, why):
        """The pending note's fate cannot be proved: it becomes the note of unknown fate, with the
        "note" tilt, its meters and event, in one commit. Returns its record."""
        p = self.st["bill"]
        rec = {"id": what, "k": p["k"], "s": eventlog.now(), "why": eventlog.clean(why, WHY_TEXT)}
        self.st["bill"] = None
        self.st["unk"] = rec
        if counter is not None:
            self.st["bill_ev"] = counter
        self._add("bill_unproven", 1)
        self._add("bill_unproven_credits", p["k"])
        self.tilts["note"] = eventlog.clean("%s (%d credits): fate unknown, 'note stacked' or 'note returned'" % (
            what, p["k"]), eventlog.TEXT)
        self.exception("tilt note")  # SAS 28, in this commit: the tilt is set here, not by Cabinet.set_tilt
        self.event("bill-unknown", "%s (%d credits) fate unknown: %s" % (what, p["k"], why))
        return rec

    def settle_note(self, stacked, who):
        """The attendant's word on the note of unknown fate, from the cash box: stacked (credited and
        counted in bill_in, as a stacked note is) or returned (nothing credited). One commit with
        its event; the "note" tilt goes with it. Returns the record settled."""
        u = self.st.get("unk")
        if u is None:
            raise ValueError("no note of unknown fate to settle")
        self.st["unk"] = None
        self.tilts.pop("note", None)
        if stacked:
            self._add("bill_in", u["k"])
            self.st["credits"] += u["k"]
            self.money_in(u["k"])
            self._add("bill_settled_stacked", u["k"])
            self.exception("note %d" % u["k"])
            self._by_value(u["k"])
            self.event("note-stacked", "%s of unknown fate: stacked, says %s: +%d credits" % (u["id"], who, u["k"]))
        else:
            self._add("bill_settled_returned", u["k"])
            self.event("note-back", "%s of unknown fate: returned to the player, says %s" % (u["id"], who))
        return u
