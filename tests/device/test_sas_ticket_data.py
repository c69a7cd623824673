# mp-heap: 1024K  (the fake board's 128 KB NVRAM image, a game model, the printer and the SAS modules;
#   at 896K a handler module compiled from source found no 2,560-byte piece once board/emulated.py grew)
# What a ticket carries, as the central system sets it (SAS 7B extended validation status, 7C set
# extended ticket data, 7D set ticket data) on a vlt cabinet (fake board, both runtimes), through the
# link as a host sends them. The expected bytes are written from the layouts (SAS 6.02 Tables
# 15.2-15.4 as Monaco's public LP7B/LP7C/LP7D parsers and saspy's extended_validation_status give
# them, docs/sas.md), not read from the firmware: 7B's reply is length 0A, asset number (4 binary),
# status bits (2 binary, LSB first: bit 0 printer as cash-out device, bit 15 secure enhanced
# configuration), cashable and restricted expiration (2 BCD days each); 7C/7D's a status flag; a
# busy reply is the address and a 00 command, no CRC (s. 4.1, 5.2).
from fakes_cabinet import press, steps
from fakes_firmware import PowerCut
from fakes_sas_vlt import (
    NVRAM,
    again,
    bcd,
    coins,
    drain,
    fresh,
    poll,
    reply,
    send,
    tickets_text,
    variable,
    with_crc,
)

from firmware import coupon_system

BUSY = b"\x01\x00"  # SAS 6.02 s. 4.1: address, 00; no CRC (s. 5.2)
LOCATION = b"SALON LE TREFLE"
ADDRESS1 = b"1234 RUE PRINCIPALE"
ADDRESS2 = b"QUEBEC QC G1A 0A1"


def status(cab, mask=0, bits=0, days=0, rdays=0):
    """7B: length 08, control mask and status bits (2 binary each, LSB first), two expirations (2 BCD)."""
    return variable(cab, 0x7B, bytes((mask & 0xFF, mask >> 8, bits & 0xFF, bits >> 8)) + bcd(days, 2) + bcd(rdays, 2))


def status_reply(bits, days, rdays=0):
    """7B's reply: length 0A, asset number 0 (4 binary), status bits, the expirations in force."""
    return reply(0x7B, bytes((0x0A, 0, 0, 0, 0, bits & 0xFF, bits >> 8)) + bcd(days, 2) + bcd(rdays, 2))


def ticket_data(host, days=None, texts=()):
    """7D's data: host id (2 binary), expiration (1 binary days), then each text as length + ASCII."""
    d = bytes((host & 0xFF, host >> 8))
    if days is not None:
        d += bytes((days,))
    for t in texts:
        d += bytes((len(t),)) + t
    return d


def test_7b_reports_the_validation_in_force_and_keeps_the_days_the_system_sets():
    cab = fresh()
    # a coupon printer (bit 0) and a validation id set by 4C (bit 15); the claim deadline in force is
    # the vlt's 24 hours (S-13.1, r. 7, s. 14): one day; no restricted expiration set
    assert status(cab) == status_reply(0x8001, 1)
    assert status(cab, days=30, rdays=7) == status_reply(0x8001, 1, 7)  # 30 days kept, 24 h in force under vlt
    t = cab.coupons.ticket()
    assert t["days"] == 30 and t["rdays"] == 7
    assert status(cab, days=9999) == status_reply(0x8001, 1, 7)  # never expires: still the rule's 24 hours
    assert status(cab, bits=0x003E, mask=0x003E) == status_reply(0x8001, 1, 7)  # hand pays, restricted, ticket in: none
    assert status(cab, mask=0x0001) == status_reply(0x8001, 1, 7)  # a vlt pays by coupon only: bit 0 stays
    assert cab.coupons.ticket()["days"] == 9999 and not cab.coupons.system()


def test_7b_refuses_a_wrong_length_or_a_figure_not_bcd():
    cab = fresh()
    assert variable(cab, 0x7B, bytes(7)) == b"\x81"  # length 07, not 08: NACK
    assert status(cab, days=0) == status_reply(0x8001, 1)
    bad = bytes((0, 0, 0, 0, 0x0A, 0x00, 0, 0))  # days "0A00": not BCD
    assert variable(cab, 0x7B, bad) == b"\x81"
    assert cab.coupons.ticket()["days"] == 0


def test_7b_cancelling_secure_enhanced_puts_the_machine_in_system_validation_and_4c_takes_it_back():
    cab = fresh()
    assert status(cab, mask=0x8000, bits=0) == status_reply(0x0001, 1)
    assert cab.coupons.system() and cab.coupons.validation()[0] == 4242  # the id is kept, unused
    a0 = poll(cab, 0xA0, b"\x00\x01")
    assert a0 == reply(0xA0, b"\x00\x01\x20\x00\x00")  # feature 1 bits 5-6: 01, system validation
    assert status(cab, mask=0x8000, bits=0x8000) == status_reply(0x0001, 1)  # only 4C configures it
    r = poll(cab, 0x4C, (4243).to_bytes(3, "little") + bytes(3))
    assert r == reply(0x4C, (4243).to_bytes(3, "little") + bytes(3))
    assert not cab.coupons.system() and status(cab) == status_reply(0x8001, 1)
    assert poll(cab, 0xA0, b"\x00\x01") == reply(0xA0, b"\x00\x01\x40\x00\x00")  # 10: secure enhanced


def test_without_a_validation_id_7b_says_so_and_system_validation_needs_none():
    cab = fresh(vid=0)
    assert "coupons" in cab.tilts  # no validation id: no money in, no play
    assert status(cab) == status_reply(0x0001, 1)
    assert status(cab, mask=0x8000) == status_reply(0x0001, 1)
    assert cab.coupons.system() and "coupons" not in cab.tilts  # the system numbers the coupons
    coins(cab, 4)
    assert cab.ledger.credits == 16


def test_7c_sets_the_texts_each_by_its_code_and_refuses_what_is_not_valid():
    cab = fresh()
    data = b"\x00" + bytes((len(LOCATION),)) + LOCATION + b"\x01" + bytes((len(ADDRESS1),)) + ADDRESS1 + \
        b"\x02" + bytes((len(ADDRESS2),)) + ADDRESS2 + b"\x10\x0aRESTRICTED" + b"\x20\x05DEBIT"
    assert variable(cab, 0x7C, data) == reply(0x7C, b"\x01")
    t = cab.coupons.ticket()
    assert (t["loc"], t["a1"], t["a2"]) == (LOCATION.decode(), ADDRESS1.decode(), ADDRESS2.decode())
    for bad in (b"\x00\x29" + b"A" * 41,  # 41 characters: more than 40
                b"\x10\x11" + b"T" * 17,  # a title of 17: more than 16
                b"\x05\x01A",  # no data code 05
                b"\x00\x03A\x01B",  # not printable
                b"\x00\x05ABC",  # shorter than its length
                b"\x00"):  # a code without its length
        assert variable(cab, 0x7C, bad) == reply(0x7C, b"\x00"), bad
        assert cab.coupons.ticket() == t
    assert variable(cab, 0x7C, b"\x01\x00") == reply(0x7C, b"\x01")  # length 0: address 1 back to none
    assert cab.coupons.ticket()["a1"] == "" and cab.coupons.ticket()["loc"] == LOCATION.decode()


def test_7d_sets_the_host_the_days_and_the_texts_each_optional_from_the_end():
    cab = fresh()
    assert variable(cab, 0x7D, b"") == reply(0x7D, b"\x00")  # length 00: asks; nothing set yet
    assert variable(cab, 0x7D, ticket_data(0x1234, 5, (LOCATION, ADDRESS1, ADDRESS2))) == reply(0x7D, b"\x01")
    t = cab.coupons.ticket()
    assert (t["host"], t["days"], t["loc"], t["a1"], t["a2"]) == (0x1234, 5, LOCATION.decode(), ADDRESS1.decode(),
                                                                   ADDRESS2.decode())
    assert variable(cab, 0x7D, b"") == reply(0x7D, b"\x01")  # the system's data in force
    # a text of length 00 is left as it is; the fields after the last sent too
    assert variable(cab, 0x7D, ticket_data(0x0042, 0, (b"", b"RUE NEUVE"))) == reply(0x7D, b"\x01")
    t = cab.coupons.ticket()
    assert (t["host"], t["days"], t["loc"], t["a1"], t["a2"]) == (0x42, 9999, LOCATION.decode(), "RUE NEUVE",
                                                                   ADDRESS2.decode())  # expiration 00: never
    assert status(cab) == status_reply(0x8001, 1)  # still the vlt's 24 hours
    assert variable(cab, 0x7D, ticket_data(7)) == reply(0x7D, b"\x01") and cab.coupons.ticket()["host"] == 7
    for bad in (b"\x01",  # half a host id
                ticket_data(1, 1, (b"A" * 41,)),  # 41 characters
                ticket_data(1, 1, (LOCATION,)) + b"\x00\x00\x00\x00",  # more than the three texts
                ticket_data(1, 1) + b"\x05AB"):  # shorter than its length
        assert variable(cab, 0x7D, bad) == reply(0x7D, b"\x00"), bad
        assert cab.coupons.ticket()["host"] == 7


def test_7d_to_every_machine_is_taken_and_not_answered():
    cab = fresh()
    msg = bytes((0, 0x7D))
    data = ticket_data(9, 1, (LOCATION,))
    assert send(cab, with_crc(msg + bytes((len(data),)) + data)) == b""  # address 0: type G, no answer
    assert cab.coupons.ticket()["loc"] == LOCATION.decode() and cab.coupons.ticket()["host"] == 9
    assert send(cab, with_crc(bytes((0, 0x7C, 3, 0, 1, 0x41)))) == b""  # 7C is not broadcast: ignored
    assert cab.coupons.ticket()["loc"] == LOCATION.decode()


def test_the_coupon_prints_the_system_texts_and_a_change_waits_while_one_is_owed():
    cab = fresh()
    assert variable(cab, 0x7D, ticket_data(1, 30, (LOCATION, ADDRESS1))) == reply(0x7D, b"\x01")
    coins(cab, 2)
    cab.fake.fault_at_ff = "out"  # the paper runs out as the ticket prints: the coupon stays owed
    press(cab.board, cab, "cashout")
    steps(cab, 10)
    owed = cab.ledger.coupon_owed()
    assert owed is not None and cab.tilts.get("printer") == "paper out"
    # what would print differently is not taken now: busy, and nothing changes
    assert variable(cab, 0x7D, ticket_data(1, 30, (b"AUTRE SALON",))) == BUSY
    assert variable(cab, 0x7D, ticket_data(1, 30, (b"AUTRE SALON",))) == BUSY  # asked anew, not a repeat
    assert variable(cab, 0x7C, b"\x02\x03ABC") == BUSY
    assert cab.coupons.ticket()["loc"] == LOCATION.decode() and cab.coupons.ticket()["a2"] == ""
    # what prints the same is taken: the same texts, the host id, days the vlt's 24 hours cap anyway
    assert variable(cab, 0x7D, ticket_data(2, 3, (LOCATION, ADDRESS1))) == reply(0x7D, b"\x01")
    assert status(cab, days=12) == status_reply(0x8001, 1)
    cab.fake.out = cab.fake.path = False
    press(cab.board, cab, "key_reset")
    steps(cab, 20)
    assert cab.ledger.coupon_owed() is None and cab.fake.tickets == 1
    first, second = [t[t.find(b"LOTERIE"):] for t in tickets_text(cab.fake)]  # from the scheme's line on
    assert first == second  # printed again as it began (its own number: tests/device/test_firmware_coupon_cashout.py)
    assert LOCATION in first and ADDRESS1 in first and b"AUTRE" not in first
    # once printed, the change is taken
    assert variable(cab, 0x7D, ticket_data(1, 30, (b"AUTRE SALON",))) == reply(0x7D, b"\x01")
    coins(cab, 1)
    press(cab.board, cab, "cashout")
    steps(cab, 20)
    assert b"AUTRE SALON" in tickets_text(cab.fake)[-1] and cab.fake.tickets == 2
    # the claim deadline printed is the rule's 24 hours: the issue time and the deadline a day apart
    text = tickets_text(cab.fake)[-1].decode()
    assert "A reclamer avant/Claim by:" in text


def test_the_ticket_data_survives_a_power_cut_at_every_write_of_its_commit():
    seen = set()
    for n in range(1, 40):
        cab = fresh()
        before = cab.coupons.ticket()
        NVRAM.cut(n, 3)
        try:
            r = variable(cab, 0x7D, ticket_data(0x0102, 9, (LOCATION, ADDRESS1, ADDRESS2)))
            cut = False
        except PowerCut:
            cut = True
        NVRAM.cut(None)
        cab = again(cab)
        t = cab.coupons.ticket()
        done = t["loc"] == LOCATION.decode()
        if done:
            assert (t["host"], t["days"], t["a1"], t["a2"]) == (0x0102, 9, ADDRESS1.decode(), ADDRESS2.decode())
        else:
            assert t == before, t  # all of it or none of it
        assert cab.coupons.validation()[0] == 4242 and not cab.coupons.lost
        seen.add((cut, done))
        cab = None
        if not cut:
            assert r == reply(0x7D, b"\x01")
            break
    assert (True, False) in seen and (True, True) in seen and (False, True) in seen, seen


def test_without_a_coupon_memory_7b_7c_7d_57_58_are_ignored():
    from fakes_cabinet import Acceptor, Board, make_cabinet
    from fakes_firmware import FrameUart, memory, wiped
    from fakes_sas_vlt import MODEL

    import rng
    from firmware.ledger import Ledger
    from firmware.sas.exceptions import attach_queue
    from firmware.sas.machine import SasMachine
    from games import load

    board = Board(wiped(NVRAM))
    led = Ledger(memory(board.nvram))
    led.open()
    attach_queue(led)
    cab = make_cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")), Acceptor())
    led.power_up()
    cab.resume()
    cab.uart = FrameUart()
    cab.board = board
    cab.attach(None, SasMachine(cab, cab.uart, 1, board.ticks_ms, gap_ms=10))
    assert cab.coupons is None
    drain(cab)
    assert status(cab) == b""
    assert variable(cab, 0x7C, b"\x00\x01A") == b"" and variable(cab, 0x7D, ticket_data(1, 1)) == b""
    assert poll(cab, 0x57) == b"" and poll(cab, 0x58, b"\x01" + bcd(1, 8)) == b""


def test_each_change_is_logged_and_the_same_again_is_no_change():
    cab = fresh()
    variable(cab, 0x7D, ticket_data(0x0304, 2, (LOCATION,)))
    status(cab, rdays=45)
    coupon_system.set_validation_id(cab, 4242)  # the same: nothing changes
    t = cab.coupons.ticket()
    assert {k: t[k] for k in ("host", "days", "rdays", "loc", "a1", "a2")} == {
        "host": 0x0304, "days": 2, "rdays": 45, "loc": LOCATION.decode(), "a1": "", "a2": ""}
    assert [e[2] for e in cab.ledger.events()][-2:] == ["validation", "validation"]  # 7D, then 7B: logged
