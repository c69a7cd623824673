"""bench_heap's session for the card-poker table games the cabinet plays (firmware/play_cards.py):
the stake it puts on the layout, and one whole session at the house budget (docs/build.md "Heap")."""
from __future__ import annotations

import pytest

from tools.bench import bench_heap

CARDS = ("caribbean-94", "let-it-ride-98", "red-dog-97", "three-card-96", "war-97")


def test_the_card_tables_the_cabinet_plays_are_measured_with_a_stake_wager_played_alone():
    # the models' first stake wager and first bet level (games/models/*.json "wagers", "bets"); War's
    # wager is at 2 credits, its only level
    assert {g: bench_heap.card_wager(g) for g in CARDS} == {
        "caribbean-94": ("ante", 1), "let-it-ride-98": ("ride", 1), "red-dog-97": ("wager", 1),
        "three-card-96": ("ante", 1), "war-97": ("wager", 2)}
    shipped = bench_heap.shipped_games(tables=True)
    assert set(CARDS) <= set(shipped)
    # certified but not played on the cabinet (firmware/startup.py CARDS_PLAYED): not measured
    assert not {"boston-93", "crazy-four-92", "three-five-seven-94"} & set(shipped)
    assert not set(CARDS) & set(bench_heap.shipped_games())
    assert bench_heap.card_wager("sept-royal-87") is None


@pytest.mark.slow
def test_a_red_dog_session_fits_the_house_budget():
    # boot, 10 rounds each decided by `table auto`, every reading command, cash-out in 112K: the deal
    # from a six-deck shoe ran out of memory here (rng/scale.py deal built the whole pool)
    r = bench_heap.settled("red-dog-97", 112, "frozen")
    assert r["result"] == bench_heap.FIT, r
    assert r["used"] > r["boot_used"] > 0
