# Serial ticket printer in the TransAct Epic 950 command set (the casino/VLT ticket printer family;
# sources and sections in docs/drivers.md). One ticket is: ESC @ (reset), text lines ended by LF,
# GS E then the validation (control) number and LF, the same number as an Interleaved 2 of 5 bar
# code (GS h height, GS k 7 m digits), FF (print and advance the form: the ticket is presented).
# Status: GS z answers one byte; DLE EOT 2 answers the off-line cause byte (head/cover open).
#
# The cabinet's loop never waits on the printer (the SAS line must be answered within 20 ms, SAS
# 6.02 s. 2.3.2; docs/sas.md): service(out) sends a status request and returns None; later calls
# take its bytes as they come (or its timeout, on the driver's clock), and the call that completes
# it returns the flags. status() and poll(out) wait for the answer (idle): power-up, the console.
#
# status() -> flags, a bit set of the module's constants:
#   LOW (paper low)  OUT (no ticket in the printer)  OPEN (head or cover open)  JAM
#   PATH (a ticket in the paper path)  BARCODE (bar code completed)  VALIDATED (validation number
#   printed: from then on the ticket carries its number)
# poll(out) / service(out) append events (kind, a, b), as the other drivers do:
#   ("low", 1|0, 0)       paper low appeared / went away           -> event, attendant
#   ("fault", code, 0)    OUT / OPEN / JAM appeared, or F_OFFLINE    -> printer tilt
#   ("clear", 0, 0)       no fault any more                          -> the tilt may be cleared
#   ("printed", 0, 0)     the ticket sent last carries its number and bar code, and has left the
#                         paper path: it is issued
from board.compat import const, ticks_add, ticks_diff, ticks_ms

ESC = const(0x1B)
GS = const(0x1D)
DLE = const(0x10)
EOT = const(0x04)
LF = const(0x0A)
FF = const(0x0C)
CMD_RESET = b"\x1b@"  # ESC @
CMD_STATUS = b"\x1dz"  # GS z: one status byte
CMD_OFFLINE = b"\x10\x04\x02"  # DLE EOT 2: off-line cause
CMD_VALIDATION = b"\x1dE"  # GS E: the next text is the validation number
ITF = const(7)  # GS k symbology: Interleaved 2 of 5
BAR_HEIGHT = const(80)  # dots of 1/8 mm: 10 mm

# GS z status byte
Z_LOW = const(0x01)
Z_IN = const(0x02)  # a ticket is in the printer (0: paper out; also cleared while the head is up)
Z_ONE = const(0x08)  # reserved, always 1: a byte without it is not a status reply
Z_BARCODE = const(0x10)
Z_VALIDATED = const(0x20)
Z_PATH = const(0x40)
Z_JAM = const(0x80)
# DLE EOT 2 off-line cause byte: bit 1 always 1, bit 4 always 1, bit 2 cover open
O_FIXED = const(0x12)
O_OPEN = const(0x04)

# flags
LOW = const(1)
OUT = const(2)
OPEN = const(4)
JAM = const(8)
PATH = const(16)
BARCODE = const(32)
VALIDATED = const(64)
OFFLINE = const(128)  # no valid reply
FAULTS = const(2 | 4 | 8 | 128)
NAMES = ((OUT, "paper out"), (OPEN, "head open"), (JAM, "paper jam"), (OFFLINE, "no reply"), (LOW, "paper low"))

# silent status requests in a row before a poll says "no reply": one lost reply is a glitch on the
# line or a busy board, not a dead printer (its tilt wants the attendant's key)
MISSES = const(3)

# the status request in flight (service)
_NONE = const(0)
_Z = const(1)  # GS z sent, its byte awaited
_O = const(2)  # DLE EOT 2 sent, its byte awaited

LINE = const(40)  # characters a line of a 65 mm ticket holds in the standard font
DIGITS = const(18)  # longest control number the driver sends (even: Interleaved 2 of 5 pairs digits)


class PrinterError(Exception):
    """The printer cannot take a ticket now: reason names the fault ("paper out", "no reply" ...)."""


def describe(flags):
    """The faults in flags, named: "paper out, head open"."""
    out = []
    for bit, name in NAMES:
        if flags & bit and bit != LOW:
            out.append(name)
    return ", ".join(out)


class Printer:
    def __init__(self, uart, idle, timeout_ms=200, clock=ticks_ms):
        self.uart = uart
        self.idle = idle  # idle(ms): wait for bytes without spinning (status, poll: never the loop's)
        self.timeout_ms = timeout_ms
        self.clock = clock  # the board's ticks_ms: each request's timeout
        self._rx = bytearray(1)
        self._junk = bytearray(16)
        self._buf = bytearray(LINE + 1)  # one line at a time: no ticket-sized temporary
        self._bar = bytearray(4 + DIGITS)
        self.flags = 0  # last status read, as poll reports it (a silence counts at MISSES)
        self.last = 0  # last status read, as the printer gave it (OFFLINE at the first silence)
        self.printing = False  # a ticket was sent and has not been seen issued yet
        self.misses = 0  # silent polls in a row (MISSES)
        self.asking = _NONE  # the status request in flight (0: none): its answer is taken by service()
        self._z = 0  # GS z's byte, while DLE EOT 2's is awaited
        self._until = 0  # the timeout of the request in flight

    # --- status -----------------------------------------------------------------------------------
    def _drain(self):
        while self.uart.any():
            if not self.uart.readinto(self._junk):
                break

    def _send(self, q, cmd):
        self._drain()  # a late reply to an earlier request is not this one's
        self.uart.write(cmd)
        self.asking = q
        self._until = ticks_add(self.clock(), self.timeout_ms)

    def _answer(self):
        """The request in flight, moved on: the flags once both bytes came (or a timeout), else None.
        Never waits."""
        while True:
            if self.uart.any() and self.uart.readinto(self._rx):
                if self.asking == _Z:
                    self._z = self._rx[0]
                    self._send(_O, CMD_OFFLINE)
                    continue  # a printer already answering: both bytes in one call
                self.asking = _NONE
                z = self._z
                o = self._rx[0]
                if not z & Z_ONE or o & O_FIXED != O_FIXED:
                    f = OFFLINE  # not status bytes
                else:
                    f = LOW if z & Z_LOW else 0
                    if o & O_OPEN:
                        f |= OPEN  # the head up also clears "ticket in printer": it is not a paper out
                    elif not z & Z_IN:
                        f |= OUT
                    if z & Z_JAM:
                        f |= JAM
                    if z & Z_PATH:
                        f |= PATH
                    if z & Z_BARCODE:
                        f |= BARCODE
                    if z & Z_VALIDATED:
                        f |= VALIDATED
                self.last = f
                return f
            if ticks_diff(self._until, self.clock()) > 0:
                return None
            self.asking = _NONE
            self.last = OFFLINE  # no reply in timeout_ms (to GS z: DLE EOT 2 is not asked)
            return OFFLINE

    def status(self):
        """Read GS z and DLE EOT 2 into flags, waiting for them (idle); OFFLINE when either has no
        valid reply. A request in flight is dropped: asked again."""
        self._send(_Z, CMD_STATUS)
        while True:
            f = self._answer()
            if f is not None:
                return f
            self.idle(max(1, min(ticks_diff(self._until, self.clock()), 10)))

    def service(self, out):
        """The loop's poll, never waiting: sends a status request when none is in flight, takes what
        came of it; None until it is answered (or timed out), then as poll()."""
        if self.asking == _NONE:
            self._send(_Z, CMD_STATUS)
        f = self._answer()
        return None if f is None else self._changes(f, out)

    def poll(self, out):
        """Append the changes since the last poll; returns the flags read. Waits for the answer."""
        return self._changes(self.status(), out)

    def _changes(self, f, out):
        was = self.flags
        if f & OFFLINE and not was & OFFLINE:
            self.misses += 1
            if self.misses < MISSES:
                return was  # not yet: nothing changed
        self.misses = 0
        self.flags = f
        if (f ^ was) & LOW and not f & OFFLINE:
            out.append(("low", 1 if f & LOW else 0, 0))
        new = f & FAULTS & ~was
        if new:
            out.append(("fault", new, 0))
        elif was & FAULTS and not f & FAULTS:
            out.append(("clear", 0, 0))
        if self.printing and not f & FAULTS and f & VALIDATED and f & BARCODE and not f & PATH:
            self.printing = False
            out.append(("printed", 0, 0))
        return f

    # --- printing ---------------------------------------------------------------------------------
    def begin(self):
        """Reset the printer (ESC @: it forgets a half-received ticket) and read its status."""
        self.uart.write(CMD_RESET)
        self.printing = False
        self.flags = self.status()
        return self.flags

    def _line(self, text):
        b = self._buf
        n = 0
        # its UTF-8 bytes, not its characters: iterating a str makes each character a qstr, kept in
        # the heap for good, its pool grown at the cash-out, a VLT's session peak
        for c in text.encode():
            if 0x80 <= c < 0xC0:
                continue  # a character's continuation byte: its lead byte was its "?"
            if n == LINE:
                break  # cut at the ticket's width: the caller's lines are made to fit
            b[n] = c if 32 <= c < 127 else 63  # "?": only printable ASCII reaches the printer
            n += 1
        b[n] = LF
        self.uart.write(memoryview(b)[:n + 1])

    def print_ticket(self, lines, number, flags=None):
        """Send one ticket: the text lines, the validation number as text and as a bar code. The
        printer must be ready (PrinterError names the fault otherwise): a ticket is never sent
        into a fault. flags: the status the caller has just read (service's, in the same loop pass:
        `last`); None: read now, waiting for it. Completion is seen by poll() ("printed")."""
        if not (number.isdigit() and len(number) % 2 == 0 and len(number) <= DIGITS):
            raise ValueError("control number must be an even count of digits, at most %d" % DIGITS)
        f = self.status() if flags is None else flags
        self.flags = f
        if f & FAULTS:
            raise PrinterError(describe(f))
        self.uart.write(CMD_RESET)
        self.printing = True
        for text in lines:
            self._line(text)
        self.uart.write(CMD_VALIDATION)
        self._line(number)
        bar = self._bar
        bar[0] = GS
        bar[1] = 0x68  # GS h: bar code height
        bar[2] = BAR_HEIGHT
        self.uart.write(memoryview(bar)[:3])
        bar[0] = GS
        bar[1] = 0x6B  # GS k n m d1..dm
        bar[2] = ITF
        bar[3] = len(number)
        i = 4
        for c in number.encode():  # digits (checked above): bytes, as in _line
            bar[i] = c
            i += 1
        self.uart.write(memoryview(bar)[:4 + len(number)])
        self._buf[0] = FF
        self.uart.write(memoryview(self._buf)[:1])
