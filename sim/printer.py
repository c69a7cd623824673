"""The emulated ticket printer: an Epic 950 command-set peer on the emulated board's printer UART.

It decodes every byte the firmware sends (board/printer_epic.py; the command set in
docs/drivers.md), answers the status requests GS z and DLE EOT 2, and turns each ticket (from
ESC @ to FF) into a `Ticket`: its text lines, its validation number (GS E) and its bar code
(GS k). A ticket renders as text (`Ticket.text()`) and as a PNG (`render_png`: Pillow, the
Interleaved 2 of 5 bar code drawn by the pinned zxing-cpp's writer, as a printer draws its own bars
from the digits it is sent), so a test can read it back with a bar code reader.

Fault injection: `paper_out_after(k)` / `jam_after(k)` (the fault strikes after k more lines of the
ticket being printed: a cut mid-print), `head_open()`, `paper_low(on)`, `mute(on)` (no reply),
`fix()` (paper loaded, jam cleared, head closed). A ticket stopped by a fault is kept with
`complete = False`; the status bits say how far it got (validation number printed or not).
"""
from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field

from sim.wire import dial, hang_up

ESC, GS, DLE, EOT, LF, FF = 0x1B, 0x1D, 0x10, 0x04, 0x0A, 0x0C


@dataclass
class Ticket:
    lines: list[str] = field(default_factory=list)
    number: str | None = None  # the GS E validation number, once printed
    barcode: str | None = None  # the digits of the GS k bar code, once printed
    symbology: int | None = None
    bar_height: int = 0
    complete: bool = False  # FF reached with no fault: the ticket was presented
    fault: str | None = None  # what stopped it

    def text(self) -> str:
        out = list(self.lines)
        if self.number is not None:
            out.append(self.number)
        if self.barcode is not None:
            out.append("||| ITF %s |||" % self.barcode if self.symbology == 7 else "??? bar code n=%s" % self.symbology)
        if not self.complete:
            out.append("--- stopped: %s ---" % (self.fault or "not finished"))
        return "\n".join(out) + "\n"


def itf_bars(digits: str, height: int = 90):
    """The Interleaved 2 of 5 symbol of `digits` (an even count: ISO/IEC 16390 pairs them) as a
    Pillow image, 2 pixels a narrow module, quiet zones included, drawn by zxing-cpp's writer."""
    import numpy
    import zxingcpp
    from PIL import Image

    if not digits.isdigit() or len(digits) % 2:
        raise ValueError("Interleaved 2 of 5 takes an even count of digits, got %r" % digits)
    code = zxingcpp.create_barcode(digits, zxingcpp.BarcodeFormat.ITF)
    bars = Image.fromarray(numpy.asarray(code.to_image(scale=2, add_quiet_zones=True)))
    return bars.resize((bars.width, height), Image.NEAREST)  # the same columns, a coupon's height


def render_png(ticket: Ticket, path: str, width: int = 520) -> None:
    """The ticket as a PNG: its lines in the default bitmap font, then the bar code."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default()
    line_h = 16
    text = ticket.lines + ([ticket.number] if ticket.number is not None else [])
    bars = None
    if ticket.barcode and ticket.symbology == 7:
        try:
            bars = itf_bars(ticket.barcode)
        except ValueError as e:  # what a printer refuses to draw is said on the ticket, not raised here
            text = text + ["??? %s" % e]
    bar_h = bars.height if bars else 0
    w = max(width, (bars.width if bars else 0) + 20)
    h = 20 + line_h * len(text) + (bar_h + 20 if bars else 0) + (line_h if not ticket.complete else 0)
    img = Image.new("L", (w, h), 255)
    draw = ImageDraw.Draw(img)
    y = 10
    for line in text:
        draw.text((10, y), line, fill=0, font=font)
        y += line_h
    if bars:
        y += 10
        img.paste(bars, ((w - bars.width) // 2, y))
        y += bar_h + 10
    if not ticket.complete:
        draw.text((10, y), "--- stopped: %s ---" % (ticket.fault or "not finished"), fill=0, font=font)
    img.save(path, "PNG")


class PrinterPeer:
    def __init__(self, port: int, print_ms: int = 30, out_dir: str | None = None):
        self.port = port
        self.out_dir = out_dir  # each ticket presented is also written there: coupon-N.txt and coupon-N.png
        self.print_ms = print_ms  # the ticket stays in the paper path this long after FF
        self.tickets: list[Ticket] = []
        self.requests = 0
        self.lock = threading.RLock()
        self._unsaved: list[tuple[Ticket, int]] = []  # tickets ended, their files not yet written
        self._low = False
        self._out = False
        self._open = False
        self._jam = False
        self._mute = False
        self._fault_after: tuple[str, int] | None = None
        self._validated = False
        self._barcoded = False
        self._path_until = 0.0
        self._cur: Ticket | None = None
        self._buf = bytearray()
        self._sock: socket.socket | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.connected = threading.Event()

    # --- fault injection ------------------------------------------------------------------------
    def paper_out_after(self, k: int) -> None:
        with self.lock:
            self._fault_after = ("paper out", k)

    def jam_after(self, k: int) -> None:
        with self.lock:
            self._fault_after = ("paper jam", k)

    def head_open(self) -> None:
        with self.lock:
            self._open = True
            self._stop_ticket("head open")

    def paper_low(self, on: bool = True) -> None:
        with self.lock:
            self._low = on

    def mute(self, on: bool = True) -> None:
        with self.lock:
            self._mute = on

    def fix(self) -> None:
        """Paper loaded, jam cleared, head closed: the printer is ready again."""
        with self.lock:
            self._out = self._jam = self._open = False
            self._fault_after = None
            self._path_until = 0.0

    # --- what was printed ------------------------------------------------------------------------
    def issued(self) -> list[Ticket]:
        with self.lock:
            return [t for t in self.tickets if t.complete]

    def save(self, t: Ticket, n: int) -> None:
        import os

        os.makedirs(self.out_dir, exist_ok=True)
        base = os.path.join(self.out_dir, "coupon-%d" % n)
        # each file appears whole (written aside, then renamed): a reader waiting for it never opens half
        with open(base + ".txt.part", "w") as f:
            f.write(t.text())
        os.replace(base + ".txt.part", base + ".txt")
        render_png(t, base + ".part.png")
        os.replace(base + ".part.png", base + ".png")

    def status_byte(self) -> int:
        with self.lock:
            z = 0x08
            z |= 0x01 if self._low else 0
            z |= 0x02 if not (self._out or self._open) else 0
            z |= 0x10 if self._barcoded else 0
            z |= 0x20 if self._validated else 0
            z |= 0x40 if time.monotonic() < self._path_until or self._jam else 0
            z |= 0x80 if self._jam else 0
            return z

    # --- the wire --------------------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> "PrinterPeer":
        self._sock = dial(self.port, timeout)
        self._sock.settimeout(0.2)
        with self.lock:
            self._buf.clear()  # the line was dead: a command cut by a power loss is not continued
        self._stop.clear()
        self.connected.set()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        hang_up(self._sock, self._thread)

    def _run(self) -> None:
        sock = self._sock
        while not self._stop.is_set():
            try:
                data = sock.recv(512)
            except socket.timeout:
                continue
            except OSError:
                return
            if not data:
                return
            with self.lock:
                replies = self.feed(data)
                done, self._unsaved = self._unsaved, []
            if replies:
                try:
                    sock.sendall(replies)
                except OSError:
                    return
            for t, n in done:  # a ticket's files are written outside the lock: status polls are answered
                self.save(t, n)  # meanwhile (Pillow's PNG took longer than the firmware waits on a loaded host)

    # --- the decoder -----------------------------------------------------------------------------
    def feed(self, data: bytes) -> bytes:
        """Decode bytes from the firmware; returns the replies to send back."""
        self._buf += data
        out = bytearray()
        b = self._buf
        while b:
            c = b[0]
            if c == GS:
                if len(b) < 2:
                    break
                cmd = b[1]
                if cmd == ord("z"):
                    del b[:2]
                    self.requests += 1
                    if not self._mute:
                        out.append(self.status_byte())
                elif cmd == ord("E"):
                    del b[:2]
                    self._ticket().pending_validation = True  # type: ignore[attr-defined]
                elif cmd == ord("h"):
                    if len(b) < 3:
                        break
                    self._ticket().bar_height = b[2]
                    del b[:3]
                elif cmd == ord("k"):
                    if len(b) < 4 or len(b) < 4 + b[3]:
                        break
                    n, m = b[2], b[3]
                    digits = bytes(b[4:4 + m]).decode("ascii", "replace")
                    del b[:4 + m]
                    if self._printing_ok() and self._step():
                        t = self._ticket()
                        t.symbology, t.barcode = n, digits
                        self._barcoded = True
                else:
                    del b[:2]  # a GS command this peer does not know: skipped
            elif c == DLE:
                if len(b) < 3:
                    break
                n = b[2]
                del b[:3]
                if n == 2 and not self._mute:
                    out.append(0x12 | (0x04 if self._open else 0) | (0x20 if self._out else 0)
                               | (0x40 if self._jam else 0))
            elif c == ESC:
                if len(b) < 2:
                    break
                if b[1] == ord("@"):
                    self._cur = None
                    self._validated = self._barcoded = False
                del b[:2]
            elif c == LF:
                del b[:1]
                self._end_line()
            elif c == FF:
                del b[:1]
                t = self._ticket()
                if getattr(t, "partial", ""):
                    self._end_line()  # text not ended by LF is printed by the form feed
                if self._printing_ok():
                    t.complete = True
                    self._path_until = time.monotonic() + self.print_ms / 1000
                    if self.out_dir:
                        self._unsaved.append((t, len(self.tickets)))
                self._cur = None
            else:
                del b[:1]
                t = self._ticket()
                t.partial = getattr(t, "partial", "") + chr(c)  # type: ignore[attr-defined]
        return bytes(out)

    def _ticket(self) -> Ticket:
        if self._cur is None:
            self._cur = Ticket()
            self.tickets.append(self._cur)
        return self._cur

    def _printing_ok(self) -> bool:
        return not (self._out or self._jam or self._open)

    def _stop_ticket(self, why: str) -> None:
        if self._cur is not None and not self._cur.complete and self._cur.fault is None:
            self._cur.fault = why

    def _step(self) -> bool:
        """One more line (or the bar code) goes through the head, unless the injected fault strikes."""
        if self._fault_after is None:
            return True
        kind, k = self._fault_after
        if k > 0:
            self._fault_after = (kind, k - 1)
            return True
        self._fault_after = None
        if kind == "paper out":
            self._out = True
        else:
            self._jam = True
        self._stop_ticket(kind)
        return False

    def _end_line(self) -> None:
        t = self._ticket()
        line = getattr(t, "partial", "")
        t.partial = ""  # type: ignore[attr-defined]
        if not self._printing_ok() or not self._step():
            return  # nothing more comes out of a printer at fault
        if getattr(t, "pending_validation", False):
            t.pending_validation = False  # type: ignore[attr-defined]
            t.number = line
            self._validated = True
        else:
            t.lines.append(line)
