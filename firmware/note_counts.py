# Notes counted by value: how many notes of each value the books took (stacked, or settled as
# stacked), and the value of the last one. The central system reads them over SAS (long polls
# 1E, 31-45, 48: firmware/sas/bills.py). They live in critical memory in a record of their own
# (the ledger's "bil" block: the state block has no room), committed in the same transaction as
# the note's credits (Ledger._commit), so a power cut keeps both or neither: a note is counted
# once, by value, exactly when it is counted in bill_in.
#
# Values by SAS Table C-6's bill denomination code, the code being the index (Monaco's public
# `Aristocrat.Sas.Client` BillDenominationCodes: $1 is 0, $10 is 3). A note of any other value is
# counted in bill_in only, and is no "last note" (48 then answers zeros).
#
# The block: version (1), the last note's code + 1 (0: none, or a note of no C-6 value), then a
# 4-byte count (binary, LSB first) per code.
from board.compat import const

VALUES = (100, 200, 500, 1000, 2000, 2500, 5000, 10000, 20000, 25000, 50000, 100000, 200000, 250000, 500000,
          1000000, 2000000, 2500000, 5000000, 10000000)  # cents, by Table C-6 code
_VERSION = const(1)
_HEAD = const(2)
SIZE = _HEAD + 4 * 20  # bytes of the block at its largest (firmware/ledger.py NOTES_SIZE holds it)


def code(cents):
    """The Table C-6 code of a note worth `cents`, or -1."""
    for i in range(len(VALUES)):
        if VALUES[i] == cents:
            return i
    return -1


class NoteCounts:
    def __init__(self):
        self.counts = [0] * len(VALUES)
        self.last = -1  # the last note's code, -1: none (or a note of no C-6 value)
        self.dirty = False  # changed since the books last committed it

    def load(self, raw):
        """The block as committed (b"": none counted yet: fresh or cleared books)."""
        for i in range(len(VALUES)):
            self.counts[i] = 0
        self.last = -1
        if raw and raw[0] == _VERSION:
            self.last = raw[1] - 1
            for i in range(min((len(raw) - _HEAD) // 4, len(VALUES))):
                o = _HEAD + 4 * i
                self.counts[i] = raw[o] | raw[o + 1] << 8 | raw[o + 2] << 16 | raw[o + 3] << 24
        self.dirty = False

    def block(self):
        out = bytearray(SIZE)
        out[0] = _VERSION
        out[1] = self.last + 1
        for i in range(len(VALUES)):
            n = self.counts[i]
            o = _HEAD + 4 * i
            out[o] = n & 0xFF
            out[o + 1] = n >> 8 & 0xFF
            out[o + 2] = n >> 16 & 0xFF
            out[o + 3] = n >> 24 & 0xFF
        return bytes(out)

    def count(self, cents):
        """A note worth `cents` went into the books (committed with them: dirty)."""
        c = code(cents)
        if c >= 0:
            self.counts[c] = (self.counts[c] + 1) & 0xFFFFFFFF
        self.last = c
        self.dirty = True

    def of(self, cents):
        """How many notes worth `cents` were counted (0 for a value of no C-6 code)."""
        c = code(cents)
        return self.counts[c] if c >= 0 else 0
