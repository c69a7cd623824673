# Off the walked path (issue 9): games whose bets do not start at 1, a game set changed across a
# reboot, an RNG that fails at power-up with a wager committed, tilts across a power cycle, cash-out
# with play stopped, RAM clear and the hard meters, tournament games on the meters. The real Cabinet
# and Ledger over a fake board; a "power cycle" is a new Ledger and Cabinet on the same NVRAM.
# mp-heap: 640K  (the firmware's 256K, the 68 KB NVRAM image the fake board keeps in RAM, and
# the modules compiled from source: at 384K and 448K their compiling found no room in one piece)
import gc

from fakes_cabinet import Acceptor, Board
from fakes_firmware import RamNvram, memory, wiped

import rng
from board.meters_em import EmMeters
from firmware.cabinet import Cabinet
from firmware.ledger import Ledger
from games import load

SEPT = "games/models/sept-royal-87.json"  # bets 1, 2, 3
TREFLE = "games/models/trefle-90.json"  # bets 5, 10, 25: a fresh ledger's bet is not one of them


class LedgerStore:
    """The EM meters' record kept in the ledger's critical memory, as firmware.startup wires it."""

    def __init__(self, led):
        self.load = led.em_state
        self.save = led.save_em_state


def gen():
    return rng.open_generator(rng.open_source("emulated"))


def power_on(board, model=SEPT, g="fresh", acc=None):
    """Boot on the board's NVRAM as firmware.startup does: ledger, cabinet, resume."""
    gc.collect()  # a board boots on a fresh heap: what the last boot left is garbage
    led = Ledger(memory(board.nvram))
    led.open()
    game = load(model) if model else None
    cab = Cabinet(board, led, game, gen() if g == "fresh" else g, acc or Acceptor(), log=lambda m: None)
    cab.resume()
    cab.step(0)
    return cab


NVRAM = RamNvram(69632)  # one part, wiped for each test: made while the heap is in one piece


def new_board():
    gc.collect()
    return Board(wiped(NVRAM))


def steps(cab, n=30):
    for _ in range(n):
        cab.step(10)


def coins(cab, n):
    for _ in range(n):
        cab.acceptor.push("coin", 1, 1)
    steps(cab, 12)


def press(cab, name, hold=60):
    cab.board.pins[name].value(1)
    steps(cab, hold // 10)
    cab.board.pins[name].value(0)
    steps(cab, 8)


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
    third = power_on(board, SEPT, g=None)  # every later boot with the source still dead: no loop
    assert third.ledger.credits == 4 and third.state == "tilt" and "rng" in third.tilts
    third.reopen_rng = lambda: (gen(), None)  # the source passes its start-up test again
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
        assert not again.acceptor.on  # no money taken while it stands
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


# --- fault 8: a RAM clear keeps the hard meters' positions ----------------------------------------------
def ram_clear(cab, who="tech"):
    """The technician's RAM clear as the console asks it: through the state table, audit key on."""
    from firmware import states

    return cab.handle(states.RAMCLEAR, who)


def cash_out_by_hand(cab):
    """The audit key on, the cash-out is a hand pay (never the hopper); the attendant pays it."""
    cab.board.pins["key_audit"].value(1)
    steps(cab, 5)
    press(cab, "cashout")
    press(cab, "key_reset")
    assert cab.ledger.credits == 0 and cab.state == "service", cab.state


def test_ram_clear_keeps_the_hard_meters_known_positions():
    board = new_board()
    cab = power_on(board, SEPT)
    cab.em = EmMeters(board.coils, LedgerStore(cab.ledger), on_ms=20, off_ms=20)
    coins(cab, 5)
    steps(cab, 200)
    assert board.coils["meter_drop"].rises == 20 and cab.em.done("meter_drop") == 20
    cash_out_by_hand(cab)
    steps(cab, 200)  # the 20 cancelled credits stroke the jackpot meter first
    assert board.coils["meter_jackpot"].rises == 20
    assert ram_clear(cab)
    cab.em = EmMeters(board.coils, LedgerStore(cab.ledger), on_ms=20, off_ms=20)
    board.pins["key_audit"].value(0)
    steps(cab, 20)
    assert "meter" not in cab.tilts and cab.state == "idle"
    assert cab.em.done("meter_drop") == 20  # the record still says where the counter stands
    coins(cab, 1)
    steps(cab, 60)
    assert board.coils["meter_drop"].rises == 24 and cab.em.done("meter_drop") == 24
    assert cab.ledger.meters["acceptor_in"] == 4


# --- fault 9: tournament games are games -----------------------------------------------------------------
def test_tournament_games_are_counted_and_metered():
    board = new_board()
    cab = power_on(board, SEPT)
    cab.em = EmMeters(board.coils, LedgerStore(cab.ledger), on_ms=20, off_ms=20)
    coins(cab, 3)
    cab.ledger.tour_start(8, 10, 2, 40, "2026-12-05", 6)
    press(cab, "play")
    press(cab, "play")
    steps(cab, 40)
    assert cab.ledger.meters["games_played"] == 2 and cab.ledger.recall()[-1]["n"] == 2
    assert board.coils["meter_games"].rises == 2


def test_ram_clear_waits_for_a_stroke_on_its_way():
    from devtest import raises

    board = new_board()
    cab = power_on(board, SEPT)
    cab.em = EmMeters(board.coils, LedgerStore(cab.ledger), on_ms=20, off_ms=20)
    coins(cab, 1)  # four strokes to drive on the drop meter
    steps(cab, 60)
    cash_out_by_hand(cab)  # four strokes to drive on the jackpot meter
    cab.step(1)
    assert cab.em.busy()
    with raises(ValueError):
        ram_clear(cab)
    assert cab.ledger.meters["cancelled"] == 4  # nothing cleared
    steps(cab, 60)
    assert ram_clear(cab)
    assert cab.ledger.meters["cancelled"] == 0 and cab.ledger.em_base()["meter_drop"] == 4
    assert cab.ledger.em_base()["meter_jackpot"] == 4
