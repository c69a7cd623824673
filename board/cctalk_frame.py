# ccTalk framing on a byte stream: [dest][len][src][header][data x len][checksum] (simple 8-bit
# checksum: all bytes sum to 0 mod 256), or [dest][len][crc lsb][header][data][crc msb] (CRC-16).
# A frame is 5 + len bytes, so the length byte alone delimits it; that is all an independent
# splitter such as @serialport/parser-cctalk does. The Scanner adds what a master needs on a
# noisy single-wire bus: it checks each candidate and, on a bad one, slides one byte and tries
# again (resynchronisation), so garbage before a good reply costs time, never the reply.
from board.cctalk_crc import frame_crc
from board.compat import const

MAX_FRAME = const(260)  # dest + len + src + header + 255 data + checksum
OVERHEAD = const(5)


def checksum(buf, n, start=0):
    s = 0
    for i in range(start, start + n):
        s += buf[i]
    return (-s) & 0xFF


def valid(buf, start, total, crc=False):
    """True when buf[start:start+total] is a frame whose checksum (or CRC-16) is right."""
    if crc:
        c = frame_crc(buf, start, total)
        return buf[start + 2] == c & 0xFF and buf[start + total - 1] == c >> 8
    s = 0
    for i in range(start, start + total):
        s += buf[i]
    return s & 0xFF == 0


def build(buf, dest, src, header, data=b"", crc=False):
    """Write one frame into buf (preallocated, >= 5 + len(data)); returns its length."""
    n = len(data)
    buf[0] = dest
    buf[1] = n
    buf[2] = src
    buf[3] = header
    for i in range(n):
        buf[4 + i] = data[i]
    total = 5 + n
    if crc:
        c = frame_crc(buf, 0, total)
        buf[2] = c & 0xFF
        buf[4 + n] = c >> 8
    else:
        buf[4 + n] = checksum(buf, 4 + n)
    return total


class Scanner:
    """Bytes in, frames out, over one preallocated buffer (no allocation per byte).

    Unread bytes are buf[start:end]. resync=False splits by the length byte only (what a plain
    splitter does); resync=True also requires a valid checksum (and `dest`, when given) and on a
    bad candidate drops one byte and looks again.
    """

    def __init__(self, size=2 * MAX_FRAME, crc=False, resync=True):
        self.buf = bytearray(size)
        self.mv = memoryview(self.buf)
        self.crc = crc
        self.resync = resync
        self.start = 0
        self.end = 0
        self.dropped = 0  # bytes skipped while resynchronising
        self.bad = 0  # candidates with a wrong checksum

    def clear(self):
        self.start = self.end = 0

    def pending(self):
        return self.end - self.start

    def room(self):
        """A writable view of the free tail (compacts first when the tail is full)."""
        if self.end == len(self.buf):
            n = self.end - self.start
            if self.start:
                self.mv[0:n] = self.mv[self.start:self.end]
            else:  # full of one unterminated candidate: it cannot be a frame, drop a byte
                self.mv[0:n - 1] = self.mv[1:n]
                n -= 1
                self.dropped += 1
            self.start, self.end = 0, n
        return self.mv[self.end:]

    def wrote(self, n):
        self.end += n

    def feed(self, data):
        for b in data:
            if self.end == len(self.buf):
                self.room()
            self.buf[self.end] = b
            self.end += 1

    def skip(self, n):
        self.start += n
        if self.start >= self.end:
            self.start = self.end = 0

    def next(self, dest=None, final=False):
        """Length of the complete frame at buf[start], or 0 when none is complete yet.

        The caller reads buf[start:start+length] and then calls skip(length). final=True: no
        more bytes will come (the reply's deadline passed), so an incomplete candidate is
        garbage whose length byte lied; look past it for a complete valid frame. (Before the
        deadline that look-ahead would be unsafe: inside a long frame still arriving, some
        offset can pass for a short valid frame.)
        """
        buf = self.buf
        while self.end - self.start >= 2:
            s = self.start
            if self.resync and dest is not None and buf[s] != dest:
                self.start += 1
                self.dropped += 1
                continue
            total = buf[s + 1] + OVERHEAD
            if self.end - s < total:
                # incomplete: a real frame still arriving, or garbage with a big length byte
                # in front of a complete reply; a complete valid frame further on decides
                if final and self.resync and self._later(s + 1, dest):
                    continue
                return 0
            if not self.resync or valid(buf, s, total, self.crc):
                return total
            self.bad += 1
            self.start += 1
            self.dropped += 1
        return 0

    def _later(self, i, dest):
        """Skip to the first complete, valid frame at or after buf[i], if there is one."""
        buf = self.buf
        while self.end - i >= OVERHEAD:
            if dest is None or buf[i] == dest:
                total = buf[i + 1] + OVERHEAD
                if self.end - i >= total and valid(buf, i, total, self.crc):
                    self.dropped += i - self.start
                    self.start = i
                    return True
            i += 1
        return False
