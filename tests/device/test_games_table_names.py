# The names a table game shows (s. 89) come out of the bytes its compiled wagers keep
# (games/table_model.py wager_name) exactly as the model file has them, for every shipped table
# model built as the boot check builds it (games/table_check.py build(model, consume=True)). Apart
# from test_games_table_bootmem.py, whose heap is a board's on purpose: building a model and reading
# it again after the tests there failed in its 256K in a checkout with a longer path.
# mp-heap: 384K
import gc

from games.model import read
from games.table_check import build

TABLE = ("roulette-simple-97", "roulette-americaine-92", "roulette-double-87", "craps-83", "sicbo-83",
         "roue-fortune-85", "baccarat-85", "baccarat-mini-85")


def test_the_wagers_names_are_the_models():
    # built first, the model read again once the game is dropped: never both in the heap at once
    for name in TABLE:
        path = "games/models/%s.json" % name
        gc.collect()
        m = build(read(path), True).m  # as the boot check builds it
        for wid in m.ids:
            assert isinstance(m.wagers[wid], tuple) and isinstance(m.wagers[wid][0], bytes)  # compiled
        got = [(wid, m.wager_name(wid, "fr"), m.wager_name(wid, "en")) for wid in m.ids]
        m = None
        gc.collect()
        wagers = read(path)["wagers"]  # the model's own names
        assert sorted(wid for wid, _, _ in got) == sorted(wagers), name
        for wid, fr, en in got:
            assert wagers[wid]["name"] == {"fr": fr, "en": en}, (name, wid)
        got = wagers = None
