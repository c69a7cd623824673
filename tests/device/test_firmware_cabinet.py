# Every tilt and its clear path, and the by-law duties, on the real Cabinet over a fake board.
# mp-heap: 640K  (the firmware's 256K, the 68 KB NVRAM image the fake board keeps in RAM, and
# the modules compiled from source: at 384K and 448K their compiling found no room in one piece)
import gc

from devtest import big_win
from fakes_board import Store
from fakes_cabinet import Acceptor, Board, FailingGen, coins, make_cabinet, press, steps
from fakes_firmware import RamNvram, memory, wiped

import rng
from board.meters_em import EmMeters
from firmware.ledger import Ledger
from games import load

MODEL = "games/models/sept-royal-87.json"


NVRAM = RamNvram(69632)  # one part, wiped for each test: made while the heap is in one piece


def cabinet(gen=None, cfg=None, em=None, open_rng=None, game=None, audit=None, progressive=None):
    """A fresh cabinet on a wiped part, resumed; the parts not given as the boot makes them (em: a
    function of the board that makes its EM meters; progressive: one of the game's)."""
    gc.collect()
    board = Board(wiped(NVRAM))
    led = Ledger(memory(board.nvram))
    led.open()
    game = game or load(MODEL)
    acc = Acceptor()
    gen = gen or rng.open_generator(rng.open_source("emulated"))
    cab = make_cabinet(board, led, game, gen, acc, cfg, em=em(board) if em else None, open_rng=open_rng, audit=audit,
                       progressive=progressive(game) if progressive else None)
    cab.resume()
    cab.step(0)
    return cab, board, acc


def test_money_in_and_play():
    cab, board, acc = cabinet()
    coins(cab, acc, 2)
    assert cab.ledger.credits == 8 and cab.state == "credit"
    press(board, cab, "play")
    assert cab.ledger.meters["games_played"] == 1
    assert cab.state == "spin" and board.display.screen["win"] == 0  # committed, reels turning
    steps(cab, 60)  # past SPIN_MS
    win = cab.ledger.recall()[-1]["win"]
    assert cab.state == "credit" and board.display.screen["credits"] == 7 + win
    assert board.display.screen["reels"]


def test_rng_failure_voids_and_refunds_the_wager_then_clears_only_when_healthy():
    healthy = [False]  # what the source's start-up tests say when the reset key asks for a generator

    def reopen():
        if healthy[0]:
            return rng.open_generator(rng.open_source("emulated")), None
        return None, rng.RngFailure("startup", "still stuck")

    cab, board, acc = cabinet(open_rng=reopen)
    coins(cab, acc, 1)
    cab.gameplay.use_generator(FailingGen(rng.RngFailure("rct", "stuck source")))
    press(board, cab, "play")
    assert cab.state == "tilt" and "rng" in cab.tilts
    assert cab.ledger.credits == 4 and cab.ledger.meters["refunds"] == 1  # s. 95
    assert cab.ledger.events()[-2][2] == "void"
    assert not acc.on  # no money while tilted
    healthy[0] = False
    press(board, cab, "key_reset")
    assert "rng" in cab.tilts  # the key cannot clear a failing RNG
    healthy[0] = True
    press(board, cab, "key_reset")
    assert cab.state == "credit"
    press(board, cab, "play")
    assert cab.ledger.meters["games_played"] == 2


def test_self_audit_mismatch_tilts_and_the_key_does_not_clear_it():
    cab, board, acc = cabinet()
    coins(cab, acc, 1)
    cab.ledger.st["credits"] += 7  # credits that did not come through the meters
    press(board, cab, "play")
    assert "audit" in cab.tilts and cab.ledger.meters["games_played"] == 0
    press(board, cab, "key_reset")
    assert "audit" in cab.tilts  # only a technician (RAM clear) ends it


def test_coin_fraud_tilts_until_the_attendant_key():
    cab, board, acc = cabinet()
    acc.push("fraud", 0, 5)
    steps(cab, 12)
    assert "fraud" in cab.tilts and not acc.on
    press(board, cab, "key_reset")
    assert not cab.tilts and acc.on


def test_counter_out_of_sequence_stops_acceptance_until_cleared():
    cab, board, acc = cabinet()
    acc.push("counter", 9, 3)
    steps(cab, 12)
    assert "acceptor" in cab.tilts and not acc.on
    press(board, cab, "key_reset")
    assert acc.cleared == 1 and acc.on and not cab.tilts


def test_door_open_stops_play_and_money_and_is_metered():
    cab, board, acc = cabinet()
    coins(cab, acc, 1)
    board.pins["door_main"].value(1)
    steps(cab, 10)
    assert cab.state == "door" and not acc.on
    press(board, cab, "play")
    assert cab.ledger.meters["games_played"] == 0
    board.pins["door_main"].value(0)
    steps(cab, 10)
    assert cab.state == "credit" and cab.ledger.meters["door_main"] == 1
    codes = [e[3] for e in cab.ledger.events() if e[2] == "door"]
    assert codes[-2:] == ["door_main open", "door_main closed"]


def test_audit_mode_refuses_money_and_test_games_leave_meters_alone():
    cab, board, acc = cabinet()
    coins(cab, acc, 1)
    board.pins["key_audit"].value(1)
    steps(cab, 10)
    assert cab.state == "audit" and not acc.on
    before = cab.ledger.snapshot()
    for _ in range(5):
        assert cab.handle("test") and cab.tested.bet == cab.game.bets[0]  # through the state table
    press(board, cab, "play")
    assert cab.ledger.snapshot() == before
    board.pins["key_audit"].value(0)
    steps(cab, 10)
    assert cab.state == "credit"


def test_jackpot_lock_is_paid_by_the_attendant_key():
    cab, board, acc = cabinet()
    coins(cab, acc, 1)
    cab.ledger.wager(1)

    cab.ledger.settle(big_win(1300), cab.game.id, 1200)
    assert cab.state == "jackpot"
    press(board, cab, "key_reset")
    assert cab.state == "credit" and cab.ledger.meters["jackpot"] == 1300


def test_hand_pay_cashout_without_hopper():
    cab, board, acc = cabinet()
    coins(cab, acc, 3)
    press(board, cab, "cashout")
    assert cab.state == "handpay" and cab.ledger.lock["amount"] == 12
    press(board, cab, "key_reset")
    assert cab.ledger.credits == 0 and cab.ledger.meters["cancelled"] == 12


def test_hard_meters_follow_soft_meters_and_a_meter_ahead_tilts():
    cab, board, acc = cabinet(em=lambda board: EmMeters(board.coils, Store(), on_ms=20, off_ms=20, clock=board.ticks_ms))
    coins(cab, acc, 2)
    press(board, cab, "play")
    steps(cab, 40)
    assert board.coils["meter_drop"].rises == 8  # acceptor_in, one stroke per credit
    assert board.coils["meter_games"].rises == 1
    cab.em.state["meter_in"][0] = 5  # the hard meter is ahead of coin_in (1): a meter fault
    steps(cab, 2)
    assert "meter" in cab.tilts


def test_tournament_entry_plays_tournament_credits():
    cab, board, acc = cabinet()
    coins(cab, acc, 3)
    cab.ledger.tour_start(8, 10, 2, 40, "2026-12-05", 6)
    press(board, cab, "play")  # the entry fee (8 credits) then the first game
    assert cab.ledger.credits == 4 and cab.ledger.meters["tournament_fees"] == 8
    assert board.display.screen["tournament"]["left"] == 1
    press(board, cab, "play")
    assert cab.ledger.session is None and len(cab.ledger.tour["scores"]) == 1
    assert cab.ledger.meters["coin_in"] == 0


class Won:
    """A winning outcome with a known award (the engine's own outcomes are random)."""

    def __init__(self, bet, award):
        self.bet = bet
        self.award = award
        self.wins = [(0, "3 BAR1", award)]
        self.draws = [1, 2, 3]
        self.stops = [1, 2, 3]
        self.window = [["BAR1", "BAR1", "BAR1"]]
        self.triggered = 0
        self.free = []


def spin_a_win(cab, award):
    cab.ledger.wager(1)
    cab.ledger.settle(Won(1, award), cab.game.id, 1200, None, spin=True)
    cab.gameplay._spin_end = cab.board.now + 500


def test_fraud_during_the_spin_forfeits_the_prize_s94():
    cab, board, acc = cabinet()
    coins(cab, acc, 1)
    spin_a_win(cab, 40)
    assert cab.state == "spin" and cab.ledger.credits == 3
    acc.push("fraud", 0, 5)  # e.g. a coin on a string, while the reels turn
    steps(cab, 12)
    assert cab.ledger.credits == 3 and cab.ledger.meters["coin_out"] == 0  # no prize, no refund
    rec = cab.ledger.recall()[-1]
    assert rec["forfeit"] and rec["after"] == 3 and rec["win"] == 40
    assert any(e[2] == "forfeit" for e in cab.ledger.events())
    assert "fraud" in cab.tilts
    cab.ledger.audit()


def test_a_coin_while_the_reels_turn_is_credited_and_its_record_balances():
    # s. 94 forfeits a prize for a disruption, not for money in: the coin counts, the award is paid,
    # and the recall record says so ("in"), so sim.replay's before - bet + win + in == after holds
    cab, board, acc = cabinet()
    coins(cab, acc, 1)
    spin_a_win(cab, 40)
    coins(cab, acc, 1)  # 120 ms: the reels still turn
    assert cab.state == "spin" and cab.ledger.credits == 7
    steps(cab, 50)
    rec = cab.ledger.recall()[-1]
    assert cab.state == "credit" and cab.ledger.credits == 47 and "forfeit" not in rec
    assert (rec["before"], rec["bet"], rec["win"], rec["in"], rec["after"]) == (4, 1, 40, 4, 47)
    coins(cab, acc, 1)  # after the game: the next record's business, not this one's
    assert cab.ledger.recall()[-1]["in"] == 4
    cab.ledger.audit()


def test_a_coin_in_a_spin_cut_short_is_in_the_record_paid_at_power_up():
    cab, board, acc = cabinet()
    coins(cab, acc, 1)
    spin_a_win(cab, 40)
    coins(cab, acc, 2)
    led = Ledger(memory(board.nvram))  # power back on: same NVRAM
    led.open()
    cab2 = make_cabinet(board, led, load(MODEL), cab.gameplay.gen, Acceptor())
    cab2.resume()
    rec = led.recall()[-1]
    assert led.credits == 51 and rec["in"] == 8 and rec["after"] == rec["before"] - rec["bet"] + rec["win"] + 8
    led.audit()


def test_a_cut_during_the_spin_pays_the_prize_on_power_up():
    cab, board, acc = cabinet()
    coins(cab, acc, 1)
    spin_a_win(cab, 40)
    led = Ledger(memory(board.nvram))  # power back on: same NVRAM
    led.open()
    assert led.game["phase"] == "spin"
    cab2 = make_cabinet(board, led, load(MODEL), cab.gameplay.gen, Acceptor())
    cab2.resume()
    assert led.credits == 43 and led.meters["coin_out"] == 40 and led.recall()[-1]["after"] == 43
    led.audit()


def test_fraud_after_the_spin_forfeits_nothing():
    cab, board, acc = cabinet()
    coins(cab, acc, 1)
    spin_a_win(cab, 40)
    steps(cab, 60)
    assert cab.ledger.credits == 43
    acc.push("fraud", 0, 5)
    steps(cab, 12)
    assert cab.ledger.credits == 43 and "fraud" in cab.tilts


def test_a_door_opened_while_powered_off_is_recorded_at_boot():
    gc.collect()
    board = Board(wiped(NVRAM))

    class Latch:  # a battery-backed latch, as an RTC tamper input gives (board/doors.py)
        def __init__(self):
            self.opened = ["door_cashbox"]

        def read(self):
            return list(self.opened)

        def clear(self):
            self.opened = []

    board.door_latch = Latch()
    led = Ledger(memory(board.nvram))
    led.open()
    cab = make_cabinet(board, led, load(MODEL), rng.open_generator(rng.open_source("emulated")), Acceptor())
    cab.resume()
    assert led.meters["door_cashbox"] == 1
    assert any(e[2] == "door-off" and "door_cashbox" in e[3] for e in led.events())
    assert board.door_latch.opened == []  # read once, then cleared


def test_hopper_flags_are_named_in_tilts_for_the_technician():
    cab, board, acc = cabinet()
    cab.money_out.event(cab, "fault", 5, 0)  # ccTalk header 163, flag 5
    assert cab.tilts["hopper"] == "hopper flag 5: opto blocked permanently during payout"
    cab.money_out.event(cab, "fraud", 3, 0)
    assert cab.tilts["fraud"] == "hopper flag 3: opto fraud: path blocked during idle"
