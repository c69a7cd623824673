"""One ccTalk multi-drop bus on the emulated board's ccTalk UART (a loopback TCP port).

A single connection carries every device, as one cable carries every peripheral: the bus echoes
each byte the master sends once (a single-wire bus hears itself), splits the stream into frames
by their length byte (a partial frame is dropped after an inter-byte gap, as devices do), and
hands each frame to the device whose address it names. Devices that are not addressed, or see a
bad checksum, stay silent.

Fault injection per device (CcTalkDevice.inject): "drop" (no reply), "bad_checksum" (reply with
its last byte flipped), "garbage" (random bytes before the reply), "busy" (reply BUSY instead),
"nak" (reply NAK); each takes a count of the next replies it spoils.
"""
from __future__ import annotations

import random
import socket
import threading

from board.cctalk_crc import crc16
from sim.wire import dial, hang_up

ACK = 0
NAK = 5
BUSY = 6
HOST = 1
INTER_BYTE_TIMEOUT_S = 0.05  # ccTalk: a gap of 50 ms between bytes ends a partial message


def checksum(frame: bytes) -> int:
    return (-sum(frame)) & 0xFF


def frame(dest: int, src: int, header: int, data: bytes = b"", crc: bool = False) -> bytes:
    if crc:
        c = crc16(bytes([dest, len(data), header]) + data)
        return bytes([dest, len(data), c & 0xFF, header]) + data + bytes([c >> 8])
    body = bytes([dest, len(data), src, header]) + data
    return body + bytes([checksum(body)])


def frame_ok(msg: bytes, crc: bool = False) -> bool:
    if crc:
        c = crc16(msg[:2] + msg[3:-1])
        return msg[2] == c & 0xFF and msg[-1] == c >> 8
    return sum(msg) & 0xFF == 0


class CcTalkDevice:
    """A device on the bus: subclasses implement command(header, data) -> bytes | None (NAK)."""

    category = "Unknown"
    manufacturer = "JTN"
    product = "SIM"
    serial = 0

    def identity(self, header: int) -> bytes | None:
        """What every ccTalk device answers alike (254 simple poll, 245 category, 246 manufacturer,
        244 product code, 242 serial number, LSB first), or None for any other header."""
        if header == 254:
            return b""
        if header == 245:
            return self.category.encode()
        if header == 246:
            return self.manufacturer.encode()
        if header == 244:
            return self.product.encode()
        if header == 242:
            return bytes([self.serial & 0xFF, self.serial >> 8 & 0xFF, self.serial >> 16 & 0xFF])
        return None

    def __init__(self, addr: int, crc: bool = False):
        self.addr = addr
        self.crc = crc
        self.lock = threading.RLock()
        self.faults: dict[str, int] = {}
        self.commands = 0
        self.headers: list[int] = []  # every header received, in order (for tests)
        self.rng = random.Random(addr)

    def inject(self, fault: str, count: int = 1) -> None:
        assert fault in ("drop", "bad_checksum", "garbage", "busy", "nak"), fault
        with self.lock:
            self.faults[fault] = self.faults.get(fault, 0) + count

    def _take(self, fault: str) -> bool:
        n = self.faults.get(fault, 0)
        if n:
            self.faults[fault] = n - 1
            return True
        return False

    def handle(self, msg: bytes) -> bytes | None:
        if msg[0] != self.addr or not frame_ok(msg, self.crc):
            return None  # not for us, or corrupt: a ccTalk device stays silent
        src = HOST if self.crc else msg[2]
        header, data = msg[3], msg[4:-1]
        with self.lock:
            self.headers.append(header)
            if self._take("drop"):
                return None
            if self._take("busy"):
                return frame(src, self.addr, BUSY, b"", self.crc)
            if self._take("nak"):
                return frame(src, self.addr, NAK, b"", self.crc)
            self.commands += 1
            out = self.command(header, bytes(data))
            reply = frame(src, self.addr, NAK if out is None else ACK, out or b"", self.crc)
            if self._take("bad_checksum"):
                reply = reply[:-1] + bytes([reply[-1] ^ 0x5A])
            if self._take("garbage"):
                reply = bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 12))) + reply
            return reply

    def command(self, header: int, data: bytes) -> bytes | None:  # pragma: no cover - abstract
        raise NotImplementedError


class CcTalkBus:
    def __init__(self, port: int, echo: bool = True):
        self.port = port
        self.echo = echo
        self.devices: dict[int, CcTalkDevice] = {}
        self.frames = 0
        self._sock: socket.socket | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._wlock = threading.Lock()

    def attach(self, device: CcTalkDevice) -> CcTalkDevice:
        self.devices[device.addr] = device
        return device

    def start(self, timeout: float = 10.0) -> "CcTalkBus":
        self._sock = dial(self.port, timeout)
        self._sock.settimeout(INTER_BYTE_TIMEOUT_S)
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        hang_up(self._sock, self._thread)

    def send(self, data: bytes) -> None:
        """Raw bytes onto the wire (noise injection)."""
        with self._wlock:
            if self._sock:
                self._sock.sendall(data)

    def _run(self) -> None:
        buf = b""
        sock = self._sock
        while not self._stop.is_set():
            try:
                data = sock.recv(512)
            except socket.timeout:
                buf = b""  # inter-byte timeout: a partial frame is dropped, like a real device
                continue
            except OSError:
                return
            if not data:
                return
            if self.echo:
                try:
                    self.send(data)
                except OSError:  # the board hung up between its write and our echo (a power cut)
                    return
            buf += data
            while len(buf) >= 2 and len(buf) >= 5 + buf[1]:
                n = 5 + buf[1]
                msg, buf = buf[:n], buf[n:]
                self.frames += 1
                dev = self.devices.get(msg[0])
                reply = dev.handle(msg) if dev else None
                if reply:
                    try:
                        self.send(reply)
                    except OSError:
                        return
