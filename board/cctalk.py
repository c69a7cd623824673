# ccTalk master: frames [dest][len][src][header][data...][checksum] on a serial bus.
# Simple 8-bit checksum: every byte of the frame sums to 0 mod 256 (ccTalk generic spec, part 1).
# On a single-wire bus the master hears its own transmission first: that echo is read and checked.
from board.compat import const, ticks_ms, ticks_diff

HOST_ADDR = const(1)
HDR_ACK = const(0)
HDR_NAK = const(5)
HDR_BUSY = const(6)
MAX_FRAME = const(260)  # 5 framing bytes + up to 255 data bytes


class CcTalkError(Exception):
    """A transaction failed: reason is one of 'timeout', 'checksum', 'nak', 'busy', 'echo', 'frame'."""

    def __init__(self, reason, header=0):
        super().__init__(reason)
        self.reason = reason
        self.header = header


def checksum(buf, n):
    s = 0
    for i in range(n):
        s += buf[i]
    return (-s) & 0xFF


def build(buf, dest, src, header, data=b""):
    """Write a simple-checksum frame into buf; returns its length."""
    n = len(data)
    buf[0] = dest
    buf[1] = n
    buf[2] = src
    buf[3] = header
    buf[4:4 + n] = data
    buf[4 + n] = checksum(buf, 4 + n)
    return 5 + n


class Master:
    def __init__(self, uart, idle, addr=HOST_ADDR, echo=True, timeout_ms=100, retries=2):
        self.uart = uart
        self.idle = idle  # idle(ms): wait for bytes without spinning
        self.addr = addr
        self.echo = echo
        self.timeout_ms = timeout_ms
        self.retries = retries
        self._tx = bytearray(MAX_FRAME)
        self._rx = bytearray(MAX_FRAME)
        self._rxmv = memoryview(self._rx)
        self.stats = {"ok": 0, "timeout": 0, "checksum": 0, "echo": 0, "frame": 0, "nak": 0, "busy": 0}

    def _read_exact(self, mv, n, deadline):
        got = 0
        while got < n:
            r = self.uart.readinto(mv[got:n])
            if r:
                got += r
                continue
            left = ticks_diff(deadline, ticks_ms())
            if left <= 0:
                return got
            self.idle(min(left, 10))
        return got

    def _drain(self):
        # resynchronise: drop whatever garbage is waiting before we talk
        while self.uart.any():
            self.uart.readinto(self._rxmv[:64])

    def _once(self, dest, header, data):
        tx = self._tx
        n = build(tx, dest, self.addr, header, data)
        self._drain()
        self.uart.write(memoryview(tx)[:n])
        deadline = ticks_ms() + self.timeout_ms
        rx = self._rxmv
        if self.echo:
            if self._read_exact(rx, n, deadline) < n:
                raise CcTalkError("timeout")
            for i in range(n):
                if rx[i] != tx[i]:
                    raise CcTalkError("echo")
        if self._read_exact(rx, 2, deadline) < 2:
            raise CcTalkError("timeout")
        if rx[0] != self.addr:
            raise CcTalkError("frame")
        total = 5 + rx[1]
        if self._read_exact(rx[2:], total - 2, deadline) < total - 2:
            raise CcTalkError("timeout")
        if checksum(self._rx, total) != 0:
            raise CcTalkError("checksum")
        if rx[2] != dest:
            raise CcTalkError("frame")
        hdr = rx[3]
        if hdr == HDR_NAK:
            raise CcTalkError("nak", hdr)
        if hdr == HDR_BUSY:
            raise CcTalkError("busy", hdr)
        if hdr != HDR_ACK:
            raise CcTalkError("frame", hdr)
        return rx[4:total - 1]

    def request(self, dest, header, data=b""):
        """One command, retried on transient faults; returns the reply's data (valid until next call)."""
        err = None
        for _ in range(self.retries + 1):
            try:
                reply = self._once(dest, header, data)
                self.stats["ok"] += 1
                return reply
            except CcTalkError as e:
                self.stats[e.reason] += 1
                err = e
                if e.reason == "nak":
                    break  # the device understood and refused: repeating will not help
        raise err
