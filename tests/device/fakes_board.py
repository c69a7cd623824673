# In-memory stand-ins for the cabinet's wires, importable under CPython and MicroPython:
# a single-wire ccTalk bus whose devices answer synchronously, pins whose level a test sets,
# outputs that record their levels, a dict store, and a hand-driven clock.
from board import emulated
from board.cctalk_frame import build, valid
from board.hopper_codes import NEEDS_RESET


class Clock:
    def __init__(self, t=1000):
        self.t = t

    def __call__(self):
        return self.t

    def advance(self, ms):
        self.t += ms


class Wire:
    """The master's UART on a single-wire bus: writes are echoed, then devices reply at once.

    devices: {addr: device with reply(header, data) -> bytes (ACK data) | None (NAK) | "busy"}.
    Faults for the next replies: wire.faults = ["drop" (command lost before the device), "lost_reply"
    (device acted, reply lost), "garbage", "bad", "echo", None, ...] (consumed in order); wire.noise = bytes
    delivered before the echo of the next write.
    """

    def __init__(self, crc=False):
        self.devices = {}
        self.rx = bytearray()
        self.crc = crc
        self.faults = []
        self.sent = []  # (dest, header, data) of every well-formed command
        self.noise = b""

    def any(self):
        return len(self.rx)

    def readinto(self, buf):
        n = min(len(buf), len(self.rx))
        if not n:
            return None
        for i in range(n):
            buf[i] = self.rx[i]
        self.rx = self.rx[n:]
        return n

    def write(self, data):
        data = bytes(data)
        fault = self.faults.pop(0) if self.faults else None
        self.rx += self.noise
        self.noise = b""
        if fault == "echo":
            self.rx += bytes([data[0] ^ 1]) + data[1:]
        else:
            self.rx += data
        if not valid(data, 0, len(data), self.crc):
            return len(data)
        dest, header = data[0], data[3]
        payload = data[4:-1]
        self.sent.append((dest, header, payload))
        dev = self.devices.get(dest)
        if dev is None or fault == "drop":
            return len(data)
        out = dev.reply(header, payload)
        if fault == "lost_reply":  # the device acted, its answer never arrived
            return len(data)
        hdr = 0
        if out is None:
            hdr, out = 5, b""
        elif out == "busy":
            hdr, out = 6, b""
        buf = bytearray(5 + len(out))
        n = build(buf, 1, dest, hdr, out, self.crc)
        frame = bytes(buf[:n])
        if fault == "bad":
            frame = frame[:-1] + bytes([frame[-1] ^ 0x55])
        if fault == "garbage":
            frame = b"\x01\x07\x02\x00\x99" + frame
        self.rx += frame
        return len(data)

    def headers(self, dest):
        return [h for d, h, _ in self.sent if d == dest]


def no_idle(ms):
    pass


class Acceptor:
    """A coin acceptor's 229 buffer and inhibits."""

    def __init__(self):
        self.counter = 0
        self.events = []
        self.master = 0
        self.mask = 0

    def event(self, a, b):
        self.counter = self.counter % 255 + 1
        self.events.insert(0, (a, b))
        del self.events[5:]

    def reply(self, header, data):
        if header == 229:
            ev = self.events + [(0, 0)] * (5 - len(self.events))
            out = bytearray([self.counter])
            for a, b in ev:
                out.append(a)
                out.append(b)
            return bytes(out)
        if header == 228:
            self.master = data[0]
            return b""
        if header == 231:
            self.mask = data[0] | data[1] << 8
            return b""
        if header == 245:
            return b"Coin Acceptor"
        if header == 246:
            return b"JTN"
        if header == 244:
            return b"FAKE"
        if header == 242:
            return b"\x01\x02\x03"
        if header == 184:
            return b"CA100T" if data[0] == 1 else b"......"
        if header == 254:
            return b""
        if header == 1:
            self.counter = 0
            self.events = []
            self.master = 0
            return b""
        return None


class Hopper:
    """A payout hopper stepped by hand: each 166 poll pays `per_poll` coins."""

    def __init__(self, stock=100, per_poll=2, count=True):
        self.counter = 0
        self.flags = (1 << 6) | (1 << 7)
        self.enabled = False
        self.remaining = 0
        self.paid = 0
        self.unpaid = 0
        self.total = 0  # 168, NV
        self.out = 0  # coins physically out
        self.stock = stock
        self.per_poll = per_poll
        self.count = count
        self.jam_at = None
        self.extra = 0

    def step(self, k):
        was = self.remaining
        for _ in range(k):
            if not self.remaining:
                break
            if self.jam_at is not None and self.paid >= self.jam_at:
                self.flags |= 1 | (1 << 12)
                self.unpaid, self.remaining = self.remaining, 0
                self.jam_at = None
                break
            if self.stock <= 0:
                self.flags |= 2
                self.unpaid, self.remaining = self.remaining, 0
                break
            self.stock -= 1
            self.paid += 1
            self.remaining -= 1
            self.total += 1
            self.out += 1
        if was and not self.remaining and self.extra:  # the motor overruns the last coin
            self.total += self.extra
            self.out += self.extra
            self.extra = 0

    def power_cycle(self, nv=True):
        if self.remaining:
            self.flags |= 1 << 16
            self.unpaid, self.remaining = self.remaining, 0
        self.counter = 0
        self.enabled = False
        self.flags |= (1 << 6) | (1 << 7)
        if not nv:
            self.paid = self.unpaid = 0
            self.flags = (1 << 6) | (1 << 7)

    def reply(self, header, data):
        if header == 166:
            r = bytes((self.counter, self.remaining, self.paid, self.unpaid))
            self.step(self.per_poll)
            return r
        if header == 163:
            f = self.flags
            return bytes((f & 0xFF, (f >> 8) & 0xFF, (f >> 16) & 0xFF))
        if header == 168:
            if not self.count:
                return None
            t = self.total
            return bytes((t & 0xFF, (t >> 8) & 0xFF, (t >> 16) & 0xFF))
        if header == 164:
            self.enabled = data[0] == 0xA5
            if self.enabled:
                self.flags &= ~(1 << 7)
            return b""
        if header == 1:
            self.flags &= ~(NEEDS_RESET | (1 << 6) | 2 | 4)
            self.flags |= 1 << 7
            self.enabled = False
            self.counter = 0
            return b""
        if header == 167:
            if not self.enabled or self.remaining:
                return None
            self.counter = self.counter % 255 + 1
            self.paid = self.unpaid = 0
            self.remaining = data[-1]
            self.flags &= ~2
            return bytes((self.counter,))
        if header == 172:
            left = self.remaining
            self.unpaid, self.remaining = self.remaining, 0
            return bytes((left,))
        if header == 245:
            return b"Payout"
        if header == 242:
            return b"\x56\x34\x12"
        return None


class Store:
    """The firmware's persistence for a driver: load()/save(); keeps every saved version."""

    def __init__(self, value=None):
        self.value = value
        self.saves = 0
        self.history = []

    def load(self):
        return copy(self.value)

    def save(self, value, then=None):
        self.value = copy(value)
        self.saves += 1
        self.history.append(self.value)
        if then is not None:
            then()  # committed: what must follow the record at once


def copy(v):
    if isinstance(v, dict):
        d = {}
        for k in v:
            d[k] = copy(v[k])
        return d
    if isinstance(v, list):
        return [copy(x) for x in v]
    return v


class Pin(emulated.Pin):
    """The emulated board's switch input, its level set by the test instead of the panel link."""

    def __init__(self, v=0):
        emulated.Pin.__init__(self, "fake")
        self._v = 1 if v else 0


class Coil:
    """An output that records complete strokes (on, then off) as a meter would count them."""

    def __init__(self):
        self.v = 0
        self.strokes = 0
        self.levels = []

    def value(self, v=None):
        if v is None:
            return self.v
        v = 1 if v else 0
        if self.v and not v:
            self.strokes += 1
        self.v = v
        self.levels.append(v)


class PinBoard:
    def __init__(self, names):
        self.pins = {}
        for n in names:
            self.pins[n] = Pin()

    def pin(self, name):
        return self.pins[name]
