# Progressive jackpot (s. 91-92): exact growth, hit replaces the fixed award, link checks.
# mp-heap: 320K  (a 68 KB NVRAM image in one block: with the games' model reader and limits compiled
# from source, 256K had 151 KB free but no such block left; 304K passes)
import gc

from devtest import raises
from fakes_firmware import RamNvram, memory
from firmware.ledger import Ledger
from firmware.progressive import Progressive, ProgressiveError
from games import load
from games.model import Model, ModelError

MODEL = "games/models/sept-royal-87.json"


class Outcome:
    def __init__(self, bet, award, wins, draws=(0, 0, 0)):
        self.bet = bet
        self.award = award
        self.wins = wins
        self.draws = list(draws)
        self.stops = list(draws)
        self.window = [["X"]]
        self.triggered = 0
        self.free = []


def ledger():
    gc.collect()
    led = Ledger(memory(RamNvram(69632)))
    led.open()
    return led


def spec():
    return load(MODEL).m.progressive


def test_declared_in_the_certified_model():
    # games/models/sept-royal-87.json: "progressive": {"pay": "3 SEVEN", "bet": 3, "rate": "1/100"},
    # and its pay table gives 3 SEVEN 1500 credits at 3 coins: that is the reset
    assert spec() == {"pay": "3 SEVEN", "bet": 3, "num": 1, "den": 100, "reset": 1500}


def test_model_refuses_a_bad_progressive():
    import json

    with open(MODEL) as f:
        raw = json.load(f)
    for bad in ({"pay": "3 SEVEN", "bet": 4, "rate": "1/100"}, {"pay": "5 UNICORN", "bet": 3, "rate": "1/100"},
                {"pay": "3 SEVEN", "bet": 3, "rate": "0/100"}, {"pay": "3 SEVEN", "bet": 3, "rate": "100/100"},
                {"pay": "3 SEVEN", "bet": 3, "rate": 0.01}):
        raw["progressive"] = bad
        with raises(ModelError):
            Model(raw)


def test_grows_exactly_with_every_credit_wagered():
    prog = Progressive(spec(), "h")
    st = {}
    assert prog.amount(st) == 1500
    for _ in range(150):
        prog.contribute(st, 2)  # 300 credits wagered at 1/100 -> 3 credits, no rounding drift
    assert st["prog_n"] == 1500 * 100 + 300
    assert prog.amount(st) == 1503


def test_link_must_require_the_same_coins_and_math():
    with raises(ProgressiveError):
        Progressive(spec(), "h", {"id": "L1", "bet": 2, "math_hash": "h"})
    with raises(ProgressiveError):
        Progressive(spec(), "h", {"id": "L1", "bet": 3, "math_hash": "other"})
    assert Progressive(spec(), "h", {"id": "L1", "bet": 3, "math_hash": "h"}).link["id"] == "L1"


def test_hit_pays_the_progressive_by_hand_and_resets():
    game = load(MODEL)
    prog = Progressive(game.m.progressive, "h")
    led = ledger()
    led.accept(400)
    for _ in range(100):
        led.wager(3, prog)
        led.settle(Outcome(3, 0, []), game.id, 1200, prog)
    assert prog.amount(led.st) == 1503
    led.wager(3, prog)
    led.settle(Outcome(3, 1500 + 6, [(0, "3 SEVEN", 1500), (1, "2 CHERRY", 6)]), game.id, 1200, prog)
    assert led.lock == {"kind": "jackpot", "amount": 1503 + 6}
    assert led.meters["progressive_paid"] == 1503
    assert prog.amount(led.st) == 1500
    rec = led.recall()[-1]
    assert rec["prog"] == [1503, 1500] and rec["win"] == 1509 and rec["hand"]
    led.clear_lock()
    assert led.meters["jackpot"] == 1509
    led.audit()


def test_same_pay_at_a_lower_bet_is_the_fixed_award():
    game = load(MODEL)
    prog = Progressive(game.m.progressive, "h")
    led = ledger()
    led.accept(10)
    led.wager(1, prog)
    led.settle(Outcome(1, 200, [(0, "3 SEVEN", 200)]), game.id, 1200, prog)
    assert led.credits == 9 + 200 and led.meters["progressive_paid"] == 0
