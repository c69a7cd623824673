# What a power cycle keeps and what it finds afresh (issue 9, faults 3, 4 and 7): the bet a game
# accepts after a reboot, a committed wager that the boot's game, bet or RNG cannot complete
# (refunded, s. 95), tilts that need an attendant (kept) and the game tilt (found again). The real
# Cabinet and Ledger over a fake board (tests/device/power_cycle.py).
# mp-heap: 768K  (the firmware's 256K, the 68 KB NVRAM image the fake board keeps in RAM, and
# the modules compiled from source: at 384K and 448K their compiling found no room in one piece)
import gc

from power_cycle import SEPT, TREFLE, coins, gen, new_board, power_on, press, steps

import rng


# --- fault 3: the bet is always one the offered game accepts ---------------------------------------
def test_first_play_of_a_game_whose_bets_start_above_one_commits_its_lowest_bet():
    board = new_board()
    cab = power_on(board, TREFLE)
    coins(cab, 3)  # 12 credits
    press(cab, "play")
    steps(cab, 60)
    assert cab.ledger.meters["games_played"] == 1 and cab.ledger.meters["coin_in"] == 5
    assert cab.ledger.game["phase"] == "done" and cab.ledger.recall()[-1]["bet"] == 5
    cab.ledger.audit()
    again = power_on(board, TREFLE)  # and a reboot finds a finished game, not a crash
    assert again.state == "credit" and again.ledger.bet == 5


def test_a_wager_on_a_game_no_longer_offered_is_refunded_at_power_up():
    board = new_board()
    cab = power_on(board, SEPT)
    coins(cab, 1)
    cab.ledger.set_bet(3)
    cab.ledger.wager(3, None, cab.game.id)  # committed; the power goes before the draw
    assert cab.ledger.credits == 1
    again = power_on(board, TREFLE)  # the operator changed the game set meanwhile
    led = again.ledger
    assert led.game["phase"] == "void" and led.credits == 4 and led.meters["refunds"] == 3
    assert any(e[2] == "void" and "sept-royal-87 no longer offered" in e[3] for e in led.events())
    assert led.bet == 5 and again.state == "credit"
    led.audit()


def test_a_wager_whose_bet_the_game_no_longer_offers_is_refunded():
    board = new_board()
    cab = power_on(board, SEPT)
    coins(cab, 1)
    cab.ledger.wager(2)  # a record from before game ids were kept: only its bet can be checked
    again = power_on(board, TREFLE)
    assert again.ledger.credits == 4 and again.ledger.meters["refunds"] == 2


def test_a_wager_with_no_certified_game_at_power_up_is_refunded():
    board = new_board()
    cab = power_on(board, SEPT)
    coins(cab, 1)
    cab.ledger.wager(1, None, cab.game.id)
    again = power_on(board, None)
    assert again.ledger.credits == 4 and again.ledger.game["phase"] == "void"


# --- fault 4: the RNG fails at power-up with a wager committed ---------------------------------------
def test_rng_failure_at_power_up_voids_the_committed_wager_then_recovers():
    board = new_board()
    cab = power_on(board, SEPT)
    coins(cab, 1)
    cab.ledger.wager(2, None, cab.game.id)
    cab = None  # powered off: only the NVRAM remains
    gc.collect()
    again = power_on(board, SEPT, g=None)
    again.set_tilt("rng", "startup: stuck source")  # as firmware.startup does when open_rng fails
    again.resume()
    led = again.ledger
    assert led.credits == 4 and led.meters["refunds"] == 2 and led.game["phase"] == "void"  # s. 95
    assert again.state == "tilt"
    again = led = None
    gc.collect()
    healthy = [False]  # the source's start-up tests, when the reset key asks for a fresh generator
    third = power_on(board, SEPT, g=None, open_rng=lambda: (gen(), None) if healthy[0] else
                     (None, rng.RngFailure("startup", "stuck source")))  # every later boot with it dead: no loop
    assert third.ledger.credits == 4 and third.state == "tilt" and "rng" in third.tilts
    press(third, "key_reset")
    assert third.state == "tilt" and "rng" in third.tilts  # still failing: the key cannot clear it
    healthy[0] = True  # the source passes its start-up test again
    press(third, "key_reset")
    assert third.state == "credit"
    press(third, "play")
    assert third.ledger.meters["games_played"] == 2


# --- fault 7: tilts that need an attendant survive a power cycle -------------------------------------
def test_fraud_acceptor_and_hopper_tilts_survive_a_power_cycle():
    for kind, why in (("fraud", "coin fraud code 5"), ("acceptor", "missed 3/9"),
                      ("hopper", "hopper flag 5: opto blocked permanently during payout")):
        board = new_board()
        cab = power_on(board, SEPT)
        coins(cab, 1)
        cab.set_tilt(kind, why)
        cab = None  # powered off: only the NVRAM remains
        gc.collect()
        again = power_on(board, SEPT)
        assert again.state == "tilt" and again.tilts == {kind: why}, (kind, again.tilts)
        steps(again, 12)
        assert not again.coins.device.on  # no money taken while it stands
        press(again, "key_reset")
        assert again.state == "credit" and not again.tilts
        again = None
        gc.collect()
        assert power_on(board, SEPT).state == "credit"  # and the clearing is kept too
        board = cab = again = None  # one 64 KB NVRAM image at a time in the fixed heap


def test_a_game_tilt_is_found_afresh_at_each_power_up():
    board = new_board()
    cab = power_on(board, None)
    cab.set_tilt("game", "no certified game to offer")
    assert power_on(board, SEPT).state == "idle"
