# Money in by notes: the bill validator service the cabinet owns when its jurisdiction profile takes
# bills (firmware/jurisdiction.py "bills"). Canadian notes only (S-13.1, r. 7, s. 4), each valued by
# its ccTalk bill id and the country's scaling factor (board/bill_cctalk.py), in whole credits.
#
# A note held in escrow is stacked only after the ledger has committed it as pending, with what it
# will credit and the event counter of its escrow event (firmware/bill_books.py); the stacked event
# credits it in one commit with the counter. Only the pending note's own fate ends its record:
#   - its stacked event (credited), or its "returned from escrow" (the player has it back);
#   - a power cut of the cabinet alone: after the restart the events past the committed counter are
#     read first, then the note is routed to the stacker again if none of them settled it (254
#     "escrow is empty" when it was already on its way);
#   - the validator reset (it shares the cabinet's supply and forgets its buffer: counter 0), or a
#     counter fault cleared by the attendant whose fresh baseline reading does not reach back to
#     the note's escrow event (board/bill_cctalk.py fate()): nothing proves stacked or returned, so
#     it is a note of unknown fate, the "note" tilt: money in stops until the attendant counts the
#     cash box and settles it from the console (firmware/cabinet.py settle_note).
# A note that would take the credits past config.CREDIT_LIMIT or the profile's automatic coupon, one
# not listed, any note while money must not be taken or a note's fate is unknown, is returned from
# escrow without touching the pending record. A second note in escrow while one is pending means the
# first one's fate was never reported: it becomes a note of unknown fate. A note stacked without a
# pending commit is never credited, nor is one whose escrow event is read together with its end
# (escrow is on: only our route moves a note on, so that reading is not the validator's word).
# Validator faults are the acceptor tilt (money in), named "bill validator: ...", cleared by the
# attendant's key like the coin acceptor's.
#
# Tickets (a casino cabinet with config.TICKET_IN: firmware/jurisdiction.py tickets_in): a barcoded
# ticket held in escrow (event 20) is committed with its number (firmware/ticket_books.py HELD,
# exception 67) and waits for the SAS system (70, 71: firmware/sas/ticket_in.py). The system's
# answer is committed first (STACKING or RETURNING); the route follows here: an ACKed stack credits
# it in one commit with 68, a failed one hands it back. No answer within TICKET_WAIT_MS: handed
# back (status 88). After a power-up a ticket HELD or RETURNING is handed back (nothing was
# credited: whether the validator kept it or cleared it out of its front, the player has it), one
# STACKING is of unknown fate: the "ticket" tilt until the attendant settles it from the cash box.
#
# The cabinet calls service(now, cab) every loop (what it shares with CoinIn: firmware/money_in.py);
# notes are taken while cab.want_notes() (want_money, unless the central system disabled them: SAS 07).
from board import bill_codes
from board.bill_cctalk import ESCROW, RETURNED, STACKED, bill_cents, fate, parse_bill_id
from board.cctalk import CcTalkError
from board.compat import const, ticks_diff
from firmware import jurisdiction
from firmware.money_in import MoneyIn

TICKET_WAIT_MS = const(10000)  # from the ticket's escrow to the system's 71 (Monaco waits 10 s for 70)
# the ticket's stages (firmware/ticket_books.py, imported where a ticket is handled: not on a cabinet
# that takes notes only)
_HELD = const(1)
_STACKING = const(2)
_RETURNING = const(3)
_UNKNOWN = const(4)


def counter_after(last, k):
    """The validator's event counter k events after `last` (1..255, wrapping 255 -> 1)."""
    return (last + k - 1) % 255 + 1


class BillIn(MoneyIn):
    def __init__(self, validator, ledger, config, log):
        # values: Canadian notes worth whole credits only
        MoneyIn.__init__(self, validator, ledger, config, log, ledger.bill_counter if ledger.st is not None else None)
        self._resume = False  # route the pending note again once the events since its commit are read
        self._broke = None  # how the counter's chain broke (a counter fault), for a note it leaves unknown
        prof = jurisdiction.PROFILES.get(config.JURISDICTION, {})
        self.notes = bool(prof.get("bills"))  # notes taken: else a ticket reader only (TICKET_IN)
        self.tickets = bool(prof.get("tickets_in")) and getattr(config, "TICKET_IN", False) is True
        self._held_at = None  # when the ticket in escrow was held (RAM: a power-up hands it back)
        self._now = None
        self._booted = False  # the tickets' power-up check is done

    def setup(self):
        v = self.device
        v.begin()
        self.accepting = False
        ids = v.bill_ids()
        scale = None
        values = {}
        mask = 0
        denom = self.config.DENOM_CENTS
        for t in sorted(ids) if self.notes else ():
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
        # a note left in escrow with no commit is handed back; a pending one is routed to the stacker
        # after the first poll, once its events (or a reset) since the commit have been read
        if self.ledger.bill_pending is None:
            v.route(False)
        else:
            self._resume = True
        self.log("bill validator: online, accepting %s" % ", ".join(ids[t] for t in sorted(values)))

    def _cap_cents(self):
        return jurisdiction.credit_cap_cents(self.config.JURISDICTION, self.config.CREDIT_LIMIT,
                                             self.config.DENOM_CENTS)

    def service(self, now, cab):
        if not self._due(now):
            return
        v = self.device
        try:
            if not self._ready():
                return
            want = self._enable(cab.want_notes())
            self._now = now
            before = v.last
            n = v.service(self._events)  # never waits: None until its replies are in
            self._asking = n is None
            if n is None:
                return
            if v.rebased:  # a fresh baseline: the events since the pending note's commit were not all read
                v.rebased = False
                self._rebased(cab)
            k = 0
            while self._events:
                kind, a, b = self._events.pop(0)
                k += 1
                at = counter_after(before, k) if before is not None else None
                self._event(cab, kind, a, b, at, want)
            if self._resume and v.last is not None:
                self._resume = False
                p = self.ledger.bill_pending
                if p is not None:
                    self._stack(p["t"])
            if not self._booted:
                self._booted = True
                if self.ledger.ticket_stage():
                    self._ticket_boot(cab)
            elif self.ledger.ticket_stage():
                self._ticket_service(now, cab)
        except CcTalkError as e:
            self._events = []
            self._lost("bill validator", e)
            return
        last = v.last
        if last is not None and last != self.ledger.bill_counter:
            self.ledger.bill_seen(last)

    # --- tickets ---------------------------------------------------------------------------------
    def _ticket_held(self, cab, at, want, now):
        """A barcoded ticket in escrow: committed with its number (67) for the system, or handed back."""
        from firmware import ticket_books as tk

        led = self.ledger
        v = self.device
        number = v.barcode() if self.tickets else None
        why = ("not a ticket reader" if not self.tickets else "its number cannot be read" if number is None else
               "not taking money" if not want or cab.sas is None else
               "a note's fate is being checked" if led.bill_unknown is not None else
               "a ticket is being redeemed" if led.ticket_stage() else None)
        if led.bill_pending is not None:
            self._unknown(cab, at, "a ticket reached the escrow first")
            why = why or "a note's fate is being checked"
        if why is not None:
            v.route(False)
            led.bill_refused(at, "ticket returned to the player: %s" % why)
            return
        tk.held(led, number, at)
        self._held_at = now

    def _ticket_service(self, now, cab):
        """The ticket's next step, as the books have it (the system's answer is committed first)."""
        from firmware import ticket_books as tk

        led = self.ledger
        stage = led.ticket_stage()
        v = self.device
        if stage == _HELD:
            if self._held_at is None:
                self._held_at = now
            elif ticks_diff(now, self._held_at) >= TICKET_WAIT_MS:
                v.route(False)
                tk.returned(led, tk.TIMEOUT, "no answer from the system in %d s" % (TICKET_WAIT_MS // 1000))
        elif stage == _RETURNING:
            v.route(False)
            tk.returned(led, tk.status(led), "refused (status %02X)" % tk.status(led))
        elif stage == _STACKING:
            err = v.route(True)
            if err is None:
                tk.stacked(led)
                cab.show()
            elif err == bill_codes.ROUTE_FAILED:
                v.route(False)
                tk.returned(led, tk.VALIDATOR, "the stacker could not take it")
            else:  # the escrow is empty: it left (the validator's own timeout, read as its event) or was never there
                self._ticket_unknown(cab, "the escrow was empty when it was stacked")

    def _ticket_boot(self, cab):
        """After a power-up: a ticket the books hold is handed back, or of unknown fate if it was
        being stacked (the validator may have stacked it, or cleared it out of its front)."""
        from firmware import ticket_books as tk

        led = self.ledger
        stage = led.ticket_stage()
        if stage == _STACKING:
            self._ticket_unknown(cab, "power cut while it was being stacked")
        elif stage in (_HELD, _RETURNING):
            self.device.route(False)  # nothing credited: back to the player (254 if already cleared out)
            tk.returned(led, tk.status(led) if stage == _RETURNING else tk.UNABLE, "power cut")
        elif stage == _UNKNOWN:
            cab.set_tilt("ticket", "ticket of unknown fate: 'ticket stacked' or 'ticket returned'")

    def _ticket_unknown(self, cab, why):
        from firmware import ticket_books as tk

        tk.unproven(self.ledger, why)
        self.log("ticket reader: ticket %s fate unknown: %s" % (tk.digits(self.ledger), why))
        self.inhibit()
        cab.set_tilt("ticket", "ticket of unknown fate: 'ticket stacked' or 'ticket returned'")

    def _name(self, t):
        return self.ids.get(t, "type %d" % t)

    def _stack(self, t):
        err = self.device.route(True)
        if err == bill_codes.ROUTE_FAILED:
            self.device.route(False)  # the stacker cannot take it: the player gets it back
            self.log("bill validator: failed to stack %s, returned" % self._name(t))

    def _unknown(self, cab, at, why):
        """The pending note's fate cannot be proved: the note of unknown fate, for the attendant."""
        p = self.ledger.bill_pending
        self.ledger.bill_unproven(at, self._name(p["t"]), why)
        self.log("bill validator: %s (%d credits) fate unknown: %s" % (self._name(p["t"]), p["k"], why))
        self.inhibit()  # money in stops at once: no note taken while the attendant is called
        cab.show()  # the note tilt (and the coin acceptor inhibited with it)

    def _rebased(self, cab):
        """The counter was baselined afresh after its chain broke: the baseline reading decides the
        pending note's fate when it proves it (board/bill_cctalk.py fate()), else it is unknown."""
        p = self.ledger.bill_pending
        why = self._broke or "event counter read afresh"
        self._broke = None
        if p is None:
            return
        base = self.device.base
        f = fate(base, p.get("c", 0), p["t"])
        if f == STACKED:
            self.ledger.bill_stacked(base[0], self._name(p["t"]))
            cab.show()
        elif f == RETURNED:
            self.ledger.bill_returned(base[0], self._name(p["t"]))
        elif f == ESCROW:
            self._resume = True  # still held, nothing else since: route it to the stacker again
        else:
            self._unknown(cab, base[0], why)

    def _moved_on(self, t):
        """The note of type t whose escrow event is being read already has its end (stacked, or
        returned) among the events read with it: the validator moved it on before any route of
        ours. Escrow is on, so a real one never does; a counter jumped over old events reads so."""
        for kind, a, b in self._events:
            if kind == "escrow":
                return False
            if (kind == "bill" and a == t) or (kind == "status" and b == bill_codes.RETURNED):
                return True
        return False

    def _event(self, cab, kind, a, b, at, want):
        led = self.ledger
        if kind == "escrow":
            name = self._name(a)
            if self._moved_on(a):
                led.bill_seen(at)  # never committed: a stacked end that follows is not credited (acceptor tilt)
                self.log("bill validator: %s left the escrow before it was routed" % name)
                return
            if led.bill_pending is not None:
                # a conforming validator reports a note's fate before it takes the next one
                self._unknown(cab, at, "another note (%s) reached the escrow first" % name)
            cents = self.values.get(a)
            credits = cents // self.config.DENOM_CENTS if cents else 0
            room = self._cap_cents() - led.credits * self.config.DENOM_CENTS
            if cents is None or not want or led.bill_unknown is not None or cents > room:
                why = ("not an accepted note" if cents is None else "not taking money" if not want else
                       "a note's fate is being checked" if led.bill_unknown is not None else
                       "would pass the credit limit")
                self.device.route(False)
                led.bill_refused(at, "%s returned to the player: %s" % (name, why))
                return
            led.bill_escrow(a, credits, at)  # committed first: only then stacked
            self._stack(a)
        elif kind == "bill":
            p = led.bill_pending
            if p is None or p["t"] != a:
                led.bill_seen(at)
                cab.set_tilt("acceptor", "bill validator: note %s stacked without a commit: not credited" % self._name(a))
                return
            led.bill_stacked(at, self._name(a))
            cab.show()
        elif kind == "status" and b == bill_codes.BARCODE:
            self._ticket_held(cab, at, want, self._now)
        elif kind == "status" and b == bill_codes.RETURNED:
            p = led.bill_pending
            if p is not None:  # the events since its escrow were all read: this is its own return
                led.bill_returned(at, self._name(p["t"]))
            elif led.ticket_stage() in (_HELD, _RETURNING, _STACKING):  # the ticket's own return: nothing credited
                from firmware import ticket_books as tk

                tk.returned(led, tk.status(led) if led.ticket_stage() == _RETURNING else tk.TIMEOUT, "returned from escrow")
        elif kind == "status" and b in (bill_codes.STACKER_FULL, bill_codes.STACKER_REMOVED):
            cab.set_tilt("acceptor", "bill validator: " + bill_codes.name(b))
        elif kind == "counter":
            self._broke = "event counter out of sequence (was %d, now %d)" % (a, b)
            cab.set_tilt("acceptor", "bill validator: event counter out of sequence: was %d, now %d" % (a, b))
        elif kind == "reset":
            self.ok = False  # read its bill ids again: it may not be the same validator
            if led.ticket_stage() == _STACKING:
                self._ticket_unknown(cab, "validator reset while it was being stacked")
            if led.bill_pending is not None:
                # powered off (the cabinet's supply) or reset with a note on its way: no event says where it went
                self._unknown(cab, 0, "validator reset (event counter %d -> 0)" % a)  # it counts from 0 again
            else:
                led.event("bills", "validator reset (counter was %d)" % a)
        elif kind == "fraud":
            cab.disrupted("bill fraud code %d" % b)
            cab.set_tilt("fraud", "bill validator: %s" % bill_codes.name(b))
        elif kind == "fault":
            cab.set_tilt("acceptor", "bill validator: %s" % (bill_codes.name(b) if not a else "type %d code %d" % (a, b)))
        else:
            self.log("bill validator %s: %s" % (kind, bill_codes.name(b)))
