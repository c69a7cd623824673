# Long poll 21, ROM signature verification (SAS 6.02: the host sends a 2-byte seed, binary LSB
# first; the machine ACKs at once and computes; when done, it answers the next general poll with
# address, 21, the signature (2 bytes, LSB first), CRC, as Monaco's public LP21 parser describes).
# The signature is CRC-16/KERMIT (board/sas_crc.py) over every byte of the image as stored
# (board.image(): the firmware file on the emulated board, flash on a real one), with the seed as
# the CRC's initial value. It is computed in pieces for at most BUDGET_MS of each cabinet loop, so
# play never stops (and a poll waits at most that long); the same seed asked again once done is
# answered at once.
from board.compat import const, ticks_diff
from board.sas_crc import crc16

PIECE = const(512)  # bytes read and CRC'd at a time
BUDGET_MS = const(4)  # of each cabinet loop: well inside SAS's 20 ms to start a reply


class RomSignature:
    def __init__(self, board):
        self.board = board
        self.seed = None  # the seed being (or last) computed
        self.result = None  # its signature once done
        self.owed = False  # done and not yet sent on a general poll
        self.failed = None  # why the image could not be read
        self._crc = 0
        self._reader = None
        self._buf = None

    def start(self, seed):
        self.stop()
        self.seed = seed
        self.result = None
        self.owed = False
        self.failed = None
        self._crc = seed
        try:
            self._reader = self.board.image()
        except (OSError, AttributeError, NotImplementedError) as e:
            self.failed = str(e) or "no image to read"
            return
        if self._buf is None:
            self._buf = bytearray(PIECE)

    def stop(self):
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    @property
    def busy(self):
        return self._reader is not None

    def step(self, clock=None):
        """Pieces for up to BUDGET_MS of clock() (one piece without a clock); True when this call
        finished it."""
        if self._reader is None:
            return False
        start = clock() if clock else 0
        while True:
            try:
                n = self._reader.readinto(self._buf)
            except OSError as e:
                self.failed = str(e)
                self.stop()
                return False
            if not n:
                break
            self._crc = crc16(self._buf, 0, n, self._crc)
            if clock is None or ticks_diff(clock(), start) >= BUDGET_MS:
                return False
        self.stop()
        self.result = self._crc
        self.owed = True
        return True


def handle(m, rx, k, out):
    """21: seed in; ACK while computing, the signature once done (or on the next general poll)."""
    from board.sas_link import ACK, NACK

    seed = rx[2] | rx[3] << 8
    sig = m.signature
    if sig is None:
        sig = m.signature = RomSignature(m.cab.board)  # made at the first 21: no heap until then
    if sig.seed == seed and sig.result is not None:
        sig.owed = False
        return reply(sig, out)
    if sig.seed == seed and sig.busy:
        return ACK
    sig.start(seed)
    return NACK if sig.failed else ACK


def reply(sig, out):
    out[1] = 0x21
    out[2] = sig.result & 0xFF
    out[3] = sig.result >> 8
    return 2
