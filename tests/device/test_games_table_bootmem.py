# The table games' boot check and one round in bounded memory (issue 26), as test_games_bootmem.py
# does for the other games, in its own process: every shipped table model passes
# games.certificate.check one after the other in this fixed heap, and what a game keeps is bounded;
# one round of each family allocates a bounded amount (garbage at the next collection).
#
# Why 256K: this module with every table engine and the check compiled from source (frozen into flash
# on a board) on the 64-bit unix port passes in 240 KB and fails at 224 KB (bisected, 8-16 KB steps);
# craps-83 is the largest check (its 50 wagers' model read, built and dropped before its certificate
# is read: games/table_check.py). Measured here (64-bit): a craps game keeps 19 KB (31 KB before each
# wager's names went into one bytes and its wagers into tuples sharing equal parts: games/table_model.py),
# roulette 6.2-6.9 (8.4-9.3), sic bo 6.8 (9.1), baccarat 4.4 (5.0), the wheel 4.4 (4.7); a round
# allocates at most 8 KB (roulette's six wagers). On the
# 32-bit firmware image with the code frozen, the craps check needs 38-40 KB and its game keeps
# 9.5 KB (46 and 14.7 at 7235f9b; docs/games.md "Table games", Memory and time).
# mp-heap: 256K tight  (a board-sized heap on purpose: tools/heap_margin.py lets it be)
import gc

from model_formats import models_of

import games.baccarat
import games.craps
import games.roulette  # noqa: F401,E401
import games.sicbo
import games.table_exact  # noqa: F401  (the check's code, frozen on a board: not what a game keeps)
from games.certificate import check
from games.model import read
from games.table_check import FORMATS, build

TABLE = ("roulette-simple-97", "roulette-americaine-92", "roulette-double-87", "craps-83", "sicbo-83",
         "roue-fortune-85", "baccarat-85", "baccarat-mini-85")


class Counter:
    """randbits(k) from a 31-bit LCG: the same sequence on CPython and MicroPython."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def randbits(self, k):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 7) & ((1 << k) - 1)


def heap_used():
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0  # CPython: no fixed heap to measure


def test_every_shipped_table_model_checks_in_a_small_heap():
    names = models_of(FORMATS)
    assert names == sorted(TABLE), names  # a new table model joins this test
    for name in TABLE:
        gc.collect()
        before = heap_used()
        ok, reason, game = check("games/models/%s.json" % name, "games/certs/%s.json" % name)
        assert ok, (name, reason)
        assert reason.startswith("ok: " + game.id), reason
        gc.collect()
        kept = heap_used() - before
        assert "wagers" not in game.model and "segments" not in game.model  # compiled into game.m
        game = None
        gc.collect()
        kept -= heap_used() - before  # interned names (qstrs) stay: not the game's
        assert kept < (24 if name.startswith("craps") else 8) * 1024, (name, kept)


def test_the_check_takes_the_models_names_and_levels_only_when_asked():
    # the boot check hashes the model, then lets the engine take each wager's names and bet levels
    # as it compiles them (the model and the game never whole in the heap at once); a host tool that
    # reads the model after (tools/certify/table.py: its pays and its hash) gets it untouched
    raw = read("games/models/craps-83.json")
    build(raw)
    assert all("name" in w for w in raw["wagers"].values())
    m = build(raw, True).m
    for wid in m.ids:
        w = raw["wagers"][wid]
        assert "name" not in w and "bets" not in w and "pays" in w, wid
        assert m.wager_name(wid, "fr") and m.bets_of(wid)


# one round of each family: its stake, and the standing wagers of the families that have them
ROUNDS = (("roulette-double-87", {"straight:17": 5, "split:0-1": 1, "corner:1-2-4-5": 2, "red": 2, "dozen:2": 1,
                                  "double:17": 1}, None),
          ("craps-83", {"come": 5, "field": 1, "place6": 6, "hop_easy:2-5": 1, "horn": 4},
           {"point": 6, "bets": {"pass6": 5, "odds6:pass": 25}}),
          ("sicbo-83", {"small": 5, "total10": 2, "duo:1-2": 1, "single:4": 5}, None),
          ("roue-fortune-85", {"1": 5, "jeton": 1, "11": 2}, None),
          ("baccarat-85", {"player": 5, "banker": 20, "tie": 1}, None))


def test_one_round_allocates_a_bounded_amount():
    if not hasattr(gc, "mem_alloc"):
        return  # MicroPython only: CPython has no fixed heap to measure
    gen = Counter(26)
    for name, stake, table in ROUNDS:
        game = build(read("games/models/%s.json" % name))
        game.play(gen, stake, table)  # the first round's one-time allocations (interned keys) aside
        worst = 0
        for i in range(20):
            gc.collect()
            gc.disable()  # what one round allocates, garbage included: no collection in between
            before = heap_used()
            o = game.play(gen, stake, table)
            used = heap_used() - before
            gc.enable()
            assert o.bet > 0 and o.award >= 0
            worst = max(worst, used)
        # bounded by the stake's wagers (a few hundred bytes each: keys parsed, results), never by
        # the shoe or the layout: baccarat's partial shuffle touches at most 6 of its 416 cards
        assert worst < 12 * 1024, (name, worst)
        game = o = None
