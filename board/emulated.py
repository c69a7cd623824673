# Emulated board for the MicroPython unix port (and CPython): the cabinet's wires are loopback TCP.
#
# - each UART is a listening socket on 127.0.0.1; the peer that connects is "the cable"; received
#   bytes go into an RX FIFO like a UART's IRQ-fed buffer (overruns are counted, never block, and
#   the reader learns where input was lost: take_overrun());
# - the console UART takes one session at a time: a second peer is told so in one line and let go;
# - the panel link carries switch levels from the host ("pin NAME 0|1 [MS]\n" stamped with the
#   host's CLOCK_MONOTONIC ms, the IRQ's time: Board.edge; also the pulse coin acceptor's lines
#   coin_pulse_N) and lamps, meter coils and the display back ("lamp NAME 0|1\n",
#   "meter NAME 0|1 MS\n" stamped with the board's ms clock, "display {json}\n"). Several host
#   programs may plug into the panel at once (cabinet panel, pulse acceptor, meter monitor): each
#   gets every output line, and each newcomer gets the current lamp/meter/display state;
# - one ccTalk UART is one multi-drop bus: sim/cctalk_bus.py answers for several addresses
#   (acceptor 2, hopper 3) over its single connection, with one echo, as on the real wire;
# - a battery-backed door latch is the file STATE/door_latch (one door name per line, written by
#   the host while the firmware is down);
# - NVRAM is a fixed-size file: it survives the process being killed at any instant;
# - the machine secret that keys critical memory's MAC is the file STATE/secret (made once from the
#   host's os.urandom), the anti-rollback counter the file STATE/counter, and the floors (the release,
#   the operator's configuration and the enrolment numbers, hal.FLOORS) the files STATE/floor-NAME: all
#   apart from nvram.bin, as a board keeps them in its MCU and its RTC's battery-backed registers;
# - the calendar clock (board/calendar_clock.py) is the host's, run as far from it as the central
#   system's last setting (SAS 7F, set_clock) put it: the file STATE/clock, as a board's RTC keeps
#   its time through a power cut;
# - the entropy source is the host's os.urandom, which the host can make stuck at one value: the file
#   STATE/entropy reading "stuck" at power-up, the panel line "entropy stuck|ok" at run time;
# - idle(ms) is one select.poll over every socket: nothing here ever spins;
# - port 0 asks the board to choose a free port (the test harness and the campaigns do): the board
#   binds one itself and reports it (`ports`, printed by firmware/main.py), so no port is ever picked
#   free by one process and bound later by another.
import errno
import os
import select
import socket

from board import calendar_clock, hal
from board.compat import PinBase, const, ticks_add, ticks_diff, ticks_ms
from board.counter_file import CounterFile
from board.json_out import JsonOut
from board.nvram_file import prepare
from board.secret_file import SecretFile
from board.touch import WORDS, TouchQueue

NAME = "emulated"
ENTROPY = "emulated"
RX_SIZE = const(1024)  # the ccTalk UART: a whole 255-byte frame and its echo, several times over
# The console's RX ring: 256 bytes, the default rxbuf of MicroPython's machine.UART on the rp2 and
# esp32 ports (the profiles' consoles keep their port's default). It holds three full lines, and a
# technician or a client waiting for each prompt (tools/console.py) never sends more before it is
# read; a paste that does overruns it, and the console reports and discards the broken line.
CONSOLE_RX = const(256)
# The coupon printer's RX ring: the same port default. The printer answers each status request with
# one byte (board/printer_epic.py: GS z, DLE EOT 2) and sends nothing unasked, so the ccTalk line's
# 1 KB ring held 768 bytes a VLT's heap never used
PRINTER_RX = const(256)
CONSOLE_BUSY = b"console busy: one session at a time\r\n"
REFUSE_LINGER_MS = const(250)  # a refused console client's hello is read before its link is closed
SEND_WAIT_MS = const(1000)  # a UART write waits this long for a peer that reads nothing, then drops it
_MAX_GAPS = const(8)  # places of lost input remembered in an RX FIFO (beyond: merged, see _lose)
_POLLIN = select.POLLIN
_POLLERR = select.POLLHUP | select.POLLERR
_IPPROTO_TCP = const(6)  # Linux values; the unix port's socket module does not name them
_TCP_NODELAY = const(1)
MAX_PANEL_LINE = const(128)
EDGE_LATE_MS = const(5000)  # a stamped pin edge read later than this is taken at the time it is read
RESET_EXIT = const(75)  # process exit status of a board reset (distinct from a crash's 1)


# Port 0: MicroPython's unix socket has no getsockname(), so bind(0) could not say which port it
# got; the board picks ports at random above Linux's ephemeral range (32768-60999: no outgoing
# connection and no bind(0) ever holds one of these) and takes the next when one is in use. The
# listen() is the claim, so two processes never end up on one port.
ANY_PORT_LO = const(61000)
ANY_PORT_SPAN = const(4536)  # 61000-65535
ANY_PORT_TRIES = const(64)


def _listen_on(port):
    s = socket.socket()
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(socket.getaddrinfo("127.0.0.1", port)[0][-1])
        s.listen(1)  # EADDRINUSE here too: two SO_REUSEADDR binds only collide at listen()
    except OSError:
        s.close()
        raise
    s.setblocking(False)
    return s


def _listen(port):
    """(listening socket, its port); port 0: any free port the board chooses."""
    if port:
        return _listen_on(port), port
    for _ in range(ANY_PORT_TRIES):
        r = os.urandom(2)
        p = ANY_PORT_LO + ((r[0] << 8) | r[1]) % ANY_PORT_SPAN
        try:
            return _listen_on(p), p
        except OSError as e:
            if e.args[0] != errno.EADDRINUSE:
                raise
    raise OSError(errno.EADDRINUSE)


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


def _send_all(sock, data):
    """Send every byte, waiting for room (SEND_WAIT_MS at most) as a UART write waits for its TX
    FIFO: a non-blocking send may take part of a reply, and the rest must not vanish. False: the
    peer is gone or reads nothing."""
    mv = memoryview(data)
    i = 0
    p = None
    while i < len(mv):
        try:
            i += sock.send(mv[i:])
            continue
        except OSError as e:
            if e.args[0] != errno.EAGAIN:
                return False
        if p is None:
            p = select.poll()
            p.register(sock, select.POLLOUT)
        if not p.poll(SEND_WAIT_MS):
            return False
    return True


def _recv(sock, n):
    """bytes (b"" when the peer closed) or None when nothing is waiting."""
    try:
        return sock.recv(n)
    except OSError:
        return None


class Link:
    """One listening socket and up to `taps` connected peers (a new one beyond that replaces
    the oldest, like a cable swapped)."""

    def __init__(self, port, taps=1):
        self.srv, self.port = _listen(port)
        self.taps = taps
        self.conns = []
        self.conn = None  # the newest peer (what a single-peer link talks to)

    def on_accept(self, conn):
        if len(self.conns) >= self.taps:
            self.conns.pop(0).close()  # a new cable replaces the old one
        self.conns.append(conn)
        self.conn = conn

    def on_readable(self, conn=None):
        conn = conn or self.conn
        if conn is None:
            return None
        data = _recv(conn, 256)
        if data == b"":
            self.drop(conn)
        return data

    def drop(self, conn=None):
        for c in ([conn] if conn else list(self.conns)):
            if c in self.conns:
                self.conns.remove(c)
            try:
                c.close()
            except OSError:
                pass
        self.conn = self.conns[-1] if self.conns else None

    def send(self, data):
        if not self.conns:
            return 0  # nothing on the wire: bytes are lost, as on a real unplugged port
        for c in list(self.conns):
            try:
                c.send(data)
            except OSError:
                self.drop(c)
        return len(data)


class Uart(Link):
    """A UART on a socket. Bytes that find the RX FIFO full are lost, as on a real UART: counted in
    `overruns`, and the place they were lost is remembered, so readinto() stops there and
    take_overrun() tells the reader how many bytes went missing at that point. With `busy`, a
    second peer is sent that line and let go while the first is connected (else it replaces it)."""

    def __init__(self, port, size=RX_SIZE, busy=None):
        Link.__init__(self, port)
        self.size = size
        self._rx = bytearray(size)
        self._n = 0
        self.overruns = 0  # bytes lost in all
        self._gaps = []  # [offset in the FIFO, bytes lost there], oldest first
        self.busy = busy
        self._refused = []  # [conn, ms, told]: second peers, told busy and let go by reap()
        self.linger_ms = REFUSE_LINGER_MS
        self.peers = 0  # peers taken in all: the console ends a session when a new one comes

    def on_accept(self, conn):
        if self.busy is not None and self.conn is not None and self._alive(self.conn):
            self._refused.append([conn, ticks_ms(), False])
            return
        self.peers += 1
        Link.on_accept(self, conn)

    def reap(self):
        """Turn the refused peers away: the busy line once a peer has sent its first bytes (or after
        linger_ms), the close linger_ms later, once what it sent is read. Not at once: a client
        clears its input as it opens the port (pyserial does), and a socket closed over unread
        bytes is reset, which throws away the busy line on its way to the client."""
        now = ticks_ms()
        for entry in list(self._refused):
            conn, since, told = entry
            data = _recv(conn, 256)
            waited = ticks_diff(now, since) >= self.linger_ms
            if data == b"" or (told and waited):
                while data:
                    data = _recv(conn, 256)
                conn.close()
                self._refused.remove(entry)
            elif not told and (data or waited):
                _send_all(conn, self.busy)
                entry[1] = now
                entry[2] = True

    def _alive(self, conn):
        # the first peer's close may sit in the same poll as the newcomer: take what it sent first
        while conn in self.conns:
            if self.on_readable(conn) is None:
                return True
        return False

    def on_readable(self, conn=None):
        data = Link.on_readable(self, conn)
        if data:
            room = self.size - self._n
            k = min(room, len(data))
            self._rx[self._n:self._n + k] = data[:k]
            self._n += k
            if k < len(data):
                self._lose(len(data) - k)
        return data

    def _lose(self, k):
        self.overruns += k
        g = self._gaps
        if g and g[-1][0] == self._n:
            g[-1][1] += k
        elif len(g) >= _MAX_GAPS:
            # no room to mark another place: count what came after the last one as lost with it
            g[-1][1] += k + self._n - g[-1][0]
            self._n = g[-1][0]
        else:
            g.append([self._n, k])

    def take_overrun(self):
        """Bytes lost right before the next byte readinto() will return (0: none)."""
        g = self._gaps
        if g and g[0][0] == 0:
            return g.pop(0)[1]
        return 0

    def any(self):
        if not self._n and self.conn:
            self.on_readable()  # non-blocking socket: fetches what is there, or nothing
        return self._n

    def readinto(self, buf):
        if not self._n:
            self.any()
            if not self._n:
                return None
        g = self._gaps
        if g and g[0][0] == 0:
            g.pop(0)  # a reader that does not take_overrun() reads on across the loss
        n = min(len(buf), g[0][0] if g else self._n)
        buf[:n] = self._rx[:n]
        self._rx[:self._n - n] = self._rx[n:self._n]
        self._n -= n
        for gap in g:
            gap[0] -= n
        return n

    def read(self, n=RX_SIZE):
        buf = bytearray(n)
        r = self.readinto(buf)
        return bytes(buf[:r]) if r else None

    def write(self, buf):
        if not self.conns:
            return 0  # nothing on the wire: bytes are lost, as on a real unplugged port
        data = bytes(buf)
        for c in list(self.conns):
            if not _send_all(c, data):
                self.drop(c)
        return len(data)


class PtyUart:
    """The SAS UART on the emulated board: the master end of a pseudo-terminal whose slave a host
    opens as its serial device (sim/sas_pty.py makes it, non-blocking, and passes its fd). Bytes are
    read as they come, without a ninth bit (board/sas_link.py frames them by time)."""

    SAS_GAP_MS = 100  # a host process times the bytes, not a UART: saspy reopens its port mid-poll (docs/sas.md)

    def __init__(self, fd):
        self.fd = fd
        self.f = open(fd, "r+b", buffering=0)

    def hangup(self, obj):
        return obj is self.f or obj == self.fd

    def readinto(self, buf):
        return self.f.readinto(buf)  # None when nothing waits (non-blocking)

    def write(self, buf):
        return self.f.write(buf)

    def any(self):
        return 0


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
    """An output on the panel link: a lamp ("lamp") or a meter coil ("meter")."""

    def __init__(self, name, panel, kind="lamp"):
        self.name = name
        self.kind = kind
        self._v = 0
        self._panel = panel
        self.strokes = 0  # a meter's strokes released since power-up: told to a tap that plugs in late
        self._at = 0  # the board's ms at the last edge

    def value(self, v=None):
        if v is None:
            return self._v
        v = 1 if v else 0
        if v != self._v:
            if self._v and self.kind == "meter":
                self.strokes += 1
            self._v = v
            self._at = self._panel.board.ticks_ms()
            self._panel.send_line(self.line())

    def state_line(self):
        """What a tap that plugs in is told: a meter also says the strokes it missed (those of
        the power-up's first pulses, driven before a meter monitor's connection came up)."""
        if self.kind == "meter":
            return "%s %d" % (self.line(), self.strokes)
        return self.line()

    def line(self):
        if self.kind == "meter":
            # stamped with the board's ms at the edge: a meter counts the electrical width of a
            # stroke, which the host must not judge by when a busy loopback delivered the lines, nor
            # (a tap that plugs in mid-stroke) by when it connected (s37: meter_in 3 against the books' 4)
            return "meter %s %d %d" % (self.name, self._v, self._at)
        return "%s %s %d" % (self.kind, self.name, self._v)


class Display:
    """The screen on the panel link: a line "display <the screen's JSON>" to every tap, written a
    piece at a time (board/json_out.py): a table game's frame is about 1 KB, which built as one
    string, then prefixed, took pieces the 128K board heap in pieces did not have."""

    PIECE = const(256)

    def __init__(self, panel):
        self._panel = panel
        self.last = None  # the screen last shown: sent again to a tap that connects
        self._out = JsonOut(self.PIECE)

    def show(self, screen):
        self.last = screen
        self.send(self._panel.send_all)

    def send(self, sink):
        sink(b"display ")
        self._out.sink = sink
        self._out.send(self.last)
        sink(b"\n")


class Panel(Link):
    TAPS = 8

    def __init__(self, port, board):
        Link.__init__(self, port, self.TAPS)
        self.board = board
        self._lines = {}  # conn -> partial line

    def on_accept(self, conn):
        Link.on_accept(self, conn)
        # a fresh tap learns the whole output state (to it alone)
        for out in list(self.board.lamps.values()) + list(self.board.meters.values()):
            self._send_to(conn, out.state_line())
        if self.board.display.last is not None:
            self.board.display.send(lambda data: self._send_bytes(conn, data))

    def _send_to(self, conn, text):
        self._send_bytes(conn, text.encode() + b"\n")

    def send_all(self, data):
        """data to every tap whole (a line goes out in pieces: none may be cut short)."""
        for c in list(self.conns):
            self._send_bytes(c, data)

    def _send_bytes(self, conn, data):
        if conn in self.conns and not _send_all(conn, data):
            self.drop(conn)

    def drop(self, conn=None):
        for c in ([conn] if conn else list(self.conns)):
            self._lines.pop(id(c), None)
        Link.drop(self, conn)

    def on_readable(self, conn=None):
        conn = conn or self.conn
        data = Link.on_readable(self, conn)
        if not data:
            return
        buf = self._lines.get(id(conn), b"") + data
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            try:
                parts = line.decode().split()
            except UnicodeError:
                continue  # noise on the wire is no pin command
            if len(parts) in (3, 4) and parts[0] == "pin" and parts[1] in self.board.pins:
                self.board.edge(parts[1], parts[2] == "1", parts[3] if len(parts) == 4 else None)
            elif len(parts) == 2 and parts[0] == "entropy" and parts[1] in ("stuck", "ok"):
                self.board.entropy.set_stuck(parts[1] == "stuck")
            elif parts[:1] == ["touch"] and len(parts) in (2, 3) and parts[1] in WORDS:
                n = parts[2] if len(parts) == 3 else "0"
                if len(n) <= 3 and n.isdigit() and int(n) <= 255:  # else noise: no press
                    self.board.touch.put(parts[1], int(n))
        if len(buf) > MAX_PANEL_LINE:
            buf = b""  # no line end in sight: noise, not a command; never let it fill the heap
        self._lines[id(conn)] = buf

    def send_line(self, text):
        self.send(text.encode() + b"\n")


class ClockFile:
    """How far the calendar clock runs from the host's, in seconds, as decimal text: written to a new
    file renamed over the old, so a cut mid-write leaves the old setting or the new, never a torn one.
    Absent or unreadable: 0, the host's time (a board whose RTC was never set keeps running)."""

    def __init__(self, path):
        self.path = path

    def read(self):
        try:
            with open(self.path) as f:
                return int(f.read().strip())
        except (OSError, ValueError):
            return 0

    def write(self, offset):
        with open(self.path + ".new", "w") as f:
            f.write("%d\n" % offset)
        os.rename(self.path + ".new", self.path)


class EntropyWire:
    """The emulated board's noise: the host kernel's CSPRNG, or, when the host says so, a source
    stuck at one value (a dead ring oscillator): STATE/entropy reading "stuck" at power-up, the panel
    line "entropy stuck|ok" at run time. rng/sources.py HostUrandom reads it and rng's health
    tests judge it like any board's source, so a stuck wire trips the repetition count test."""

    STUCK = const(0x5A)

    def __init__(self, path):
        self.stuck = False
        self._gen = None
        try:
            with open(path) as f:
                self.stuck = f.read().strip() == "stuck"
        except OSError:
            pass

    def urandom(self, n):
        if self.stuck:
            return bytes((self.STUCK,)) * n
        return os.urandom(n)

    def watch(self, gen):
        """The generator fed from this wire (firmware/cabinet.py open_rng)."""
        self._gen = gen

    def set_stuck(self, stuck):
        self.stuck = stuck
        if stuck and self._gen is not None:
            # A real board's dead source shows at the generator's next scheduled reseed (rng/generator.py
            # RESEED_MS, 5 minutes); the host wants the fault now, so the board reseeds at once.
            try:
                self._gen.reseed()
            except Exception:  # noqa: BLE001  the generator latches it; its next idle() or draw raises it: rng tilt
                pass


class DoorLatch:
    """Battery-backed 'door opened while off' latch: a file of door names the host writes."""

    def __init__(self, path):
        self.path = path

    def read(self):
        try:
            with open(self.path) as f:
                return [w for w in f.read().split() if w in hal.DOORS]
        except OSError:
            return []

    def clear(self):
        try:
            os.remove(self.path)
        except OSError:
            pass


class FileNvram:
    """Non-volatile memory of `size` bytes in a file; every write reaches the OS before returning.

    Writes go out a PAGE at a time, one system call each, as an FRAM or flash part takes them: a
    power cut (the process killed) can land between two pages and tear a record, as on hardware.
    """

    PAGE = 64

    def __init__(self, path, size):
        self.size = size
        prepare(path, size)
        self._f = open(path, "r+b", buffering=0)

    def read(self, off, n):
        self._check(off, n)
        self._f.seek(off)
        return self._f.read(n)

    def readinto(self, off, buf):
        """Fill buf from off, without allocating (critical memory reads a chunk into its own buffer)."""
        n = len(buf)
        self._check(off, n)
        self._f.seek(off)
        if self._f.readinto(buf) != n:
            raise OSError("nvram: short read of %d at %d" % (n, off))

    def write(self, off, data):
        n = len(data)
        self._check(off, n)
        mv = memoryview(data)
        self._f.seek(off)
        for i in range(0, n, self.PAGE):
            self._f.write(mv[i:i + self.PAGE])

    def _check(self, off, n):
        if off < 0 or off + n > self.size:
            raise ValueError("nvram access %d+%d outside %d bytes" % (off, n, self.size))

    def close(self):
        self._f.close()


def _executable():
    import sys

    path = getattr(sys, "executable", "")
    if not path:
        raise OSError("no firmware file to read back (sys.executable is empty)")
    return path


class Board(hal.WiredBoard):
    NAME = NAME
    ENTROPY = ENTROPY
    SAS_GAP_MS = PtyUart.SAS_GAP_MS  # the SAS line's silence that ends a message (board/sas_link.py)

    def __init__(self, state_dir, console_port, cctalk_port, panel_port, nvram_size=32768, profile=None,
                 printer_port=None, sas_fd=None):
        """profile: a real board's pin map (board/pyboard.py ...) to boot as: only the wires it has
        (no EM coils where it wires none, its FRAM's size, no door latch), the display kept."""
        self._edge_at = None  # a stamped edge's time while its IRQ runs (edge)
        from board import state_lock

        try:
            os.mkdir(state_dir)
        except OSError:
            pass
        state_lock.check(state_dir)  # before anything here touches the running cabinet's files
        self.pins = {}
        self.meters = {}
        self.lamps = {}
        links = []  # one cabinet per set of ports: a busy one is named in one line, not a traceback
        roles = (("panel", panel_port), ("console", console_port), ("cctalk", cctalk_port))
        if printer_port is not None:  # the coupon printer's UART (a coupon jurisdiction, sim/printer.py)
            roles += (("printer", printer_port),)
        for role, port in roles:
            try:
                links.append(Panel(port, self) if role == "panel" else
                             Uart(port, CONSOLE_RX, CONSOLE_BUSY) if role == "console" else
                             Uart(port, PRINTER_RX) if role == "printer" else Uart(port))
            except OSError as e:
                for link in links:
                    link.srv.close()
                if e.args[0] == errno.EADDRINUSE:
                    raise state_lock.port_busy(state_dir, role, port)
                raise
        # the ports bound (those the board chose for a 0): what firmware/main.py reports
        self.ports = [(role, link.port) for (role, _), link in zip(roles, links)]
        state_lock.claim(state_dir, (links[1].port, links[2].port, links[0].port))
        self.panel = links[0]
        wired = hal.INPUTS + hal.COIN_PULSE + hal.LAMPS + hal.METERS
        if profile is not None:
            self.NAME = "%s (emulated)" % profile.NAME
            wired = hal.INPUTS + hal.LAMPS + tuple(n for n in hal.COIN_PULSE + hal.METERS if n in profile.PINS)
            nvram_size = profile.FRAM["size"]
        self.nvram = FileNvram(state_dir + "/nvram.bin", nvram_size)
        self._secret = SecretFile(state_dir + "/secret", os.urandom)
        self._counters = {"books": CounterFile(state_dir + "/counter"),
                          "security": CounterFile(state_dir + "/counter-security"),
                          "coupons": CounterFile(state_dir + "/counter-coupons")}
        self._floor = state_dir + "/floor-"  # STATE/floor-release, floor-config, floor-enrol
        for name in wired:
            if name in hal.LAMPS:
                self.lamps[name] = Lamp(name, self.panel)
            elif name in hal.METERS:
                self.meters[name] = Lamp(name, self.panel, "meter")
            else:
                self.pins[name] = Pin(name)
        self.display = Display(self.panel)
        self.touch = TouchQueue()  # the player's screen: keno spots, quick pick (panel `touch` lines)
        self.entropy = EntropyWire(state_dir + "/entropy")
        self._clock = ClockFile(state_dir + "/clock")
        calendar_clock.shift(self._clock.read())
        self.door_latch = DoorLatch(state_dir + "/door_latch") if profile is None else None
        self.uarts = {"console": links[1], "cctalk": links[2]}
        if printer_port is not None:
            self.uarts["printer"] = links[3]
        self._links = tuple(links)
        self._poll = select.poll()
        self._pty = None
        if sas_fd is not None:  # the central system's line (docs/sas.md): a pseudo-terminal, no 9th bit
            self._pty = PtyUart(sas_fd)
            self.uarts["sas"] = self._pty
            self._poll.register(self._pty.f, _POLLIN)
        self._fds = {}  # fd -> (link, is_listener); poll() gives objects on MicroPython, fds on CPython
        self._conns = {}
        for link in self._links:
            self._poll.register(link.srv, _POLLIN)
            self._fds[link.srv.fileno()] = (link, True)

    def ticks_ms(self):
        at = self._edge_at  # inside a pin's IRQ: the edge's own time (edge)
        return ticks_ms() if at is None else at

    def edge(self, name, level, stamp=None):
        """A switch's level from the panel link. stamp: the host's CLOCK_MONOTONIC ms as it set the
        level (the clock ticks_ms reads here): the IRQ's handler reads that as the time, as a real
        IRQ runs at the edge, not when a loaded host let the firmware read the line (make test at
        load 10: a press read 35 ms late, the next one on time, 7 ms after it: bounce, never taken)."""
        at = None
        if stamp is not None and stamp.isdigit() and len(stamp) <= 15:
            at = int(stamp) & ticks_add(0, -1)  # MicroPython's ticks wrap: ticks_add(0, -1) is the mask
            if not 0 <= ticks_diff(ticks_ms(), at) <= EDGE_LATE_MS:
                at = None  # another host's clock, or older than any lag: the time it is read
        self._edge_at = at
        try:
            self.pins[name].value(level)
        finally:
            self._edge_at = None

    def machine_secret(self):
        return self._secret.get()

    def rollback_counter(self, which="books"):
        return self._counters[which]

    def floor(self, which):
        if which not in hal.FLOORS:
            raise ValueError("no floor %r (%s)" % (which, ", ".join(hal.FLOORS)))
        return CounterFile(self._floor + which)  # made when asked: a few times a boot, nothing kept in the heap

    def set_clock(self, utc):
        """The central system's time (SAS 7F): seconds since 1970, UTC, kept across power cuts."""
        offset = calendar_clock.offset_for(utc)
        self._clock.write(offset)  # kept first: a failing write leaves the clock as it was
        calendar_clock.shift(offset)

    def entropy_source(self):
        """The noise wire rng.open_source("emulated") reads (the host can make it fail)."""
        return self.entropy

    def detach(self):
        hal.WiredBoard.detach(self)
        self.entropy.watch(None)  # the failed cabinet's generator (its DRBG, its health tests)

    def _sync_registrations(self):
        live = {}
        for link in self._links:
            for c in link.conns:
                live[id(c)] = (c, link)
        for key in list(self._conns):
            if key not in live:
                conn, fd = self._conns.pop(key)
                self._fds.pop(fd, None)
                # by object (MicroPython keeps objects), else by fd (CPython: a closed socket
                # has no fileno, and a stale fd left registered would make poll() spin)
                for target in (conn, fd):
                    try:
                        self._poll.unregister(target)
                        break
                    except (OSError, KeyError, ValueError, TypeError):
                        pass
        for key, (c, link) in live.items():
            if key not in self._conns:
                fd = c.fileno()
                self._poll.register(c, _POLLIN)
                self._fds[fd] = (link, c)
                self._conns[key] = (c, fd)

    def reset(self):
        """A board reset is a new process here: exit with RESET_EXIT; whoever powers the emulated
        board (sim.harness) decides whether to start it again."""
        raise SystemExit(RESET_EXIT)

    IMAGE = "firmware/micropython-unix"  # its name in a release (tools/release.py)

    def image(self):
        """The firmware file that runs (the image's `sys.executable`), read back as stored."""
        return open(_executable(), "rb")

    def release_file(self, name):
        """The signed release record of the image that runs: `release/` beside the image (what
        the build writes for its development key), else the release folder the image sits in
        (build/release/jeton-V/firmware/micropython-unix -> build/release/jeton-V/)."""
        here = _executable().rpartition("/")[0] or "."
        try:
            return open(here + "/release/" + name, "rb")
        except OSError:
            return open(here + "/../" + name, "rb")

    def idle(self, ms):
        """Sleep until a socket has something or ms pass; service every ready socket."""
        self._sync_registrations()
        for obj, ev in self._poll.poll(max(0, ms)):
            entry = self._fds.get(obj if isinstance(obj, int) else obj.fileno())
            if entry is None:
                if self._pty is not None and ev & _POLLERR and self._pty.hangup(obj):
                    self._poll.unregister(self._pty.f)  # no host end left: never spin on its hang-up
                continue  # the SAS line's bytes: the cabinet's SAS service reads them
            link, conn = entry
            if conn is True:
                c = _accept(link.srv)
                if c:
                    link.on_accept(c)
                    self._sync_registrations()
            elif ev & _POLLIN:
                link.on_readable(conn)
            elif ev & _POLLERR:
                link.drop(conn)
        self._sync_registrations()
        self.uarts["console"].reap()
