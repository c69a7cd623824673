# Money in by notes (firmware/bills.py, firmware/bill_books.py) over the real driver and a byte-level
# fake validator, on a real ledger in RAM NVRAM: a note in escrow is stacked only once its credit is
# committed, is credited exactly once across restarts at every step of the exchange, and one that
# would pass a limit is returned. Limits: config.CREDIT_LIMIT and the vlt profile's $1,000
# automatic coupon (L-6, r. 3, s. 6; docs/reference/vlt-rules.md).
# mp-heap: 640K  (as test_firmware_cabinet.py: the 68 KB NVRAM image and two ledgers open at once)
import gc

from board.bill_cctalk import BillValidator
from board.cctalk import Master
from fakes_bills import Validator
from fakes_board import Wire, no_idle
from fakes_firmware import RamNvram, memory, wiped
from firmware.bills import BillIn, counter_after
from firmware.ledger import Ledger

NVRAM = RamNvram(69632)


class Cfg:
    DENOM_CENTS = 25
    CREDIT_LIMIT = 4000
    ACCEPTOR_POLL_MS = 100
    JURISDICTION = "vlt"


class Cab:
    def __init__(self, ledger):
        self.ledger = ledger
        self.tilts = {}
        self.disruptions = []
        self.money = True

    def want_money(self):
        return self.money and not self.tilts

    def set_tilt(self, kind, why):
        self.tilts[kind] = why

    def disrupted(self, why):
        self.disruptions.append(why)

    def show(self):
        pass


class Machine:
    """One power-up: ledger from NVRAM, driver and service; the validator and its wire outlive it."""

    def __init__(self, wire, cfg=Cfg):
        gc.collect()
        self.ledger = Ledger(memory(NVRAM))
        self.ledger.open()
        self.cab = Cab(self.ledger)
        self.bills = BillIn(BillValidator(Master(wire, no_idle, timeout_ms=20, retries=0)), self.ledger, cfg,
                            lambda m: None)
        self.t = 0

    def step(self, n=1):
        for _ in range(n):
            self.t += 100
            self.bills.service(self.t, self.cab)

    def committed(self):
        """What a restart would find in NVRAM now."""
        led = Ledger(memory(NVRAM))
        led.open()
        return led


def fresh():
    wiped(NVRAM)
    wire = Wire()
    dev = Validator()
    wire.devices[40] = dev
    m = Machine(wire)
    m.step(2)  # set up and enabled
    return wire, dev, m


def test_counter_after_wraps_like_the_validator():
    assert counter_after(0, 1) == 1 and counter_after(254, 1) == 255 and counter_after(255, 1) == 1
    assert counter_after(254, 3) == 2


def test_only_canadian_notes_in_whole_credits_are_enabled():
    wire, dev, m = fresh()
    assert dev.mask == 0x1F and dev.master == 1 and dev.mode == 3
    assert m.bills.values == {1: 500, 2: 1000, 3: 2000, 4: 5000, 5: 10000}
    wiped(NVRAM)
    wire = Wire()
    dev = Validator()
    dev.ids[6] = "US0020A"
    wire.devices[40] = dev
    m = Machine(wire)
    m.step(2)
    assert 6 not in m.bills.values and dev.mask == 0x1F


def test_a_twenty_is_committed_before_it_is_stacked_and_credited_once():
    wire, dev, m = fresh()
    seen = []
    dev.on_route = lambda code: seen.append((code, m.committed().bill_pending))
    dev.insert(3)
    m.step()
    assert seen == [(1, {"t": 3, "k": 80})]  # in NVRAM when the stack command left
    assert m.ledger.credits == 0  # not yet: the note is on its way to the stacker
    m.step()
    assert m.ledger.credits == 80 and m.ledger.meters["bill_in"] == 80 and m.ledger.bill_pending is None
    m.ledger.audit()
    m.step(3)
    assert m.ledger.credits == 80
    assert m.ledger.events()[-1][2] == "bill" and "CA0020A: +80 credits" in m.ledger.events()[-1][3]


def test_a_cut_before_the_stack_command_stacks_it_at_power_up_and_credits_once():
    wire, dev, m = fresh()
    dev.insert(4)
    wire.faults = [None, None, "drop"]  # two 159 readings get through; the stack command is lost with the power
    m.step()
    assert dev.escrow == 4 and m.committed().bill_pending["k"] == 200
    m = Machine(wire)  # power up from NVRAM
    m.step(3)
    assert dev.escrow is None and m.ledger.credits == 200 and m.ledger.meters["bill_in"] == 200
    m = Machine(wire)
    m.step(3)
    assert m.ledger.credits == 200  # once


def test_a_cut_after_the_note_is_stacked_credits_it_at_power_up_once():
    wire, dev, m = fresh()
    dev.insert(2)
    m.step()  # pending committed, stacked by the validator; the stacked event not yet read
    assert dev.escrow is None and m.ledger.credits == 0
    m = Machine(wire)
    m.step(3)
    assert m.ledger.credits == 40 and dev.routes[-1] == 1  # set-up routed again: escrow empty (254)
    m = Machine(wire)
    m.step(3)
    assert m.ledger.credits == 40


def test_a_cut_before_the_escrow_is_committed_hands_the_note_back():
    wire, dev, m = fresh()
    dev.insert(5)
    m = Machine(wire)  # the escrow event was never read: nothing committed for it
    m.step(4)
    # set-up handed back the unjournaled note; the escrow event read afterwards finds the escrow empty
    assert dev.escrow is None and m.ledger.credits == 0 and m.ledger.bill_pending is None
    assert 0 in dev.routes and dev.events[0] == (0, 1)


def test_a_note_past_the_credit_limit_is_returned():
    wire, dev, m = fresh()
    for _ in range(3):  # $300 in credits
        dev.insert(5)
        m.step(2)
    assert m.ledger.credits == 1200
    m.ledger.st["credits"] = 3990  # 10 below CREDIT_LIMIT 4000 ($997.50): a $5 (20 credits) passes it
    m.ledger.st["m"]["bill_in"] += 2790
    dev.insert(1)
    m.step(2)
    assert dev.routes[-1] == 0 and m.ledger.credits == 3990 and dev.escrow is None
    ev = m.ledger.events()[-1]
    assert ev[2] == "bill-back" and "would pass the credit limit" in ev[3]


def test_the_vlt_automatic_coupon_is_a_limit_too():
    class Big(Cfg):
        CREDIT_LIMIT = 10 ** 6

    wiped(NVRAM)
    wire = Wire()
    dev = Validator()
    wire.devices[40] = dev
    m = Machine(wire, Big)
    m.step(2)
    m.ledger.st["credits"] = 3800  # $950: a $50 reaches $1,000 exactly (taken), a $100 would pass it
    m.ledger.st["m"]["bill_in"] = 3800
    dev.insert(5)
    m.step(2)
    assert m.ledger.credits == 3800 and dev.routes[-1] == 0
    dev.insert(4)
    m.step(2)
    assert m.ledger.credits == 4000


def test_a_note_while_money_must_not_be_taken_is_returned():
    wire, dev, m = fresh()
    dev.insert(1)
    m.cab.money = False
    m.step(2)
    assert m.ledger.credits == 0 and dev.routes[-1] == 0


def test_stacker_full_jam_and_fraud_tilt_and_a_full_stacker_hands_the_note_back():
    wire, dev, m = fresh()
    dev.full = True
    dev.insert(2)
    m.step(2)
    assert dev.routes[-2:] == [1, 0] and m.ledger.credits == 0  # 255: failed to stack, so returned
    m.step()
    assert m.ledger.bill_pending is None  # the returned event dropped it
    dev.event(0, 14)
    m.step()
    assert m.cab.tilts["acceptor"] == "bill validator: stacker full"
    m.cab.tilts = {}
    dev.event(0, 6)
    m.step()
    assert m.cab.tilts["acceptor"] == "bill validator: bill jammed in transport (unsafe mode)"
    dev.event(0, 18)
    m.step()
    assert m.cab.tilts["fraud"] == "bill validator: string fraud detected" and m.cab.disruptions


def test_a_note_stacked_without_a_commit_is_never_credited():
    wire, dev, m = fresh()
    dev.event(3, 0)  # a validator that stacked on its own
    m.step()
    assert m.ledger.credits == 0 and "without a commit" in m.cab.tilts["acceptor"]


def test_a_replayed_counter_credits_nothing():
    wire, dev, m = fresh()
    dev.insert(3)
    m.step(2)
    assert m.ledger.credits == 80
    dev.counter -= 1
    m.step()
    assert m.ledger.credits == 80 and m.cab.tilts["acceptor"].startswith("bill validator: event counter out of sequence")
