# The exception queue: what the machine must tell the system, in critical memory (the ledger's
# "sas" block, committed with the event that raised it), reported once to a general poll, highest
# priority first and in order within a priority. Full: the new exception is counted and "exception
# buffer overflow" (70) is reported, first, once.
#
# Codes: SAS 6.02 Appendix A, Table A-1 (an independent list: saspy models/GPoll.py, MIT).
from board.compat import const

NONE = const(0x00)  # no activity
OVERFLOW = const(0x70)  # exception buffer overflow
CAPACITY = const(32)  # pending exceptions kept; the block holds them all (BLOCK_SIZE)
_HEAD = const(5)  # version 2: version, overflow count (u16, LSB first, capped), 70 still to report, flags
_HEAD_V1 = const(4)  # a version-1 block (part 1's firmware) has no flags byte: read as flags 0
_HEAD_V3 = const(6)  # version 3: version 2's, then the number of codes; after the codes, the ticket
_VERSION = const(3)
TICKET = const(40)  # the ticket redeemed through SAS (firmware/ticket_books.py), kept in this block
BLOCK_SIZE = _HEAD_V3 + CAPACITY + TICKET  # bytes of the ledger's "sas" block (firmware/ledger.py SAS_SIZE)
NOTES_OFF = const(1)  # flags: the system disabled the bill acceptor (long poll 07; 06 enables it)
MAINTENANCE = const(2)  # in maintenance mode (0A; 0B leaves it)
GAME_OFF = const(4)  # game 1 disabled (09)

# what the books raise (firmware/ledger.py Ledger.exception): its name, its codes, their priority
# (0 reported first). A pair (opened/closed, pending/reset, started/ended) shares its priority, so
# it stays in order. A constant tuple: in flash on a frozen image, no dict in the heap.
RAISED = (
    "handpay", b"\x51", 0,  # hand pay is pending (a cash-out or a jackpot locked for the attendant)
    "handpaid", b"\x52", 0,  # hand pay was reset (the attendant's key, or the system's 94)
    "ramclear", b"\x3a", 0,  # memory error reset (the RAM clear: the queue starts again from it)
    "tilt software", b"\x37", 0,  # EPROM error, bad checksum compare: the image failed its check
    "progressive", b"\x54", 0,  # progressive win (paid onto the credit meter, or locked: 51 too)
    "ticket in", b"\x67", 0,  # ticket has been inserted (held in escrow: the system reads 70, answers 71)
    "ticket done", b"\x68", 0,  # ticket transfer complete (credited, or returned: 71's status query says which)
    "door_main open", b"\x11", 1,  # slot door was opened
    "door_main closed", b"\x12", 1,
    "door_logic open", b"\x15", 1,  # card cage was opened
    "door_logic closed", b"\x16", 1,
    "door_cashbox open", b"\x19", 1,  # cashbox door was opened
    "door_cashbox closed", b"\x1a", 1,
    "door_main off", b"\x99", 1,  # power off slot door access (found open at power-up)
    "door_logic off", b"\x98", 1,  # power off card cage access
    "door_cashbox off", b"\x9a", 1,  # power off cashbox door access
    "power", b"\x18\x17", 2,  # power applied: AC power was lost (the cut it ends), then applied
    "tilt acceptor", b"\x21", 2,  # coin in tilt
    "tilt note-acceptor", b"\x29", 2,  # bill acceptor hardware failure (the validator's faults)
    "tilt note", b"\x28", 2,  # a note whose fate is unknown (bill jam: the closest code)
    "tilt fraud", b"\x2c", 2,  # counterfeit bill / coin fraud detected
    "tilt hopper", b"\x22", 2,  # coin out tilt
    "tilt validation-id", b"\x3f", 2,  # validation id not configured (the coupons tilt's first reason)
    "printer fault", b"\x60", 2,  # printer communication error (silent, or a fault no code below names)
    "printer out", b"\x61", 2,  # printer paper out error
    "printer jam", b"\x78", 2,  # printer carriage jammed (a jam, or a ticket stuck in the paper path)
    "printer low", b"\x74", 3,  # printer paper low (no tilt: the coupon still prints)
    "release", b"\x36", 0,  # EPROM error, different checksum - version changed (a new release number)
    "cashout button", b"\x66", 3,  # cash out button pressed
    "progressive lost", b"\x53", 2,  # no progressive information for 5 s (firmware/sas/progressive.py)
    "coupon", b"\x3d", 3,  # a cash out ticket has been printed (long polls 3D, 4D: its record)
    "game-start", b"\x7e", 3,  # game has started
    "game-end", b"\x7f", 3,  # game has ended
)
GENERAL_TILT = const(0x20)  # a tilt no other code names (audit, rng, meter, config ...)
_TILT_PRIORITY = const(2)
# tilts that are no fault for the system: its own orders, and the link itself
# (progressive: 53 says it, firmware/sas/progressive.py; printer: its own code, firmware/coupon_out.py)
QUIET_TILTS = ("host", "link", "maintenance", "sas-game", "progressive", "printer")
# notes accepted (SAS Table A-1, 47-4E and 50): the note's value in cents, its code; any other: 4F
NOTE_CODES = ((100, 0x47), (500, 0x48), (1000, 0x49), (2000, 0x4A), (5000, 0x4B), (10000, 0x4C), (200, 0x4D),
              (50000, 0x4E), (20000, 0x50))
NOTE_ANY = const(0x4F)
_NOTE_PRIORITY = const(3)  # with the game's


def codes(what, cents=None):
    """The codes (bytes) an event raises, or None: not the system's business. "note CREDITS" is a
    note stacked, valued at `cents` a credit (None: not known, 4F); "tilt KIND" a tilt (quiet ones
    raise nothing, unnamed ones the general tilt)."""
    for i in range(0, len(RAISED), 3):
        if RAISED[i] == what:
            return RAISED[i + 1]
    if what.startswith("note "):
        value = int(what[5:]) * cents if cents else 0
        for c, code in NOTE_CODES:
            if c == value:
                return bytes((code,))
        return bytes((NOTE_ANY,))
    if what.startswith("tilt ") and what[5:] not in QUIET_TILTS:
        return bytes((GENERAL_TILT,))
    return None


def _priority(code):
    for i in range(1, len(RAISED), 3):
        if code in RAISED[i]:
            return RAISED[i + 1]
    return _TILT_PRIORITY if code == GENERAL_TILT else _NOTE_PRIORITY


def attach_queue(ledger, queue=None, raw=True):
    """The exception queue (queue, made ahead, or a new one), loaded from the books' "sas" block
    (before power_up raises 17); raw None: empty (the books are in a RAM error: their block is not
    read). Here, not with the link (firmware/sas/machine.py): the boot attaches the queue before
    the games' boot check, its peak, and the link's and the polls' code comes in after it
    (docs/sas.md "Memory")."""
    if queue is None:
        queue = ExceptionQueue()
    queue.load(ledger.mem.read("sas") if raw else b"")
    ledger.exceptions = queue
    ledger.tin = queue.tin  # the ticket redeemed through SAS, kept in the same block


class ExceptionQueue:
    def __init__(self, raw=b""):
        self._codes = bytearray(CAPACITY)
        self.n = 0
        self.overflows = 0  # exceptions lost to a full queue since the last RAM clear
        self._report_overflow = False
        self.flags = 0  # NOTES_OFF: kept in the same block, so a power cut keeps the system's order
        self.dirty = False  # changed since the books last committed it
        self.cents = None  # a credit's value, the cabinet's config's (SasMachine): a note's code
        self.tin = b""  # the ticket's record as committed (firmware/ticket_books.py; b"": none yet)
        self.load(raw)

    def load(self, raw):
        """The block as committed (b"": an empty queue, a fresh or cleared memory)."""
        self.n = 0
        self.overflows = 0
        self._report_overflow = False
        self.flags = 0
        self.tin = b""
        v = raw[0] if raw else 0
        head = _HEAD_V3 if v == _VERSION else _HEAD if v == 2 else _HEAD_V1 if v == 1 else 0
        if head and len(raw) >= head:
            self.overflows = raw[1] | raw[2] << 8
            self._report_overflow = bool(raw[3])
            if head != _HEAD_V1:
                self.flags = raw[4]
            n = min(raw[5] if head == _HEAD_V3 else len(raw) - head, len(raw) - head, CAPACITY)
            for i in range(n):
                self._codes[i] = raw[head + i]
            self.n = n
            if head == _HEAD_V3 and len(raw) >= head + n + TICKET:
                self.tin = bytes(raw[head + n:head + n + TICKET])
        self.dirty = False

    def block(self):
        n = self.n
        out = bytearray(_HEAD_V3 + n + len(self.tin))
        out[0] = _VERSION
        out[1] = self.overflows & 0xFF
        out[2] = self.overflows >> 8
        out[3] = 1 if self._report_overflow else 0
        out[4] = self.flags
        out[5] = n
        for i in range(n):
            out[_HEAD_V3 + i] = self._codes[i]
        out[_HEAD_V3 + n:] = self.tin
        return bytes(out)

    def set_flag(self, flag, on):
        self.flags = (self.flags | flag) if on else (self.flags & ~flag)
        self.dirty = True

    def raise_(self, what):
        """An event (codes() says which are the system's business): queued, or counted."""
        found = codes(what, self.cents)
        if found is None:
            return
        for code in found:
            if self.n >= CAPACITY:
                if self.overflows < 0xFFFF:
                    self.overflows += 1
                self._report_overflow = True
            else:
                self._codes[self.n] = code
                self.n += 1
        self.dirty = True

    def take(self):
        """The next exception to report (removed), or NONE."""
        if self._report_overflow:
            self._report_overflow = False
            self.dirty = True
            return OVERFLOW
        if not self.n:
            return NONE
        best = 0
        for i in range(1, self.n):
            if _priority(self._codes[i]) < _priority(self._codes[best]):
                best = i
        code = self._codes[best]
        for i in range(best, self.n - 1):
            self._codes[i] = self._codes[i + 1]
        self.n -= 1
        self.dirty = True
        return code

    def pending(self):
        """The codes waiting, oldest first (a test's, the console's)."""
        return bytes(self._codes[:self.n])

