# mp-heap: 960K  (as test_sas_bills.py: the NVRAM image, the SAS modules and the cabinet from source, a cabinet
# booted again after each cut)
# Ticket in (SAS 70/71, exceptions 67/68) on a real casino cabinet with a ticket reader (fake board, a
# byte-level fake bill validator: tests/device/fakes_bills.py), both runtimes. Known answers: the
# layouts of SAS 6.02 Tables 15.11 and 15.12a-d as Monaco's public LP70/LP71 parsers give them (70's
# reply: length 10, status 00, amount 00 x 5, parsing 00, 9 BCD; 71's request: length, transfer code,
# amount 5 BCD, parsing, 9 BCD; its reply: length 10 (01 after C0 / FF), machine status, amount,
# parsing, 9 BCD), their code tables (Table 15.12c: 00 valid cashable, 80 unable to validate, FF
# status query; Table 15.12d: 00 redeemed, 20 waiting for 71, 40 pending, 80 rejected by the host,
# 81 numbers differ, 83 not a valid amount, 84 over the limit, 85 not a multiple, 87 unable, 88
# timeout, C0 not compatible), saspy's field widths, and Table A-1's 67 and 68. Every frame is
# built here byte by byte; meters are decoded digit by digit.
import gc

from fakes_bills import Validator
from fakes_board import Wire, no_idle
from fakes_cabinet import Acceptor, Board, make_cabinet, steps
from fakes_firmware import FrameUart, PowerCut, RamNvram, memory, wiped
from fakes_sas import send, with_crc

import rng
from board.bill_cctalk import BillValidator
from board.cctalk import Master
from firmware import states
from firmware.bill_in import BillIn
from firmware.config import Config
from firmware.ledger import Ledger
from firmware.sas.exceptions import attach_queue
from firmware.sas.machine import SasMachine
from firmware.ticket_books import count_in, stage
from games import load

MODEL = "games/models/sept-royal-87.json"
NVRAM = RamNvram(69632)
NUMBER = "001234567890123456"  # 18 digits: validation system id 00, then 16 digits
NUMBER_BCD = b"\x00\x12\x34\x56\x78\x90\x12\x34\x56"
FIVE_DOLLARS = b"\x00\x00\x00\x05\x00"  # 500 cents, 5 BCD: 20 credits of 25 cents


def boot(nvram, dev, cfg=None):
    gc.collect()
    board = Board(nvram)
    led = Ledger(memory(board.nvram))
    led.open()
    attach_queue(led)
    cfg = cfg or Config({"TICKET_IN": True})
    wire = Wire()
    wire.devices[40] = dev
    bills = BillIn(BillValidator(Master(wire, no_idle, timeout_ms=20, retries=0)), led, cfg, lambda m: None)
    cab = make_cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")), Acceptor(), cfg=cfg,
                       bills=bills)
    led.power_up()
    cab.resume()
    uart = FrameUart()
    cab.attach(None, SasMachine(cab, uart, 1, board.ticks_ms, gap_ms=10))
    steps(cab, 15)  # the validator set up and enabled
    return cab, board, uart


def poll(cab, board, uart, cmd, data=None):
    """A long poll: R when data is None, else M with its length byte; the reply, its CRC checked."""
    msg = bytes((1, cmd)) if data is None else with_crc(bytes((1, cmd, len(data))) + data)
    r = send(cab, board, uart, msg)
    if len(r) > 1:
        assert r[:2] == bytes((1, cmd)) and with_crc(r[:-2]) == r, r
    return r


def general(cab, board, uart):
    """Exceptions until 00, in the order reported."""
    got = []
    for _ in range(60):
        c = send(cab, board, uart, b"\x81")
        assert len(c) == 1, c
        if c[0] == 0:
            return got
        got.append(c[0])
    raise AssertionError(got)


def redeem(code=0x00, amount=FIVE_DOLLARS, number=NUMBER_BCD, parsing=0x00):
    return bytes((code,)) + amount + bytes((parsing,)) + number


def digits(b):
    s = ""
    for x in b:
        s += "%02x" % x
    return int(s)


def fresh(cfg=None):
    dev = Validator()
    cab, board, uart = boot(wiped(NVRAM), dev, cfg)
    general(cab, board, uart)
    return cab, board, uart, dev


def insert(cab, board, uart, dev):
    dev.insert_ticket(NUMBER)
    steps(cab, 12)  # the validator's next poll: the ticket held, committed
    return general(cab, board, uart)


def test_a_ticket_redeemed_from_67_to_68_credits_once_and_is_stacked():
    cab, board, uart, dev = fresh()
    led = cab.ledger
    assert insert(cab, board, uart, dev) == [0x67]
    assert poll(cab, board, uart, 0x70) == with_crc(b"\x01\x70\x10\x00" + bytes(5) + b"\x00" + NUMBER_BCD)
    r = poll(cab, board, uart, 0x71, redeem())
    assert r == with_crc(b"\x01\x71\x10\x40" + FIVE_DOLLARS + b"\x00" + NUMBER_BCD)  # pending
    assert led.credits == 0 and dev.tickets == []
    steps(cab, 12)  # the reader's service: stacked, then credited
    assert dev.tickets == [NUMBER] and led.credits == 20
    assert general(cab, board, uart) == [0x68]
    r = poll(cab, board, uart, 0x71, b"\xff")  # the status query
    assert r == with_crc(b"\x01\x71\x10\x00" + FIVE_DOLLARS + b"\x00" + NUMBER_BCD)  # cashable ticket redeemed
    assert digits(poll(cab, board, uart, 0x1A)[2:6]) == 20
    # meters by code (2F, game 0): 0D cents in, 11 count, 15 / 28 credits in, 80 cents, 81 count
    r = poll(cab, board, uart, 0x2F, b"\x00\x00\x0d\x11\x15\x28\x80\x81")
    body = r[5:-2]
    got = {}
    for i in range(0, len(body), 5):
        got[body[i]] = digits(body[i + 1:i + 5])
    assert got == {0x0D: 500, 0x11: 1, 0x15: 20, 0x28: 20, 0x80: 500, 0x81: 1}, got
    led.audit()  # the credit meter's sum counts the ticket's credits


def test_70_with_no_ticket_is_ff_and_71_then_is_not_compatible():
    cab, board, uart, dev = fresh()
    assert poll(cab, board, uart, 0x70) == with_crc(b"\x01\x70\x01\xff")
    assert poll(cab, board, uart, 0x71, redeem()) == with_crc(b"\x01\x71\x01\xc0")
    assert poll(cab, board, uart, 0x71, b"\xff") == with_crc(b"\x01\x71\x01\xff")  # no information yet


def test_71_before_70_is_not_compatible_and_leaves_the_ticket_waiting():
    cab, board, uart, dev = fresh()
    insert(cab, board, uart, dev)
    assert poll(cab, board, uart, 0x71, redeem()) == with_crc(b"\x01\x71\x01\xc0")
    assert stage(cab.ledger) == 1 and dev.ticket == NUMBER
    r = poll(cab, board, uart, 0x71, b"\xff")
    assert r == with_crc(b"\x01\x71\x10\x20" + bytes(5) + b"\x00" + NUMBER_BCD)  # waiting for 71


def refused(code=0x00, amount=FIVE_DOLLARS, number=NUMBER_BCD, parsing=0x00, cfg=None, before=None):
    cab, board, uart, dev = fresh(cfg)
    if before:
        before(cab, board)
    insert(cab, board, uart, dev)
    poll(cab, board, uart, 0x70)
    r = poll(cab, board, uart, 0x71, redeem(code, amount, number, parsing))
    steps(cab, 12)
    assert dev.tickets == [] and dev.tickets_back == [NUMBER] and cab.ledger.credits == 0
    assert general(cab, board, uart) == [0x68]
    assert poll(cab, board, uart, 0x71, b"\xff")[3] == r[3]
    cab.ledger.audit()
    return r[3]


def test_the_system_refusing_returns_the_ticket():
    assert refused(code=0x80) == 0x80
    assert refused(code=0x84) == 0x80  # already redeemed: a refusal too


def test_wrong_number_zero_amount_not_a_multiple_promotional_and_bad_parsing_are_refused():
    other = b"\x00\x12\x34\x56\x78\x90\x12\x34\x57"
    assert refused(number=other) == 0x81
    assert refused(amount=bytes(5)) == 0x83
    assert refused(amount=b"\x00\x00\x00\x00\x10") == 0x85  # 10 cents: not a whole 25-cent credit
    assert refused(code=0x01) == 0x87  # restricted promotional: no such credits here
    assert refused(parsing=0x01) == 0x83
    assert refused(code=0x05) == 0x82  # no such transfer code


def test_over_the_credit_limit_is_refused():
    cfg = Config({"TICKET_IN": True, "CREDIT_LIMIT": 100})  # $25.00 at 25 cents a credit
    assert refused(amount=b"\x00\x00\x00\x30\x00", cfg=cfg) == 0x84  # $30.00


def test_where_the_state_table_refuses_money_in_the_ticket_goes_back():
    cab, board, uart, dev = fresh()
    insert(cab, board, uart, dev)
    poll(cab, board, uart, 0x70)
    board.pins["door_main"].value(1)  # the slot door opens while the system decides
    steps(cab, 10)
    assert cab.state == "door"
    r = poll(cab, board, uart, 0x71, redeem())
    assert r[3] == 0x87
    steps(cab, 12)
    assert dev.tickets_back == [NUMBER] and cab.ledger.credits == 0


def test_no_ticket_is_taken_while_money_in_is_refused():
    cab, board, uart, dev = fresh()
    board.pins["door_main"].value(1)
    steps(cab, 15)
    dev.insert_ticket(NUMBER)
    steps(cab, 12)
    assert dev.tickets_back == [NUMBER] and stage(cab.ledger) == 0
    assert 0x67 not in general(cab, board, uart)


def test_no_answer_in_time_hands_the_ticket_back_with_88():
    cab, board, uart, dev = fresh()
    insert(cab, board, uart, dev)
    poll(cab, board, uart, 0x70)
    steps(cab, 1100)  # 11 s of the cabinet's loop without a 71
    assert dev.tickets_back == [NUMBER] and cab.ledger.credits == 0
    assert general(cab, board, uart) == [0x68]
    assert poll(cab, board, uart, 0x71, b"\xff")[3] == 0x88
    assert poll(cab, board, uart, 0x71, redeem())[3] == 0xC0  # too late: no ticket waits


def test_bad_crc_and_amount_not_bcd_are_not_carried_out():
    cab, board, uart, dev = fresh()
    insert(cab, board, uart, dev)
    poll(cab, board, uart, 0x70)
    msg = bytearray(with_crc(b"\x01\x71\x10" + redeem()))
    msg[-1] ^= 0xFF
    assert send(cab, board, uart, bytes(msg)) == b""  # a bad CRC: ignored
    assert poll(cab, board, uart, 0x71, redeem(amount=b"\x00\x00\x00\x0a\x00")) == b"\x81"  # not BCD: NACK
    assert stage(cab.ledger) == 1 and cab.ledger.credits == 0
    assert poll(cab, board, uart, 0x71, redeem())[3] == 0x40  # the real answer still counts


def test_a_repeated_71_is_answered_with_its_status_and_credits_once():
    cab, board, uart, dev = fresh()
    insert(cab, board, uart, dev)
    poll(cab, board, uart, 0x70)
    first = poll(cab, board, uart, 0x71, redeem())
    again = poll(cab, board, uart, 0x71, redeem())  # the same poll again: the link's repeat
    assert again == first
    steps(cab, 12)
    general(cab, board, uart)
    later = poll(cab, board, uart, 0x71, redeem())  # after other polls: its status, not a second credit
    assert later == with_crc(b"\x01\x71\x10\x00" + FIVE_DOLLARS + b"\x00" + NUMBER_BCD)
    steps(cab, 12)
    assert cab.ledger.credits == 20 and dev.tickets == [NUMBER] and count_in(cab.ledger) == 1


def test_vlt_nacks_70_and_71_and_takes_no_ticket():
    cfg = Config({"JURISDICTION": "vlt", "DENOM_CENTS": 5, "CREDIT_LIMIT": 5})
    from firmware import settings

    assert any("TICKET_IN" in p for p in settings.check(Config({"JURISDICTION": "vlt", "TICKET_IN": True})))
    cab, board, uart, dev = fresh(cfg)
    assert poll(cab, board, uart, 0x70) == b"\x81" and poll(cab, board, uart, 0x71, b"\xff") == b"\x81"


def test_a_cut_after_67_hands_the_ticket_back_at_power_up():
    cab, board, uart, dev = fresh()
    insert(cab, board, uart, dev)
    poll(cab, board, uart, 0x70)
    cab = None
    cab, board, uart = boot(NVRAM, dev)  # the validator kept it in escrow ("keep"): routed back
    assert dev.tickets_back == [NUMBER] and cab.ledger.credits == 0 and stage(cab.ledger) == 0
    assert 0x68 in general(cab, board, uart)


def test_a_cut_between_the_71_and_the_stack_is_a_ticket_of_unknown_fate_for_the_attendant():
    for cashbox in (False, True):
        cab, board, uart, dev = fresh()
        insert(cab, board, uart, dev)
        poll(cab, board, uart, 0x70)
        assert poll(cab, board, uart, 0x71, redeem())[3] == 0x40  # committed: STACKING
        dev.power_cycle(cashbox=cashbox)  # the supply goes before the route: either fate, no event says
        cab = None
        cab, board, uart = boot(NVRAM, dev)
        led = cab.ledger
        assert led.credits == 0 and stage(led) == 4 and "ticket" in cab.tilts
        assert not cab.want_money() and led.owed() == "unknown ticket"
        assert cab.state == states.TILT
        assert cab.handle(states.NOTE, cashbox, "att", True)  # the attendant counted the cash box (console 'ticket ...')
        assert led.credits == (20 if cashbox else 0) and "ticket" not in cab.tilts and stage(led) == 0
        led.audit()
        assert 0x68 in general(cab, board, uart)
        cab = None


def test_a_cut_at_every_write_of_the_stack_credits_once_or_leaves_it_for_the_attendant():
    seen = set()
    for n in range(1, 40):
        dev = Validator()
        cab, board, uart = boot(wiped(NVRAM), dev)
        general(cab, board, uart)
        insert(cab, board, uart, dev)
        poll(cab, board, uart, 0x70)
        poll(cab, board, uart, 0x71, redeem())
        NVRAM.cut(n, 3)
        try:
            steps(cab, 12)
            cut = False
        except PowerCut:
            cut = True
        NVRAM.cut(None)
        cab = None
        cab, board, uart = boot(NVRAM, dev)
        led = cab.ledger
        assert dev.tickets == [NUMBER]  # the route was ACKed before any cut could come
        if stage(led) == 0:
            assert led.credits == 20 and count_in(led) == 1  # the credit's commit held
        else:
            assert stage(led) == 4 and led.credits == 0 and "ticket" in cab.tilts  # the attendant's
        led.audit()
        seen.add((cut, stage(led)))
        cab = led = None
        if (False, 0) in seen:
            break
    assert (True, 4) in seen and (False, 0) in seen, seen


def test_the_validator_handing_it_back_while_stacking_credits_nothing():
    cab, board, uart, dev = fresh()
    insert(cab, board, uart, dev)
    poll(cab, board, uart, 0x70)
    assert poll(cab, board, uart, 0x71, redeem())[3] == 0x40
    dev.tickets_back.append(dev.ticket)  # its own escrow timeout, before the route: event (0, 1)
    dev.ticket = None
    dev.event(0, 1)
    steps(cab, 12)
    assert cab.ledger.credits == 0 and stage(cab.ledger) == 0 and dev.tickets == []
    assert poll(cab, board, uart, 0x71, b"\xff")[3] == 0x88 and general(cab, board, uart) == [0x68]
    assert not cab.handle(states.NOTE, True, "att", True)  # nothing of unknown fate: the table refuses it


def test_the_queue_block_keeps_the_ticket_and_an_older_block_reads_with_none():
    from firmware.ledger import SAS_SIZE
    from firmware.sas.exceptions import ExceptionQueue

    q = ExceptionQueue(bytes((2, 0, 0, 0, 1, 0x11, 0x67)))  # parts 2-4's version 2: flags, two codes, no ticket
    assert q.tin == b"" and q.flags == 1 and q.take() == 0x67 and q.take() == 0x11  # 67 first: priority 0
    rec = bytes((1, 4, 0x40)) + bytes(37)
    q.tin = rec
    for _ in range(40):  # a full queue and the ticket: the block holds both
        q.raise_("ticket in")
    raw = q.block()
    assert len(raw) <= SAS_SIZE
    again = ExceptionQueue(raw)
    assert again.tin == rec and again.n == q.n and again.pending() == q.pending() and again.overflows == q.overflows
