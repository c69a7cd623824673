"""The reconciliation of meter snapshots (central/meters.py), on snapshots written by hand: each
case's verdict is worked out here from the rule the module states (credits after = credits before
+ drop + coin out - coin in - cancelled; coin in at most games x largest bet; SAS meters roll over at
10^8, docs/sas.md)."""
from __future__ import annotations

import pytest

from central import meters
from tests.host.central_stores import ENGINES, new_store

BASE = {"coin_in": 100, "coin_out": 80, "jackpot": 0, "cancelled": 20, "drop_in": 60, "games_played": 50,
        "games_won": 10, "doors": 1, "power_resets": 3, "credits": 20}  # 60 + 80 - 100 - 20 = 20


def moved(**kw: int) -> dict[str, int]:
    return {**BASE, **kw}


def verdicts(before: dict, after: dict, max_bet: int | None = 3) -> list[tuple[str, str]]:
    return [(f.meter, f.why.split(":")[0]) for f in meters.check(before, after, max_bet)]


def test_a_game_and_a_cash_out_balance() -> None:
    # 3 games of 3 credits, 2 won paying 12, a 10-credit note: 20 - 9 + 12 + 10 = 33, all cashed out
    after = moved(coin_in=109, coin_out=92, games_played=53, games_won=12, drop_in=70, cancelled=53, credits=0)
    assert verdicts(BASE, after) == []


def test_a_meter_gone_back_is_flagged_and_a_roll_over_is_not() -> None:
    assert verdicts(BASE, moved(games_played=49)) == [("games_played", "went backwards")]
    before = moved(coin_in=10**8 - 2)  # only the change between snapshots is checked
    after = moved(coin_in=1, games_played=51, credits=17)  # one 3-credit game lost, coin in across 10^8
    assert verdicts(before, after) == []
    assert verdicts(moved(coin_in=5000), moved(coin_in=1, games_played=51, credits=17)) == [("coin_in", "went backwards")]


def test_more_wagered_than_the_games_could_take_is_a_jump() -> None:
    after = moved(coin_in=110, games_played=53, credits=10)  # 10 credits in 3 games of at most 3
    assert verdicts(BASE, after) == [("coin_in", "jumped")]
    assert verdicts(BASE, after, max_bet=None) == []  # largest bet unknown: not judged
    assert verdicts(BASE, moved(games_won=13, games_played=51)) == [("games_won", "jumped")]


def test_a_game_wagered_before_a_snapshot_and_won_after_it_is_no_jump() -> None:
    # snapshot 1 between a 3-credit wager and its settlement; snapshot 2 after the win of 5 credits:
    # one more game won, none more played (tests/host/test_central_site.py found it on real play)
    wagered = moved(coin_in=103, games_played=51, credits=17)
    settled = moved(coin_in=103, games_played=51, games_won=11, coin_out=85, credits=22)
    assert verdicts(BASE, wagered) == [] and verdicts(wagered, settled) == []


def test_credits_that_do_not_follow_the_meters_are_unbalanced() -> None:
    assert verdicts(BASE, moved(credits=25)) == [("credits", "unbalanced")]  # 5 credits from nowhere
    assert verdicts(BASE, moved(drop_in=65)) == [("credits", "unbalanced")]  # a note the meter did not get


@pytest.mark.parametrize("engine", ENGINES)
def test_the_store_keeps_every_snapshot_in_sequence_with_its_flags(tmp_path, engine: str) -> None:
    store, _ = new_store(engine, tmp_path)
    with store.transaction() as tx:
        assert meters.store(tx, "c", BASE, 1000, 3) == (1, [])
        seq, flags = meters.store(tx, "c", moved(games_played=40), 1001, 3)
    assert seq == 2 and [f.meter for f in flags] == ["games_played"]
    with store.transaction(write=False) as tx:
        assert tx.all("SELECT seq, meter, before_value, after_value FROM meter_flags") == [(2, "games_played", 50, 40)]
        assert tx.one("SELECT COUNT(*) FROM meter_snapshots") == (2,)
