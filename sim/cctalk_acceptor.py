"""Emulated ccTalk coin acceptor: answers real frames on the board's ccTalk UART (loopback TCP).

It plays a single-wire bus: every byte the master sends comes back to it first (the echo), then the
acceptor's reply. Coins go into the acceptor's event buffer exactly as a validator reports them to
header 229.
"""
from __future__ import annotations

import socket
import threading
import time

ACK = 0
NAK = 5


def checksum(frame: bytes) -> int:
    return (-sum(frame)) & 0xFF


def frame(dest: int, src: int, header: int, data: bytes = b"") -> bytes:
    body = bytes([dest, len(data), src, header]) + data
    return body + bytes([checksum(body)])


class CoinAcceptorPeer:
    """Coin positions map to ccTalk coin id strings (header 184), e.g. {1: "CA100T"}."""

    def __init__(self, port: int, addr: int = 2, coins: dict[int, str] | None = None, echo: bool = True):
        self.port = port
        self.addr = addr
        self.coins = coins or {1: "CA100T"}
        self.echo = echo
        self.counter = 0  # 0 after power-up, then 1..255, wrapping to 1
        self.events: list[tuple[int, int]] = []  # newest first, (A, B)
        self.master_enabled = False
        self.inhibit_mask = 0
        self.rejected = 0
        self.polls = 0
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    # --- the coin path -------------------------------------------------------------------------
    def accepting(self, position: int) -> bool:
        return self.master_enabled and bool(self.inhibit_mask >> (position - 1) & 1)

    def insert(self, position: int = 1, path: int = 1) -> bool:
        """A coin drops in; True when validated and credited, False when rejected (inhibited)."""
        with self._lock:
            if self.accepting(position):
                self._event(position, path)
                return True
            self.rejected += 1
            self._event(0, 2)  # error code 2: inhibited coin
            return False

    def _event(self, a: int, b: int) -> None:
        self.counter = self.counter % 255 + 1
        self.events.insert(0, (a, b))
        del self.events[5:]

    # --- the bus ----------------------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> "CoinAcceptorPeer":
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._sock = socket.create_connection(("127.0.0.1", self.port), timeout=1)
                self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self._sock.settimeout(0.2)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._sock:
            self._sock.close()
        if self._thread.is_alive():
            self._thread.join(2)

    def _run(self) -> None:
        buf = b""
        while not self._stop.is_set():
            try:
                data = self._sock.recv(512)
            except socket.timeout:
                buf = b""  # inter-byte timeout: a partial frame is dropped, like a real device
                continue
            except OSError:
                return
            if not data:
                return
            if self.echo:
                self._sock.sendall(data)
            buf += data
            while len(buf) >= 5 and len(buf) >= 5 + buf[1]:
                n = 5 + buf[1]
                msg, buf = buf[:n], buf[n:]
                reply = self.handle(msg)
                if reply:
                    self._sock.sendall(reply)

    def handle(self, msg: bytes) -> bytes | None:
        if checksum(msg[:-1]) != msg[-1] or msg[0] != self.addr:
            return None  # not for us, or corrupt: a ccTalk device stays silent
        src, header, data = msg[2], msg[3], msg[4:-1]
        with self._lock:
            out = self.command(header, data)
        if out is None:
            return frame(src, self.addr, NAK)
        return frame(src, self.addr, ACK, out)

    def command(self, header: int, data: bytes) -> bytes | None:
        if header == 254:  # simple poll
            return b""
        if header == 245:
            return b"Coin Acceptor"
        if header == 246:
            return b"JTN"
        if header == 244:
            return b"SIM-CA1"
        if header == 242:
            return bytes([0x39, 0x30, 0x00])
        if header == 184 and len(data) == 1:
            return self.coins.get(data[0], "......").encode()
        if header == 231 and len(data) == 2:
            self.inhibit_mask = data[0] | data[1] << 8
            return b""
        if header == 228 and len(data) == 1:
            self.master_enabled = bool(data[0] & 1)
            return b""
        if header == 229:
            self.polls += 1
            ev = self.events + [(0, 0)] * (5 - len(self.events))
            return bytes([self.counter]) + bytes(x for pair in ev for x in pair)
        if header == 1:  # reset device
            self.counter = 0
            self.events.clear()
            self.master_enabled = False
            return b""
        return None
