# Ticket printer driver (board/printer_epic.py): the bytes of a ticket and the status bits, each
# fault mapped to its event. Byte values: docs/drivers.md (Epic 950 family command set).
from devtest import raises
from fakes_printer import FakePrinter

from board import printer_epic as p
from board.printer_epic import Printer, PrinterError


def no_idle(ms):
    pass


def _rig():
    f = FakePrinter()
    return f, Printer(f, no_idle, timeout_ms=5)


def test_ticket_bytes():
    f, pr = _rig()
    pr.begin()
    pr.print_ticket(["LOTO-QUEBEC", "$12.50"], "1234567890")
    expect = (b"\x1b@" + b"\x1b@" + b"LOTO-QUEBEC\n$12.50\n" + b"\x1dE" + b"1234567890\n" + b"\x1dh\x50"
              + b"\x1dk\x07\x0a1234567890" + b"\x0c")
    assert bytes(f.data) == expect, bytes(f.data)


def test_printed_event_once():
    f, pr = _rig()
    pr.begin()
    pr.print_ticket(["A"], "00")
    out = []
    pr.poll(out)
    assert out == [("printed", 0, 0)]
    out = []
    pr.poll(out)
    assert out == []


def test_line_cut_and_cleaned():
    f, pr = _rig()
    pr.print_ticket(["x" * 50, "caf\u00e9\x07"], "12")
    text = bytes(f.data)
    assert b"x" * 40 + b"\n" in text and b"x" * 41 not in text
    assert b"caf??\n" in text


def test_each_character_is_one_column_whatever_its_utf8_length():
    # the driver walks a line's UTF-8 bytes (a str walked character by character made each one a
    # qstr, kept in the heap): a character of 2, 3 or 4 bytes is still one "?", and the cut at the
    # ticket's 40 columns counts characters
    f, pr = _rig()
    pr.print_ticket(["\u00e9t\u00e9 \u20ac5 \U0001F600!", "\u00e9" * 45 + "x"], "12")
    text = bytes(f.data)
    assert b"?t? ?5 ?!\n" in text
    assert b"\n" + b"?" * 40 + b"\n" in text and b"?" * 41 not in text and b"x\n" not in text


def test_the_lines_may_come_one_at_a_time():
    # firmware/coupon.py each_line hands the ticket's lines over as they are made
    f, pr = _rig()
    pr.print_ticket((t for t in ("LOTO-QUEBEC", "$12.50")), "1234567890")
    assert bytes(f.data).startswith(b"\x1b@LOTO-QUEBEC\n$12.50\n\x1dE1234567890\n")


def test_number_must_be_even_digits():
    f, pr = _rig()
    for bad in ("123", "12a4", "1" * 20, ""):
        with raises(ValueError):
            pr.print_ticket(["A"], bad)
    assert not f.data


def test_faults_named_and_refused():
    for attr, name, flag in (("out", "paper out", p.OUT), ("open", "head open", p.OPEN), ("jam", "paper jam", p.JAM)):
        f, pr = _rig()
        setattr(f, attr, True)
        with raises(PrinterError) as e:
            pr.print_ticket(["A"], "12")
        assert str(e.value) == name, (attr, str(e.value))
        assert f.tickets == 0 and b"\x0c" not in f.data  # nothing sent into a fault
        out = []
        pr.flags = 0
        pr.poll(out)
        assert out == [("fault", flag, 0)], out


def test_head_open_is_not_paper_out():
    f, pr = _rig()
    f.open = True  # the head up clears "ticket in printer" too
    assert pr.status() == p.OPEN


def test_no_reply_is_offline():
    f, pr = _rig()
    f.mute = True
    assert pr.status() == p.OFFLINE
    with raises(PrinterError) as e:
        pr.print_ticket(["A"], "12")
    assert str(e.value) == "no reply"


def test_a_poll_says_no_reply_only_after_misses_in_a_row():
    # one or two lost replies (a glitch, a busy board) are no fault; MISSES in a row are
    f, pr = _rig()
    pr.begin()
    for _ in range(3):
        f.mute = True
        for _ in range(p.MISSES - 1):
            out = []
            assert not pr.poll(out) & p.OFFLINE and out == []
        f.mute = False
        out = []
        assert pr.poll(out) == 0 and out == []  # an answer starts the count again
    f.mute = True
    out = []
    for _ in range(p.MISSES):
        flags = pr.poll(out)
    assert flags & p.OFFLINE and out == [("fault", p.OFFLINE, 0)]
    f.mute = False
    out = []
    assert pr.poll(out) == 0 and out == [("clear", 0, 0)]  # back at its first answer


def test_noise_is_not_a_status():
    f, pr = _rig()
    f.rx += b"\x00"  # stale byte: drained before the request
    assert pr.status() == 0
    bad = FakePrinter()
    orig = bad.write

    def write(data):
        n = orig(data)
        if bytes(data) == b"\x1dz":
            bad.rx[-1] &= ~0x08  # reserved bit missing: not a status byte
        return n

    bad.write = write
    assert Printer(bad, no_idle, timeout_ms=5).status() == p.OFFLINE


def test_paper_low_event_and_clear():
    f, pr = _rig()
    f.low = True
    out = []
    pr.poll(out)
    assert out == [("low", 1, 0)]
    f.low = False
    out = []
    pr.poll(out)
    assert out == [("low", 0, 0)]


def test_fault_mid_print_then_clear():
    f, pr = _rig()
    f.fault_at_ff = "jam"
    pr.print_ticket(["A"], "12")
    out = []
    pr.poll(out)
    assert out == [("fault", p.JAM, 0)]  # never "printed": the ticket did not carry its number out
    assert pr.printing
    f.jam = False
    f.path = False
    out = []
    pr.poll(out)
    assert out == [("clear", 0, 0)]
    assert pr.printing  # the ticket owed is the firmware's to send again

