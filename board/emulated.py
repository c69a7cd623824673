# Emulated board for the MicroPython unix port (and CPython): the cabinet's wires are loopback TCP.
#
# - each UART is a listening socket on 127.0.0.1; the peer that connects is "the cable"; received
#   bytes go into an RX FIFO like a UART's IRQ-fed buffer (overruns are counted, never block);
# - the panel link carries switch levels from the host ("pin NAME 0|1\n") and lamps and the display
#   back ("lamp NAME 0|1\n", "display {json}\n");
# - NVRAM is a fixed-size file: it survives the process being killed at any instant;
# - idle(ms) is one select.poll over every socket: nothing here ever spins.
import json
import os
import select
import socket

from board import hal
from board.compat import const, ticks_ms, PinBase

NAME = "emulated"
ENTROPY = "emulated"
RX_SIZE = const(1024)
_POLLIN = select.POLLIN
_POLLERR = select.POLLHUP | select.POLLERR
_IPPROTO_TCP = const(6)  # Linux values; the unix port's socket module does not name them
_TCP_NODELAY = const(1)


def _listen(port):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(socket.getaddrinfo("127.0.0.1", port)[0][-1])
    s.listen(1)
    s.setblocking(False)
    return s


def _accept(srv):
    try:
        c = srv.accept()[0]
    except OSError:
        return None
    c.setblocking(False)
    try:
        c.setsockopt(_IPPROTO_TCP, _TCP_NODELAY, 1)  # a wire: no Nagle delay on small writes
    except OSError:
        pass
    return c


def _recv(sock, n):
    """bytes (b"" when the peer closed) or None when nothing is waiting."""
    try:
        return sock.recv(n)
    except OSError:
        return None


class Link:
    """One listening socket and at most one connected peer."""

    def __init__(self, port):
        self.srv = _listen(port)
        self.conn = None

    def on_accept(self, conn):
        if self.conn:
            self.conn.close()  # a new cable replaces the old one
        self.conn = conn

    def on_readable(self):
        data = _recv(self.conn, 256)
        if data == b"":
            self.drop()
        return data

    def drop(self):
        if self.conn:
            self.conn.close()
        self.conn = None

    def send(self, data):
        if self.conn is None:
            return 0  # nothing on the wire: bytes are lost, as on a real unplugged port
        try:
            self.conn.send(data)
        except OSError:
            self.drop()
        return len(data)


class Uart(Link):
    def __init__(self, port):
        Link.__init__(self, port)
        self._rx = bytearray(RX_SIZE)
        self._n = 0
        self.overruns = 0

    def on_readable(self):
        data = Link.on_readable(self)
        if data:
            room = RX_SIZE - self._n
            if len(data) > room:
                self.overruns += len(data) - room
                data = data[:room]
            self._rx[self._n:self._n + len(data)] = data
            self._n += len(data)

    def any(self):
        if not self._n and self.conn:
            self.on_readable()  # non-blocking socket: fetches what is there, or nothing
        return self._n

    def readinto(self, buf):
        if not self._n:
            self.any()
            if not self._n:
                return None
        n = min(len(buf), self._n)
        buf[:n] = self._rx[:n]
        self._rx[:self._n - n] = self._rx[n:self._n]
        self._n -= n
        return n

    def read(self, n=RX_SIZE):
        buf = bytearray(n)
        r = self.readinto(buf)
        return bytes(buf[:r]) if r else None

    def write(self, buf):
        return self.send(bytes(buf))


class Pin(PinBase):
    """A switch input whose level the host sets over the panel link."""

    def __init__(self, name):
        self.name = name
        self._v = 0
        self._irq = None
        self._trigger = 0

    def value(self, v=None):
        if v is None:
            return self._v
        v = 1 if v else 0
        if v != self._v:
            self._v = v
            edge = hal.IRQ_RISING if v else hal.IRQ_FALLING
            if self._irq and self._trigger & edge:
                self._irq(self)

    def irq(self, handler=None, trigger=hal.IRQ_RISING | hal.IRQ_FALLING):
        self._irq = handler
        self._trigger = trigger


class Lamp:
    def __init__(self, name, panel):
        self.name = name
        self._v = 0
        self._panel = panel

    def value(self, v=None):
        if v is None:
            return self._v
        v = 1 if v else 0
        if v != self._v:
            self._v = v
            self._panel.send_line("lamp %s %d" % (self.name, v))


class Display:
    def __init__(self, panel):
        self._panel = panel
        self.last = None

    def show(self, screen):
        self.last = json.dumps(screen)
        self._panel.send_line("display " + self.last)


class Panel(Link):
    def __init__(self, port, board):
        Link.__init__(self, port)
        self.board = board
        self._line = b""

    def on_accept(self, conn):
        Link.on_accept(self, conn)
        for lamp in self.board.lamps.values():  # a fresh panel learns the whole state
            self.send_line("lamp %s %d" % (lamp.name, lamp.value()))
        if self.board.display.last:
            self.send_line("display " + self.board.display.last)

    def on_readable(self):
        data = Link.on_readable(self)
        if not data:
            return
        self._line += data
        while b"\n" in self._line:
            line, self._line = self._line.split(b"\n", 1)
            parts = line.decode().split()
            if len(parts) == 3 and parts[0] == "pin" and parts[1] in self.board.pins:
                self.board.pins[parts[1]].value(parts[2] == "1")

    def send_line(self, text):
        self.send(text.encode() + b"\n")


class FileNvram:
    """Non-volatile memory of `size` bytes in a file; every write reaches the OS before returning."""

    def __init__(self, path, size):
        self.size = size
        try:
            ok = os.stat(path)[6] == size
        except OSError:
            ok = False
        if not ok:
            with open(path, "wb") as f:
                f.write(bytes(size))
        self._f = open(path, "r+b", buffering=0)

    def read(self, off, n):
        self._check(off, n)
        self._f.seek(off)
        return self._f.read(n)

    def write(self, off, data):
        self._check(off, len(data))
        self._f.seek(off)
        self._f.write(data)
        self._f.flush()

    def _check(self, off, n):
        if off < 0 or off + n > self.size:
            raise ValueError("nvram access %d+%d outside %d bytes" % (off, n, self.size))

    def close(self):
        self._f.close()


class Board:
    NAME = NAME
    ENTROPY = ENTROPY

    def __init__(self, state_dir, console_port, cctalk_port, panel_port, nvram_size=32768):
        try:
            os.mkdir(state_dir)
        except OSError:
            pass
        self.nvram = FileNvram(state_dir + "/nvram.bin", nvram_size)
        self.pins = {}
        for name in hal.INPUTS:
            self.pins[name] = Pin(name)
        self.panel = Panel(panel_port, self)
        self.lamps = {}
        for name in hal.LAMPS:
            self.lamps[name] = Lamp(name, self.panel)
        self.display = Display(self.panel)
        self.uarts = {"console": Uart(console_port), "cctalk": Uart(cctalk_port)}
        self._links = (self.panel, self.uarts["console"], self.uarts["cctalk"])
        self._poll = select.poll()
        self._fds = {}  # fd -> (link, is_listener); poll() gives objects on MicroPython, fds on CPython
        self._conns = {}
        for link in self._links:
            self._poll.register(link.srv, _POLLIN)
            self._fds[link.srv.fileno()] = (link, True)

    def uart(self, role):
        return self.uarts[role]

    def pin(self, name):
        return self.pins[name]

    def lamp(self, name):
        return self.lamps[name]

    def ticks_ms(self):
        return ticks_ms()

    def _sync_registrations(self):
        for link in self._links:
            old = self._conns.get(id(link))
            if (old[0] if old else None) is link.conn:
                continue
            if old is not None:
                self._fds.pop(old[1], None)
                try:
                    self._poll.unregister(old[0])
                except (OSError, KeyError, ValueError):
                    pass
            if link.conn is not None:
                fd = link.conn.fileno()
                self._poll.register(link.conn, _POLLIN)
                self._fds[fd] = (link, False)
                self._conns[id(link)] = (link.conn, fd)
            else:
                self._conns.pop(id(link), None)

    def idle(self, ms):
        """Sleep until a socket has something or ms pass; service every ready socket."""
        self._sync_registrations()
        for obj, ev in self._poll.poll(max(0, ms)):
            entry = self._fds.get(obj if isinstance(obj, int) else obj.fileno())
            if entry is None:
                continue
            link, listener = entry
            if listener:
                conn = _accept(link.srv)
                if conn:
                    link.on_accept(conn)
                    self._sync_registrations()
            elif ev & _POLLIN:
                link.on_readable()
            elif ev & _POLLERR:
                link.drop()
        self._sync_registrations()
