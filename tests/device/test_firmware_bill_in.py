# Money in by notes (firmware/bill_in.py, firmware/bill_books.py) over the real driver and a byte-level
# fake validator, on a real ledger in RAM NVRAM: a note in escrow is stacked only once its credit is
# committed, is credited exactly once across restarts at every step of the exchange, and one that
# would pass a limit is returned. Limits: config.CREDIT_LIMIT and the vlt profile's $1,000
# automatic coupon (L-6, r. 3, s. 6; docs/reference/vlt-rules.md). A note whose fate nothing proves
# (the validator powered off with the cabinet, issue 22.4; its events lost to a counter fault, 22.5)
# is kept as a note of unknown fate until the attendant settles it, and no refusal of another note
# ever wipes the record of the one being stacked.
# mp-heap: 640K  (as test_firmware_cabinet.py: the 68 KB NVRAM image and two ledgers open at once)
import gc

from devtest import raises
from fakes_bills import Validator
from fakes_board import Wire, no_idle
from fakes_firmware import RamNvram, memory, wiped

from board.bill_cctalk import BillValidator
from board.cctalk import Master
from firmware.bill_in import BillIn, counter_after
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
        return self.money and not self.tilts and not self.ledger.tilts  # a tilt in the books stops money too

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
    assert seen == [(1, {"t": 3, "k": 80, "c": 1})]  # in NVRAM when the stack command left, with its escrow event's counter
    assert m.ledger.credits == 0  # not yet: the note is on its way to the stacker
    m.step()
    assert m.ledger.credits == 80 and m.ledger.meters["bill_in"] == 80 and m.ledger.bill_pending is None
    m.ledger.audit()
    m.step(3)
    assert m.ledger.credits == 80
    assert m.ledger.events()[-1][2] == "bill" and "CA0020A stacked: +80 credits" in m.ledger.events()[-1][3]


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
    assert m.ledger.credits == 40 and dev.routes.count(1) == 1  # its stacked event, read first, settled it: no second route
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


def _books(led):
    return led.credits, led.meters["bill_in"], led.bill_pending, led.bill_unknown


def test_a_note_stacked_as_the_validator_loses_power_waits_for_the_attendant_issue_22_4():
    wire, dev, m = fresh()
    dev.insert(3)
    m.step()  # committed, routed: the $20 is in the stacker, its stacked event not yet read
    assert dev.stacked == [3] and m.committed().bill_pending["k"] == 80
    dev.power_cycle()  # the cabinet's supply goes, the validator's with it: counter 0, buffer empty
    m = Machine(wire)
    m.step(3)
    led = m.ledger
    u = led.bill_unknown
    assert u["id"] == "CA0020A" and u["k"] == 80 and u["s"] > 0 and "validator reset" in u["why"]
    assert led.credits == 0 and led.meters["bill_in"] == 0 and led.bill_pending is None
    assert led.meters["bill_unproven"] == 1 and led.meters["bill_unproven_credits"] == 80
    assert "note" in led.tilts and dev.master == 0  # money in stops
    ev = [e for e in led.events() if e[2] == "bill-unknown"]
    assert len(ev) == 1 and "CA0020A (80 credits) fate unknown: validator reset" in ev[0][3]
    assert m.committed().bill_unknown == u  # in critical memory: a power cycle keeps it
    led.audit()
    m = Machine(wire)
    m.step(3)
    assert m.ledger.bill_unknown == u and m.ledger.meters["bill_unproven"] == 1  # not raised twice
    # the attendant counts the cash box: the $20 is there
    m.ledger.settle_note(True, "att1")
    led = m.ledger
    assert _books(led) == (80, 80, None, None) and "note" not in led.tilts
    assert led.meters["bill_settled_stacked"] == 80 and led.meters["bill_settled_returned"] == 0
    assert led.events()[-1][2] == "note-stacked" and "att1: +80 credits" in led.events()[-1][3]
    led.audit()
    m.step(2)
    assert dev.master == 1  # money in again
    with raises(ValueError):
        led.settle_note(True, "att1")  # once


def test_a_note_held_in_escrow_at_power_loss_comes_back_out_and_is_settled_as_returned():
    wire, dev, m = fresh()
    dev.insert(4)
    wire.faults = [None, None, "drop"]  # its stack command is lost with the power: the $50 stays in escrow
    m.step()
    assert dev.escrow == 4 and m.committed().bill_pending["k"] == 200
    dev.power_cycle()  # out of the front as the validator powers up: the player has it back
    m = Machine(wire)
    m.step(3)
    assert m.ledger.bill_unknown["k"] == 200 and dev.stacked == [] and 1 not in dev.routes
    m.ledger.settle_note(False, "att1")
    led = m.ledger
    assert _books(led) == (0, 0, None, None) and led.meters["bill_settled_returned"] == 200
    assert "returned to the player" in led.events()[-1][3]
    led.audit()


def test_the_validator_cleared_the_escrow_into_the_cash_box_at_power_up_the_attendant_credits_it():
    wire, dev, m = fresh()
    dev.insert(2)
    wire.faults = [None, None, "drop"]
    m.step()
    dev.power_cycle(cashbox=True)
    m = Machine(wire)
    m.step(3)
    assert m.ledger.bill_unknown["k"] == 40 and dev.stacked == [2]
    m.ledger.settle_note(True, "att1")
    assert _books(m.ledger) == (40, 40, None, None)


def test_a_power_cycle_with_no_note_pending_is_only_logged():
    wire, dev, m = fresh()
    dev.insert(1)
    m.step(2)
    dev.power_cycle()
    m = Machine(wire)
    m.step(3)
    assert m.ledger.credits == 20 and m.ledger.bill_unknown is None and "note" not in m.ledger.tilts
    assert m.ledger.events()[-1][2] == "bills" and dev.master == 1


def test_notes_are_refused_while_a_fate_is_unknown_and_the_refusal_touches_no_record():
    wire, dev, m = fresh()
    dev.insert(3)
    m.step()
    dev.power_cycle()
    m = Machine(wire)
    m.step(3)
    u = m.ledger.bill_unknown
    dev.master = 1  # a validator that takes a note anyway
    dev.insert(1)
    m.step(2)
    assert dev.routes[-1] == 0 and dev.escrow is None and m.ledger.bill_unknown == u
    assert "CA0005A returned to the player: " in m.ledger.events()[-1][3]
    assert m.ledger.credits == 0 and m.ledger.meters["bill_unproven"] == 1


def _counter_fault_with_a_twenty_stacked():
    """Issue 22.5: a $20 stacked, then five more events before the next poll: the counter tilt."""
    wire, dev, m = fresh()
    dev.insert(3)
    m.step()  # committed and stacked; its stacked event unread
    for _ in range(5):
        dev.event(0, 2)  # five invalid notes handed back at once: the stacked event leaves the buffer
    m.step()
    assert m.cab.tilts["acceptor"].startswith("bill validator: event counter out of sequence")
    assert m.ledger.bill_pending["k"] == 80 and m.ledger.credits == 0
    return wire, dev, m


def test_a_counter_fault_never_wipes_a_stacked_note_its_fate_goes_to_the_attendant_issue_22_5():
    wire, dev, m = _counter_fault_with_a_twenty_stacked()
    m.cab.tilts = {}
    m.bills.clear_fault()  # the attendant's key
    m.step()  # a fresh baseline: its reading no longer reaches the $20's escrow event
    u = m.ledger.bill_unknown
    assert u["id"] == "CA0020A" and u["k"] == 80 and "event counter out of sequence (was 1, now 7)" in u["why"]
    assert m.ledger.bill_pending is None and "note" in m.ledger.tilts
    dev.master = 1
    dev.insert(1)  # the next note: refused, and the $20's record stays
    m.step(2)
    assert dev.routes[-1] == 0 and m.ledger.bill_unknown == u and m.ledger.credits == 0
    m.ledger.settle_note(True, "att1")  # the cash box holds the $20
    assert _books(m.ledger) == (80, 80, None, None) and dev.stacked == [3]
    m.ledger.audit()


def _busy():
    """A fresh machine whose validator's counter is past a few status events (a step back stays above 0)."""
    wire, dev, m = fresh()
    for _ in range(4):
        dev.event(0, 10)  # stacker OK
    m.step()
    return wire, dev, m


def test_a_replayed_reply_while_a_note_is_pending_settles_it_from_the_buffer():
    wire, dev, m = _busy()
    dev.insert(3)
    m.step()  # committed at counter 5, stacked at 6
    dev.counter -= 2  # one stale reply: the counter seen going back
    m.step()
    assert "out of sequence" in m.cab.tilts["acceptor"]
    dev.counter += 2
    m.cab.tilts = {}
    m.bills.clear_fault()
    m.step(2)  # the baseline still holds the escrow event at 1 and the stacked event after it
    assert _books(m.ledger) == (80, 80, None, None) and "note" not in m.ledger.tilts
    assert m.ledger.meters["bill_unproven"] == 0


def test_a_pending_note_returned_before_a_counter_fault_is_proved_returned():
    wire, dev, m = _busy()
    dev.full = True  # the stacker fails it (255): the firmware hands it back
    dev.insert(2)
    m.step()
    assert dev.returned == 1 and m.ledger.bill_pending is not None
    dev.counter -= 3
    m.step()
    dev.counter += 3
    m.cab.tilts = {}
    m.bills.clear_fault()
    m.step(2)
    assert _books(m.ledger) == (0, 0, None, None) and "returned to the player from escrow" in m.ledger.events()[-1][3]


def test_a_pending_note_still_in_escrow_after_a_counter_fault_is_stacked_then():
    wire, dev, m = _busy()
    dev.insert(5)
    wire.faults = [None, None, "drop"]  # its stack command is lost: held in escrow
    m.step()
    dev.counter -= 1
    m.step()
    dev.counter += 1
    m.cab.tilts = {}
    m.bills.clear_fault()
    m.step(3)  # the baseline shows only its escrow event: routed to the stacker, then credited
    assert _books(m.ledger) == (400, 400, None, None) and dev.stacked == [5]


def test_a_second_note_in_escrow_before_the_first_ones_fate_makes_that_fate_unknown():
    wire, dev, m = fresh()
    dev.insert(3)
    wire.faults = [None, None, "drop"]  # held in escrow, its route lost
    m.step()
    dev.escrow = None  # a faulty validator lets it go without a word
    dev.insert(1)
    m.step()
    led = m.ledger
    assert led.bill_unknown["id"] == "CA0020A" and "another note (CA0005A)" in led.bill_unknown["why"]
    assert dev.routes[-1] == 0 and led.bill_pending is None and led.credits == 0
    assert "CA0005A returned to the player" in led.events()[-1][3]


def test_a_counter_jumped_over_a_notes_old_events_never_credits_it_again():
    wire, dev, m = _busy()
    dev.insert(3)
    m.step(2)
    assert m.ledger.credits == 80  # the buffer now ends (3, 1), (3, 0)
    dev.counter += 2  # two steps forward with no new event: the two old ones read as new
    m.step(2)
    assert m.ledger.credits == 80 and m.ledger.meters["bill_in"] == 80 and m.ledger.bill_pending is None
    assert "stacked without a commit" in m.cab.tilts["acceptor"]


def test_a_note_stacked_before_it_was_routed_is_never_credited():
    wire, dev, m = fresh()
    dev.insert(2)
    dev.escrow = None  # a validator that stacks on its own, escrow on or not
    dev.stacked.append(2)
    dev.event(2, 0)
    m.step(2)
    assert m.ledger.credits == 0 and m.ledger.bill_pending is None and 1 not in dev.routes
    assert "note CA0010A stacked without a commit: not credited" in m.cab.tilts["acceptor"]
