"""A host-side tap on the emulated board's panel link (several may be plugged in at once)."""
from __future__ import annotations

import socket
import threading
import time


class PanelTap:
    def __init__(self, port: int, timeout: float = 10.0):
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=1)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.settimeout(None)
        self._wlock = threading.Lock()
        self.closed = threading.Event()

    def send_line(self, text: str) -> None:
        with self._wlock:
            self.sock.sendall(text.encode() + b"\n")

    def lines(self):
        """Each whole line the board sends, until the link closes. A last line without its end is
        not one: the power went while the board was writing it (a display frame goes out in pieces)."""
        f = self.sock.makefile("r", encoding="utf-8")
        try:
            for line in f:
                if not line.endswith("\n"):
                    break  # cut short by the power cut that closed the link
                yield line[:-1]
        except (OSError, ValueError):
            pass
        finally:
            self.closed.set()

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
