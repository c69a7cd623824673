# The bounds of a game model (docs/game-format.md, "Limits"). The boot check runs at every power-up
# in a board's heap and the host certifier must answer too, so a model whose exact return cannot be
# worked out in bounded time and memory is refused, naming the bound, by games/model.py,
# games/keno_model.py and games/poker_model.py on the device and on the host alike; the file itself
# is bounded by games/model_json.py (size, nesting, digits of an integer). Raising one needs a new
# measurement (docs/games.md, make bench) as well as the edit.
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


class ModelError(ValueError):
    """A model refused: malformed, or beyond a bound below (the message names which)."""


MAX_REELS = const(5)  # reels of a reel game
MAX_ROWS = const(5)  # visible rows
MAX_STOPS = const(256)  # physical stops of one strip (a stop's symbol code is a byte)
MAX_REEL_WEIGHT = const(65536)  # a reel's weights added up (its virtual stops)
MAX_SYMBOLS = const(255)  # distinct symbols (a code is a byte)
MAX_LINES = const(50)  # pay lines
MAX_GROUPS = const(30)  # line-pay groups (a group is a bit of a small int)
MAX_BETS = const(10)  # bet levels of any game
MAX_ODDS = const(1000000)  # a card-table game's pay, X to 1 (the by-law's largest: 20 000 for 1, s. 67.9)
MAX_DECKS = const(8)  # decks in a card-table game's shoe (s. 67.33: 6 or 8; s. 63: at least 1)
MAX_FREE_SPINS = const(100)  # a free-spin feature's cap, and any award or retrigger of spins
# The device's recomputation of one bet level (games/exact.py): states x symbols visited by the line
# programme, over every line and both reel sets. The shipped games use at most 1 500 per bet level;
# 200 000 take some 40 ms on the unix port (a board is 20-50 times slower): a hostile model's boot
# check stays within seconds.
MAX_WORK = const(200000)
MAX_STATES = const(256)  # states of that programme after one reel (the shipped games: at most 28)
MAX_POKER_COINS = const(5)  # video poker: 1 to 5 coins of one credit
MAX_STRATEGY = const(256)  # hold patterns of a poker strategy (the shipped ones: 50-85)
MAX_WAGERS = const(64)  # wagers a table-game model offers (craps, the most: 44)
MAX_STAKE_KEYS = const(48)  # wagers one round of a table game holds, standing ones included


def count_key(k, what):
    """The count a pay table's key names ("3"): decimal ASCII digits, no leading zero, so that one
    count has one spelling ("03", "\uff13" (fullwidth) and " 3" are refused, naming the key)."""
    ok = isinstance(k, str) and 0 < len(k) <= 3 and (k == "0" or k[0] != "0")
    if ok:
        for ch in k:
            if ch < "0" or ch > "9":
                ok = False
    if not ok:
        raise ModelError("%s: key %s is not a count (decimal digits 0-9, no leading zero)" % (what, quote(k)))
    return int(k)


def known_keys(d, keys, what):
    """ModelError naming the first key of object d that is not in keys (a tuple)."""
    for k in d:
        if k not in keys:
            raise ModelError("%s: unknown key %s" % (what, quote(k)))


def quote(k):
    """A key or name in a message: its text quoted, \\u escapes for what is not printable ASCII
    (a fullwidth digit shows as \\uff13, not as a 3), at most 40 characters."""
    if not isinstance(k, str):
        return repr(k)
    out = '"'
    for ch in k[:40]:
        c = ord(ch)
        out += ch if 0x20 <= c < 0x7F and ch != '"' and ch != "\\" else "\\u%04x" % c
    return out + ('..."' if len(k) > 40 else '"')
