# mp-heap: 896K  (the fake board's 128 KB NVRAM image, a game model, the printer and the SAS modules)
# The SAS line is answered in the loop pass its poll arrives in, whatever the coupon printer is doing
# (issue 25: "reply within the response time SAS specifies", 20 ms: SAS 6.02 s. 2.3.2 as docs/sas.md
# cites it). A vlt cabinet on its SAS line (fakes_sas_vlt.py) whose printer answers each status
# request only after the driver has looked at its UART a few times (a printer busy printing, a slow
# line): a general poll is put on the line before every pass of the cabinet's loop while a coupon is
# committed, printed and issued, and each must be answered in that pass with the board's clock not
# moved before its reply, the printer driver never waiting (idle) inside the loop. No wall clock: the
# fake board's clock moves only when something calls its idle(). The coupon's guarantees (committed
# first, issued only once the printer says so, a silent printer a tilt) are test_firmware_coupon_*'s;
# here they are checked again with the late answers.
from fakes_cabinet import Board, press, steps
from fakes_firmware import wiped
from fakes_printer import FakePrinter, tickets_sent
from fakes_sas_vlt import NVRAM, VID, boot, coins, drain
from sas_stamped_line import StampedLine

from board import printer_epic as p
from firmware import coupon_system


class LatePrinter(FakePrinter):
    """Each status reply comes only once the driver has found the UART empty `lag` times (any()):
    a printer that takes its time, on a line that takes its time."""

    def __init__(self, lag=0):
        FakePrinter.__init__(self)
        self.lag = lag
        self.held = bytearray()  # the reply not yet on the wire
        self.looks = 0  # empty looks left before it is

    def any(self):
        if self.held and not self.rx:
            if self.looks > 0:
                self.looks -= 1
                return 0
            self.rx += self.held
            self.held = bytearray()
        return len(self.rx)

    def write(self, data):
        n = len(self.rx)
        r = FakePrinter.write(self, data)
        if self.lag and len(self.rx) > n:  # a status reply: held back
            self.held += self.rx[n:]
            self.rx = self.rx[:n]
            self.looks = self.lag
        return r


class Line(StampedLine):
    """The SAS port's writes, stamped with the fake board's clock."""

    def pass_with_poll(self):
        """One loop pass with a general poll waiting on the line; (the board's clock at the pass's
        start, the clock at each write of the pass)."""
        cab = self.cab
        cab.uart.rx.append(b"\x81")
        self.at = []
        t0 = cab.board.now
        cab.step(10)
        return t0, self.at


def cabinet(lag):
    board = Board(wiped(NVRAM))
    fake = LatePrinter()
    cab = boot(board, fake)  # its power-up's status answered at once
    coupon_system.set_validation_id(cab, VID)
    drain(cab)
    pr = cab.money_out.printer
    waits = []

    def idle(ms):
        waits.append(ms)
        board.idle(ms)

    pr.idle = idle  # what the driver would wait, counted (and the board's clock moved by it)
    pr.clock = board.ticks_ms  # its timeouts on the board's clock
    pr.timeout_ms = 1000  # a late answer is no timeout here: only the waiting is measured
    fake.lag = lag
    return cab, board, fake, waits


def test_every_poll_is_answered_in_its_pass_while_the_coupon_prints_on_a_slow_printer():
    cab, board, fake, waits = cabinet(lag=3)
    coins(cab, 3)
    line = Line(cab)
    press(board, cab, "cashout")
    late = []
    for i in range(120):
        t0, at = line.pass_with_poll()
        if not at or at[0] != t0:
            late.append((i, t0, at))
    assert waits == [], waits[:10]  # the driver never waited inside the loop
    assert late == [], late[:5]  # each poll's reply written in its pass, the clock not moved before it
    [rec] = cab.ledger.coupons()
    assert rec["k"] == 12 and rec["st"] == "issued", rec  # issued once the printer said so
    assert fake.tickets == 1 and tickets_sent(fake) == [rec["n"]]
    assert "printer" not in cab.tilts and cab.money_out.printer.misses == 0  # the late answers were taken


def test_a_silent_printer_holds_no_poll_and_is_still_a_tilt():
    cab, board, fake, waits = cabinet(lag=0)
    pr = cab.money_out.printer
    pr.timeout_ms = 200  # the driver's own (board/printer_epic.py)
    coins(cab, 1)
    line = Line(cab)
    fake.mute = True
    press(board, cab, "cashout")
    late = []
    for i in range(1200):  # 12 s of the board's clock: MISSES requests, each after PRINTER_IDLE_MS
        t0, at = line.pass_with_poll()
        if not at or at[0] != t0:
            late.append((i, t0, at))
    assert waits == [] and late == [], (waits[:5], late[:5])
    assert cab.tilts.get("printer") == "no reply" and cab.ledger.coupon_owed()["k"] == 4
    assert fake.tickets == 0


def test_the_key_clears_the_printer_tilt_on_the_answer_that_follows_it():
    cab, board, fake, waits = cabinet(lag=4)
    coins(cab, 1)
    fake.out = True
    press(board, cab, "cashout")
    steps(cab, 20)
    assert cab.tilts.get("printer") == "paper out" and fake.tickets == 0
    line = Line(cab)
    board.pins["key_reset"].value(1)  # paper still out: the key asks, the answer refuses
    for _ in range(20):
        t0, at = line.pass_with_poll()
        assert at and at[0] == t0
    board.pins["key_reset"].value(0)
    steps(cab, 8)
    assert cab.tilts.get("printer") == "paper out"
    fake.out = False  # paper loaded, then the key
    board.pins["key_reset"].value(1)
    for _ in range(20):
        t0, at = line.pass_with_poll()
        assert at and at[0] == t0
    board.pins["key_reset"].value(0)
    steps(cab, 40)
    assert "printer" not in cab.tilts and fake.tickets == 1 and waits == []
    assert cab.ledger.coupons()[-1]["st"] == "issued" and cab.ledger.coupon_owed() is None


def test_the_driver_asks_then_takes_the_answer_in_later_calls():
    fake = LatePrinter(lag=2)
    now = [0]
    waits = []
    pr = p.Printer(fake, waits.append, timeout_ms=50, clock=lambda: now[0])
    out = []
    for _ in range(2 * 2):  # GS z sent, its byte after two empty looks; then DLE EOT 2's alike
        assert pr.service(out) is None and fake.held
    assert pr.service(out) == 0 and out == [] and waits == []  # both bytes: a ready printer
    fake.mute = True  # then silent: OFFLINE once timeout_ms has passed on its clock, MISSES in a row
    for k in range(p.MISSES):
        assert pr.service(out) is None
        now[0] += 49
        assert pr.service(out) is None
        now[0] += 1
        f = pr.service(out)
        assert f is not None and (f & p.OFFLINE) == (p.OFFLINE if k == p.MISSES - 1 else 0), (k, f)
    assert out == [("fault", p.OFFLINE, 0)] and waits == []
