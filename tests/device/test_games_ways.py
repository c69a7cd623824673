# jeton-reels/3, true ways (issue 28 item 2), on both runtimes: the worked example of
# docs/game-format.md (tests/fixtures/games/ways-mini.json) played, replayed and checked at boot in a
# board-sized heap; every award against the hand-worked windows and the cycle's total worked out by
# hand there (460 coins over the 27 stop combinations at 1 coin).
# Heap: the module, compiled from source (games, the boot check and the model reader: frozen into
# flash on a board), passes in 128K and fails at 124K in the import of games.reels. Each module's
# file name is on the heap, so it moves with where the checkout lies: at 136K it failed under 4 of
# 62 checkout paths tried (9-58 characters, /tmp/pl/ and /tmp/sl/), at 144K under none.
# mp-heap: 144K tight  (a board-sized heap on purpose: tools/heap_margin.py lets it be)
from devtest import raises
from fakes_rng import Lcg

import games
from games import exact
from games.certificate import check

MINI = "tests/fixtures/games/ways-mini.json"


def test_windows_and_cycle_worked_by_hand():
    g = games.load(MINI)
    assert g.evaluate(20, [1, 1, 0]).award == 42  # A: 2 x 2 x 1 ways x 10; K: 1 way of W W K x 2
    assert g.evaluate(20, [1, 1, 2]).award == 7  # A: 2 x 2 - 1 ways of 2 x 1; K: 2 ways x 2
    assert g.evaluate(20, [2, 2, 2]).award == 16  # W W alone is no A (wild_alone false); K: 8 ways x 2
    assert g.evaluate(40, [2, 2, 2]).award == 32
    total = 0
    for a in range(3):
        for b in range(3):
            for c in range(3):
                total += g.evaluate(20, [a, b, c]).award
    assert total == 460
    assert exact.rtp(g.m, 0) == (23, 27) and exact.rtp(g.m, 1) == (23, 27)


def test_play_replays_and_names_ways_wins():
    g = games.load(MINI)
    for seed in range(1, 40):
        o = g.play(Lcg(seed), 40)
        assert len(o.draws) == 3 and not o.free
        assert g.evaluate(40, o.draws).award == o.award == sum(w[2] for w in o.wins)
        for line, name, credits in o.wins:
            assert line == -2 and name in ("2 A", "3 A", "3 K") and credits > 0
    with raises(ValueError):
        g.evaluate(20, [0, 0, 3])


def test_boot_check_recomputes_the_ways_return():
    ok, reason, game = check(MINI, "tests/fixtures/games/ways-mini.cert.json")
    assert ok, reason
    assert game.max_award == [42, 84]

