# ccTalk bill validator driver (board/bill_cctalk.py, codes in board/bill_codes.py): escrow events,
# stacked notes, routing, bill ids and scaling, inhibits and the event codes, byte for byte on a
# fake wire. Expected values are the ccTalk generic specification's (part 2 headers 159, 157, 156,
# 154, 153, 231, 228; part 3 "Bill validator event codes" table), as docs/drivers.md cites them.
# fate(): what one 159 reading proves of a note whose escrow event had a known counter, by those
# rules alone (the counter counts events 1..255 and wraps to 1; the reply holds the last five,
# newest first; 0 after a power-up or reset, with an empty buffer).
from fakes_bills import IDS, Validator
from fakes_board import Wire, no_idle

from board import bill_codes
from board.bill_cctalk import ESCROW, RETURNED, STACKED, BillValidator, bill_cents, fate, parse_bill_id
from board.cctalk import Master


def _setup():
    w = Wire()
    dev = Validator()
    w.devices[40] = dev
    bv = BillValidator(Master(w, no_idle, timeout_ms=20))
    bv.begin()
    return w, dev, bv


def test_begin_sets_escrow_mode_inhibits_and_baselines():
    w, dev, bv = _setup()
    assert w.headers(40)[:3] == [153, 231, 228]  # escrow + stacker, then inhibited, then the counter
    assert dev.mode == 3 and dev.master == 0 and bv.last == 0
    bv.enable(True, 0x001F)
    assert dev.master == 1 and dev.mask == 0x001F


def test_bill_ids_and_scaling_give_cents():
    w, dev, bv = _setup()
    assert bv.bill_ids() == IDS
    assert parse_bill_id("CA0020A") == ("CA", 20, "A")
    assert parse_bill_id(".......") is None and parse_bill_id("CA020A") is None
    assert bv.scaling("CA") == (100, 2)  # factor 100, 2 decimal places: value 20 is $20.00
    assert bv.scaling("US") is None  # all zero: the country is not supported
    assert bill_cents(20, 100, 2) == 2000 and bill_cents(5, 1, 0) == 500


def test_escrow_then_stack_then_stacked_event():
    w, dev, bv = _setup()
    out = []
    dev.insert(3)
    assert bv.poll(out) == 1 and out == [("escrow", 3, 1)]
    assert bv.route(True) is None and dev.routes == [1]
    out = []
    bv.poll(out)
    assert out == [("bill", 3, 0)]
    assert bv.route(True) == bill_codes.ROUTE_ESCROW_EMPTY  # a repeat: nothing left to route


def test_escrow_then_return():
    w, dev, bv = _setup()
    out = []
    dev.insert(5)
    bv.poll(out)
    assert bv.route(False) is None and dev.routes == [0]
    out = []
    bv.poll(out)
    assert out == [("status", 0, bill_codes.RETURNED)]


def test_a_replayed_reply_never_repeats_a_stacked_note():
    w, dev, bv = _setup()
    out = []
    dev.insert(1)
    bv.poll(out)
    bv.route(True)
    bv.poll(out)
    assert out == [("escrow", 1, 1), ("bill", 1, 0)]
    dev.counter -= 1  # a stale reply: one step back reads as 254 forward
    out = []
    bv.poll(out)
    assert out == [("counter", 2, 1)] and bv.fault == "counter" and dev.master == 0


def test_event_codes_follow_the_spec_table():
    # part 3 table: 0 master inhibit active (status), 1 returned from escrow (status), 2-3 invalid
    # bill (reject), 4-5 inhibited bill (status), 6-7 jammed (fatal), 8-9 pulled backwards, tamper
    # (fraud), 10-12 stacker OK/removed/inserted (status), 13 stacker faulty (fatal), 14 stacker
    # full (status), 15-16 stacker / transport jammed (fatal), 17-18 opto / string fraud (fraud),
    # 19 anti-string faulty (fatal), 20 barcode detected, 21 unknown bill type stacked (status)
    want = {"status": (0, 1, 4, 5, 10, 11, 12, 14, 20, 21), "reject": (2, 3), "fault": (6, 7, 13, 15, 16, 19),
            "fraud": (8, 9, 17, 18)}
    for k in want:
        for code in want[k]:
            assert bill_codes.kind(code) == k, (code, k)
    assert bill_codes.kind(22) == "fault" and bill_codes.kind(255) == "fault"  # not in the table
    assert bill_codes.name(14) == "stacker full" and bill_codes.name(11) == "stacker removed"
    assert bill_codes.name(18) == "string fraud detected" and bill_codes.name(99) == "unassigned code 99"
    assert len(bill_codes.NAMES) == 22


def test_error_events_come_out_oldest_first():
    w, dev, bv = _setup()
    for code in (2, 14, 17):
        dev.event(0, code)
    out = []
    bv.poll(out)
    assert out == [("reject", 0, 2), ("status", 0, 14), ("fraud", 0, 17)]


def test_a_bill_type_with_an_unknown_result_b_is_never_a_credit():
    w, dev, bv = _setup()
    dev.event(2, 7)
    out = []
    bv.poll(out)
    assert out == [("fault", 2, 7)]


def _reading(counter, *events):
    """A 159 reply: the counter, then up to five (A, B) events newest first, zero-filled."""
    r = [counter]
    for a, b in events + ((0, 0),) * (5 - len(events)):
        r += [a, b]
    return bytes(r)


def test_fate_reads_a_notes_end_only_from_its_own_escrow_event_onwards():
    # the $20 (type 3) went into escrow at counter 10
    assert fate(_reading(10, (3, 1)), 10, 3) == ESCROW  # still held: nothing after it
    assert fate(_reading(11, (3, 0), (3, 1)), 10, 3) == STACKED
    assert fate(_reading(11, (0, 1), (3, 1)), 10, 3) == RETURNED
    # status events between its escrow and its end do not hide it; the first end counts
    assert fate(_reading(13, (0, 2), (3, 0), (0, 10), (3, 1)), 10, 3) == STACKED
    assert fate(_reading(14, (0, 14), (0, 1), (0, 12), (0, 11), (3, 1)), 10, 3) == RETURNED
    # across the wrap: escrow at 254, then 255, then 1
    assert fate(_reading(1, (3, 0), (0, 10), (3, 1)), 254, 3) == STACKED


def test_fate_proves_nothing_the_reading_cannot_show():
    assert fate(_reading(15, (0, 2), (0, 2), (0, 2), (0, 2), (0, 2)), 10, 3) is None  # its escrow left the buffer
    assert fate(_reading(0), 10, 3) is None  # a reset: the buffer starts empty
    assert fate(_reading(11, (3, 0), (1, 1)), 10, 3) is None  # another note's escrow at its counter
    assert fate(_reading(11, (3, 0), (3, 0)), 10, 3) is None  # not an escrow event there
    assert fate(_reading(12, (3, 0), (2, 1), (3, 1)), 10, 3) is None  # another note first: no sense
    assert fate(_reading(9, (0, 10)), 10, 3) is None  # a counter behind it: a reading from before
    assert fate(_reading(2, (0, 10), (0, 10)), 254, 3) is None  # zero-filled slots are not its escrow
    assert fate(_reading(11, (3, 0), (3, 1)), 0, 3) is None  # no counter committed with it


def test_a_fresh_baseline_keeps_its_reading_and_says_so():
    w, dev, bv = _setup()
    assert bv.rebased and bytes(bv.base) == _reading(0)  # begin() baselined a fresh validator
    bv.rebased = False
    out = []
    for _ in range(3):
        dev.event(0, 10)  # stacker OK
    bv.poll(out)
    dev.insert(3)
    bv.poll(out)
    bv.route(True)
    dev.counter -= 2  # a stale reply
    bv.poll(out)
    assert bv.fault == "counter" and not bv.rebased
    dev.counter += 2
    bv.clear_fault()
    bv.poll(out)
    assert bv.rebased and bytes(bv.base) == _reading(5, (3, 0), (3, 1), (0, 10), (0, 10), (0, 10))
    assert fate(bv.base, 4, 3) == STACKED
