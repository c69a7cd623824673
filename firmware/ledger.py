# Credits, soft meters, game recall and the event log, all in journaled critical memory.
#
# Meters, in credits, with their industry meanings:
#   coin_in      credits wagered              coin_out     credits won onto the credit meter
#   jackpot      wins paid by hand (lockup)   acceptor_in  credits from the coin acceptor
#   hopper_out   credits paid by the hopper   cancelled    cash-outs paid by hand (cancelled credits)
#   cashout      all credits paid at cash-out (hopper_out + cancelled + coupon_out)
#   coupon_out   credits paid by redemption coupon (firmware/coupon_books.py)
#   refunds      wagers refunded on a machine fault (s. 95)
#   bill_in      credits from the bill validator (notes stacked: firmware/bill_books.py)
#   bill_unproven (count) and bill_unproven_credits: notes whose fate the firmware could not prove;
#   bill_settled_stacked / bill_settled_returned: their credits, as the attendant settled them
#   games_played, games_won, power_resets, door_main/door_logic/door_cashbox (opens),
#   progressive_paid, tournament_entries (count), tournament_fees (credits paid as entry fees),
#   tournament_prizes (credits paid as tournament prizes, by hand)
# Self-audit before every play and payout:
#   credits == acceptor_in + bill_in + coin_out + refunds - coin_in - cashout - tournament_fees
#   cashout == hopper_out + cancelled + coupon_out
#   bill_unproven_credits == bill_settled_stacked + bill_settled_returned + the note standing
# The books are split by concept: a game (firmware/game_books.py), tournament mode
# (firmware/tournament_books.py) and hopper cash-outs (firmware/payout_books.py) are mixed into the
# Ledger, which keeps the persistence, the meters, the event log and recall.
import json

from board.compat import const
from board.json_out import JsonOut
from firmware import eventlog
from firmware.audit_error import AuditError
from firmware.bill_books import BillBooks
from firmware.coupon_books import CouponBooks
from firmware.critmem import CriticalMemory, RamError
from firmware.game_books import RECALL, GameBooks
from firmware.note_counts import NoteCounts
from firmware.payout_books import PayoutBooks
from firmware.tournament_books import TourMeters, TournamentBooks

METERS = ("coin_in", "coin_out", "jackpot", "acceptor_in", "hopper_out", "cancelled", "cashout", "refunds",
          "games_played", "games_won", "power_resets", "door_main", "door_logic", "door_cashbox",
          "progressive_paid", "tournament_entries", "tournament_fees", "tournament_prizes", "bill_in",
          "coupon_out", "bill_unproven", "bill_unproven_credits", "bill_settled_stacked", "bill_settled_returned")
# the meters that count events; every other meter counts credits (the console shows their dollars)
COUNTS = ("games_played", "games_won", "power_resets", "door_main", "door_logic", "door_cashbox",
          "tournament_entries", "bill_unproven")
METER_MODULO = 10 ** 10  # 10-digit meters roll over to 0, as electromechanical counters do
EVENTS_PER_CHUNK = eventlog.PER_CHUNK  # fixed-size records (firmware/eventlog.py): a chunk always fits
EVENT_CHUNKS = 14  # a chunk is recycled whole: 13 x 8 keeps at least the last 100
STATE_SIZE = const(3200)  # the worst case of every field at its bound fits (tests/device/test_firmware_sizes.py)
GAME_SIZE = const(1536)
CHUNK_SIZE = const(768)  # eventlog.CHUNK_BYTES (a const of another module is not folded into LAYOUT)
TILT_TEXT = eventlog.TEXT  # a persisted tilt's reason, cut on entry: the state block's size is bounded
HOPPER_SIZE = const(384)  # the hopper driver's payout record (board/hopper_cctalk.py)
EM_SIZE = const(256)  # electromechanical meters: [done, inflight] per coil (board/meters_em.py)
COUPON_SIZE = const(512)  # the last coupons (firmware/coupon_books.py KEEP records, each bounded)
SAS_SIZE = const(80)  # the SAS exception queue and the ticket redeemed through SAS (firmware/sas/exceptions.py BLOCK_SIZE fits)
NOTES_SIZE = const(96)  # notes counted by value (firmware/note_counts.py SIZE fits)
TOUR_SIZE = const(24)  # the tournament's counts SAS 95-99 report (firmware/tournament_books.py TOUR_METERS_SIZE fits)
# the state, the RECALL games g0.., the EVENT_CHUNKS event chunks e0.., then the other blocks, in NVRAM's
# order: written out, so that a frozen image keeps it and its names in flash, not 1.2 KB of tuples and
# strings in the heap (tests/device/test_firmware_ledger.py checks it against those constants)
LAYOUT = (("state", STATE_SIZE),
          ("g0", GAME_SIZE), ("g1", GAME_SIZE), ("g2", GAME_SIZE), ("g3", GAME_SIZE), ("g4", GAME_SIZE),
          ("g5", GAME_SIZE), ("g6", GAME_SIZE), ("g7", GAME_SIZE), ("g8", GAME_SIZE), ("g9", GAME_SIZE),
          ("e0", CHUNK_SIZE), ("e1", CHUNK_SIZE), ("e2", CHUNK_SIZE), ("e3", CHUNK_SIZE), ("e4", CHUNK_SIZE),
          ("e5", CHUNK_SIZE), ("e6", CHUNK_SIZE), ("e7", CHUNK_SIZE), ("e8", CHUNK_SIZE), ("e9", CHUNK_SIZE),
          ("e10", CHUNK_SIZE), ("e11", CHUNK_SIZE), ("e12", CHUNK_SIZE), ("e13", CHUNK_SIZE),
          ("hop", HOPPER_SIZE), ("em", EM_SIZE), ("cpn", COUPON_SIZE), ("sas", SAS_SIZE), ("bil", NOTES_SIZE),
          ("trn", TOUR_SIZE))
# the largest transaction: state + game + event chunk, the exception the event raised and the notes
# counted by value (a note's commit: state, event chunk, exception, counts), or the tournament's counts
# (an entry's last game: state, game, event chunk, exception, counts); a ticket's (state, event chunk,
# the "sas" block with the exception and the ticket) is smaller than either
JOURNAL = STATE_SIZE + GAME_SIZE + CHUNK_SIZE + SAS_SIZE + max(NOTES_SIZE, TOUR_SIZE)



def open_memory(nvram, secret, counter):
    """The ledger's critical memory on a board's NVRAM, sealed with its secret, kept in step with
    its anti-rollback counter (board machine_secret(), rollback_counter())."""
    return CriticalMemory(nvram, LAYOUT, JOURNAL, secret, counter)


class Ledger(GameBooks, TournamentBooks, PayoutBooks, BillBooks, CouponBooks):
    def __init__(self, memory):
        self.mem = memory
        self.st = None
        # the blocks' text, written into the journal (_as_json) through one preallocated stream
        self._json = JsonOut(0, native=STATE_SIZE)
        # (name, length, events) of the event chunk as this ledger last committed it: its next event
        # goes after it without looking for the chunk's records first
        self._chunk_at = None
        self.exceptions = None  # firmware/sas/exceptions.py ExceptionQueue, on a board with a SAS port
        self.notes = NoteCounts()  # notes counted by value: the "bil" block (firmware/note_counts.py)
        self.tour_meters = TourMeters()  # the tournament's counts: the "trn" block (firmware/tournament_books.py)
        # a ticket redeemed through SAS and the tickets' meters, as the "sas" block keeps it (bytes; b""
        # none; firmware/sas/exceptions.py attach_queue), a bytearray once firmware/ticket_books.py
        # changed it: the next commit writes it there, with the state that goes with it
        self.tin = b""
        self.cents = None  # a credit's value (the cabinet's config): a note's value by its credits
        self.clears = 0  # formats that happened since power-up: whether a failed command's clear did
        self._spinning = None  # (game number, recall record) of the game whose reels turn (GameBooks)

    # --- persistence -----------------------------------------------------------------------------
    def initial(self):
        meters = {}
        for name in METERS:
            meters[name] = 0
        return {"m": meters, "credits": 0, "bet": 0, "game": None, "lock": None, "ev": 0, "gn": 0, "tilts": {}}

    def open(self):
        """Load critical memory (RamError when unrecoverable). Returns what had to be repaired."""
        if not self.mem.open():
            self.format()
            return ["blank memory formatted"]
        self.st = json.loads(self.mem.read("state"))
        self.notes.load(self.mem.read("bil"))
        self.tour_meters.load(self.mem.read("trn"))
        for name in METERS:  # meters added by a newer firmware start at zero
            self.st["m"].setdefault(name, 0)
        findings = self.mem.findings
        was = self.st["ev"]
        n = self._event_slot()[0]
        if n != was:  # committed with the next event (the caller logs this finding as one)
            self.st["ev"] = n
            findings.append("event log: %d events past the pointer (%d) adopted" % (n - was, was))
        return findings

    def format(self, first_event=None, basis=None, unlogged=None):
        """Fresh books. first_event (code, text), e.g. the RAM clear itself, is written in the same
        transaction: memory is never cleared without the record that says so. The hard meters'
        known positions survive: a counter on the cabinet cannot go back to zero, so the new soft
        meters count on from where each coil stands (st["emb"]). basis: [jurisdiction, cents per
        credit] the money taken from now on arises under (firmware/money_basis.py), or None.
        unlogged: the account whose clear this is, until the security log has its record
        (st["cl"], logged()): a power cut between the two is made good at the next power-up.
        The books in RAM are the ones NVRAM holds, whatever fails (out of memory): the old ones when
        the clear failed before its journal was on record, never fresh ones for the next commit to
        write beside the old log; the fresh ones once it was (the clear happened: the next commit
        finishes its copies, as a power-up would). `clears` counts the clears that happened, also
        those that then raised, so a caller's answer can say which."""
        old, q = self.st, self.exceptions
        old_q = (q.block(), q.dirty) if q is not None else None
        mark = self.mem.journals
        try:
            self._format(first_event, basis, unlogged)
        except BaseException:
            if self.mem.journals == mark:  # not on record (a torn commit before it may be)
                self.st = old
                if q is not None:
                    q.load(old_q[0])
                    q.dirty = old_q[1]
                    self.tin = q.tin  # the ticket the old block keeps
            else:
                self.clears += 1
            raise
        self.clears += 1

    def _format(self, first_event, basis, unlogged):
        em = self.mem.salvage("em")
        old = self.st
        self.st = self.initial()
        if old is not None:
            # the acceptor's and validator's event counters are the devices' positions: kept, a coin
            # taken just after the clear and cut off before its poll's commit is credited at power-up
            # instead of being swallowed by a new baseline
            for k in ("acc_ev", "bill_ev"):
                if old.get(k) is not None:
                    self.st[k] = old[k]
        if basis:
            self.st["basis"] = basis
        if unlogged:
            self.st["cl"] = unlogged
        blocks = {}
        for name, _ in LAYOUT[1:]:
            blocks[name] = b""
        if em:
            try:
                em_state = json.loads(em)
                base = {}
                for coil in em_state:
                    base[coil] = em_state[coil][0]  # strokes completed; one in flight is driven again
                    em_state[coil][1] = 0
                self.st["emb"] = base
                blocks["em"] = self._as_json(em_state)
            except (ValueError, TypeError, KeyError, IndexError):
                pass  # unreadable: the positions are not known
        if self.exceptions is not None:
            self.exceptions.load(b"")  # the "sas" block is cleared with the rest
        self.notes.load(b"")  # and the notes counted by value
        self.tour_meters.load(b"")  # and the tournament's counts
        self.tin = b""  # and the tickets'
        if first_event:
            if self.exceptions is not None:
                self.exceptions.raise_("ramclear")  # SAS 3A, the cleared queue's first entry
                blocks["sas"] = self.exceptions.block()
            self.st["ev"] = 1
            blocks["e0"] = eventlog.pack(b"", 1, eventlog.now(), first_event[0], first_event[1])
        blocks["state"] = self._as_json(self.st)
        self._chunk_at = None
        self.mem.format(blocks)

    def unlogged_clear(self):
        """(who, what the books' first event says, its time) of a RAM clear the security log may not
        have recorded yet, or None."""
        if self.st is None or not self.st.get("cl"):
            return None
        first = self.chunk_events("e0")
        return (self.st["cl"],) + ((first[0][3], first[0][1]) if first else ("ramclear", 0))

    def logged(self):
        """The security log holds the RAM clear's record now."""
        if self.st is not None and self.st.pop("cl", None) is not None:
            self._commit()

    def lend_stream(self, lent):
        """The text's stream given back to the heap (lent=True: the enrolment's RSA check after a lost
        security memory, the heap's largest need; make fuzz seed 944118568, vlt sicbo-83: 'out of
        memory for enrol ... 17600 bytes free'), or made again. Commits meanwhile are written
        without it (JsonOut.write), and so for good if the heap has no such piece any more."""
        self._json.native(0 if lent else STATE_SIZE)

    def _as_json(self, obj):
        """obj's JSON as a payload that critical memory writes straight into its journal
        (firmware/critmem.py commit): never a copy of the text in the heap. The state is about
        2 KB, a game's recall record up to 1.5 KB, and a heap after hours of play may have no such
        piece (an out-of-memory restart in a game's settle: tests/device/test_firmware_ledger.py
        test_a_game_is_recorded_in_a_heap_in_pieces)."""
        out = self._json
        return lambda buf, at, end: out.into(obj, buf, at, end)

    def _commit(self, extra=None):
        blocks = {"state": self._as_json(self.st)}
        if extra:
            for k in extra:
                blocks[k] = extra[k]
        q = self.exceptions
        tin = self.tin
        if isinstance(tin, bytearray) and q is not None:
            q.tin = bytes(tin)  # a ticket's stage with its credits, in the queue's block
            q.dirty = True
        if q is not None and q.dirty:
            blocks["sas"] = q.block()  # an exception is committed with what raised it
        notes = self.notes
        if notes.dirty:
            blocks["bil"] = notes.block()  # a note counted by value with its credits
        tm = self.tour_meters
        if tm.dirty:
            blocks["trn"] = tm.block()  # a tournament game counted with its credits
        self.mem.commit(blocks)
        if q is not None:
            q.dirty = False
        notes.dirty = False
        tm.dirty = False
        if isinstance(tin, bytearray) and q is not None:
            self.tin = q.tin  # committed

    def exception(self, what):
        """What the central system must be told (SAS: firmware/sas/exceptions.py RAISED), queued
        for the next commit; nothing without a SAS port."""
        if self.exceptions is not None:
            self.exceptions.raise_(what)

    # --- accessors ---------------------------------------------------------------------------------
    @property
    def meters(self):
        return self.st["m"]

    @property
    def credits(self):
        return self.st["credits"]

    @property
    def bet(self):
        return self.st["bet"]

    @property
    def game(self):
        return self.st["game"]

    @property
    def lock(self):
        return self.st["lock"]

    def set_bet(self, bet):
        self.st["bet"] = bet  # kept in RAM; persisted with the next commit

    @property
    def tilts(self):
        """Tilts that need an attendant or a technician: {kind: reason}, kept across power loss."""
        return self.st.setdefault("tilts", {})

    def tilt(self, kind, why):
        """Record a tilt and its event in one commit: a power cycle never clears it."""
        self.tilts[kind] = eventlog.clean(why, TILT_TEXT)
        self.event("tilt", "%s: %s" % (kind, why))

    def clear_tilt(self, kind, code="tilt-clear"):
        if self.tilts.pop(kind, None) is not None:
            self.event(code, kind)

    def em_base(self):
        """Hard meter positions at the last RAM clear: {coil: strokes} (added to the soft meters)."""
        return self.st.get("emb") or {}

    # --- money -------------------------------------------------------------------------------------
    def _add(self, meter, n):
        self.st["m"][meter] = (self.st["m"][meter] + n) % METER_MODULO

    def tickets_in(self):
        """Credits in by ticket: 0 until a ticket is seen (the block empty), else the block's meter."""
        if not self.tin:
            return 0
        from firmware.ticket_books import credits_in

        return credits_in(self)

    def audit(self):
        m = self.st["m"]
        expect = (m["acceptor_in"] + m["coin_out"] + m["refunds"] - m["coin_in"] - m["cashout"]
                  - m["tournament_fees"] + m["bill_in"] + self.tickets_in()) % METER_MODULO
        if self.st["credits"] % METER_MODULO != expect:
            raise AuditError("credits %d but meters say %d" % (self.st["credits"], expect))
        if m["cashout"] != (m["hopper_out"] + m["cancelled"] + m["coupon_out"]) % METER_MODULO:
            raise AuditError("cashout %d != hopper %d + hand-paid %d + coupons %d" % (
                m["cashout"], m["hopper_out"], m["cancelled"], m["coupon_out"]))
        u = self.st.get("unk")
        held = u["k"] if u else 0
        if m["bill_unproven_credits"] != (m["bill_settled_stacked"] + m["bill_settled_returned"] + held) % METER_MODULO:
            raise AuditError("notes of unknown fate %d != settled %d + %d + standing %d" % (
                m["bill_unproven_credits"], m["bill_settled_stacked"], m["bill_settled_returned"], held))

    def power_up(self, why="power up"):
        self._add("power_resets", 1)
        if self.unsaved_payout():
            why += "; cash-out cut before its hopper record: no coin out, credits kept"
        self.exception("power")
        self.event("power", why)

    def accept(self, credits, counter=None):
        """Credit coins, committing the acceptor's event counter with them: after a restart the
        acceptor's buffered events past that counter are read again and credited exactly once."""
        self._add("acceptor_in", credits)
        self.st["credits"] += credits
        self.money_in(credits)
        if counter is not None:
            self.st["acc_ev"] = counter
        self._commit()

    @property
    def acceptor_counter(self):
        return self.st.get("acc_ev")

    def door(self, name, opened, levels=None):
        """A door opened or closed: meter, event and the switch levels (for the next boot's check)."""
        if opened:
            self._add(name, 1)
        if levels is not None:
            self.st["doors"] = levels
        self.exception("%s %s" % (name, "open" if opened else "closed"))
        self.event("door", "%s %s" % (name, "open" if opened else "closed"))

    def cashout(self, hand_pay, audited=True):
        """Start a cash-out. With hand_pay the machine locks until an attendant pays; otherwise the
        caller pays through the hopper and calls paid_by_hopper() as coins go out. audited=False:
        the self-audit tilt is on (the books disagree); the credit meter is still the player's, paid
        by hand as it stands, and the event says so."""
        if audited:
            self.audit()
        amount = self.st["credits"]
        if amount and hand_pay:
            self.st["lock"] = {"kind": "handpay", "amount": amount}
            self.exception("handpay")
            self.event("handpay", "cash-out of %d credits by hand%s" % (
                amount, "" if audited else " under the audit tilt"))
        return amount

    def ticket_stage(self):
        """The stage of the ticket redeemed through SAS (firmware/ticket_books.py: 0 none, 1 HELD
        ... 4 UNKNOWN), read here so that nothing but the ticket's own code imports that module."""
        t = self.tin
        return t[1] if len(t) >= 40 and t[0] == 1 else 0  # version 1, whole

    def owed(self):
        """What the books still owe a player, or None: "lock" (a hand pay or jackpot), "payout" (the
        hopper paying), "coupon" (committed, not yet issued), "game" (a wager not yet settled, a
        dealt hand, reels turning), "note" (in escrow), "unknown note" (its fate not proved: the
        attendant settles it, firmware/bill_in.py), "credits", "tournament" (one running: an
        entry's games, the prize pool). firmware/states.py: a RAM clear is taken only when this is
        None (or in a RAM error), so nothing but a coupon or a payout ever erases credits."""
        st = self.st
        if st["lock"]:
            return "lock"
        if st.get("paying"):
            return "payout"
        if self.coupon_pending():
            return "coupon"
        g = st["game"]
        if g and g["phase"] in ("wager", "spin"):
            return "game"
        if st.get("bill"):
            return "note"
        if st.get("unk"):
            return "unknown note"
        stage = self.ticket_stage()
        if stage:
            return "unknown ticket" if stage == 4 else "ticket"
        if st["credits"]:
            return "credits"
        if st.get("tour"):
            return "tournament"
        return None

    # --- electromechanical meters --------------------------------------------------------------------
    def em_state(self):
        raw = self.mem.read("em")
        return json.loads(raw) if raw else None

    def save_em_state(self, state, then=None):
        """The em block alone (a few hundred bytes); then() runs the moment it is committed."""
        self.mem.commit({"em": self._as_json(state)}, then)

    def clear_lock(self):
        """Attendant key: the hand pay shown on the lock has been paid."""
        lock = self.st["lock"]
        if not lock:
            return None
        if lock["kind"] == "handpay":
            self.st["credits"] -= lock["amount"]
            self._add("cancelled", lock["amount"])
            self._add("cashout", lock["amount"])
        elif lock["kind"] == "jackpot":
            self._add("jackpot", lock["amount"])
        self.st["lock"] = None
        self.exception("handpaid")
        self.event("handpaid", "%s of %d credits paid by attendant" % (lock["kind"], lock["amount"]))
        return lock

    # --- event log and recall ------------------------------------------------------------------------
    def event(self, code, text="", extra=None):
        """Append a timestamped event (the log keeps at least the last 100) in the same commit as
        the state (and any extra blocks). The text is cut to what a record holds on entry."""
        was = self.st["ev"]
        n = was
        name = "e%d" % ((n // EVENTS_PER_CHUNK) % EVENT_CHUNKS)
        cached = self._chunk_at
        if cached is not None and cached[2] == n and (cached[0] == name or not n % EVENTS_PER_CHUNK):
            at = cached[1] if cached[0] == name else 0  # this ledger's own last commit
        else:  # the first event after power-up or a failed commit: the chunk's own records decide
            self._chunk_at = None
            n, name, kept = self._event_slot()
            at = len(kept)
        record = eventlog.pack(b"", n + 1, eventlog.now(), code, text)
        end = at + len(record)
        mem = self.mem

        def chunk(buf, start, stop):
            # the chunk's first `at` bytes as committed, then the record, built in the journal: no
            # copy of the chunk in the heap (two 768-byte pieces a heap in pieces may not have, or
            # a buffer of its own kept for the cabinet's life)
            if at and mem.read_into(name, buf, start, stop) < at:
                raise RamError("%s is shorter than its %d bytes of events" % (name, at))
            if start + end <= stop:
                buf[start + at:start + end] = record
            return end

        self._chunk_at = None  # until the commit is made
        self.st["ev"] = n + 1
        mark = self.mem.journals
        try:
            self._commit_event(name, chunk, extra)
        except BaseException:
            # its journal not written (out of memory, say; or replaying an earlier torn commit,
            # which leaves that one pending): the number is not used up
            if self.mem.journals == mark:
                self.st["ev"] = was
            raise
        self._chunk_at = (name, end, n + 1)

    def _commit_event(self, name, chunk, extra):
        blocks = dict(extra) if extra else {}
        blocks[name] = chunk
        self._commit(blocks)

    def _event_slot(self):
        """(n, chunk name, its records to keep) for the next event, numbered n + 1. The pointer and
        its chunk are committed together, so they agree; should they not (books changed in RAM by
        a command that failed half-way, then written by the next commit), the chunk's own records
        decide: those past the pointer are kept and the event goes after them, into the next chunk
        when that one is full; a chunk's records from the last lap are recycled, never appended to."""
        n = self.st["ev"]
        for _ in range(EVENT_CHUNKS + 1):  # each round moves on by a whole chunk
            name = "e%d" % ((n // EVENTS_PER_CHUNK) % EVENT_CHUNKS)
            chunk = self.mem.read_view(name)  # parsed and copied before the next commit
            k, top = eventlog.run(chunk, n)
            if top <= n or top % EVENTS_PER_CHUNK:
                return top if top > n else n, name, chunk[:k * eventlog.RECORD]
            n = top  # a full chunk of records past the pointer: on to the next
        raise RamError("event log: records past the pointer all round the ring")

    def event_chunks(self):
        """Names of the event chunks in use, oldest first: a log streamed one chunk at a time."""
        return eventlog.ring(self.st["ev"], EVENT_CHUNKS, "e")

    def chunk_events(self, name):
        return eventlog.unpack(self.mem.read_view(name))

    def events(self):
        out = []
        for name in self.event_chunks():
            out.extend(self.chunk_events(name))
        return out

    def recall_blocks(self):
        """Names of the recall blocks in use, oldest game first (one record parsed at a time)."""
        order = []
        for i in range(RECALL):
            raw = self.mem.read("g%d" % i)
            if raw:
                order.append((json.loads(raw)["n"], "g%d" % i))
        order.sort()
        return [name for _, name in order]

    def recall(self):
        """The last games, oldest first, as recorded."""
        out = []
        for i in range(RECALL):
            raw = self.mem.read("g%d" % i)
            if raw:
                out.append(json.loads(raw))
        out.sort(key=lambda r: r["n"])
        return out

    def snapshot(self):
        d = dict(self.st["m"])
        d["credits"] = self.st["credits"]
        d["ticket_in"] = self.tickets_in()  # tickets redeemed through SAS (the "sas" block's record's meter)
        return d
