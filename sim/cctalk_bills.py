"""Emulated ccTalk bill validator (address 40) on the shared ccTalk bus (sim/cctalk_bus.py),
answering board/bill_cctalk.py byte for byte: 159 read buffered bill events, 154 route bill, 157
request bill id, 156 request country scaling factor, 153 modify bill operating mode, 231 / 228
inhibits, 1 reset. Canadian notes: $5, $10, $20, $50 and $100 ("CA0005A" ... "CA0100A", values in
dollars with the country scaling factor 100 and 2 decimal places).

A note goes into escrow (event [type][1]) and waits for the host's 154: 1 stacks it (event
[type][0] once it lands in the stacker, `stack_s` seconds later: 0 by default, at once), 0 returns
it (event [0][1]); unrouted for `escrow_s` seconds it is returned by the validator itself, as real
ones do. Host-side truth for the tests: `stacked` (notes per type), `stacked_cents` (what the cash
box holds), `returned` (notes handed back to the player), `inserted`.

Tickets (barcoded coupons), as a validator with barcode support reports them: insert_ticket(number)
holds the ticket in escrow with event [0][20] ("barcode detected", ccTalk generic specification
part 3's bill validator event table); header 129 ("read barcode data", part 2) answers its 18 ASCII
digits; 154 routes it as a note (1: into the cash box at once, `tickets_stacked`; 0: back to the
player, event [0][1], `tickets_returned`); the escrow timeout and a power cycle hand it back as a
note's. A ticket is taken while the master inhibit is off, whatever the notes' inhibits.

Fault injection: jam() (event 6, no note taken until clear()), stacker_full() (event 14; a note
routed to the stacker fails with 255 and stays in escrow until returned), stacker_removed() /
stacker_inserted() (events 11 / 12), fraud(code) (8, 9, 17 or 18), reject(code) (2 or 3: an
invalid note handed back), error(code) (any event code, nothing else happens); the event counter:
lose_events(k, code) (k events the host never sees: a step beyond the 5-event buffer), replay(k)
(the next 159 reply carries the counter k back and the current buffer), jump(k) (the counter k
forward, no event), burst_after_stack(k, code) (the next note to land in the stacker is followed
at once by k events: issue 22.5's "five more events before the next poll"); land_after(s) (the
note on its way lands s from now); CcTalkDevice.inject() for the link.

Power: power_cycle(held, transport) is the validator losing its supply (the cabinet's) and coming
back: counter 0, buffer empty, inhibited (ccTalk: an event counter of 0 means a power-up or reset;
"the device lost power (possible loss of credits)", as ashaduri/qt-cctalk cctalk/cctalk_device.cpp
quotes the specification); the stacker keeps what it holds. A note held in escrow is cleared out of
the front at power-up (held="front", the default; "keep": it is still held, as some do); a note on
its way to the stacker (stack_s > 0) lands in the cash box (transport="cashbox", the default) or is
cleared out of the front ("front"). ITL's NV9 USB reports which at reset under its own protocol
(manual set, section 5, SSP responses 0xE1 "note cleared from front at reset" and 0xE2 "note cleared
into cash box at reset"); the ccTalk 159 event table has no code for either, so the host never
learns which: the campaigns drive both.
"""
from __future__ import annotations

import time

from sim.cctalk_events import EventDevice

CANADIAN = {1: "CA0005A", 2: "CA0010A", 3: "CA0020A", 4: "CA0050A", 5: "CA0100A"}
SCALING = {"CA": (100, 2)}  # factor 100, 2 decimal places: a value of 20 is $20.00


class BillValidatorPeer(EventDevice):
    category = "Bill Validator"
    product = "SIM-BV1"
    serial = 0x00BEEF

    def __init__(self, addr: int = 40, bills: dict[int, str] | None = None, escrow_s: float = 30.0,
                 stack_s: float = 0.0):
        super().__init__(addr)
        self.bills = dict(CANADIAN if bills is None else bills)
        self.escrow_s = escrow_s
        self.stack_s = stack_s  # a routed note's way from the escrow to the stacker
        self.transport: int | None = None  # the note on that way
        self._lands_at = 0.0
        self._burst: tuple[int, int] | None = None
        self.power_cycles = 0
        self.mode = 0
        self.escrow: int | None = None
        self._escrow_until = 0.0
        self.jammed = False
        self.full = False
        self.removed = False
        self.stacked: dict[int, int] = {}
        self.stacked_cents = 0
        self.returned = 0
        self.inserted = 0
        self.ticket: str | None = None  # the ticket held in escrow, its number
        self.tickets_stacked: list[str] = []
        self.tickets_returned: list[str] = []
        self.route_fails = False  # the next route to the stacker fails (255), as a full stacker's

    # --- the note path --------------------------------------------------------------------------
    def cents(self, bill_type: int) -> int:
        factor, places = SCALING[self.bills[bill_type][:2]]
        return int(self.bills[bill_type][2:6]) * factor * 100 // 10 ** places

    def accepting(self, bill_type: int) -> bool:
        with self.lock:
            return self.master_enabled and bool(self.inhibit_mask >> (bill_type - 1) & 1)

    def insert(self, bill_type: int) -> bool:
        """A note goes in: True when it is held in escrow, False when handed straight back."""
        with self.lock:
            self._expire()
            self.inserted += 1
            if self.jammed or self.removed or self.escrow is not None or self.transport is not None \
                    or not self.master_enabled:
                return False  # the bezel does not take it
            if bill_type not in self.bills:
                self._event(0, 2)  # invalid bill (validation fail)
                return False
            if not self.inhibit_mask >> (bill_type - 1) & 1:
                self._event(0, 4)  # inhibited bill (on serial)
                return False
            self.escrow = bill_type
            self._escrow_until = time.monotonic() + self.escrow_s
            self._event(bill_type, 1)
            return True

    def insert_ticket(self, number: str) -> bool:
        """A barcoded ticket goes in: True when held in escrow (event 20), False when handed back."""
        with self.lock:
            self._expire()
            if self.jammed or self.removed or self.escrow is not None or self.ticket is not None \
                    or self.transport is not None or not self.master_enabled:
                return False
            self.ticket = number
            self._escrow_until = time.monotonic() + self.escrow_s
            self._event(0, 20)  # barcode detected
            return True

    def timeout_escrow(self) -> None:
        """The escrow timeout runs out now: the note goes back to the player."""
        with self.lock:
            self._escrow_until = 0.0
            self._expire()

    def _expire(self) -> None:
        if self.transport is not None and time.monotonic() >= self._lands_at:
            self._land()
        if (self.escrow is not None or self.ticket is not None) and time.monotonic() >= self._escrow_until:
            self._give_back()

    def _land(self) -> None:
        t, self.transport = self.transport, None
        self.stacked[t] = self.stacked.get(t, 0) + 1
        self.stacked_cents += self.cents(t)
        self._event(t, 0)
        if self._burst:
            k, code = self._burst
            self._burst = None
            for _ in range(k):
                self._event(0, code)

    def _give_back(self) -> None:
        if self.ticket is not None:
            self.tickets_returned.append(self.ticket)
            self.ticket = None
        else:
            self.escrow = None
            self.returned += 1
        self._event(0, 1)  # bill returned from escrow

    # --- faults -----------------------------------------------------------------------------------
    def jam(self) -> None:
        with self.lock:
            self.jammed = True
            self._event(0, 6)  # bill jammed in transport (unsafe mode)

    def stacker_full(self) -> None:
        with self.lock:
            self.full = True
            self._event(0, 14)

    def stacker_removed(self) -> None:
        with self.lock:
            self.removed = True
            self._event(0, 11)

    def stacker_inserted(self) -> None:
        with self.lock:
            self.removed = self.full = False
            self._event(0, 12)

    def clear(self) -> None:
        """The attendant cleared the jam."""
        with self.lock:
            self.jammed = False

    def fraud(self, code: int = 18) -> None:
        with self.lock:
            self._event(0, code)

    def reject(self, code: int = 2) -> None:
        with self.lock:
            self.inserted += 1
            self._event(0, code)

    def lose_events(self, k: int, code: int = 2) -> None:
        """k events that will have left the 5-event buffer before the host reads it (k > 5)."""
        with self.lock:
            for _ in range(k):
                self._event(0, code)

    def land_after(self, seconds: float) -> None:
        """The note on its way to the stacker lands `seconds` from now (at the next command after)."""
        with self.lock:
            self._lands_at = time.monotonic() + seconds

    def burst_after_stack(self, k: int = 5, code: int = 2) -> None:
        """The next note to land in the stacker is followed at once by k events of `code`."""
        with self.lock:
            self._burst = (k, code)

    def power_cycle(self, held: str = "front", transport: str = "cashbox") -> None:
        """The supply goes and comes back (see the module's notes): counter 0, buffer empty,
        inhibited; where a note held in escrow or on its way to the stacker ends up."""
        assert held in ("front", "keep") and transport in ("cashbox", "front"), (held, transport)
        with self.lock:
            self.power_cycles += 1
            if self.transport is not None:
                t, self.transport = self.transport, None
                if transport == "cashbox":
                    self.stacked[t] = self.stacked.get(t, 0) + 1
                    self.stacked_cents += self.cents(t)
                else:
                    self.returned += 1
            if self.escrow is not None or self.ticket is not None:
                if held == "front":
                    if self.ticket is not None:
                        self.tickets_returned.append(self.ticket)
                        self.ticket = None
                    else:
                        self.escrow = None
                        self.returned += 1  # the note comes back out as the validator powers up
                else:
                    self._escrow_until = time.monotonic() + self.escrow_s
            self._burst = None
            self._replay = 0
            self._forget_events()
            self.inhibit_mask = 0

    # --- the bus -----------------------------------------------------------------------------------
    def command(self, header: int, data: bytes) -> bytes | None:
        ident = self.identity(header)
        if ident is not None:
            return ident
        self._expire()
        if header == 159:
            return self._buffer_reply()
        if header == 154 and len(data) == 1:
            return self._route(data[0])
        if header == 157 and len(data) == 1:
            return self.bills.get(data[0], ".......").encode()
        if header == 156 and len(data) == 2:
            factor, places = SCALING.get(data.decode("ascii", "replace"), (0, 0))
            return bytes([factor & 0xFF, factor >> 8, places])
        if header == 129 and not data:
            return self.ticket.encode() if self.ticket is not None else b""
        if header == 153 and len(data) == 1:
            self.mode = data[0]
            return b""
        if header == 1:
            if self.escrow is not None or self.ticket is not None:
                self._give_back()
            self._forget_events()
            return b""
        return self._inhibits(header, data)

    def _route(self, code: int) -> bytes:
        if self.ticket is not None:
            return self._route_ticket(code)
        if self.escrow is None:
            return bytes([254])  # escrow is empty
        t = self.escrow
        if code == 255:
            self._escrow_until = time.monotonic() + self.escrow_s
            return b""
        if code == 1:
            if self.full or self.removed or self.jammed:
                return bytes([255])  # failed to route bill
            self.escrow = None
            self.transport = t
            self._lands_at = time.monotonic() + self.stack_s
            if self.stack_s <= 0:
                self._land()
            return b""
        if code == 0:
            self._give_back()
            return b""
        return None  # type: ignore[return-value]  (NAK: no such route code)

    def _route_ticket(self, code: int) -> bytes | None:
        if code == 255:
            self._escrow_until = time.monotonic() + self.escrow_s
            return b""
        if code == 1:
            if self.full or self.removed or self.jammed or self.route_fails:
                self.route_fails = False
                return bytes([255])  # failed to route
            self.tickets_stacked.append(self.ticket or "")
            self.ticket = None
            return b""
        if code == 0:
            self._give_back()
            return b""
        return None
