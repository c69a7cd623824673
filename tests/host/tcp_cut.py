"""A TCP forwarder a test can cut, as a network between two hosts is cut: both ends stay up, the
connections through it are shut and new ones refused until it is mended."""
from __future__ import annotations

import socket
import threading


class CuttableLink:
    def __init__(self, target: tuple[str, int] | None = None) -> None:
        """target: where it forwards to (set later when the far end's port is known after this one's)."""
        self.target = target
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.up = True
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        threading.Thread(target=self._accept, name="tcp-cut", daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.server.accept()
            except OSError:  # closed
                return
            with self._lock:
                if not self.up or self.target is None:
                    near.close()
                    continue
                try:
                    far = socket.create_connection(self.target, timeout=5)
                    far.settimeout(None)  # a quiet link stays up
                except OSError:
                    near.close()
                    continue
                self._open += [near, far]
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        with self._lock:
            self.up = False
            for s in self._open:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
            self._open = []

    def mend(self) -> None:
        with self._lock:
            self.up = True

    def close(self) -> None:
        self.cut()
        self.server.close()
