# What the firmware sends the player's screen (docs/screen.md): each message as an id and its
# arguments, which the screen translates, beside the technician's English line; the model and the
# credit's value for the symbol names, the pay table and the dollars.
# mp-heap: 576K  (test_firmware_cabinet's fake cabinet: its 64 KB NVRAM image, the modules compiled from source;
# it passed in 496K before rng/crypto/ became a package, in 528K after: the contiguous NVRAM image's edge)
from fakes_cabinet import make_cabinet
from test_firmware_cabinet import cabinet, coins, press, steps

from firmware.config import Config
from firmware.play import played
from games import load


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
    cab.screen.message = "out of order"  # not a translated message: the screen shows it as it is
    cab.show()
    assert say(board) == ["out of order"] and board.display.screen["msg"] == "out of order"


# --- the outcome on the screen: its bet, its winning lines, its free spins (docs/screen.md) --------

def _trefle():
    """A cabinet playing trefle-94 (5 lines, bets 5/10/25), whose draws are the test's."""
    cab, board, acc = cabinet(game=load("games/models/trefle-94.json"))
    cab.ledger.set_bet(5)
    return cab, board, acc, cab.game


def test_the_outcome_comes_once_the_reels_stop_with_its_bet_and_winning_lines():
    cab, board, acc, game = _trefle()
    # stops 0, 3, 1: COIN/HAT/BLANK, CLOVER/COIN/BELL, BELL/BLANK/HAT (reel by reel, top to bottom):
    # the model's line 1 (the top row: COIN CLOVER BELL) and line 3 (rows 0, 1, 2: COIN COIN HAT)
    # pay "3 ANY", 2 credits each at bet 5 (games/models/trefle-94.json)
    game.play = lambda gen, bet: game.evaluate(bet, [0, 3, 1])
    coins(cab, acc, 2)
    press(board, cab, "play")
    s = board.display.screen
    assert s["state"] == "spin" and s["outcome"] is None and s["win"] == 0  # nothing shown while they turn
    steps(cab, 60)  # past SPIN_MS
    s = board.display.screen
    assert s["reels"] == [["COIN", "CLOVER", "BELL"], ["HAT", "COIN", "BLANK"], ["BLANK", "BELL", "HAT"]]
    assert s["win"] == 4 and s["outcome"] == {"bet": 5, "lines": [[1, 2], [3, 2]]}
    press(board, cab, "bet_one")  # a new bet: the win shown is still the one played at 5
    s = board.display.screen
    assert s["bet"] == 10 and s["win"] == 4 and s["outcome"]["bet"] == 5


def test_the_outcome_of_a_game_rebuilt_at_power_up_is_shown_again():
    cab, board, acc, game = _trefle()
    game.play = lambda gen, bet: game.evaluate(bet, [0, 3, 1])
    coins(cab, acc, 2)
    press(board, cab, "play")
    steps(cab, 60)
    cab2 = make_cabinet(board, cab.ledger, game, cab.gameplay.gen, acc)  # the same memory, a new boot
    cab2.resume()
    cab2.show()
    s = board.display.screen
    assert s["win"] == 4 and s["outcome"] == {"bet": 5, "lines": [[1, 2], [3, 2]]}


def test_a_base_spin_that_wins_free_spins_sends_the_scatter_and_the_free_spins_won():
    game = load("games/models/aurore-93.json")
    # a bet-20 game of aurore-93 (found by playing the emulated generator): three STAR scatters
    # (scatter_pays "3": 40), 10 free spins (free_spins award "3": 10) that won 180 credits
    draws = [20, 10, 28, 1, 8, 37, 37, 23, 23, 8, 14, 27, 33, 32, 22, 10, 34, 48, 26, 29, 32, 20, 20, 27, 26, 22,
             21, 48, 17, 40, 20, 34, 5, 49, 6, 22, 43, 47, 30, 46, 31, 21, 12, 10, 34, 42, 14, 26, 31, 2, 41, 19,
             42, 38, 25]
    o = game.evaluate(20, draws)
    assert sum(row.count("STAR") for row in o.window) == 3 and o.award == 220
    assert played(game, o) == {"bet": 20, "lines": [[-1, 40]], "free": [10, 180]}


def test_keno_and_poker_outcomes_name_no_line():
    class Keno:
        def check_picks(self, picks):
            pass

    class Poker:
        def check_deck(self, deck):
            pass

    class Outcome:
        bet = 5
        wins = [[4, "4/4", 60]]  # keno: (spots, caught, credits); poker: [-1, name, credits]
        free = []

    assert played(Keno(), Outcome()) == {"bet": 5, "lines": []}
    assert played(Poker(), Outcome()) == {"bet": 5, "lines": []}


def test_the_frame_carries_the_profiles_limits_only_where_there_are_some():
    cab, board, acc = cabinet()
    cab.show()
    assert board.display.screen["limits"] is None  # casino: no bet or prize limit beyond the game's
    cab, board, acc = cabinet(cfg=Config({"JURISDICTION": "vlt"}))
    cab.show()
    # S-13.1, r. 7, s. 6: a wager at most $2.50, a prize at most $1,000 (firmware/jurisdiction.py PROFILES)
    assert board.display.screen["limits"] == {"bet": 250, "prize": 100000}
