# The coupon memory: the machine's validation id, its lifetime coupon sequence and every coupon
# record until a system acknowledges it (issue 22.3). A critical memory of its own (two copies, a
# journal, sealed with the machine's secret, a rollback counter of its own: board
# rollback_counter("coupons")), in a region of the NVRAM part above the security memory that a RAM
# clear does not format: the sequence never goes back and the records outlive a lost ledger.
#
#   cv      <vid u32><seq u32>: the validation id set by the system (0: none) and the last sequence
#           number given to a coupon (SAS 4C: "incremented before being assigned")
#   c0..c7  8 records of RECORD bytes each: CAPACITY records in all
#   record  <seq u32><vid u32><p u32><cents u32><credits u32><t u32><status u8><dups u8><why u8><src u8>
#           status 0 a free slot, OWED, ISSUED, ACKED (a slot an acknowledged record may give up);
#           src 0: the machine's own number (secure enhanced: vid and p, firmware/coupon_number.py),
#           src 1: the system's (SAS 58, system validation): the 18 digits as one number, its low 32
#           bits where vid is and its high bits where p is (10^18 < 2^60)
#   tk      what the system sets (SAS 7B, 7C, 7D; firmware/sas/ticket_data.py): <version u8><flags u8>
#           <host id u16><cashable expiration days u16><restricted expiration days u16>, then the
#           location, address 1 and address 2 as <length u8><ASCII>, each at most TEXT_MAX:
#           TK_SIZE bytes at most, by construction. flags: SYSTEM (the system validates: SAS 57/58
#           instead of the machine's own numbers), TEXT (the system set the ticket's texts). Days:
#           0 none set (the jurisdiction profile's claim_s), 1-9998, NEVER (9999: never expires).
#
# What a SAS handler calls (long polls 4C, 4D, 7B-7D; today the console does): set_validation_id,
# validation, coupon_record, records, acknowledge. A record is never overwritten before it is
# acknowledged: the cabinet stops money and play while fewer than RESERVE free slots remain
# (stop_reason), so the credits already on the meter can always become a coupon.
#
# Lost (a RAM error here: unreadable, rolled back, blank on a machine that used it): the records
# cannot be proven and the sequence is unknown. The memory is started afresh without a validation
# id, so no coupon is printed until the system sets one; the system must then give a validation id
# this machine never had (the machine cannot know which it had), and every number differs from
# the old ones in its first 8 digits. The sequence restarts above the last coupon the ledger still
# holds (firmware/coupon_out.py reconcile).
import struct

from firmware import coupon_number
from firmware.critmem import CriticalMemory, RamError

CPN_BASE = 126208  # above the security memory (firmware/audit.py SEC_BASE + its layout; 256 bytes lower since tk)
PART = 131072  # the 128 KB part it is placed in (firmware/main.py NVRAM_SIZE)
RECORD = 28
_FMT = "<IIIIIIBBBB"
PER_CHUNK = 8
CHUNKS = 8
CAPACITY = PER_CHUNK * CHUNKS
RESERVE = 1  # free slots kept for the coupon of the credits on the meter when money and play stop
CHUNK_BYTES = PER_CHUNK * RECORD
HEAD = 8
TEXT_MAX = 40  # a ticket text's characters: SAS 7C/7D's 40, a printer line's (board/printer_epic.py LINE)
TK_HEAD = 8
TK_SIZE = TK_HEAD + 3 * (1 + TEXT_MAX)  # 131: every field at its bound
TK_VERSION = 1
SYSTEM = 1  # tk flags: system validation (SAS 57/58)
TEXT = 2  # the system set the ticket's texts (SAS 7C/7D)
NEVER = 9999  # days: never expires (SAS 7B)
# written out, so that a frozen image keeps it in flash, not in the heap (CHUNKS chunks of CHUNK_BYTES)
LAYOUT = (("cv", 8), ("c0", 224), ("c1", 224), ("c2", 224), ("c3", 224), ("c4", 224), ("c5", 224), ("c6", 224),
          ("c7", 224), ("tk", 131))
JOURNAL = HEAD + CHUNK_BYTES  # the largest transaction: the head and one chunk (the head and tk: less)
OWED = 1
ISSUED = 2
ACKED = 3
STATUS = ("free", "owed", "issued", "acked")
WHY = ("cash-out", "automatic coupon")
DUP_MAX = 99
_U32 = 0xFFFFFFFF


def open_memory(nvram, secret, counter, base=CPN_BASE, buffers=None):
    """The coupon memory on a board's NVRAM (RamError when the part cannot hold it)."""
    return CriticalMemory(nvram, LAYOUT, JOURNAL, secret, counter, base=base, buffers=buffers)


def _rec(raw, pos):
    s, vid, p, cents, credits, t, status, dups, why, src = struct.unpack_from(_FMT, raw, pos)
    rec = {"s": s, "n": "%018d" % (vid | p << 32) if src else coupon_number.text(vid, p), "c": cents, "k": credits,
           "t": t, "st": STATUS[status], "d": dups, "why": WHY[why] if why < len(WHY) else "?"}
    if src:
        rec["v"] = 1  # validated by the system (SAS 58): its number
    return rec


def _pack(rec, status):
    if rec.get("v"):
        n = int(rec["n"])  # the system's 18 digits (system_number): below 10^18 < 2^60
        vid, p, src = n & _U32, n >> 32, 1
    else:
        vid, p = coupon_number.split(rec["n"])
        src = 0
    why = WHY.index(rec.get("why", WHY[0])) if rec.get("why", WHY[0]) in WHY else 0
    return struct.pack(_FMT, rec["s"], vid, p, rec["c"], rec["k"], rec["t"], status,
                       min(rec.get("d", 0), DUP_MAX), why, src)


def system_number(sid, number):
    """The 18 digits a system-validated coupon carries (SAS 58): the validation system id (2 digits,
    1-99) then its validation number (16 digits), as SAS prints a system validation number and as
    long poll 4D reports it (firmware/sas/tickets.py). ValueError outside those bounds."""
    if not isinstance(sid, int) or not 0 < sid <= 99 or not isinstance(number, int) or not 0 <= number < 10 ** 16:
        raise ValueError("a system validation number is a system id 1-99 and 16 digits")
    return "%02d%016d" % (sid, number)


def claim_s(profile_claim, days):
    """How long after its issue a coupon may be claimed, in seconds (None: no deadline): the days
    the system set (SAS 7B/7D: 0 none set, NEVER never expires), never beyond the jurisdiction
    profile's claim_s where it has one (vlt: 24 hours, S-13.1, r. 7, s. 14: a system may not
    lengthen what the rule gives the player to claim, nor, a day being its unit, shorten it)."""
    if not days:
        return profile_claim
    host = None if days >= NEVER else days * 86400
    if profile_claim is None:
        return host
    return profile_claim if host is None else min(host, profile_claim)


def pack_ticket(t):
    """The tk block of ticket data t (ticket(): flags, host, days, rdays, loc, a1, a2)."""
    out = bytearray(TK_HEAD)
    struct.pack_into("<BBHHH", out, 0, TK_VERSION, t["flags"], t["host"], t["days"], t["rdays"])
    for key in ("loc", "a1", "a2"):
        text = t[key][:TEXT_MAX]
        out.append(len(text))
        out.extend(text.encode())
    return bytes(out)


def unpack_ticket(raw):
    """Ticket data from a tk block (b"" or a later version: none set, the defaults)."""
    t = {"flags": 0, "host": 0, "days": 0, "rdays": 0, "loc": "", "a1": "", "a2": ""}
    if len(raw) < TK_HEAD or raw[0] != TK_VERSION:
        return t
    _, t["flags"], t["host"], t["days"], t["rdays"] = struct.unpack_from("<BBHHH", raw, 0)
    i = TK_HEAD
    for key in ("loc", "a1", "a2"):
        n = raw[i] if i < len(raw) else 0
        t[key] = bytes(raw[i + 1:i + 1 + n]).decode()
        i += 1 + n
    return t


class CouponStore:
    def __init__(self, mem, secret):
        self.mem = mem
        self.secret = secret  # the permutation's key is derived from it when a coupon is numbered
        self.vid = 0
        self.seq = 0
        self.lost = None  # why the memory was found lost at this power-up (until a validation id is set)
        self._owed = 0  # sequence of the coupon owed (0: none): the cabinet asks on every state read
        self._waiting = 0  # records owed or issued, not yet acknowledged
        self.flags = 0  # the tk block's (SYSTEM, TEXT): asked at every cash-out and by SAS A0

    # --- power-up --------------------------------------------------------------------------------------
    def open(self):
        """Open the memory; a blank one is formatted, a lost one started afresh (lost says why).
        Returns what had to be repaired or was lost, for the event log."""
        try:
            if not self.mem.open():
                self._format()
                return []
            self._load()
            return list(self.mem.findings)
        except (RamError, ValueError, IndexError) as e:
            self.lost = str(e)
            self._format()
            return ["coupon memory lost: %s" % e]

    def _format(self):
        blocks = {}
        for name, _ in LAYOUT:
            blocks[name] = b""
        blocks["cv"] = struct.pack("<II", 0, 0)
        self.mem.format(blocks)
        self.vid = self.seq = 0
        self._owed = self._waiting = 0
        self.flags = 0

    def _load(self):
        self.vid, self.seq = struct.unpack("<II", self.mem.read("cv"))
        self.flags = unpack_ticket(self.mem.read("tk"))["flags"]
        self._count()

    def _count(self):
        owed = waiting = 0
        for i in range(CHUNKS):
            raw = self.mem.read("c%d" % i)
            for pos in range(0, len(raw), RECORD):
                status = raw[pos + 24]
                if status in (OWED, ISSUED):
                    waiting += 1
                if status == OWED:
                    owed = struct.unpack_from("<I", raw, pos)[0]
        self._owed, self._waiting = owed, waiting

    # --- the system's side (SAS 4C, 4D, 7B-7D; the console today) -------------------------------------
    def validation(self):
        """(validation id, last sequence): what SAS 4C answers. Validation id 0: none set."""
        return self.vid, self.seq

    def set_validation_id(self, vid, seq=0):
        """The system sets the machine's validation id and, optionally, the sequence to count on
        from (SAS 4C). The sequence never goes back: a lower one is ignored, and the one in force is
        returned with the id. vid 0 only reads them (as SAS 4C with a validation id of zero)."""
        if vid == 0:
            return self.validation()
        coupon_number.check_vid(vid)
        if not isinstance(seq, int) or not 0 <= seq < coupon_number.SEQ_MAX:
            raise ValueError("sequence must be 0 to %d" % (coupon_number.SEQ_MAX - 1))
        seq = max(self.seq, seq)
        blocks = {"cv": struct.pack("<II", vid, seq)}
        t = None
        if self.flags & SYSTEM:  # a validation id set: the machine numbers its coupons again (SAS 4C)
            t = self.ticket()
            t["flags"] &= ~SYSTEM
            blocks["tk"] = pack_ticket(t)
        self.mem.commit(blocks)
        self.vid, self.seq = vid, seq
        if t is not None:
            self.flags = t["flags"]
        self.lost = None
        return self.validation()

    def system(self):
        """Whether the system validates the coupons (SAS 57/58: its numbers), not the machine (4C)."""
        return bool(self.flags & SYSTEM)

    def ticket(self):
        """What the system set for the tickets (SAS 7B-7D): {"flags", "host", "days", "rdays", "loc",
        "a1", "a2"} (unpack_ticket; the defaults when it set nothing)."""
        return unpack_ticket(self.mem.read("tk"))

    def set_ticket(self, t):
        """Keep ticket data t (ticket()'s keys; texts printable ASCII of at most TEXT_MAX characters,
        days 0-9999: firmware/sas/ticket_data.py checks them first), one commit."""
        self.mem.commit({"tk": pack_ticket(t)})
        self.flags = t["flags"]

    def _index(self):
        """[(seq, status, chunk, position)] of every record kept, oldest first: small tuples, so a
        listing of CAPACITY records never holds them all parsed in the heap at once."""
        out = []
        for i in range(CHUNKS):
            raw = self.mem.read("c%d" % i)
            for pos in range(0, len(raw), RECORD):
                if raw[pos + 24]:
                    out.append((struct.unpack_from("<I", raw, pos)[0], raw[pos + 24], i, pos))
        out.sort()
        return out

    def iter_records(self):
        """Every record kept, oldest first (those acknowledged too, until their slot is taken), one
        at a time."""
        name = raw = None
        for _, _, i, pos in self._index():
            if name != i:
                name = i
                raw = self.mem.read("c%d" % i)
            yield _rec(raw, pos)

    def records(self):
        return list(self.iter_records())

    def _find(self, seq):
        """(chunk name, raw, position) of coupon seq's record, or None."""
        for i in range(CHUNKS):
            name = "c%d" % i
            raw = self.mem.read(name)
            for pos in range(0, len(raw), RECORD):
                if raw[pos + 24] and struct.unpack_from("<I", raw, pos)[0] == seq:
                    return name, raw, pos
        return None

    def coupon_record(self, seq):
        """The record of coupon seq (SAS 4D, 7B-7D report it), or None."""
        f = self._find(seq)
        return _rec(f[1], f[2]) if f else None

    def acknowledge(self, seq):
        """The system has the record of coupon seq: its slot may be given to a later coupon. Only a
        coupon issued is acknowledged (one owed is not on paper yet). Returns the record."""
        f = self._find(seq)
        if f is None:
            raise ValueError("no record of coupon %d" % seq)
        rec = _rec(f[1], f[2])
        if rec["st"] == "acked":
            return rec  # again: nothing changes
        if rec["st"] != "issued":
            raise ValueError("coupon %d is %s, not issued: it cannot be acknowledged yet" % (seq, rec["st"]))
        self._set(f, ACKED)
        rec["st"] = "acked"
        return rec

    def waiting(self):
        """Records owed or issued, awaiting the system's acknowledgement."""
        return self._waiting

    # --- the cabinet's side (firmware/coupon_out.py) ----------------------------------------------------
    def refusal(self):
        """Why no coupon can be made now, or None. Under system validation the system gives each
        coupon's number (SAS 58): no validation id is needed."""
        if not self.vid and not self.flags & SYSTEM:
            return "no validation id%s: the system must set one" % (
                " (coupon memory lost: %s)" % self.lost if self.lost else "")
        if self._waiting >= CAPACITY:
            return "coupon records full: %d awaiting the system" % self._waiting
        if self.seq >= coupon_number.SEQ_MAX:
            return "coupon sequence used up: the system must set a new validation id"
        return None

    def stop_reason(self):
        """Why money in and play must stop (a named condition), or None: no coupon can be made, or
        the last free slots are kept for the coupon of the credits on the meter."""
        why = self.refusal()
        if why is None and self._waiting >= CAPACITY - RESERVE:
            why = "coupon records awaiting the system: %d" % self._waiting
        return why

    def owed(self):
        """The record of the coupon owed (committed, not yet issued), or None: never more than one."""
        return self.coupon_record(self._owed) if self._owed else None

    def owed_seq(self):
        return self._owed

    def draft(self, credits, cents, t, why, system=None):
        """The next coupon's record, numbered, not yet committed (the ledger commits it first);
        system: the 18 digits the system gave it (SAS 58), else the machine numbers it (4C's id).
        ValueError for an amount a record cannot hold (32 bits: above $42 million; under vlt a
        coupon is at most the $1,000 of the automatic coupon plus one prize)."""
        if not 0 < credits <= _U32 or not 0 < cents <= _U32:
            raise ValueError("a coupon of %d credits, %d cents: beyond a record's 32 bits" % (credits, cents))
        seq = self.seq + 1
        if system is not None:  # the system's number (SAS 58): system_number()
            return {"s": seq, "n": system, "c": cents, "k": credits, "t": t, "st": "owed", "d": 0, "why": why, "v": 1}
        number = coupon_number.control_number(coupon_number.keypads(self.secret), self.vid, seq)[1]
        return {"s": seq, "n": number, "c": cents, "k": credits, "t": t, "st": "owed", "d": 0, "why": why}

    def numbered(self, number):
        """Whether a record kept carries this number (a system's number is taken once: SAS 58)."""
        for rec in self.iter_records():
            if rec["n"] == number:
                return True
        return False

    def add(self, rec):
        """Keep a record (OWED or ISSUED as rec says) in a free slot, or in place of the oldest one
        acknowledged; the sequence moves up to it. Never over a record not acknowledged."""
        if self._find(rec["s"]) is not None:
            return False
        slot = None
        best = None
        for i in range(CHUNKS):
            name = "c%d" % i
            raw = self.mem.read(name)
            for k in range(PER_CHUNK):
                pos = k * RECORD
                status = raw[pos + 24] if pos < len(raw) else 0
                if status == 0:
                    slot = (name, raw, pos)
                    break
                if status == ACKED:
                    s = struct.unpack_from("<I", raw, pos)[0]
                    if best is None or s < best[0]:
                        best = (s, name, raw, pos)
            if slot:
                break
        if slot is None and best is not None:
            slot = best[1:]
        if slot is None:
            raise ValueError("coupon records full: %d awaiting the system" % self._waiting)
        status = OWED if rec["st"] == "owed" else ISSUED
        name, raw, pos = slot
        chunk = bytearray(CHUNK_BYTES)
        chunk[:len(raw)] = raw
        chunk[pos:pos + RECORD] = _pack(rec, status)
        seq = max(self.seq, rec["s"])
        self.mem.commit({name: bytes(chunk), "cv": struct.pack("<II", self.vid, seq)})
        self.seq = seq
        self._waiting += 1
        if status == OWED:
            self._owed = rec["s"]
        return True

    def _set(self, found, status, dups=None):
        name, raw, pos = found
        chunk = bytearray(raw)
        was = chunk[pos + 24]
        chunk[pos + 24] = status
        if dups is not None:
            chunk[pos + 25] = dups
        self.mem.commit({name: bytes(chunk)})
        if was in (OWED, ISSUED) and status == ACKED:
            self._waiting -= 1
        if was == OWED and status != OWED:
            self._owed = 0

    def issued(self, seq):
        """The printer issued coupon seq (idempotent): False when it was not owed."""
        f = self._find(seq)
        if f is None or f[1][f[2] + 24] != OWED:
            return False
        self._set(f, ISSUED)
        return True

    def duplicate(self, seq):
        """A DUPLICATE of coupon seq was printed (where the profile allows a reprint): counted."""
        f = self._find(seq)
        if f is None:
            return None
        rec = _rec(f[1], f[2])
        rec["d"] = min(rec["d"] + 1, DUP_MAX)
        self._set(f, f[1][f[2] + 24], rec["d"])
        return rec

    def last_issued(self):
        """The newest record issued (or acknowledged), or None: what a reprint would print."""
        for seq, status, _, _ in reversed(self._index()):
            if status in (ISSUED, ACKED):
                return self.coupon_record(seq)
        return None

    def adopt(self, rec):
        """A coupon the ledger committed that this memory never got (a cut between the two commits,
        or this memory lost and started afresh): kept as the ledger has it. True when added."""
        if rec["s"] <= self.seq:
            return False  # seen here already (kept, or acknowledged and its slot given up)
        return self.add(rec)
