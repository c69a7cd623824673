# What the cabinet keeps of a table game's round (firmware/play_table.py), bounded so that the books'
# state block and a recall record always hold it (firmware/ledger.py STATE_SIZE and GAME_SIZE,
# tests/device/test_firmware_sizes.py). Its own module: the size tests read it without the play.
import json

from board.compat import const

MAX_KEYS = const(16)  # wagers of one round, standing ones included
# the stake and the table as the state block keeps them (their JSON, bytes) when a wager is placed; a
# round can lengthen what stands (a craps come bet takes its point, a roulette double its hits) by
# GROWTH at most, and a repeated stake is dropped when it would pass MAX_BYTES: the state block's
# bound holds MAX_BYTES + GROWTH
MAX_BYTES = const(176)
GROWTH = const(80)  # 3 characters a key ("/1", a point) for MAX_KEYS keys, and craps' {"point": 10, "bets": }


def size(stake, table):
    """The bytes the stake and the table take in the state block."""
    return len(json.dumps(stake)) + len(json.dumps(table))
