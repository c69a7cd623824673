"""The coupon printer end to end on the host: board/printer_epic.py talking to sim/printer.py byte
for byte, the coupon's S-13.1, r. 7, s. 9 and 14 fields, the 18-digit control number valid under
an independent Luhn implementation (python-stdnum's `stdnum.luhn`; the number itself is checked in
tests/host/test_coupon_numbers.py), and the Interleaved 2 of 5 bar code of the rendered PNG (drawn
by zxing-cpp's writer) read back by zxing-cpp's reader and by a decoder written from ISO/IEC
16390's table in this test."""
from __future__ import annotations

import pytest
import zxingcpp
from PIL import Image
from stdnum import luhn

from board import printer_epic as p
from board.printer_epic import Printer, PrinterError
from firmware import config, coupon, coupon_number
from sim.printer import PrinterPeer, Ticket, itf_bars, render_png


class Loop:
    """The driver's UART wired straight to the peer's decoder (no socket: the same bytes)."""

    def __init__(self, peer: PrinterPeer):
        self.peer = peer
        self.rx = bytearray()

    def any(self) -> int:
        return len(self.rx)

    def readinto(self, buf) -> int | None:
        n = min(len(buf), len(self.rx))
        if not n:
            return None
        buf[:n] = self.rx[:n]
        del self.rx[:n]
        return n

    def write(self, data) -> int:
        self.rx += self.peer.feed(bytes(data))
        return len(data)


def rig(print_ms: int = 0) -> tuple[PrinterPeer, Printer]:
    peer = PrinterPeer(0, print_ms=print_ms)
    return peer, Printer(Loop(peer), lambda ms: None, timeout_ms=5)


REC = {"s": 42, "c": 100000, "k": 4000, "t": 1795415529}  # calendar.timegm((2026, 11, 23, 6, 32, 9)): 01:32:09 in Québec
KP = coupon_number.keypads(bytes(range(32)))
VID = 4242


def test_the_control_number_is_18_digits_valid_for_an_independent_luhn() -> None:
    n = coupon_number.control_number(KP, VID, 42)[1]
    assert len(n) == 18 and n[:8] == "00004242" and luhn.is_valid(n) and coupon_number.valid(n)
    assert len(n) % 2 == 0 and len(n) <= p.DIGITS  # Interleaved 2 of 5 pairs digits; the driver's bound


def test_dollars():
    assert coupon.dollars(100000) == "$1,000.00"
    assert coupon.dollars(5) == "$0.05"
    assert coupon.dollars(123456789) == "$1,234,567.89"


# ISO/IEC 16390 table 1: each digit's five elements, N narrow, W wide
ITF_PATTERNS = {"NNWWN": "0", "WNNNW": "1", "NWNNW": "2", "WWNNN": "3", "NNWNW": "4",
                "WNWNN": "5", "NWWNN": "6", "NNNWW": "7", "WNNWN": "8", "NWNWN": "9"}


def itf_decode(row: list[int]) -> str:
    """A row of pixels (0 black) read as ISO/IEC 16390 says, independently of any bar code library:
    start N N N N (bar, space, bar, space), then pairs of digits (five bars the first, the five
    spaces between them the second), stop W N N; an element is wide when over twice the narrowest."""
    runs: list[int] = []
    x = row.index(0)
    end = len(row) - row[::-1].index(0)
    while x < end:
        n = 1
        while x + n < end and (row[x + n] == 0) == (row[x] == 0):
            n += 1
        runs.append(n)
        x += n
    narrow = min(runs)
    els = "".join("W" if r > 2 * narrow else "N" for r in runs)
    assert els[:4] == "NNNN" and els[-3:] == "WNN", els
    body = els[4:-3]
    digits = ""
    for i in range(0, len(body), 10):
        pair = body[i:i + 10]
        digits += ITF_PATTERNS[pair[0::2]] + ITF_PATTERNS[pair[1::2]]
    return digits


def test_the_coupon_bar_code_is_the_standards_itf(tmp_path):
    # drawn by zxing-cpp's writer, read back by zxing-cpp's reader and by ISO/IEC 16390's own table
    for digits in ("00", "1234567890", coupon_number.control_number(KP, coupon_number.VID_MAX, 999999999)[1]):
        img = itf_bars(digits)
        got = zxingcpp.read_barcodes(img, formats=zxingcpp.BarcodeFormat.ITF)
        assert [g.text for g in got] == [digits]
        row = [img.getpixel((x, img.height // 2)) for x in range(img.width)]
        assert itf_decode(row) == digits
    with pytest.raises(ValueError, match="even count"):
        itf_bars("123")  # ISO/IEC 16390 pairs the digits: a printer refuses an odd count


def test_a_ticket_with_an_odd_bar_code_says_so_instead_of_failing(tmp_path):
    t = Ticket(lines=["x"], number="123", barcode="123", symbology=7, complete=True)
    render_png(t, str(tmp_path / "odd.png"))
    assert Image.open(tmp_path / "odd.png").size[0] == 520


def _print(pr: Printer, rec: dict, duplicate: bool = False) -> str:
    number = coupon_number.control_number(KP, VID, rec["s"])[1]
    pr.begin()
    pr.print_ticket(coupon.lines(rec, config, duplicate, 86400), number)
    return number


def test_coupon_fields_text_and_png(tmp_path):
    peer, pr = rig()
    number = _print(pr, REC)
    out: list = []
    pr.poll(out)
    assert out == [("printed", 0, 0)]
    [t] = peer.issued()
    assert t.number == number and t.barcode == number and t.symbology == 7
    text = t.text()
    for field in (config.COUPON_SCHEME, config.LICENCE_HOLDER, config.MACHINE_ID,
                  "Emis/Issued: 2026-11-23 01:32:09 HNE/EST", "A reclamer avant/Claim by:\n2026-11-24 01:32:09 HNE/EST",
                  "$1,000.00", "Credits: 4000", number):
        assert field in text, field
    assert "DUPLICATE" not in text
    png = tmp_path / "coupon.png"
    render_png(t, str(png))
    got = zxingcpp.read_barcodes(Image.open(png), formats=zxingcpp.BarcodeFormat.ITF)
    assert [g.text for g in got] == [number]


def test_duplicate_is_marked():
    peer, pr = rig()
    _print(pr, REC, duplicate=True)
    assert "DUPLICATA / DUPLICATE" in peer.issued()[0].text()


def test_paper_out_mid_print():
    peer, pr = rig()
    peer.paper_out_after(3)
    _print(pr, REC)
    t = peer.tickets[-1]
    assert not t.complete and t.fault == "paper out" and t.number is None and len(t.lines) == 3
    out: list = []
    pr.poll(out)
    assert out == [("fault", p.OUT, 0)] and pr.printing
    with pytest.raises(PrinterError, match="paper out"):
        _print(pr, REC)
    peer.fix()
    out = []
    pr.poll(out)
    assert out == [("clear", 0, 0)]
    number = _print(pr, REC)  # the coupon owed, again with its number
    out = []
    pr.poll(out)
    assert out == [("printed", 0, 0)] and [x.number for x in peer.issued()] == [number]


def test_jam_after_the_number_is_not_issued():
    peer, pr = rig()
    peer.jam_after(len(coupon.lines(REC, config, False, 86400)) + 1)  # the number printed, then the jam
    number = _print(pr, REC)
    t = peer.tickets[-1]
    assert t.number == number and t.barcode is None and not t.complete
    out: list = []
    f = pr.poll(out)
    assert out == [("fault", p.JAM, 0)] and f & p.VALIDATED and not f & p.BARCODE


def test_head_open_and_no_reply():
    peer, pr = rig()
    peer.head_open()
    assert pr.status() == p.OPEN
    peer.fix()
    peer.paper_low(True)
    assert pr.status() == p.LOW
    peer.mute(True)
    assert pr.status() == p.OFFLINE
