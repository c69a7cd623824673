# mp-heap: 768K  (as test_sas_polls.py: the 68 KB NVRAM image, the SAS modules and the cabinet from source)
# The SAS line is answered in the loop pass its poll arrives in, whatever the ccTalk bus is doing
# (issue 25: "reply within the response time SAS specifies", 20 ms: SAS 6.02 s. 2.3.2 as docs/sas.md
# cites it). A casino cabinet on its SAS line with the real ccTalk drivers (board/cctalk.py Master,
# board/coin_cctalk.py, board/hopper_cctalk.py) over a bus on the fake board's clock (Bus): the
# master's own bytes echoed at once, a device's reply `lag` ms after the command and then one byte a
# millisecond (9600 baud: 1.04 ms). A general poll is put on the line before every pass of the
# cabinet's loop, and each must be answered in that pass with the board's clock not moved before its
# reply, the Master never waiting (idle) inside the loop: while the acceptor answers slowly, while it
# is silent (unplugged), while a reply stops halfway, while the hopper pays. No wall clock: the fake
# board's clock moves only when something calls its idle(). The money is checked as well: each coin
# credited once with the counter that ends it (test_board_coin.py and test_firmware_coin_in.py hold
# the counter's rules), the payout booked once with the coins that left (test_board_hopper.py).
import gc

from fakes_board import Acceptor as FakeAcceptor
from fakes_board import Hopper as FakeHopper
from fakes_board import Wire
from fakes_cabinet import Board, make_cabinet
from fakes_firmware import FrameUart, RamNvram, memory, wiped
from sas_stamped_line import StampedLine

import rng
from board.cctalk import Master
from board.coin_cctalk import CoinAcceptor
from board.hopper_cctalk import Hopper
from firmware.config import Config
from firmware.hopper_out import HopperOut
from firmware.ledger import Ledger
from firmware.sas.exceptions import attach_queue
from firmware.sas.machine import SasMachine
from firmware.startup import _Store
from games import load

MODEL = "games/models/sept-royal-87.json"
NVRAM = RamNvram(69632)
TOKEN = 4  # credits of a $1 token at 25 cents (firmware/config.py COINS["CA100T"], DENOM_CENTS)


class Bus(Wire):
    """The ccTalk wire on the fake board's clock. lag: ms from a command to its reply's first byte;
    cut: the next reply stops after that many bytes (the rest never comes)."""

    def __init__(self, board):
        Wire.__init__(self)
        self.board = board
        self.lag = 0
        self.cut = None
        self.due = []  # (time, byte) of reply bytes not yet on the wire

    def write(self, data):
        n = len(self.rx)
        r = Wire.write(self, data)
        k = len(data)
        reply = bytes(self.rx[n + k:])
        self.rx = self.rx[:n + k]  # the echo is the master's own line: there at once
        if self.cut is not None:
            reply = reply[:self.cut]
            self.cut = None
        t = self.board.now + self.lag
        for i in range(len(reply)):
            self.due.append((t + i + 1, reply[i]))
        return r

    def _arrive(self):
        while self.due and self.due[0][0] <= self.board.now:
            self.rx += bytes((self.due.pop(0)[1],))

    def any(self):
        self._arrive()
        return Wire.any(self)

    def readinto(self, buf):
        self._arrive()
        return Wire.readinto(self, buf)


def boot(lag=0, hopper=False, bills=False):
    gc.collect()
    board = Board(wiped(NVRAM))
    led = Ledger(memory(board.nvram))
    led.open()
    attach_queue(led)
    bus = Bus(board)
    bus.devices[2] = FakeAcceptor()
    waits = []

    def idle(ms):  # a wait of the Master's, counted (and the board's clock moved by it)
        waits.append(ms)
        board.idle(ms)

    master = Master(bus, idle, clock=board.ticks_ms)
    cfg = Config({"HOPPER": hopper})
    logs = []

    def money_out(screen, found):
        h = None
        if hopper:
            bus.devices[3] = FakeHopper(stock=100, per_poll=1)
            h = Hopper(master, _Store(led.hopper_record, led.save_hopper_record), log=logs.append)
        return HopperOut(h, led, cfg, screen, board.ticks_ms, logs.append)

    validator = None
    if bills:  # a validator on the same bus (address 40): its 159 polls share it with the acceptor's 229
        from fakes_bills import Validator

        from board.bill_cctalk import BillValidator
        from firmware.bill_in import BillIn

        bus.devices[40] = Validator()
        validator = BillIn(BillValidator(master), led, cfg, logs.append)
    cab = make_cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")),
                       CoinAcceptor(master), cfg, money_out=money_out, bills=validator, log=logs.append)
    led.power_up()
    cab.resume()
    uart = FrameUart()
    cab.attach(None, SasMachine(cab, uart, 1, board.ticks_ms, gap_ms=10))
    for _ in range(60):  # power-up: set-up of the acceptor (and hopper), which waits; then the lag
        cab.step(10)
    bus.lag = lag
    del waits[:]
    cab.bus = bus
    cab.board = board
    cab.uart = uart
    cab.logs = logs
    cab.master = master
    return cab, waits


class Line(StampedLine):
    """The SAS port's writes, stamped with the fake board's clock."""

    def passes(self, n, late):
        """n loop passes, each with a general poll waiting on the line; a pass whose reply is missing
        or came after the board's clock had moved is appended to late."""
        cab = self.cab
        for i in range(n):
            cab.uart.rx.append(b"\x81")
            self.at = []
            t0 = cab.board.now
            cab.step(10)
            if not self.at or self.at[0] != t0:
                late.append((i, t0, self.at))


def test_polls_are_answered_in_their_pass_while_the_acceptor_answers_slowly():
    cab, waits = boot(lag=30)  # 30 ms before each reply: the reply is taken three passes later
    acc = cab.bus.devices[2]
    line = Line(cab)
    late = []
    line.passes(10, late)
    for _ in range(3):
        acc.event(1, 1)  # a $1 token at position 1
        line.passes(40, late)
    assert waits == [] and late == [], (waits[:5], late[:5])
    assert cab.ledger.credits == 3 * TOKEN and cab.ledger.acceptor_counter == acc.counter == 3  # each once
    assert cab.coins.ok and cab.master.stats["timeout"] == 0


def test_a_silent_acceptor_holds_no_poll():
    cab, waits = boot(lag=5)
    bus = cab.bus
    acc = bus.devices.pop(2)  # unplugged
    line = Line(cab)
    late = []
    line.passes(300, late)  # 3 s: the poll's timeouts, then only simple polls (its set-up waits)
    assert waits == [] and late == [], (waits[:5], late[:5])
    assert not cab.coins.ok and "acceptor: timeout" in cab.logs
    assert set(h for h in bus.headers(2)[-6:]) == {254}  # no set-up tried on a silent acceptor
    bus.devices[2] = acc  # plugged in again: set up (waiting, once), then polled without waiting
    for _ in range(30):
        cab.step(10)
    assert cab.coins.ok
    acc.event(1, 1)
    del waits[:]
    late = []
    line.passes(40, late)
    assert waits == [] and late == [] and cab.ledger.credits == TOKEN


def test_a_reply_that_stops_halfway_holds_no_poll_and_is_asked_again():
    cab, waits = boot(lag=3)
    acc = cab.bus.devices[2]
    line = Line(cab)
    late = []
    acc.event(1, 1)
    cab.bus.cut = 6  # the next 229 reply stops after 6 of its 16 bytes
    line.passes(60, late)
    assert waits == [] and late == [], (waits[:5], late[:5])
    assert cab.master.stats["timeout"] == 1  # the broken reply: its inter-byte timeout, then retried
    assert cab.ledger.credits == TOKEN and cab.ledger.acceptor_counter == 1  # credited once


def _tokens_in(n):
    """A hopper cabinet (replies 5 ms late) with n tokens credited, every poll answered in its pass."""
    cab, waits = boot(lag=5, hopper=True)
    line = Line(cab)
    late = []
    for _ in range(n):
        cab.bus.devices[2].event(1, 1)
        line.passes(20, late)
    assert cab.ledger.credits == n * TOKEN and late == []
    return cab, waits, line, late


def test_polls_are_answered_in_their_pass_while_the_hopper_pays():
    cab, waits, line, late = _tokens_in(3)
    hop = cab.bus.devices[3]
    board = cab.board
    del waits[:]
    board.pins["cashout"].value(1)  # the cash-out: its 166 and 168 read over passes, the record saved, its 167
    line.passes(6, late)
    board.pins["cashout"].value(0)
    assert waits == [] and late == [], (waits[:5], late[:5])  # the cash-out's own pass waits for none of them
    line.passes(300, late)  # 3 coins, one each 166 the hopper answers; the payout booked, settled
    assert waits == [] and late == [], (waits[:5], late[:5])
    assert hop.out == 3 and cab.ledger.credits == 0 and cab.ledger.meters["hopper_out"] == 3 * TOKEN, (
        hop.out, cab.ledger.credits, cab.ledger.meters, cab.logs[-8:])
    assert cab.money_out.hopper.record is None and hop.counter == 1  # one 167, booked once


def test_a_hopper_silent_at_the_cash_out_is_a_hand_pay_and_holds_no_poll():
    cab, waits, line, late = _tokens_in(2)
    hop = cab.bus.devices.pop(3)  # unplugged: the payout's first 166 is never answered
    board = cab.board
    board.pins["cashout"].value(1)
    line.passes(6, late)
    board.pins["cashout"].value(0)
    assert cab.ledger.paying is not None  # the payout under way: its readings on the bus
    line.passes(60, late)  # 166's timeout and retries, then the refusal
    assert waits == [] and late == [], (waits[:5], late[:5])
    led = cab.ledger
    assert led.lock == {"kind": "handpay", "amount": 2 * TOKEN} and led.paying is None, (led.lock, cab.logs[-6:])
    assert led.hopper_record() is None and hop.counter == 0 and led.meters["hopper_out"] == 0  # nothing paid
    assert any(line.startswith("hopper refused the payout (timeout)") for line in cab.logs)


def test_a_hopper_set_up_again_after_it_was_lost_holds_no_poll():
    cab, waits, line, late = _tokens_in(0)
    out = cab.money_out
    hop = cab.bus.devices.pop(3)  # unplugged: its idle check times out, the hopper is lost
    line.passes(700, late)  # 7 s: past the idle check (HOPPER_RETRY_MS) and its timeout
    assert not out.ok
    cab.bus.devices[3] = hop  # back: a simple poll, then its set-up (245, 163, 168, 164) a step a pass
    line.passes(700, late)
    assert out.ok and waits == [] and late == [], (waits[:5], late[:5], cab.logs[-4:])
    assert hop.enabled


def test_the_acceptor_and_the_validator_share_the_bus_and_hold_no_poll():
    cab, waits = boot(lag=10, bills=True)
    bus = cab.bus
    acc = bus.devices[2]
    line = Line(cab)
    late = []
    mark2, mark40 = len(bus.headers(2)), len(bus.headers(40))
    for _ in range(4):
        acc.event(1, 1)
        line.passes(30, late)
    assert waits == [] and late == [], (waits[:5], late[:5])
    assert cab.bills.ok and cab.coins.ok and cab.ledger.credits == 4 * TOKEN  # each coin once
    polls2 = bus.headers(2)[mark2:].count(229)
    polls40 = bus.headers(40)[mark40:].count(159)
    assert polls2 >= 4 * 2 and polls40 >= 8, (polls2, polls40)  # both polled (one exchange on the bus at a time)
