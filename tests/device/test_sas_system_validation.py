# mp-heap: 1024K  (the fake board's 128 KB NVRAM image, a game model, the printer and the SAS modules;
#   at 896K a handler module compiled from source found no 2,560-byte piece once board/emulated.py grew)
# System validation (SAS 57/58) on a vlt cabinet (fake board, both runtimes), through the link as a
# host sends the polls: the system puts the machine into it (7B: the secure enhanced configuration
# cancelled), a cash-out asks for the coupon's number (exception 57, a priority exception), the
# system reads the cash-out (57) and answers with its number or refuses (58), and only then the
# coupon prints, with that number. No answer within 10 s (SAS 6.02 s. 15.8) is a refusal: nothing
# prints, the credits stay. A power cut at every write of each step: the same request is asked again,
# never a second number for one coupon, never a coupon without its record in the books, never a
# credit lost. Expected bytes from the layouts (SAS 6.02 Tables 15.7 and 15.9 as Monaco's public
# LP57/LP58 parsers and saspy's pending_cashout_info / rcv_validation_number give them): 57's reply
# is the cash-out type (00 cashable ticket, 80 not waiting) and the amount in cents (5 BCD); 58 sends
# the validation system id (1 BCD, 00: refused) and the number (8 BCD), and its reply is a status
# (00 acknowledged, 80 not in a cash-out, 81 improper validation rejected).
from fakes_cabinet import press, steps
from fakes_firmware import PowerCut
from fakes_sas_vlt import NVRAM, again, bcd, coins, drain, fresh, general, poll, reply, tickets_sent, variable

from firmware import coupon_system

NUMBER = 1234567890123456  # the system's validation number (16 digits)
PRINTED = "01" + "%016d" % NUMBER  # as the coupon carries it: system id 01, then the number


def system(cab):
    """7B: control mask bit 15 set, its status bit clear: the secure enhanced configuration
    cancelled, the system validates (reply: bit 0 only)."""
    r = variable(cab, 0x7B, b"\x00\x80\x00\x00" + bcd(0, 2) + bcd(0, 2))
    assert r[7:9] == b"\x01\x00", r  # after address, command, length and the asset number
    assert cab.coupons.system()


def asking(credits=12):
    """A cabinet in system validation whose player cashed out `credits` credits: the request waits."""
    cab = fresh()
    system(cab)
    coins(cab, credits // 4)
    drain(cab)
    press(cab.board, cab, "cashout")
    steps(cab, 5)
    return cab


def told(cab):
    """Whether 57 is reported (its repeat time past: the power-up's first poll may have taken it)."""
    cab.board.now += 800
    return 0x57 in drain(cab)


def pending(cents):
    return reply(0x57, b"\x00" + bcd(cents, 5))  # a cashable ticket, its amount


def number(sid, n):
    return bcd(sid, 1) + bcd(n, 8)


def test_a_cash_out_asks_the_system_then_prints_its_number():
    cab = asking()
    req = cab.ledger.validation_request()
    assert req["k"] == 12 and req["c"] == 300 and cab.ledger.credits == 12  # the credits stay until the number
    assert cab.state == "payout" and not cab.want_money() and cab.fake.tickets == 0
    assert cab.ledger.coupon_owed() is None and cab.coupons.records() == []
    # 57 is a priority exception: reported before the queued ones (66, the button), again every 800 ms
    assert general(cab) == 0x57
    got = drain(cab)
    assert 0x66 in got and 0x57 not in got, got
    cab.board.now += 800
    assert general(cab) == 0x57
    assert poll(cab, 0x57) == pending(300)  # the system reads the cash-out
    cab.board.now += 2000
    assert 0x57 not in drain(cab)  # read: not told again
    assert poll(cab, 0x58, number(1, NUMBER)) == reply(0x58, b"\x00")
    steps(cab, 20)
    assert tickets_sent(cab.fake) == [PRINTED] and cab.fake.tickets == 1
    assert cab.ledger.credits == 0 and cab.ledger.meters["coupon_out"] == 12 and cab.state == "idle"
    [rec] = cab.coupons.records()
    assert rec["n"] == PRINTED and rec["k"] == 12 and rec["st"] == "issued" and rec["v"] == 1
    assert cab.ledger.coupons()[-1]["n"] == PRINTED and cab.ledger.validation_request() is None
    assert drain(cab).count(0x3D) == 1  # a cash out ticket printed
    # 4D: the record with the system's id and its 16 digits; 3D: its last 8 digits and its cents
    d = poll(cab, 0x4D, b"\xff")
    assert d[2] == 0 and d[11:19] == bcd(NUMBER, 8) and d[26:27] == b"\x01" and d[19:24] == bcd(300, 5)
    assert poll(cab, 0x3D) == reply(0x3D, bcd(NUMBER % 10 ** 8, 4) + bcd(300, 5))
    # nothing waits now: 57 says so, and a number is not in a cash-out
    assert poll(cab, 0x57) == reply(0x57, b"\x80" + bcd(0, 5))
    assert poll(cab, 0x58, number(1, NUMBER + 1)) == reply(0x58, b"\x80")
    assert cab.fake.tickets == 1 and len(cab.coupons.records()) == 1


def test_a_repeated_58_is_answered_again_not_carried_out_twice():
    cab = asking()
    poll(cab, 0x57)
    first = poll(cab, 0x58, number(2, NUMBER))
    assert first == reply(0x58, b"\x00")
    assert poll(cab, 0x58, number(2, NUMBER)) == first  # the host lost the reply: the same one
    steps(cab, 20)
    assert tickets_sent(cab.fake) == ["02%016d" % NUMBER] and len(cab.coupons.records()) == 1


def test_a_refusal_keeps_the_credits_and_the_player_may_cash_out_again():
    cab = asking()
    poll(cab, 0x57)
    assert poll(cab, 0x58, number(0, 0)) == reply(0x58, b"\x00")  # system id 00: validation refused
    steps(cab, 20)
    assert cab.ledger.credits == 12 and cab.ledger.validation_request() is None and cab.fake.tickets == 0
    assert cab.state == "credit" and cab.ledger.meters["coupon_out"] == 0
    assert cab.board.display.screen["say"] == ("validation_refused",)
    press(cab.board, cab, "cashout")  # again
    steps(cab, 5)
    assert cab.ledger.validation_request()["k"] == 12 and general(cab) == 0x57
    assert poll(cab, 0x57) == pending(300)
    assert poll(cab, 0x58, number(3, 42)) == reply(0x58, b"\x00")
    steps(cab, 20)
    assert tickets_sent(cab.fake) == ["03%016d" % 42] and cab.ledger.credits == 0


def test_no_answer_in_ten_seconds_prints_nothing_and_keeps_the_credits():
    cab = asking()
    assert general(cab) == 0x57
    cab.board.now += 9500  # the request was made some 200 ms ago (the press, a few loop passes, the poll)
    steps(cab, 2)
    assert cab.ledger.validation_request() is not None  # not yet: 10 s
    cab.board.now += 500
    steps(cab, 2)
    assert cab.ledger.validation_request() is None and cab.ledger.credits == 12 and cab.fake.tickets == 0
    assert poll(cab, 0x58, number(1, NUMBER)) == reply(0x58, b"\x80")  # too late: not in a cash-out
    steps(cab, 20)
    assert cab.fake.tickets == 0 and cab.coupons.records() == []
    ev = [e for e in cab.ledger.events() if e[2] == "coupon"]
    assert "no answer from the system in 10 s" in ev[-1][3], ev[-1]


def test_a_number_before_the_cash_out_is_read_is_rejected_and_the_cash_out_still_waits():
    cab = asking()
    assert poll(cab, 0x58, number(1, NUMBER)) == reply(0x58, b"\x81")  # 57 first
    assert cab.ledger.validation_request() is not None and cab.fake.tickets == 0
    assert poll(cab, 0x58, b"\x01" + b"\x12\x34\x56\x78\x9a\x00\x00\x00") == b"\x81"  # not BCD: NACK
    assert poll(cab, 0x57) == pending(300)
    assert poll(cab, 0x58, number(1, NUMBER)) == reply(0x58, b"\x00")
    steps(cab, 20)
    assert tickets_sent(cab.fake) == [PRINTED]


def test_a_number_already_on_a_coupon_is_rejected_never_printed_twice():
    cab = asking()
    poll(cab, 0x57)
    poll(cab, 0x58, number(1, NUMBER))
    steps(cab, 20)
    coins(cab, 2)
    press(cab.board, cab, "cashout")
    steps(cab, 5)
    assert poll(cab, 0x57) == pending(200)
    assert poll(cab, 0x58, number(1, NUMBER)) == reply(0x58, b"\x81")  # that number is coupon 1's
    steps(cab, 20)
    assert tickets_sent(cab.fake) == [PRINTED] and cab.ledger.credits == 8 and cab.ledger.validation_request() is None


def test_the_validation_does_not_change_while_a_cash_out_waits_for_its_number():
    cab = asking()
    r = poll(cab, 0x4C, (4243).to_bytes(3, "little") + bytes(3))
    assert r == b"\x01\x00"  # busy (SAS 6.02 s. 4.1): a validation id would end system validation now
    try:
        coupon_system.set_validation_id(cab, 4243)
        raise AssertionError("taken")
    except coupon_system.Busy:
        pass
    assert cab.coupons.system() and cab.coupons.validation()[0] == 4242
    poll(cab, 0x57)
    poll(cab, 0x58, number(1, NUMBER))
    steps(cab, 20)
    assert poll(cab, 0x4C, (4243).to_bytes(3, "little") + bytes(3))[2:5] == (4243).to_bytes(3, "little")
    assert not cab.coupons.system()


def test_in_secure_enhanced_validation_57_and_58_are_ignored():
    cab = fresh()
    assert poll(cab, 0x57) == b"" and poll(cab, 0x58, number(1, NUMBER)) == b""
    coins(cab, 1)
    press(cab.board, cab, "cashout")
    steps(cab, 20)
    assert cab.fake.tickets == 1 and tickets_sent(cab.fake)[0][:8] == "%08d" % 4242  # its own number


def test_the_request_survives_a_power_cut_at_every_write_of_its_commit_and_is_asked_again():
    seen = set()
    for n in range(1, 40):
        cab = fresh()
        system(cab)
        coins(cab, 3)
        drain(cab)
        NVRAM.cut(n, 3)
        try:
            press(cab.board, cab, "cashout")
            steps(cab, 5)
            cut = False
        except PowerCut:
            cut = True
        NVRAM.cut(None)
        cab = again(cab)
        req = cab.ledger.validation_request()
        assert cab.ledger.credits == 12 and cab.coupons.records() == [] and cab.fake.tickets == 0
        if req is None:
            assert cab.state == "credit" and not told(cab)
        else:
            assert req["k"] == 12 and cab.state == "payout"
            assert told(cab) and poll(cab, 0x57) == pending(300)  # the same request, asked again
            assert poll(cab, 0x58, number(1, NUMBER)) == reply(0x58, b"\x00")
            steps(cab, 20)
            assert tickets_sent(cab.fake) == [PRINTED] and cab.ledger.credits == 0
        seen.add((cut, req is not None))
        cab = None
        if not cut:
            break
    assert (True, False) in seen and (True, True) in seen and (False, True) in seen, seen


def test_a_cut_after_the_system_read_the_cash_out_asks_again_with_the_same_amount():
    cab = asking()
    assert poll(cab, 0x57) == pending(300)
    cab.board.now += 9000  # the cut comes 9 s into the request's 10
    cab = again(cab)  # nothing was committed by the read
    assert told(cab) and poll(cab, 0x57) == pending(300)
    cab.board.now += 8000
    steps(cab, 2)
    assert cab.ledger.validation_request() is not None  # its 10 s count from the power-up
    assert poll(cab, 0x58, number(1, NUMBER)) == reply(0x58, b"\x00")
    steps(cab, 20)
    assert tickets_sent(cab.fake) == [PRINTED]


def test_the_number_survives_a_power_cut_at_every_write_one_coupon_one_number_no_credit_lost():
    """The 58 commits the coupon in the books (the request replaced in the same transaction), then in
    the coupon memory: a cut at any write leaves the request (asked again: a new number may come, the
    first was never on a coupon) or the coupon with the system's number, printed after the power-up."""
    seen = set()
    for n in range(1, 60):
        cab = asking()
        assert poll(cab, 0x57) == pending(300)
        NVRAM.cut(n, 5)
        try:
            r = poll(cab, 0x58, number(1, NUMBER))
            cut = False
        except PowerCut:
            cut = True
        NVRAM.cut(None)
        cab = again(cab)
        led = cab.ledger
        req = led.validation_request()
        books = led.coupons()
        recs = cab.coupons.records()
        if req is not None:  # before the books' commit: no coupon anywhere, the credits on the meter
            assert books == [] and recs == [] and led.credits == 12 and cab.state == "payout"
            assert poll(cab, 0x57) == pending(300)
            assert poll(cab, 0x58, number(1, NUMBER + 7)) == reply(0x58, b"\x00")
            want = "01%016d" % (NUMBER + 7)
        else:  # the books have the coupon: the coupon memory too (kept again at the power-up)
            assert [b["n"] for b in books] == [PRINTED] == [x["n"] for x in recs] and led.credits == 0
            assert recs[0]["v"] == 1 and led.meters["coupon_out"] == 12
            assert poll(cab, 0x57) == reply(0x57, b"\x80" + bcd(0, 5))
            want = PRINTED
        steps(cab, 20)
        assert tickets_sent(cab.fake) == [want] and len(cab.coupons.records()) == 1
        assert cab.ledger.credits == 0 and cab.ledger.meters["coupon_out"] == 12
        seen.add((cut, req is not None))
        cab = None
        if not cut:
            assert r == reply(0x58, b"\x00")
            break
    assert (True, True) in seen and (True, False) in seen and (False, False) in seen, seen


def test_a_cut_while_the_coupon_prints_prints_it_again_with_the_same_number():
    cab = asking()
    poll(cab, 0x57)
    cab.fake.fault_at_ff = "out"
    poll(cab, 0x58, number(1, NUMBER))
    steps(cab, 10)
    assert cab.ledger.coupon_owed()["n"] == PRINTED
    cab.fake.out = cab.fake.path = False
    cab = again(cab)
    steps(cab, 20)
    assert tickets_sent(cab.fake) == [PRINTED, PRINTED] and cab.ledger.coupon_owed() is None
    assert cab.coupons.records()[0]["st"] == "issued"
