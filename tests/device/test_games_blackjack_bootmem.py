# Blackjack's boot check in bounded memory (issue 26), as tests/device/test_games_bootmem.py does for
# the reel, keno and poker games and test_games_table_bootmem.py for the other table games, in its
# own process: every shipped blackjack model passes games.certificate.check one after the other in
# this fixed heap, and what a game keeps is bounded.
#
# Why 192K: this module with blackjack's engine, model, progressive tables and check and the
# firmware's boot check (games/certificate.py and what it imports) compiled from source (frozen into
# flash on a board) on the 64-bit unix port passes in 176 KB and fails at 168 KB, compiling the
# imports (bisected in 8 KB steps); 192K keeps 16 KB of margin. A game keeps under 16 KB. Its models
# are listed from the head of each file (model_formats.py): read whole to learn their formats, they
# left the heap in pieces and the listing failed at 184 and 192 KB in a fresh clone (make test s38a).
# mp-heap: 192K tight  (a board-sized heap on purpose: tools/heap_margin.py lets it be)
import gc

from model_formats import models_of

import games.blackjack
import games.blackjack_check  # noqa: F401  (the check's code, frozen on a board: not what a game keeps)
from games.certificate import check

BLACKJACK = ("blackjack-1d-94", "blackjack-6d-88", "blackjack-8d-90", "multi-action-6d-99")


def heap_used():
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0  # CPython: no fixed heap to measure


def test_every_shipped_blackjack_model_checks_in_a_small_heap():
    names = models_of(("jeton-blackjack/1",))
    assert names == sorted(BLACKJACK), names  # a new blackjack model joins this test
    for name in BLACKJACK:
        gc.collect()
        before = heap_used()
        ok, reason, game = check("games/models/%s.json" % name, "games/certs/%s.json" % name)
        assert ok, (name, reason)
        assert reason.startswith("ok: " + game.id), reason
        assert "strategy" not in game.model  # the built-in strategy: compiled into game.m
        gc.collect()
        kept = heap_used() - before
        game = None
        gc.collect()
        kept -= heap_used() - before  # interned names (qstrs) stay: not the game's
        assert kept < 16 * 1024, (name, kept)
