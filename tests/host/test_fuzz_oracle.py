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


def test_money_identities_and_the_peers_truth():
    t = Truth()
    t.tokens = 2
    m = meters(acceptor_in=8, credits=8)
    assert oracle.money(m, t, 4, 0, 25, 0, 100, "tokens", 0, 0) == 0
    assert kind(oracle.money, meters(acceptor_in=8, credits=4), t, 4, 0, 25, 0, 100, "tokens", 0, 0) == "identity"
    assert kind(oracle.money, meters(acceptor_in=12, credits=12), t, 4, 0, 25, 0, 100, "tokens", 0, 0) == "coins"
    # a $20 note in the stacker is 80 credits at 25 cents: bill_in must say so
    assert kind(oracle.money, m, t, 4, 2000, 25, 0, 100, "notes", 0, 0) == "notes"
    t.meters = m
    played = meters(acceptor_in=8, coin_in=2, games_played=2, credits=6)
    assert kind(oracle.money, played, t, 4, 0, 25, 0, 100, "player", 0, 1) == "game"
    assert kind(oracle.money, played, t, 4, 0, 25, 0, 100, "console_read", 0, 0) == "credits"
    assert oracle.money(played, t, 4, 0, 25, 0, 100, "player", 0, 2) == 2


def test_one_press_plays_at_most_one_game_for_both_player_rules():
    """Issue 22.9: the check held `player` to it but not `player_again`, half the player's steps."""
    t = Truth()
    t.tokens = 2
    t.meters = meters(acceptor_in=8, credits=8)
    two_games = meters(acceptor_in=8, coin_in=2, games_played=2, credits=6)
    for step in ("player", "player_again"):
        assert kind(oracle.money, two_games, t, 4, 0, 25, 0, 100, step, 0, 1) == "game", step


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
