"""bench_heap's session for the card-poker table games the cabinet plays (firmware/play_cards.py):
the stake it puts on the layout, and one whole session at the house budget (docs/build.md "Heap")."""
from __future__ import annotations

import pytest

from tools.bench import bench_heap

CARDS = ("boston-93", "caribbean-94", "crazy-four-92", "let-it-ride-98", "red-dog-97", "three-card-96",
         "three-five-seven-94", "war-97")


def test_the_card_tables_the_cabinet_plays_are_measured_with_the_least_stake_it_takes():
    # the models' first stake wager and first bet level (games/models/*.json "wagers", "bets"); War's
    # wager is at 2 credits, its only level; 3-5-7's 3-card and 5-card wagers together (s. 67.45: both
    # required), at 2 credits, its only level
    assert {g: bench_heap.card_stake(g) for g in CARDS} == {
        "boston-93": {"ante": 1}, "caribbean-94": {"ante": 1}, "crazy-four-92": {"ante": 1},
        "let-it-ride-98": {"ride": 1}, "red-dog-97": {"wager": 1}, "three-card-96": {"ante": 1},
        "three-five-seven-94": {"five": 2, "three": 2}, "war-97": {"wager": 2}}
    shipped = bench_heap.shipped_games(tables=True)
    assert set(CARDS) <= set(shipped)
    # blackjack is certified but not played on the cabinet (firmware/startup.py playable): not measured
    assert not {g for g in shipped if g.startswith("blackjack")}
    assert not set(CARDS) & set(bench_heap.shipped_games())
    assert bench_heap.card_stake("sept-royal-87") is None


@pytest.mark.slow
def test_a_red_dog_session_fits_the_house_budget():
    # boot, 10 rounds each decided by `table auto`, every reading command, cash-out in 112K: the deal
    # from a six-deck shoe ran out of memory here (rng/scale.py deal built the whole pool)
    r = bench_heap.settled("red-dog-97", 112, "frozen")
    assert r["result"] == bench_heap.FIT, r
    assert r["used"] > r["boot_used"] > 0


class _Panel:
    def __init__(self) -> None:
        self.screen = {"state": "idle", "games": 0}

    def press(self, button: str) -> None:
        self.screen = {"state": "hold", "games": 1}

    def wait_for(self, pred, timeout: float = 10.0) -> dict:
        assert pred(self.screen)
        return self.screen


class _Console:
    def __init__(self, answer: str) -> None:
        self.answer = answer

    def command(self, line: str) -> list[str]:
        return [self.answer]


class _Cab:
    def __init__(self, answer: str) -> None:
        self.panel = _Panel()
        self.console = _Console(answer)


def test_a_decision_the_console_refuses_for_want_of_memory_is_a_heap_too_small_not_a_stall():
    # a card table's session in a small heap: `table auto` answered out of memory (crazy-four-92 at 96K:
    # counted as a timeout, the row then had no figure at all)
    oom = "error: out of memory for 'table' (3712 bytes free); try again"
    with pytest.raises(bench_heap.ConsoleOutOfMemory) as e:
        bench_heap.card_round(_Cab(oom), 1.0)  # type: ignore[arg-type]
    assert bench_heap.verdict(e.value, False) == bench_heap.NOFIT
    with pytest.raises(RuntimeError) as other:
        bench_heap.card_round(_Cab("error: the hand is not waiting for a decision"), 1.0)  # type: ignore[arg-type]
    assert not isinstance(other.value, bench_heap.ConsoleOutOfMemory)
    assert bench_heap.verdict(other.value, False) == bench_heap.TIMEOUT
    assert bench_heap.verdict(other.value, True) == bench_heap.NOFIT  # the firmware's log says it ran out
