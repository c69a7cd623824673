# What the firmware sends the player's screen (docs/screen.md): each message as an id and its
# arguments, which the screen translates, beside the technician's English line; the model and the
# credit's value for the symbol names, the pay table and the dollars.
# mp-heap: 512K  (test_firmware_cabinet's fake cabinet: its 64 KB NVRAM image, the modules compiled from source)
from test_firmware_cabinet import cabinet, coins, press, steps


def say(board):
    s = board.display.screen["say"]
    return list(s) if s is not None else None


def test_a_fresh_cabinet_says_nothing_and_names_its_model_and_credit_value():
    cab, board, acc = cabinet()
    cab.show()
    s = board.display.screen
    assert say(board) is None and s["msg"] == ""
    assert s["id"] == "sept-royal-87" and s["cents"] == 25  # firmware/config.py DENOM_CENTS


def test_play_without_credits_says_insert():
    cab, board, acc = cabinet()
    press(board, cab, "play")
    assert say(board) == ["insert"] and board.display.screen["msg"] == "insert"


def test_a_game_played_clears_the_message():
    cab, board, acc = cabinet()
    press(board, cab, "play")
    coins(cab, acc, 1)
    press(board, cab, "play")
    steps(cab, 60)  # past SPIN_MS
    assert cab.ledger.meters["games_played"] == 1
    assert say(board) is None and board.display.screen["msg"] == ""


def test_a_hand_pay_says_lock_kind_and_amount_then_paid():
    cab, board, acc = cabinet()
    coins(cab, acc, 3)
    press(board, cab, "cashout")
    assert say(board) == ["lock", "handpay", 12]
    assert board.display.screen["msg"] == "HANDPAY 12"
    press(board, cab, "key_reset")
    assert say(board) == ["paid", 12] and board.display.screen["msg"] == "paid 12"


def test_tilts_say_their_kinds_sorted_and_the_reason_stays_for_the_technician():
    cab, board, acc = cabinet()
    cab.set_tilt("meter", "hard meter ahead of soft: meter_in")
    acc.push("fraud", 0, 5)
    steps(cab, 12)
    assert say(board) == ["tilt", "fraud", "meter"]
    msg = board.display.screen["msg"]
    assert msg.startswith("TILT fraud: ") and "meter: hard meter ahead of soft: meter_in" in msg


def test_a_ram_error_says_ramerror_over_any_message():
    cab, board, acc = cabinet()
    press(board, cab, "play")  # "insert" would be shown otherwise
    cab.set_ram_error("checksum")
    assert say(board) == ["ramerror"] and board.display.screen["msg"] == "RAM ERROR"


def test_a_plain_line_is_passed_on_as_an_id_without_arguments():
    cab, board, acc = cabinet()
    cab.message = "out of order"  # not a translated message: the screen shows it as it is
    cab.show()
    assert say(board) == ["out of order"] and board.display.screen["msg"] == "out of order"
