"""A host peer's cable to one of the emulated board's loopback UARTs (board/emulated.py Uart)."""
from __future__ import annotations

import socket
import threading
import time


def dial(port: int, timeout: float = 10.0) -> socket.socket:
    """Connect to the board's listener, trying again until `timeout` (the firmware may still be
    starting); no Nagle delay, as on a wire."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=1)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return sock
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def hang_up(sock: socket.socket | None, thread: threading.Thread | None) -> None:
    """Close the cable and wait for the peer's reading thread to end (unless it is the caller)."""
    if sock:
        try:
            sock.close()
        except OSError:
            pass
    if thread and thread.is_alive() and thread is not threading.current_thread():
        thread.join(2)
