# mp-heap: 960K  (as test_sas_polls.py: the NVRAM image, the SAS modules and the cabinet from source; a cabinet
# booted again at each of the cuts: 640K ran short once the ledger kept its state and chunk buffers)
# Notes counted by value (firmware/note_counts.py, the books' "bil" record) and read over SAS: 1E,
# 31-45, 48, on a real cabinet (fake board, both runtimes). Known answers: saspy's sizes (1E
# size=28, 31-45 size=8), Monaco's public LP1E/LP31-LP45/LP48 parsers (1E's order $1 $5 $10 $20 $50
# $100; 48: country code 1 BCD, Table C-6 denomination code 1 BCD, count 4 BCD) and its
# BillDenominationCodes / BillAcceptorCountryCode tables ($20 is code 4, $100 code 7, Canada 7).
# A power cut at every write of a note's commit: the note is counted by value exactly when bill_in
# has its credits.
from fakes_firmware import PowerCut, RamNvram
from test_sas_polls import boot, digits, drain, long_poll

from firmware.note_counts import NoteCounts, code

NVRAM = RamNvram(69632)


def stack(led, credits):
    led.bill_escrow(1, credits, 1)
    led.bill_stacked(2, "note")


def fresh():
    from fakes_firmware import wiped

    cab, board, uart = boot(wiped(NVRAM))
    drain(cab, board, uart)
    return cab, board, uart


def test_1e_31_45_and_48_read_the_notes_stacked_by_value():
    cab, board, uart = fresh()
    led = cab.ledger  # 25 cents a credit: $5 is 20 credits, $20 80, $100 400
    for credits in (20, 80, 80, 400, 7):  # 7 credits ($1.75): no Table C-6 value
        stack(led, credits)
    d = long_poll(cab, board, uart, 0x1E, n=28)[2:-2]
    assert [digits(d[i:i + 4]) for i in range(0, 24, 4)] == [0, 1, 0, 2, 0, 1]  # $1 $5 $10 $20 $50 $100
    for cmd, n in ((0x31, 0), (0x33, 1), (0x35, 2), (0x37, 1), (0x36, 0), (0x3B, 0), (0x45, 0)):
        assert digits(long_poll(cab, board, uart, cmd, n=8)[2:6]) == n, hex(cmd)
    assert long_poll(cab, board, uart, 0x48, n=10)[2:-2] == bytes(6)  # the last note had no C-6 value
    stack(led, 80)
    drain(cab, board, uart)  # the general poll between: the same 48 again would be a repeat, the same reply
    assert long_poll(cab, board, uart, 0x48, n=10)[2:-2] == b"\x07\x04\x00\x00\x00\x03"  # Canada, $20, 3
    assert led.meters["bill_in"] == 20 + 80 + 80 + 400 + 7 + 80
    assert long_poll(cab, board, uart, 0x3D) == b""  # 3D is the coupon's poll, not a note's


def test_a_note_settled_stacked_counts_and_one_settled_returned_does_not():
    cab, board, uart = fresh()
    led = cab.ledger
    led.bill_escrow(1, 80, 1)
    led.bill_unproven(2, "note", "validator reset")
    assert led.notes.of(2000) == 0
    led.settle_note(True, "tech")
    assert led.notes.of(2000) == 1
    led.bill_escrow(1, 400, 3)
    led.bill_unproven(4, "note", "validator reset")
    led.settle_note(False, "tech")
    assert led.notes.of(10000) == 0 and digits(long_poll(cab, board, uart, 0x37, n=8)[2:6]) == 0


def test_counted_once_exactly_when_the_books_count_it_across_a_cut_at_every_write():
    seen = set()
    for n in range(1, 40):
        if (False, 2) in seen:
            break  # past the commit's last write
        cab = fresh()[0]
        led = cab.ledger
        stack(led, 80)
        led.bill_escrow(1, 80, 3)
        NVRAM.cut(n, 3)
        try:
            led.bill_stacked(4, "note")
            cut = False
        except PowerCut:
            cut = True
        NVRAM.cut(None)
        cab2, board2, uart2 = boot(NVRAM)  # power back: the journal replayed or discarded
        led2 = cab2.ledger
        stacked = led2.meters["bill_in"] // 80
        assert stacked in (1, 2), stacked
        assert led2.notes.of(2000) == stacked, (n, stacked, led2.notes.counts)
        assert digits(long_poll(cab2, board2, uart2, 0x35, n=8)[2:6]) == stacked
        seen.add((cut, stacked))
        cab = cab2 = led = led2 = None  # one cabinet at a time in the heap
    assert (True, 1) in seen and (True, 2) in seen and (False, 2) in seen, seen  # both sides of the commit


def test_a_ram_clear_starts_the_counts_again_and_a_ram_error_reports_none():
    cab, board, uart = fresh()
    stack(cab.ledger, 80)
    cab.ledger.format(("ramclear", "test"))  # the RAM clear's own books (the state table's is test_sas_polls')
    assert cab.ledger.notes.of(2000) == 0 and cab.ledger.meters["bill_in"] == 0
    cab2, board2, uart2 = boot(NVRAM)
    assert cab2.ledger.notes.of(2000) == 0
    cab2.ram_error = "test"  # the memory in doubt: the line is silent (SAS 6.02 s. 2.1: address 0)
    assert long_poll(cab2, board2, uart2, 0x1E) == b"" and long_poll(cab2, board2, uart2, 0x35) == b""
    from firmware.sas import bills

    assert bills.handle(cab2.sas, b"\x01\x1e", 2, bytearray(40)) == -2  # and the poll's own answer is NACK


def test_the_record_round_trips_and_its_codes_are_table_c6s():
    assert code(100) == 0 and code(2000) == 4 and code(10000) == 7 and code(1000) == 3 and code(175) == -1
    nc = NoteCounts()
    nc.count(2000)
    nc.count(2000)
    nc.count(10000000)  # $100,000: code 19
    nc.counts[4] = 0xFFFFFFFF
    nc.count(2000)  # rolls over at 32 bits, as the record holds it
    other = NoteCounts()
    other.load(nc.block())
    assert other.counts == nc.counts and other.last == 4 and other.counts[19] == 1 and other.counts[4] == 0
    empty = NoteCounts()
    empty.load(b"")
    assert empty.counts == [0] * 20 and empty.last == -1
    unknown = NoteCounts()
    unknown.load(bytes((9,)) + bytes(81))  # a later version this firmware does not read: nothing counted
    assert unknown.counts == [0] * 20
