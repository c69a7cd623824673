# What the cabinet keeps of a table game's round (firmware/play_table.py), bounded so that the books
# always hold it (tests/device/test_firmware_sizes.py): the stake committed with the wager, packed
# in the game's "deck" field of the state block (4 hex digits a wager: its number on the layout and
# its bet level's), and a recall record with the stake and the table (firmware/ledger.py GAME_SIZE).
# Its own module: the size tests read it without the play.
from board.compat import const

MAX_KEYS = const(16)  # wagers of one round, standing ones included
KEY_LEN = const(28)  # a key's characters (the shipped layouts' longest: 26); a standing key adds 3
MAX_CREDITS = const(999999999)  # credits on one wager (9 digits)


def pack(pairs):
    """[(layout number, bet level index)] -> the hex the state block keeps."""
    return "".join("%03x%x" % (i, lv) for i, lv in pairs)


def unpack(text):
    """pack's inverse; ValueError for anything else."""
    if not isinstance(text, str) or len(text) % 4 or len(text) > 4 * MAX_KEYS:
        raise ValueError("stake: not a packed stake")
    return [(int(text[i:i + 3], 16), int(text[i + 3], 16)) for i in range(0, len(text), 4)]
