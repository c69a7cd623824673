# One game's prize limit on the cabinet (issue 22.1; S-13.1, r. 7, s. 6; L-6, r. 3, s. 4): under vlt
# a progressive hit is credited, never a hand pay, and the automatic coupon pays it; the settlement's
# guard voids and refunds a game whose award would pass $1,000 (s. 95) and tilts, never cutting a
# prize; a power cut at every NVRAM write of a progressive hit pays it exactly once. Real Cabinet and
# Ledger over the fake board, the in-memory coupon printer; the game's draw replaced by the outcome a
# test needs (a doctored model or state: what no certified game can do).
# mp-heap: 960K  (as test_firmware_coupon_cashout.py: the fake board's 128 KB NVRAM image, a model, the printer, and
# firmware/startup.py, whose open_coupon_out makes money out as a power-up does; 704K was enough before that,
# once rng/crypto/ became a package: the contiguous NVRAM image's edge)
import gc

from fakes_cabinet import Acceptor, Board, make_cabinet, press, quiet, steps
from fakes_firmware import PowerCut, RamNvram, memory, wiped
from fakes_printer import FakePrinter

import rng
from board.printer_epic import Printer
from firmware import coupon_store, coupon_system, jurisdiction
from firmware.config import Config
from firmware.ledger import Ledger
from firmware.progressive import Progressive
from games import load

MODEL = "games/models/sept-royal-87.json"
NVRAM = RamNvram(coupon_store.PART)  # the books, the security memory and the coupon memory
VID = 4242  # the validation id "the system" sets (SAS 4C): a vlt takes no money before it
LIMIT = 4000  # $1,000 at 25 cents a credit (firmware/jurisdiction.py vlt max_prize_cents)


class Win:
    """A bet-3 outcome paying `award` (free spins and all), with its base-spin wins."""

    def __init__(self, award, wins=()):
        self.bet = 3
        self.award = award
        self.wins = list(wins)
        self.draws = [0, 0, 0]
        self.stops = [0, 0, 0]
        self.window = [["SEVEN", "SEVEN", "SEVEN"]]
        self.triggered = 0
        self.free = []


SEVENS = [(0, "3 SEVEN", 1500)]  # the progressive's pay at bet 3: its fixed award is the reset


def boot(board, fake, outcome, spec=None, juris="vlt"):
    """A power-up on the board's NVRAM (nothing kept from RAM) under that profile at 25 cents a
    credit, money out and the progressive as firmware/startup.py opens them, the game's draw replaced
    by `outcome`."""
    gc.collect()
    led = Ledger(memory(board.nvram))
    led.open()
    acc = Acceptor()
    game = load(MODEL)
    game.play = lambda gen, bet: outcome
    cfg = Config({"JURISDICTION": juris, "DENOM_CENTS": 25})
    coupon = jurisdiction.pays_by_coupon(juris)
    money_out = None
    if coupon:
        printer = Printer(fake, board.idle, timeout_ms=5, clock=board.ticks_ms)

        def money_out(screen, found):
            from firmware import startup  # imported once the 128 KB part is made: a fixed heap fragments

            return startup.open_coupon_out(board, led, cfg, jurisdiction.PROFILES[juris], None, screen, found, quiet,
                                           printer)

    cab = make_cabinet(board, led, game, rng.open_generator(rng.open_source("emulated")), acc, cfg,
                       money_out=money_out, progressive=Progressive(spec or game.m.progressive, "h", hand=not coupon))
    cab.resume()
    cab.step(0)
    return cab


def fresh(outcome, spec=None, juris="vlt", credits=20, meter=None):
    board = Board(wiped(NVRAM))
    fake = FakePrinter()
    cab = boot(board, fake, outcome, spec, juris)
    if cab.money_out.printer is not None:
        coupon_system.set_validation_id(cab, VID)
    cab.ledger.accept(credits)
    if meter is not None:  # a meter grown by games played before (1/q units)
        cab.ledger.st["prog_n"] = meter
        cab.ledger._commit()
    cab.ledger.set_bet(3)
    return cab, board, fake


def test_a_game_over_the_prize_limit_is_void_refunded_and_tilts_until_a_technician():
    # a doctored game whose free-spin series brings one game to 4001 credits, $1,000.25: no pay-table
    # entry is near the limit, the game's total is over it
    cab, board, fake = fresh(Win(LIMIT + 1))
    press(board, cab, "play")
    steps(cab, 60)
    m = cab.ledger.meters
    assert cab.ledger.credits == 20 and m["coin_in"] == 3 and m["refunds"] == 3 and m["coin_out"] == 0
    assert cab.ledger.lock is None and cab.ledger.game["phase"] == "void"
    why = cab.tilts["prize"]
    assert why.startswith("vlt maximum prize: $1000.25 above $1000.00 (one game 4001 x 25 cents"), why
    assert cab.state == "tilt" and cab.screen.win == 0
    ev = cab.ledger.events()[-1]
    assert ev[2] == "void" and ev[3] == "game over the prize limit: wager 3 refunded", ev
    press(board, cab, "play")
    assert cab.ledger.meters["games_played"] == 1  # no play while tilted
    board.pins["key_reset"].value(1)
    steps(cab, 8)
    board.pins["key_reset"].value(0)
    steps(cab, 8)
    assert "prize" in cab.tilts  # the attendant's key does not clear it
    cab = boot(board, fake, Win(0))
    assert "prize" in cab.tilts and cab.state == "tilt"  # kept across a power cut
    press(board, cab, "cashout")  # the credits still leave, by coupon
    steps(cab, 20)
    assert cab.ledger.credits == 0 and cab.ledger.meters["coupon_out"] == 20
    cab.ledger.audit()


def test_at_the_limit_the_game_pays_and_the_automatic_coupon_takes_over():
    cab, board, fake = fresh(Win(LIMIT))
    press(board, cab, "play")
    steps(cab, 80)
    assert not cab.tilts and cab.ledger.lock is None
    assert cab.ledger.meters["coin_out"] == LIMIT and cab.ledger.meters["coupon_out"] == 20 - 3 + LIMIT
    [rec] = cab.ledger.coupons()
    assert rec["k"] == 17 + LIMIT and rec["st"] == "issued" and cab.ledger.credits == 0


def test_the_guard_belongs_to_a_prize_limit_a_casino_hand_pays_as_before():
    cab, board, fake = fresh(Win(LIMIT + 1), juris="casino")
    press(board, cab, "play")
    steps(cab, 60)
    assert not cab.tilts and cab.ledger.lock == {"kind": "jackpot", "amount": LIMIT + 1}


def test_a_doctored_progressive_past_the_limit_voids_the_game_it_does_not_cut_the_prize():
    # a progressive whose ceiling (5000) passes the limit: the boot check refuses such a model; a
    # meter at 4500 credits on a cabinet that ran it anyway is never paid as 4000
    spec = dict(load(MODEL).m.progressive, ceiling=5000)
    cab, board, fake = fresh(Win(1500, SEVENS), spec, meter=4500 * 1000)
    press(board, cab, "play")
    steps(cab, 60)
    assert cab.ledger.meters["progressive_paid"] == 0 and cab.ledger.meters["coin_out"] == 0
    assert cab.ledger.credits == 20 and cab.progressive.amount(cab.ledger.st) == 4500
    assert cab.tilts["prize"].startswith("vlt maximum prize: $1125.00 above $1000.00 (one game 4500"), cab.tilts


def test_the_issue_4001_credit_jackpot_lock_cannot_happen_under_vlt():
    # issue 22.1: settle() locked 4001 credits ($1,000.25) for a hand pay. The shipped model's meter
    # stops at its ceiling, 4000; the hit is credited (L-6, r. 3, s. 7), the coupon pays it
    cab, board, fake = fresh(Win(1500, SEVENS), meter=4000 * 1000 - 2)
    press(board, cab, "play")  # the wager's 3/1000 take the meter past 4000: 1/1000 rolls over
    locks = []
    for _ in range(80):
        cab.step(10)
        locks.append(cab.ledger.lock)
    assert locks == [None] * 80 and cab.state != "jackpot"
    m = cab.ledger.meters
    assert m["progressive_paid"] == LIMIT and m["coin_out"] == LIMIT and m["jackpot"] == 0
    assert m["coupon_out"] == 17 + LIMIT and cab.ledger.credits == 0
    assert cab.ledger.st["prog_n"] == 1500 * 1000 + 1 and "prog_r" not in cab.ledger.st
    rec = cab.ledger.recall()[-1]
    assert rec["prog"] == [LIMIT, 1500] and not rec["hand"] and rec["after"] == 17 + LIMIT


def _writes(board, fake, cut_at):
    """Play the progressive hit from a fresh part, cutting the power at NVRAM write number cut_at
    (None: no cut), then power up again and let everything finish. The cabinet at the end."""
    nv = board.nvram
    start = nv.writes
    nv.cut(cut_at)
    cab = boot(board, fake, Win(1500, SEVENS))
    try:
        board.pins["play"].value(1)
        steps(cab, 6)
        board.pins["play"].value(0)
        steps(cab, 100)
    except PowerCut:
        cab = None
    nv.cut(None)
    if cab is None:
        cab = boot(board, fake, Win(1500, SEVENS))  # power back on: the same part, the same printer
        steps(cab, 100)
    return cab, nv.writes - start


def _setup(meter):
    board = Board(wiped(NVRAM))
    fake = FakePrinter()
    cab = boot(board, fake, Win(1500, SEVENS))
    coupon_system.set_validation_id(cab, VID)
    cab.ledger.accept(20)
    cab.ledger.st["prog_n"] = meter
    cab.ledger.set_bet(3)
    cab.ledger._commit()
    return board, fake


def test_a_power_cut_at_every_write_of_a_progressive_hit_under_vlt_pays_it_once():
    meter = 4000 * 1000 - 2
    board, fake = _setup(meter)
    _, total = _writes(board, fake, None)
    assert total > 10
    seen = set()
    for k in range(1, total + 1):
        board, fake = _setup(meter)
        cab, _ = _writes(board, fake, k)
        led = cab.ledger
        m = led.meters
        led.audit()
        assert led.lock is None and not cab.tilts, (k, led.lock, cab.tilts)
        units = led.st.get("prog_n", 1500 * 1000) + led.st.get("prog_r", 0)
        if m["games_played"] == 0:  # cut before the wager's commit: no game, nothing moved
            assert led.credits == 20 and units == meter and m["progressive_paid"] == 0, k
            seen.add("no game")
            continue
        # the game was played once and its progressive paid once, credited, then by coupon
        assert m["games_played"] == 1 and m["progressive_paid"] == LIMIT and m["coin_out"] == LIMIT, (k, m)
        assert units == 1500 * 1000 + 1, (k, units)  # the meter's reset plus the 1/1000 rolled over
        assert led.credits == 0 and m["coupon_out"] == 17 + LIMIT, (k, led.credits, m["coupon_out"])
        nums = [c["n"] for c in led.coupons()]
        assert len(nums) == 1 and led.coupons()[0]["st"] == "issued", (k, led.coupons())
        rec = led.recall()[-1]
        assert rec["after"] == rec["before"] - rec["bet"] + rec["win"] + rec.get("in", 0) and rec["win"] == LIMIT
        seen.add("paid")
    assert seen == {"no game", "paid"}
