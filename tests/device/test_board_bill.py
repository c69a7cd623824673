# ccTalk bill validator driver (board/bill_cctalk.py, codes in board/bill_codes.py): escrow events,
# stacked notes, routing, bill ids and scaling, inhibits and the event codes, byte for byte on a
# fake wire. Expected values are the ccTalk generic specification's (part 2 headers 159, 157, 156,
# 154, 153, 231, 228; part 3 "Bill validator event codes" table), as docs/drivers.md cites them.
from board.bill_cctalk import BillValidator, bill_cents, parse_bill_id
from board import bill_codes
from board.cctalk import Master
from fakes_bills import IDS, Validator
from fakes_board import Wire, no_idle

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
