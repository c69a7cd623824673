# Progressive jackpot (s. 91-92): exact growth at its bet only, the ceiling and the roll-over, a hit
# replacing the fixed award (hand-paid under casino, credited under vlt), link checks.
# mp-heap: 480K  (each test opens a ledger on a fresh 68 KB NVRAM image beside the 3 KB journal and record buffers)
import gc

from devtest import raises
from fakes_firmware import RamNvram, memory, wiped

from firmware.ledger import Ledger
from firmware.progressive import Progressive, ProgressiveError
from games import load
from games.model import Model, ModelError

MODEL = "games/models/sept-royal-87.json"
NVRAM = RamNvram(69632)  # one part, wiped for each test: made while the heap is in one piece


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
    led = Ledger(memory(wiped(NVRAM)))
    led.open()
    return led


def spec():
    return load(MODEL).m.progressive


def custom(rate="1/100", ceiling=None):
    s = dict(spec())
    num, den = rate.split("/")
    s["num"], s["den"], s["ceiling"] = int(num), int(den), ceiling
    return s


def test_declared_in_the_certified_model():
    # games/models/sept-royal-87.json: "progressive": {"pay": "3 SEVEN", "bet": 3, "rate": "1/1000",
    # "ceiling": 4000}, and its pay table gives 3 SEVEN 1500 credits at 3 coins: that is the reset
    assert spec() == {"pay": "3 SEVEN", "bet": 3, "num": 1, "den": 1000, "reset": 1500, "ceiling": 4000}


def test_model_refuses_a_bad_progressive():
    import json

    with open(MODEL) as f:
        raw = json.load(f)
    for bad in ({"pay": "3 SEVEN", "bet": 4, "rate": "1/100"}, {"pay": "5 UNICORN", "bet": 3, "rate": "1/100"},
                {"pay": "3 SEVEN", "bet": 3, "rate": "0/100"}, {"pay": "3 SEVEN", "bet": 3, "rate": "100/100"},
                {"pay": "3 SEVEN", "bet": 3, "rate": 0.01},
                # a ceiling is whole credits above the reset (1500): at or below it nothing could grow
                {"pay": "3 SEVEN", "bet": 3, "rate": "1/100", "ceiling": 1500},
                {"pay": "3 SEVEN", "bet": 3, "rate": "1/100", "ceiling": 1000},
                {"pay": "3 SEVEN", "bet": 3, "rate": "1/100", "ceiling": 4000.0},
                {"pay": "3 SEVEN", "bet": 3, "rate": "1/100", "ceiling": "4000"},
                {"pay": "3 SEVEN", "bet": 3, "rate": "1/100", "ceiling": True}):
        raw["progressive"] = bad
        with raises(ModelError) as e:
            Model(raw)
        if "ceiling" in bad:
            assert "ceiling" in str(e.value) and "1500" in str(e.value), e.value
    raw["progressive"] = {"pay": "3 SEVEN", "bet": 3, "rate": "1/100", "ceiling": 1501}
    assert Model(raw).progressive["ceiling"] == 1501


def test_grows_exactly_with_every_credit_wagered_at_its_bet_only():
    prog = Progressive(custom(), "h")
    st = {}
    assert prog.amount(st) == 1500
    for _ in range(100):
        prog.contribute(st, 3)  # 300 credits wagered at 1/100 -> 3 credits, no rounding drift
    assert st["prog_n"] == 1500 * 100 + 300 and prog.amount(st) == 1503
    # s. 92: a bet that cannot win the progressive (bets 1 and 2 pay the fixed 200 / 400) feeds nothing
    for _ in range(100):
        prog.contribute(st, 1)
        prog.contribute(st, 2)
    assert st["prog_n"] == 1500 * 100 + 300 and "prog_r" not in st


def test_the_meter_stops_at_its_ceiling_and_the_rest_rolls_over_exactly():
    prog = Progressive(custom("1/100", 1502), "h")
    st = {}
    for _ in range(66):
        prog.contribute(st, 3)  # 198/100 credit: under the ceiling
    assert prog.amount(st) == 1501 and "prog_r" not in st
    for _ in range(3):
        prog.contribute(st, 3)  # 207/100: 7/100 past the ceiling
    assert prog.amount(st) == 1502 and st["prog_n"] == 150200 and prog.rollover(st) == 7
    for _ in range(1000):
        prog.contribute(st, 3)
    assert prog.amount(st) == 1502 and prog.rollover(st) == 3007  # never shown above, never lost


def test_a_win_pays_between_the_reset_and_the_ceiling_and_loses_no_part_of_a_credit():
    # every 1/q credit wagered at its bet is paid by some win or still on the meter or rolled over:
    # paid * q + meter + roll-over == reset * q * (wins + 1) + p * credits wagered (a pseudo-random
    # sequence of bets and wins, the same on both runtimes)
    prog = Progressive(custom("7/100", 1510), "h")
    st = {}
    paid = wins = wagered = 0
    topped = False
    x = 12345
    for _ in range(3000):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        bet = (1, 2, 3, 3)[x >> 20 & 3]
        prog.contribute(st, bet)
        if bet == 3:
            wagered += 3
        if x >> 8 & 255 == 0:
            amount = prog.won(st)
            assert 1500 <= amount <= 1510  # the certified floor (the reset), never above the ceiling
            paid += amount
            wins += 1
        assert prog.amount(st) <= 1510
        topped = topped or prog.rollover(st) > 0
        assert paid * 100 + st.get("prog_n", 150000) + prog.rollover(st) == 150000 * (wins + 1) + 7 * wagered
    assert wins > 5 and topped  # the sequence won several times and reached the ceiling


def test_a_win_without_a_ceiling_carries_the_fraction_of_a_credit():
    prog = Progressive(custom("1/100"), "h")
    st = {}
    for _ in range(5):
        prog.contribute(st, 3)  # 15/100
    assert prog.won(st) == 1500 and st["prog_n"] == 150015 and "prog_r" not in st


def test_a_meter_above_a_new_ceiling_pays_the_ceiling_and_rolls_the_rest_over():
    # a meter an older model without this ceiling grew (the 4001 credits)
    prog = Progressive(spec(), "h")
    st = {"prog_n": 4001 * 1000 + 250}
    assert prog.amount(st) == 4000
    assert prog.won(st) == 4000
    assert st["prog_n"] == 1500 * 1000 + 1250 and "prog_r" not in st


def test_link_must_require_the_same_coins_and_math():
    with raises(ProgressiveError):
        Progressive(spec(), "h", {"id": "L1", "bet": 2, "math_hash": "h"})
    with raises(ProgressiveError):
        Progressive(spec(), "h", {"id": "L1", "bet": 3, "math_hash": "other"})
    assert Progressive(spec(), "h", {"id": "L1", "bet": 3, "math_hash": "h"}).link["id"] == "L1"


def test_hit_pays_the_progressive_by_hand_and_resets():
    game = load(MODEL)
    prog = Progressive(custom(), "h")
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
    assert prog.amount(led.st) == 1500 and led.st["prog_n"] == 150003  # the 3/100 of the last wager kept
    rec = led.recall()[-1]
    assert rec["prog"] == [1503, 1500] and rec["win"] == 1509 and rec["hand"]
    led.clear_lock()
    assert led.meters["jackpot"] == 1509
    led.audit()


def test_under_vlt_a_hit_is_credited_like_any_win_never_a_hand_pay():
    # L-6, r. 3, s. 7: only a coupon pays where the profile says so; the meter stops at its ceiling
    game = load(MODEL)
    prog = Progressive(spec(), "h", hand=False)
    led = ledger()
    led.accept(30)
    led.st["prog_n"] = 4000 * 1000 - 2  # one game short of the ceiling
    led.wager(3, prog)
    assert prog.amount(led.st) == 4000 and prog.rollover(led.st) == 1
    led.settle(Outcome(3, 1500, [(0, "3 SEVEN", 1500)]), game.id, 0, prog)
    assert led.lock is None and led.credits == 27 + 4000  # $1,000.00 at 25 cents: never $1,000.25
    assert led.meters["coin_out"] == 4000 and led.meters["progressive_paid"] == 4000 and led.meters["jackpot"] == 0
    assert led.st["prog_n"] == 1500 * 1000 + 1 and "prog_r" not in led.st
    rec = led.recall()[-1]
    assert rec["prog"] == [4000, 1500] and rec["win"] == 4000 and not rec["hand"]
    led.audit()


def test_same_pay_at_a_lower_bet_is_the_fixed_award():
    game = load(MODEL)
    prog = Progressive(game.m.progressive, "h")
    led = ledger()
    led.accept(10)
    led.wager(1, prog)
    led.settle(Outcome(1, 200, [(0, "3 SEVEN", 200)]), game.id, 1200, prog)
    assert led.credits == 9 + 200 and led.meters["progressive_paid"] == 0
    assert "prog_n" not in led.st  # bet 1 fed nothing (s. 92)


def test_a_linked_level_committed_with_the_wager_is_paid_in_place_of_the_meter():
    # issue 25: the SAS controller's level the game plays for (firmware/sas/progressive.py Linked.pays)
    # is committed with the wager; a hit pays it, under vlt onto the credits (L-6, r. 3, s. 7), and
    # the meter here keeps its contribution, untouched by the hit
    game = load(MODEL)
    prog = Progressive(spec(), "h", hand=False)
    led = ledger()
    led.accept(30)
    led.wager(3, prog, game.id, None, 2345)
    assert led.game["lp"] == 2345 and led.st["prog_n"] == 1500 * 1000 + 3
    led.settle(Outcome(3, 1500 + 6, [(0, "3 SEVEN", 1500), (1, "2 CHERRY", 6)]), game.id, 0, prog, spin=True)
    assert led.game["lp"] == 2345 and led.game["fixed"] == 1500  # kept while the reels turn
    assert led.conclude(prog) == 2345 + 6
    assert led.lock is None and led.credits == 27 + 2345 + 6 and led.meters["progressive_paid"] == 2345
    assert led.st["prog_n"] == 1500 * 1000 + 3 and led.recall()[-1]["prog"] == [2345, 1500]
    led.wager(3, prog, game.id, None, 2400)
    led.settle(Outcome(3, 0, []), game.id, 0, prog)  # no hit: the level goes with the game
    assert "lp" not in led.game and led.meters["progressive_paid"] == 2345
    led.audit()
