# ccTalk master: one command, one reply, on a serial bus shared by several devices (multi-drop).
# Frames and checksums live in board/cctalk_frame.py (8-bit simple checksum) and
# board/cctalk_crc.py (CRC-16). On a single-wire bus the master hears its own transmission
# first: that echo is read and compared byte for byte (a mismatch is a collision).
# Replies: header 0 = ACK (with data), 5 = NAK (refused: never retried), 6 = BUSY (retried
# after a pause). Transient faults (timeout, bad checksum, echo) are retried `retries` times,
# except where the caller says a repeat would be unsafe (retries=0, e.g. dispense).
from board import cctalk_frame
from board.cctalk_frame import MAX_FRAME, Scanner
from board.compat import const, ticks_add, ticks_diff, ticks_ms

HOST_ADDR = const(1)
HDR_ACK = const(0)
HDR_NAK = const(5)
HDR_BUSY = const(6)
BUSY_PAUSE_MS = const(20)


class CcTalkError(Exception):
    """A transaction failed: reason is one of 'timeout', 'checksum', 'nak', 'busy', 'echo', 'frame'."""

    def __init__(self, reason, header=0):
        super().__init__(reason)
        self.reason = reason
        self.header = header


def checksum(buf, n):
    return cctalk_frame.checksum(buf, n)


def build(buf, dest, src, header, data=b""):
    """Write a simple-checksum frame into buf; returns its length."""
    return cctalk_frame.build(buf, dest, src, header, data)


class Master:
    def __init__(self, uart, idle, addr=HOST_ADDR, echo=True, timeout_ms=100, retries=2, crc=False):
        self.uart = uart
        self.idle = idle  # idle(ms): wait for bytes without spinning
        self.addr = addr
        self.echo = echo
        self.timeout_ms = timeout_ms
        self.retries = retries
        self.crc = crc
        self._tx = bytearray(MAX_FRAME)
        self._txmv = memoryview(self._tx)
        self._rx = Scanner(crc=crc, resync=True)
        self._junk = bytearray(64)
        self._junkmv = memoryview(self._junk)
        self.stats = {"ok": 0, "timeout": 0, "checksum": 0, "echo": 0, "frame": 0, "nak": 0, "busy": 0}

    def _fill(self, deadline):
        """Read what the UART has into the scanner; False once the deadline has passed."""
        r = self.uart.readinto(self._rx.room())
        if r:
            self._rx.wrote(r)
            return True
        left = ticks_diff(deadline, ticks_ms())
        if left <= 0:
            return False
        self.idle(min(left, 10))
        return True

    def _drain(self):
        # resynchronise before talking: whatever is waiting now is stale or garbage
        while self.uart.any():
            if not self.uart.readinto(self._junkmv):
                break
        self._rx.clear()

    def _once(self, dest, header, data):
        tx = self._tx
        n = cctalk_frame.build(tx, dest, self.addr, header, data, self.crc)
        self._drain()
        self.uart.write(self._txmv[:n])
        deadline = ticks_add(ticks_ms(), self.timeout_ms)
        rx = self._rx
        if self.echo:
            while rx.pending() < n:
                if not self._fill(deadline):
                    raise CcTalkError("timeout")
            b = rx.buf
            s = rx.start
            for i in range(n):
                if b[s + i] != tx[i]:
                    raise CcTalkError("echo")
            rx.skip(n)
        final = False
        while True:
            total = rx.next(self.addr, final)
            if total:
                s = rx.start
                b = rx.buf
                if not self.crc and b[s + 2] != dest:
                    rx.skip(total)  # a good frame, but another device's: not our reply
                    continue
                hdr = b[s + 3]
                if hdr == HDR_NAK:
                    raise CcTalkError("nak", hdr)
                if hdr == HDR_BUSY:
                    raise CcTalkError("busy", hdr)
                if hdr != HDR_ACK:
                    raise CcTalkError("frame", hdr)
                return rx.mv[s + 4:s + total - 1]
            if final:
                raise CcTalkError("checksum" if rx.bad else "timeout")
            if not self._fill(deadline):
                final = True  # one last look past garbage that claimed a long length

    def request(self, dest, header, data=b"", retries=None):
        """One command; returns the reply's data (a view, valid until the next call).

        retries: how many times a transient fault is retried (default: the bus's setting). Pass 0
        for commands whose repetition could act twice (dispense): the caller then finds out from
        the device's own counters whether the command was taken.
        """
        err = None
        if retries is None:
            retries = self.retries
        for attempt in range(retries + 1):
            try:
                reply = self._once(dest, header, data)
                self.stats["ok"] += 1
                return reply
            except CcTalkError as e:
                self.stats[e.reason] += 1
                err = e
                if e.reason == "nak":
                    break  # the device understood and refused: repeating will not help
                if e.reason == "busy" and attempt < retries:
                    self.idle(BUSY_PAUSE_MS)  # the device asked us to come back later
        raise err
