# Money in by notes: the bill validator service the cabinet owns when its jurisdiction profile takes
# bills (firmware/jurisdiction.py "bills"). Canadian notes only (S-13.1, r. 7, s. 4), each valued by
# its ccTalk bill id and the country's scaling factor (board/bill_cctalk.py), in whole credits.
#
# A note held in escrow is stacked only after the ledger has committed it as pending, with what it
# will credit and the event counter that ends at its escrow event (firmware/bill_books.py); the
# stacked event credits it in one commit with the counter. A power cut anywhere in between:
#   - before the pending commit: the escrow event is read again after the restart (the counter
#     was not moved past it), or the validator's escrow timeout has already handed the note back;
#   - after it: set-up routes the pending note to the stacker again (254 "escrow is empty" when it
#     was already stacked or returned), and the events past the committed counter say which.
# A note that would take the credits past config.CREDIT_LIMIT or the profile's automatic coupon,
# one not listed, or any note while money must not be taken, is returned from escrow. A note stacked
# without a pending commit is never credited. Validator faults are the acceptor tilt (money in),
# named "bill validator: ...", cleared by the attendant's key like the coin acceptor's.
#
# The cabinet calls service(now, cab) every loop; cab provides want_money(), set_tilt(kind, why),
# disrupted(why) and show().
from board import bill_codes
from board.bill_cctalk import bill_cents, parse_bill_id
from board.cctalk import CcTalkError
from board.compat import ticks_add, ticks_diff
from firmware import jurisdiction


def counter_after(last, k):
    """The validator's event counter k events after `last` (1..255, wrapping 255 -> 1)."""
    return (last + k - 1) % 255 + 1


class BillIn:
    def __init__(self, validator, ledger, config, log):
        self.validator = validator
        self.ledger = ledger
        self.config = config
        self.log = log
        self.ids = {}  # bill type -> bill id, as the validator reported them at set-up
        self.values = {}  # bill type -> cents: Canadian notes worth whole credits only
        self.mask = 0
        self.ok = False
        self.accepting = None
        self._events = []
        self._next_poll = None
        if ledger.st is not None:
            validator.last = ledger.bill_counter  # None on a fresh machine: baseline at set-up

    def setup(self):
        v = self.validator
        v.begin()
        self.accepting = False
        ids = v.bill_ids()
        scale = None
        values = {}
        mask = 0
        denom = self.config.DENOM_CENTS
        for t in sorted(ids):
            p = parse_bill_id(ids[t])
            if p[0] != "CA":
                self.log("bill type %d: %s is not Canadian money (s. 4): inhibited" % (t, ids[t]))
                continue
            if scale is None:
                scale = v.scaling("CA")
                if scale is None:
                    self.log("bill validator: no scaling factor for CA: every note inhibited")
                    break
            cents = bill_cents(p[1], scale[0], scale[1])
            if cents <= 0 or cents % denom:
                self.log("bill type %d: %s is not a whole number of credits: inhibited" % (t, ids[t]))
                continue
            values[t] = cents
            mask |= 1 << (t - 1)
        self.ids = ids
        self.values = values
        self.mask = mask
        self.ok = True
        # a note left in escrow: stacked if its credit is committed, else handed back
        pending = self.ledger.bill_pending
        v.route(pending is not None)
        self.log("bill validator: online, accepting %s" % ", ".join(ids[t] for t in sorted(values)))

    def _cap_cents(self):
        return jurisdiction.credit_cap_cents(self.config.JURISDICTION, self.config.CREDIT_LIMIT,
                                             self.config.DENOM_CENTS)

    def service(self, now, cab):
        if self._next_poll is not None and ticks_diff(now, self._next_poll) < 0:
            return
        self._next_poll = ticks_add(now, self.config.ACCEPTOR_POLL_MS)
        v = self.validator
        try:
            if not self.ok:
                self.setup()
            want = cab.want_money()
            if want != self.accepting:
                v.enable(want, self.mask)
                self.accepting = want
            before = v.last
            v.poll(self._events)
            k = 0
            while self._events:
                kind, a, b = self._events.pop(0)
                k += 1
                at = counter_after(before, k) if before is not None else None
                self._event(cab, kind, a, b, at, want)
        except CcTalkError as e:
            self._events = []
            if self.ok:
                self.log("bill validator: %s" % e.reason)
            self.ok = False  # set up again (inhibited first) on the next good poll
            return
        last = v.last
        if last is not None and last != self.ledger.bill_counter:
            self.ledger.bill_seen(last)

    def _event(self, cab, kind, a, b, at, want):
        led = self.ledger
        if kind == "escrow":
            cents = self.values.get(a)
            credits = cents // self.config.DENOM_CENTS if cents else 0
            room = self._cap_cents() - led.credits * self.config.DENOM_CENTS
            if cents is None or not want or led.bill_pending is not None or cents > room:
                why = ("not an accepted note" if cents is None else "not taking money" if not want else
                       "a note is already being stacked" if led.bill_pending is not None else
                       "would pass the credit limit")
                self.validator.route(False)
                led.bill_dropped(at, "bill-back", "%s returned: %s" % (self.ids.get(a, "type %d" % a), why))
                return
            led.bill_escrow(a, credits, at)  # committed first: only then stacked
            err = self.validator.route(True)
            if err == bill_codes.ROUTE_FAILED:
                self.validator.route(False)  # the stacker cannot take it: the player gets it back
                self.log("bill validator: failed to stack %s, returned" % self.ids.get(a, a))
        elif kind == "bill":
            p = led.bill_pending
            if p is None or p["t"] != a:
                led.bill_seen(at)
                cab.set_tilt("acceptor", "bill validator: note %s stacked without a commit: not credited" % self.ids.get(a, a))
                return
            led.bill_stacked(at, self.ids.get(a, "type %d" % a))
            cab.show()
        elif kind == "status" and b == bill_codes.RETURNED:
            if led.bill_pending is not None:
                led.bill_dropped(at, "bill-back", "note returned from escrow")
        elif kind == "status" and b in (bill_codes.STACKER_FULL, bill_codes.STACKER_REMOVED):
            cab.set_tilt("acceptor", "bill validator: " + bill_codes.name(b))
        elif kind == "counter":
            cab.set_tilt("acceptor", "bill validator: event counter out of sequence: was %d, now %d" % (a, b))
        elif kind == "reset":
            self.ok = False  # read its bill ids again: it may not be the same validator
            if led.bill_pending is not None:
                # powered off with the note in escrow: what became of it no reading can prove
                led.bill_dropped(None, "bill-lost", "validator reset with a note in escrow")
                cab.set_tilt("acceptor", "bill validator: reset with a note in escrow: see the attendant")
            else:
                led.event("bills", "validator reset (counter was %d)" % a)
        elif kind == "fraud":
            cab.disrupted("bill fraud code %d" % b)
            cab.set_tilt("fraud", "bill validator: %s" % bill_codes.name(b))
        elif kind == "fault":
            cab.set_tilt("acceptor", "bill validator: %s" % (bill_codes.name(b) if not a else "type %d code %d" % (a, b)))
        else:
            self.log("bill validator %s: %s" % (kind, bill_codes.name(b)))

    def inhibit(self):
        try:
            self.validator.enable(False, self.mask)
            self.accepting = False
        except CcTalkError:
            self.ok = False

    def clear_fault(self):
        """The attendant's key: a latched counter fault is acknowledged."""
        if self.validator.fault:
            try:
                self.validator.clear_fault()
            except CcTalkError:
                self.ok = False
