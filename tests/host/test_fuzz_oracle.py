"""The fuzz campaign's oracle (sim/fuzz/oracle.py) on observations written by hand, without a firmware:
each invariant holds on what a correct cabinet shows and breaks, with its kind, on what a wrong one
would. The screens and console lines are in the firmware's own formats (firmware/cabinet.py show,
firmware/console_read.py state), copied from a run where they say so."""
from __future__ import annotations

import pytest

from sim.fuzz import oracle
from sim.fuzz.oracle import Truth, Violation

METERS = {"acceptor_in": 0, "bill_in": 0, "coin_in": 0, "coin_out": 0, "refunds": 0, "cashout": 0, "hopper_out": 0,
          "cancelled": 0, "jackpot": 0, "tournament_fees": 0, "tournament_prizes": 0, "progressive_paid": 0,
          "tournament_entries": 0, "games_played": 0, "credits": 0, "coupon_out": 0}


def meters(**kw) -> dict:
    return dict(METERS, **kw)


def kind(fn, *a, **kw) -> str | None:
    try:
        fn(*a, **kw)
    except Violation as v:
        return v.kind
    return None


# the screen `make fuzz STEPS=150 SEED=7` stopped on (issue 23.3): a coupon owed behind an open head,
# the acceptor's tilt named first
OWED_BEHIND_TWO_TILTS = {"state": "payout", "msg": "TILT acceptor: event counter out of sequence: was 17, now 13; "
                         "printer: head open", "say": ["tilt", "acceptor", "printer"], "credits": 0}


def test_a_coupon_owed_to_a_printer_at_fault_is_settled_whatever_tilt_comes_first():
    assert oracle.settled(OWED_BEHIND_TWO_TILTS)
    assert oracle.settled(dict(OWED_BEHIND_TWO_TILTS, say=["tilt", "printer"], msg="TILT printer: paper out"))
    # a payout with no printer at fault is still running: not settled
    assert not oracle.settled(dict(OWED_BEHIND_TWO_TILTS, say=["tilt", "acceptor"], msg="TILT acceptor: x"))
    assert not oracle.settled({"state": "spin", "say": ["spin"]})
    assert oracle.settled({"state": "idle", "say": ["insert"]})


def test_process():
    assert kind(oracle.process, [], None, "player", []) is None
    assert kind(oracle.process, ["restarting the cabinet"], None, "player", []) == "restart"
    v = pytest.raises(Violation, oracle.process, ["board reset", "board reset"], 75, "power", [])
    assert v.value.kind == "board_reset" and v.value.figures == ("board_resets", "crash_loops")
    assert kind(oracle.process, ["a", "b"], None, "player", []) == "crash_loop"
    assert kind(oracle.process, [], 1, "player", []) == "died"


def test_a_tilt_that_needs_the_key_survives_a_power_cycle():
    lines = ["state tilt: play stopped", "tilt acceptor: acceptor fault 5"]
    assert oracle.tilts(lines, set(), "player", False) == {"acceptor"}
    assert kind(oracle.tilts, ["state idle: ready"], {"acceptor"}, "power", False) == "tilt_forgotten"
    assert oracle.tilts(["state idle: ready"], {"acceptor"}, "power", True) == set()  # the key was turned
    assert kind(oracle.tilts, ["tilt audit: credits 4 != 0"], set(), "player", False) == "tilt"


def money(m: dict, t: Truth, step: str, plays: int = 0, stacker: int = 0, hopper_coins: int = 0, remaining: int = 100,
          hand_paid: int = 0, note: dict | None = None, denom: int = 25) -> int:
    """oracle.money with $1 tokens (4 credits each at 25 cents a credit)."""
    return oracle.money(m, t, stacker, denom, 100, hopper_coins, remaining, step, hand_paid, plays, note)


def two_tokens() -> Truth:
    t = Truth()
    t.coins_low = t.coins_high = 8
    return t


def test_money_identities_and_the_peers_truth():
    t = two_tokens()
    m = meters(acceptor_in=8, credits=8)
    assert money(m, t, "tokens") == 0
    assert kind(money, meters(acceptor_in=8, credits=4), t, "tokens") == "identity"
    assert kind(money, meters(acceptor_in=12, credits=12), t, "tokens") == "coins"
    # a $20 note in the stacker is 80 credits at 25 cents: bill_in must say so
    assert kind(money, m, t, "notes", stacker=2000) == "notes"
    assert money(meters(acceptor_in=8, bill_in=80, credits=88), t, "notes", stacker=2000) == 0
    # the hopper ran dry after 2 coins: 8 credits at 25 cents
    assert kind(money, meters(acceptor_in=8, cashout=4, hopper_out=4, credits=4), t, "cashout", hopper_coins=2,
                remaining=0) == "hopper"
    t.meters = m
    played = meters(acceptor_in=8, coin_in=2, games_played=2, credits=6)
    assert kind(money, played, t, "player", 1) == "game"
    assert kind(money, played, t, "console_read") == "credits"
    assert money(played, t, "player", 2) == 2


def test_one_press_plays_at_most_one_game_for_both_player_rules():
    """Issue 22.9: the check held `player` to it but not `player_again`, half the player's steps."""
    t = two_tokens()
    t.meters = meters(acceptor_in=8, credits=8)
    two_games = meters(acceptor_in=8, coin_in=2, games_played=2, credits=6)
    for step in ("player", "player_again", "hand"):
        assert kind(money, two_games, t, step, 1) == "game", step


def test_a_change_of_credit_value_rebases_the_peers():
    # 8 credits of tokens and a $20 note at 25 cents, then the value goes to 10 cents: the next $5
    # note is 50 credits
    t = two_tokens()
    m = meters(acceptor_in=8, bill_in=80, credits=88)
    t.rebase(m, hopper_coins=0, stacker_cents=2000)
    assert money(meters(acceptor_in=8, bill_in=130, credits=138), t, "notes", stacker=2500, denom=10) == 0
    assert kind(money, meters(acceptor_in=8, bill_in=100, credits=108), t, "notes", stacker=2500, denom=10) == "notes"


def test_a_note_of_unknown_fate_may_be_in_the_box_or_back_in_the_hand():
    t = two_tokens()
    note = {"id": "CA0020A", "k": 80}
    # the $20 note's fate unknown: the box holds it (bill_in 0 still) or not
    assert money(meters(acceptor_in=8, credits=8), t, "power", stacker=2000, note=note) == 0
    assert money(meters(acceptor_in=8, credits=8), t, "power", stacker=0, note=note) == 0
    assert kind(money, meters(acceptor_in=8, credits=8), t, "power", stacker=4000, note=note) == "notes"
    assert kind(money, meters(acceptor_in=8, credits=8), t, "power", stacker=2000) == "notes"  # settled: exact


def test_coupons_on_paper_are_the_truth_for_what_left_by_coupon():
    tickets = [("001", ["Credits: 8"]), ("001", ["Credits: 8"]), (None, ["half a ticket"])]
    assert oracle.paper(tickets, set(), "cashout") == {"001": 8}  # a number printed again is one coupon
    assert kind(oracle.paper, [("001", ["Credits: 8"]), ("001", ["Credits: 9"])], set(), "x") == "coupons"
    assert kind(oracle.paper, [("001", [oracle.DUPLICATE, "Credits: 8"])], set(), "x") == "coupons"
    m = meters(acceptor_in=8, cashout=8, coupon_out=8)
    assert oracle.coupons(m, [{"n": "001", "st": "issued", "k": 8, "s": 1}], {"001": 8}, set(), "x") is None
    owed = [{"n": "001", "st": "owed", "k": 8, "s": 1}]
    assert oracle.coupons(m, owed, {}, set(), "x") is None  # owed, not yet on paper: still counted
    assert kind(oracle.coupons, m, [], {}, set(), "x") == "coupons"  # credits gone unprinted
