# Credits are never out of reach (issue 9, fault 6): the cash-out where play is stopped (no game to
# offer, a door open, the reels turning) and none from memory that cannot be trusted (a RAM error).
# The real Cabinet and Ledger over a fake board (tests/device/power_cycle.py).
# mp-heap: 640K  (the firmware's 256K, the 68 KB NVRAM image the fake board keeps in RAM, and
# the modules compiled from source: at 384K and 448K their compiling found no room in one piece)
from power_cycle import SEPT, coins, new_board, power_on, press, steps


# --- fault 6: credits are never out of reach ------------------------------------------------------------
def test_cash_out_works_when_no_game_can_be_offered_and_the_panel_says_why():
    board = new_board()
    cab = power_on(board, SEPT)
    coins(cab, 2)
    cab = power_on(board, None)
    cab.set_tilt("game", "no certified game to offer (sept-royal-87: math hash mismatch)")
    assert cab.state == "tilt"
    assert "no certified game to offer" in board.display.screen["msg"]
    press(cab, "cashout")
    assert cab.state == "handpay" and cab.ledger.lock["amount"] == 8
    press(cab, "key_reset")
    assert cab.ledger.credits == 0 and cab.ledger.meters["cancelled"] == 8
    cab.ledger.audit()


def test_cash_out_with_a_door_open_is_a_hand_pay():
    board = new_board()
    cab = power_on(board, SEPT)
    coins(cab, 1)
    board.pins["door_main"].value(1)
    steps(cab, 10)
    press(cab, "cashout")
    assert cab.ledger.lock == {"kind": "handpay", "amount": 4}


def test_cash_out_pressed_while_the_reels_turn_is_carried_out_when_they_stop():
    board = new_board()
    cab = power_on(board, SEPT)
    coins(cab, 2)
    board.pins["play"].value(1)
    steps(cab, 6)
    board.pins["play"].value(0)
    steps(cab, 2)
    assert cab.state == "spin"
    press(cab, "cashout", hold=40)  # well inside SPIN_MS
    steps(cab, 60)
    assert cab.state == "handpay" and cab.ledger.lock["amount"] == cab.ledger.credits > 0


def test_no_cash_out_from_a_ram_error():
    board = new_board()
    cab = power_on(board, SEPT)
    coins(cab, 1)
    cab.set_ram_error("both copies of state are bad")
    press(cab, "cashout")
    press(cab, "key_reset")  # the attendant's key does nothing on memory that cannot be trusted
    assert cab.state == "ramerror"
