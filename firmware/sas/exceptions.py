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
_HEAD = const(4)  # version, overflow count (u16, LSB first, capped), 70 still to report
_VERSION = const(1)
BLOCK_SIZE = _HEAD + CAPACITY  # bytes of the ledger's "sas" block (firmware/ledger.py SAS_SIZE)

# what the books raise (firmware/ledger.py Ledger.exception) -> (code, priority: 0 reported first).
# A pair (opened/closed, pending/reset, started/ended) shares its priority, so it stays in order.
RAISED = {
    "handpay": (0x51, 0),  # hand pay is pending (a cash-out or a jackpot locked for the attendant)
    "handpaid": (0x52, 0),  # hand pay was reset (the attendant's key)
    "door_main open": (0x11, 1),  # slot door was opened
    "door_main closed": (0x12, 1),
    "door_logic open": (0x15, 1),  # card cage was opened
    "door_logic closed": (0x16, 1),
    "door_cashbox open": (0x19, 1),  # cashbox door was opened
    "door_cashbox closed": (0x1A, 1),
    "power": (0x17, 2),  # AC power was applied to the gaming machine
    "game-start": (0x7E, 3),  # game has started
    "game-end": (0x7F, 3),  # game has ended
}
_PRIORITY = {}
for _k in RAISED:
    _PRIORITY[RAISED[_k][0]] = RAISED[_k][1]


class ExceptionQueue:
    def __init__(self, raw=b""):
        self._codes = bytearray(CAPACITY)
        self.n = 0
        self.overflows = 0  # exceptions lost to a full queue since the last RAM clear
        self._report_overflow = False
        self.dirty = False  # changed since the books last committed it
        self.load(raw)

    def load(self, raw):
        """The block as committed (b"": an empty queue, a fresh or cleared memory)."""
        self.n = 0
        self.overflows = 0
        self._report_overflow = False
        if raw and raw[0] == _VERSION and len(raw) >= _HEAD:
            self.overflows = raw[1] | raw[2] << 8
            self._report_overflow = bool(raw[3])
            n = min(len(raw) - _HEAD, CAPACITY)
            for i in range(n):
                self._codes[i] = raw[_HEAD + i]
            self.n = n
        self.dirty = False

    def block(self):
        out = bytearray(_HEAD + self.n)
        out[0] = _VERSION
        out[1] = self.overflows & 0xFF
        out[2] = self.overflows >> 8
        out[3] = 1 if self._report_overflow else 0
        for i in range(self.n):
            out[_HEAD + i] = self._codes[i]
        return bytes(out)

    def raise_(self, what):
        """An event of RAISED (others are not the system's business): queued, or counted."""
        entry = RAISED.get(what)
        if entry is None:
            return
        if self.n >= CAPACITY:
            if self.overflows < 0xFFFF:
                self.overflows += 1
            self._report_overflow = True
        else:
            self._codes[self.n] = entry[0]
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
            if _PRIORITY.get(self._codes[i], 9) < _PRIORITY.get(self._codes[best], 9):
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
