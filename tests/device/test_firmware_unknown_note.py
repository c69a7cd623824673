# A note of unknown fate (issue 22.4, 22.5; firmware/bill_in.py, firmware/bill_books.py) on the real
# Cabinet and Console over a fake board: it is the "note" tilt, which stops money in at once (reels
# turning too) and which the reset key cannot clear; credits are still cashed out while it stands;
# the attendant settles it from the console through the state table (states.NOTE), stacked or
# returned, logged in the event log and the security log; meters and the self-audit say so.
# mp-heap: 1024K  (as test_firmware_console.py: the firmware, the 68 + 55 KB NVRAM images the fakes keep in RAM)
import json

from devtest import raises
from fakes_cabinet import coins, press, steps
from test_firmware_console import console, run

from firmware import states
from firmware.audit_error import AuditError


def unknown(cab, credits=80, counter=9):
    """The pending $20 whose validator reset before its fate was read (what firmware/bill_in.py books)."""
    led = cab.ledger
    led.bill_escrow(3, credits, counter)
    led.bill_unproven(0, "CA0020A", "validator reset (event counter %d -> 0)" % (counter + 1))
    cab.show()


def test_it_is_a_tilt_the_reset_key_cannot_clear_and_money_in_stops():
    con, cab, board, acc = console("attendant")
    coins(cab, acc, 2)
    assert cab.want_money() and acc.on
    unknown(cab)
    assert cab.state == states.TILT and "note" in cab.tilts and not cab.want_money()
    steps(cab, 12)
    assert not acc.on  # the coin acceptor too
    assert board.display.screen["say"] == ["tilt", "note"]
    assert "CA0020A (80 credits): fate unknown" in board.display.screen["msg"]
    press(board, cab, "key_reset")
    assert "note" in cab.tilts and cab.state == states.TILT
    out = run(con, "state")
    assert any(line.startswith("tilt note: CA0020A (80 credits)") for line in out)
    cab.ledger.audit()


def test_money_stops_at_once_even_while_the_reels_turn():
    con, cab, board, acc = console("attendant")
    coins(cab, acc, 2)
    press(board, cab, "play")
    assert cab.state == states.SPIN and cab.want_money()
    unknown(cab)
    assert cab.state == states.SPIN and not cab.want_money()
    assert cab.handle(states.NOTE, True, "att") is False  # not while the reels turn
    assert cab.ledger.bill_unknown is not None
    steps(cab, 60)
    assert cab.state == states.TILT


def test_credits_are_still_cashed_out_while_it_stands():
    con, cab, board, acc = console("attendant")
    coins(cab, acc, 2)
    unknown(cab)
    press(board, cab, "cashout")
    assert cab.ledger.lock == {"kind": "handpay", "amount": 8}  # this cabinet has no hopper: a hand pay
    press(board, cab, "key_reset")
    assert cab.ledger.credits == 0 and cab.ledger.meters["cancelled"] == 8
    assert cab.ledger.bill_unknown["k"] == 80 and "note" in cab.tilts  # the key paid, the note stands


def test_the_attendant_settles_it_stacked_from_the_console():
    con, cab, board, acc = console("attendant")
    coins(cab, acc, 1)
    unknown(cab)
    out = run(con, "note")
    assert out[0].startswith("note CA0020A, 80 credits, fate unknown since ") and "validator reset" in out[0]
    assert json.loads(run(con, "note json")[0]) == {"note": cab.ledger.bill_unknown, "unproven": 1, "credits": 80,
                                                    "stacked": 0, "returned": 0}
    assert run(con, "note stacked") == ["CA0020A (80 credits) settled as stacked: credited"]
    led = cab.ledger
    assert led.credits == 84 and led.meters["bill_in"] == 80 and led.meters["bill_settled_stacked"] == 80
    assert led.bill_unknown is None and "note" not in cab.tilts and cab.state == states.CREDIT
    steps(cab, 12)  # the next acceptor poll
    assert acc.on  # money in again
    ev = led.events()[-1]
    assert ev[2] == "note-stacked" and "says attendan: +80 credits" in ev[3]
    assert any(r[2] == "attendan" and r[3] == "ok" and r[4].startswith("note stacked => CA0020A")
               for r in cab.audit.records())
    led.audit()
    assert run(con, "note stacked") == ["error: no note of unknown fate to settle"]
    assert led.credits == 84


def test_settled_returned_credits_nothing_and_the_meters_keep_both():
    con, cab, board, acc = console("attendant")
    unknown(cab, credits=200)
    board.pins["door_cashbox"].value(1)  # the attendant opens the cash box to count it
    steps(cab, 10)
    assert cab.state == states.DOOR
    assert run(con, "note returned") == ["CA0020A (200 credits) settled as returned: nothing credited"]
    board.pins["door_cashbox"].value(0)
    steps(cab, 10)
    led = cab.ledger
    assert led.credits == 0 and led.meters["bill_in"] == 0 and cab.state == states.IDLE
    assert led.meters["bill_settled_returned"] == 200 and led.meters["bill_unproven_credits"] == 200
    assert led.events()[-2][2] == "note-back" and "returned to the player, says attendan" in led.events()[-2][3]
    unknown(cab, credits=40, counter=20)
    run(con, "note stacked")
    assert [led.meters[k] for k in ("bill_unproven", "bill_unproven_credits", "bill_settled_stacked",
                                    "bill_settled_returned")] == [2, 240, 40, 200]
    led.audit()


def test_only_an_attendant_settles_and_a_bad_word_changes_nothing():
    con, cab, board, acc = console("technician")
    unknown(cab)
    assert run(con, "note stacked") == ["refused: note stacked is not for a technician"]
    assert run(con, "note")[0].startswith("note CA0020A")  # looking is allowed
    con, cab, board, acc = console("attendant")
    unknown(cab)
    assert run(con, "note maybe") == ["error: usage: note [json | stacked | returned]"]
    assert run(con, "note stacked now") == ["error: usage: note [json | stacked | returned]"]
    assert cab.ledger.bill_unknown is not None and cab.ledger.credits == 0


def test_a_lock_is_paid_first_then_the_note_settled():
    con, cab, board, acc = console("attendant")
    coins(cab, acc, 1)
    unknown(cab)
    cab.ledger.cashout(hand_pay=True)
    assert cab.state == states.HANDPAY
    assert run(con, "note stacked") == ["error: note stacked refused in state handpay"]
    press(board, cab, "key_reset")
    assert cab.state == states.TILT and run(con, "note stacked")[0].endswith("credited")
    assert cab.ledger.credits == 80


def test_the_self_audit_checks_the_unknown_notes():
    con, cab, board, acc = console("attendant")
    unknown(cab)
    cab.ledger.audit()
    cab.ledger.st["m"]["bill_settled_returned"] += 80  # settled and still standing: the books disagree
    with raises(AuditError):
        cab.ledger.audit()


def test_a_ticket_of_unknown_fate_is_settled_by_the_attendant_from_the_console():
    # what firmware/bill_in.py books when the power goes while a redeemed ticket is being stacked
    # (docs/sas.md "Ticket in"): held, the system's 71 (500 cents, 20 credits of 25), then unknown
    from firmware import ticket_books as tk

    con, cab, board, acc = console("attendant")
    led = cab.ledger
    tk.held(led, "001234567890123456", None)
    tk.decided(led, tk.STACKING, tk.PENDING, 0, 500, 20)
    tk.unproven(led, "power cut while it was being stacked")
    cab.set_tilt("ticket", "ticket of unknown fate")
    assert cab.state == states.TILT and not cab.want_money() and led.owed() == "unknown ticket"
    press(board, cab, "key_reset")
    assert "ticket" in cab.tilts  # the key cannot say stacked or returned
    out = run(con, "ticket")
    assert out[0].startswith("ticket 001234567890123456: stage 4") and "fate unknown" in out[0]
    assert run(con, "ticket stacked") == ["ticket 001234567890123456 settled as stacked: credited"]
    assert led.credits == 20 and tk.credits_in(led) == 20 and tk.count_in(led) == 1 and "ticket" not in cab.tilts
    assert json.loads(run(con, "meters json")[0])["ticket_in"] == 20
    led.audit()
    assert run(con, "ticket returned") == ["error: no ticket of unknown fate to settle"]
    ev = [e for e in led.events() if e[2] == "ticket-in"]
    assert len(ev) == 1 and "settled stacked by attendan: +20 credits" in ev[0][3]
