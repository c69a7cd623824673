# ccTalk master: one command, one reply, on a serial bus shared by several devices (multi-drop).
# Frames and checksums live in board/cctalk_frame.py (8-bit simple checksum) and
# board/cctalk_crc.py (CRC-16). On a single-wire bus the master hears its own transmission
# first: that echo is read and compared byte for byte (a mismatch is a collision).
# Replies: header 0 = ACK (with data), 5 = NAK (refused: never retried), 6 = BUSY (retried
# after a pause). Transient faults (timeout, bad checksum, echo) are retried `retries` times,
# except where the caller says a repeat would be unsafe (retries=0, e.g. dispense).
#
# The cabinet's loop never waits on the bus (SAS's 20 ms, docs/sas.md): send() writes the command
# and returns; take() moves the exchange on with the bytes the UART already holds and gives the
# reply once it is complete, a retry or a failure once its time is up (the bus's clock), never
# waiting. One exchange is on the bus at a time: send() answers 0 while another's is (the caller
# asks again in a later pass). request() is the waiting form (set-up, the console, power-up):
# an exchange under way is seen to its end first and forgotten, its owner's take() then says
# "lost" (a read is asked again; a dispense is read back from the hopper's counters).
# Timing (ccTalk generic specification part 1 as device manuals restate it, e.g. Azkoyen's
# Modular X6 ccTalk manual s. 3.8): at most 50 ms between two bytes of a message, and a reply
# within 50 ms unless the command says otherwise; timeout_ms (100) bounds the whole reply.
from board import cctalk_frame
from board.cctalk_frame import MAX_FRAME, Scanner
from board.compat import const, ticks_add, ticks_diff, ticks_ms

HOST_ADDR = const(1)
HDR_ACK = const(0)
HDR_NAK = const(5)
HDR_BUSY = const(6)
BUSY_PAUSE_MS = const(20)
H_SIMPLE_POLL = const(254)
INTERBYTE_MS = const(50)  # a reply silent this long once started is broken: looked past, then retried

# the exchange on the bus
_FREE = const(0)
_ECHO = const(1)  # sent: our own bytes awaited
_REPLY = const(2)  # echo heard: the reply awaited
_PAUSE = const(3)  # BUSY: sent again once the pause is over
_DONE = const(4)  # an outcome: the reply (_rs, _rt) or the error (_err), for its owner's take()


class CcTalkError(Exception):
    """A transaction failed: reason is one of 'timeout', 'checksum', 'nak', 'busy', 'echo', 'frame',
    or 'lost' (an exchange seen to its end by a waiting request, its outcome not kept)."""

    def __init__(self, reason, header=0):
        super().__init__(reason)
        self.reason = reason
        self.header = header


def checksum(buf, n):
    return cctalk_frame.checksum(buf, n)


def build(buf, dest, src, header, data=b""):
    """Write a simple-checksum frame into buf; returns its length."""
    return cctalk_frame.build(buf, dest, src, header, data)


def ask(dev, header, data=b""):
    """A driver's read that never waits (dev has bus, addr and _tok, 0 when none is sent): the reply
    once it has come, None before (call again in a later pass); a lost exchange is sent again."""
    bus = dev.bus
    if not dev._tok:
        dev._tok = bus.send(dev.addr, header, data)
        if not dev._tok:
            return None  # the bus is another device's this pass
    try:
        r = bus.take(dev._tok)
    except CcTalkError as e:
        dev._tok = 0
        if e.reason == "lost":
            return None  # a read: asked again
        raise
    if r is not None:
        dev._tok = 0
    return r


def answers(dev):
    """A simple poll (header 254) that never waits: None until a reply is in, then True. Any reply
    proves the device is on the bus (a NAK too); a silent one raises its timeout in a later pass."""
    try:
        r = ask(dev, H_SIMPLE_POLL)
    except CcTalkError as e:
        if e.reason != "nak":
            raise
        return True
    return None if r is None else True


class Master:
    def __init__(self, uart, idle, addr=HOST_ADDR, echo=True, timeout_ms=100, retries=2, crc=False, clock=ticks_ms):
        self.uart = uart
        self.idle = idle  # idle(ms): wait for bytes without spinning (request(): never the loop's)
        self.addr = addr
        self.echo = echo
        self.timeout_ms = timeout_ms
        self.retries = retries
        self.crc = crc
        self.clock = clock  # the board's ticks_ms: each exchange's timeouts
        self._tx = bytearray(MAX_FRAME)
        self._txmv = memoryview(self._tx)
        self._rx = Scanner(crc=crc, resync=True)
        self._junk = bytearray(64)
        self._junkmv = memoryview(self._junk)
        self.stats = {"ok": 0, "timeout": 0, "checksum": 0, "echo": 0, "frame": 0, "nak": 0, "busy": 0}
        self._st = _FREE
        self._tok = 0  # the exchange on the bus (its owner holds the same number)
        self._seq = 0
        self._n = 0  # its command's length in _tx (sent again as it is on a retry)
        self._dest = 0
        self._left = 0  # retries left
        self._until = 0  # the reply's deadline (or the BUSY pause's end)
        self._heard = 0  # when the last byte came
        self._rs = 0  # the reply's data: rx.mv[_rs:_rt]
        self._rt = 0
        self._err = None

    # --- the exchange, never waiting --------------------------------------------------------------
    def send(self, dest, header, data=b"", retries=None):
        """Write one command; its exchange's number for take(), or 0 while the bus is another's."""
        if self._st != _FREE:
            return 0
        self._n = cctalk_frame.build(self._tx, dest, self.addr, header, data, self.crc)
        self._dest = dest
        self._left = self.retries if retries is None else retries
        self._seq = self._seq % 0x3FFF + 1  # a small int: no allocation on MicroPython
        self._tok = self._seq
        self._out()
        return self._tok

    def take(self, tok):
        """The exchange `tok` moved on with what has arrived: None while under way, the reply's data
        once answered (a view, valid until the next send), or its CcTalkError. Either ends it."""
        if tok != self._tok or not tok:
            raise CcTalkError("lost")
        if not self._step():
            return None
        self._st = _FREE
        self._tok = 0
        e = self._err
        if e is not None:
            self._err = None
            raise e
        return self._rx.mv[self._rs:self._rt]

    def _drain(self):
        # resynchronise before talking: whatever is waiting now is stale or garbage
        while self.uart.any():
            if not self.uart.readinto(self._junkmv):
                break
        self._rx.clear()

    def _out(self):
        self._drain()
        self._rx.bad = 0  # this attempt's checksum faults only
        self.uart.write(self._txmv[:self._n])
        now = self.clock()
        self._until = ticks_add(now, self.timeout_ms)
        self._heard = now
        self._st = _ECHO if self.echo else _REPLY

    def _fail(self, e):
        """A failed attempt: sent again while retries are left (NAK never), else the outcome."""
        self.stats[e.reason] += 1
        if e.reason != "nak" and self._left > 0:
            self._left -= 1
            if e.reason == "busy":
                self._st = _PAUSE  # the device asked us to come back later
                self._until = ticks_add(self.clock(), BUSY_PAUSE_MS)
            else:
                self._out()
            return False
        self._err = e
        self._st = _DONE
        return True

    def _step(self):
        """Move the exchange on with the bytes already received; True once it has an outcome."""
        rx = self._rx
        while True:
            st = self._st
            if st == _DONE:
                return True
            if st == _PAUSE:
                if ticks_diff(self._until, self.clock()) > 0:
                    return False
                self._out()
                continue
            r = self.uart.readinto(rx.room())
            now = self.clock()
            if r:
                rx.wrote(r)
                self._heard = now
            final = ticks_diff(now, self._until) >= 0 or (
                rx.pending() and ticks_diff(now, self._heard) >= INTERBYTE_MS)
            try:
                if self._parse(final):
                    self.stats["ok"] += 1
                    self._st = _DONE
                    return True
            except CcTalkError as e:
                if self._fail(e):
                    return True
                continue
            if not r:
                return False

    def _parse(self, final):
        """True once the reply is whole (_rs, _rt); raises the attempt's fault; False: not yet.
        final: no more bytes will come (its deadline, or the inter-byte gap, has passed)."""
        rx = self._rx
        if self._st == _ECHO:
            n = self._n
            if rx.pending() < n:
                if final:
                    raise CcTalkError("timeout")
                return False
            b = rx.buf
            s = rx.start
            tx = self._tx
            for i in range(n):
                if b[s + i] != tx[i]:
                    raise CcTalkError("echo")
            rx.skip(n)
            self._st = _REPLY
        while True:
            total = rx.next(self.addr, final)
            if total:
                s = rx.start
                b = rx.buf
                if not self.crc and b[s + 2] != self._dest:
                    rx.skip(total)  # a good frame, but another device's: not our reply
                    continue
                hdr = b[s + 3]
                if hdr == HDR_NAK:
                    raise CcTalkError("nak", hdr)
                if hdr == HDR_BUSY:
                    raise CcTalkError("busy", hdr)
                if hdr != HDR_ACK:
                    raise CcTalkError("frame", hdr)
                self._rs = s + 4
                self._rt = s + total - 1
                return True
            if final:
                raise CcTalkError("checksum" if rx.bad else "timeout")
            return False

    # --- waiting (set-up, the console, power-up: never the loop's polling) ------------------------
    def claim(self):
        """See the exchange on the bus (anyone's) to its end, waiting, and forget it: the bus is free.
        Its owner's take() says "lost"."""
        while self._st != _FREE and self._st != _DONE and not self._step():
            self.wait()
        self._st = _FREE
        self._tok = 0
        self._err = None

    def wait(self):
        """Idle until the exchange on the bus can have moved on (at most 10 ms)."""
        left = ticks_diff(self._until, self.clock())
        self.idle(max(1, min(left, 10)))

    def request(self, dest, header, data=b"", retries=None):
        """One command, waiting for its reply; returns the reply's data (a view, valid until the next
        call). An exchange already on the bus is seen to its end first (claim).

        retries: how many times a transient fault is retried (default: the bus's setting). Pass 0
        for commands whose repetition could act twice (dispense): the caller then finds out from
        the device's own counters whether the command was taken.
        """
        self.claim()
        tok = self.send(dest, header, data, retries)
        while True:
            r = self.take(tok)
            if r is not None:
                return r
            self.wait()
