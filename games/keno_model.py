# Keno model (jeton-keno/1, docs/game-format.md): validate the JSON dict and compile its pay table
# into one list per (spot count, bet level), indexed by the number of hits, in credits. Shared by the
# engine (games/keno.py), the boot check's recomputation (games/keno_exact.py) and tools.certify.
from games.limits import ModelError, count_key, quote
from games.model import bet_list, describe

FORMAT = "jeton-keno/1"
MAX_SPOTS = 10  # the player picks 1 to 10 spots (issue 13)
# every key the format knows: any other is refused by name (not silently played as plain keno)
KEYS = ("format", "id", "family", "version", "name", "source", "numbers", "drawn", "unit", "bets", "pays")


def _need(cond, msg):
    if not cond:
        raise ModelError(msg)


def _int(v, what, low):
    _need(isinstance(v, int) and not isinstance(v, bool) and v >= low, "%s must be an integer >= %d" % (what, low))
    return v


class KenoModel:
    def __init__(self, m):
        _need(isinstance(m, dict), "model must be an object")
        _need(m.get("format") == FORMAT, "unknown format %s (want %s)" % (quote(m.get("format")), FORMAT))
        self.id = describe(m, FORMAT, KEYS)
        self.name = m["name"]
        self.numbers = _int(m.get("numbers", 80), "numbers", 1)
        self.drawn = _int(m.get("drawn", 20), "drawn", 1)
        _need(self.numbers <= 255, "numbers must be at most 255")  # a number fits a byte of the draw pool
        _need(self.drawn <= self.numbers, "drawn (%d) exceeds numbers (%d)" % (self.drawn, self.numbers))
        # a coin is `unit` credits (default 1); a pay written as an integer is credits per coin, so
        # a return can be tuned finer than one credit per credit bet (a 1-spot paying 3 is 75 %, 4 is 100 %)
        self.unit = _int(m.get("unit", 1), "unit", 1)
        self.bets = bet_list(m.get("bets"))
        for b in self.bets:
            _need(b % self.unit == 0, "bet %d is not a whole number of coins of %d credits" % (b, self.unit))
        pays = m.get("pays")
        _need(isinstance(pays, dict) and pays, "pays missing: one table per offered spot count")
        top = MAX_SPOTS if MAX_SPOTS < self.drawn else self.drawn
        if self.numbers < top:
            top = self.numbers
        self.spots = []
        self.pay = {}  # pay[spots][bet index][hits] = credits
        for k in pays:
            s = count_key(k, "pays")  # "3", never "03" or a fullwidth digit: one spelling per count
            _need(1 <= s <= top, "spot count %s out of range 1..%d" % (k, top))
            table = pays[k]
            _need(isinstance(table, dict) and table, "pays %s: a table {hits: pay} is needed" % k)
            rows = []
            for bi in range(len(self.bets)):
                row = [0] * (s + 1)
                for h in table:
                    n = count_key(h, "pays %s" % k)
                    _need(0 <= n <= s, "pays %s: hit count %s out of range 0..%d" % (k, h, s))
                    row[n] = self._credits(table[h], bi, "pays %s, %s hits" % (k, h))
                _need(max(row) > 0, "pays %s: pays nothing at bet %d" % (k, self.bets[bi]))
                rows.append(row)
            self.pay[s] = rows
            self.spots.append(s)
        self.spots.sort()
        self.progressive = None  # none in version 1 (firmware/startup.py asks every game)

    def _credits(self, v, bi, what):
        # an integer: credits per coin bet; a list: one absolute amount per bet level
        if isinstance(v, list):
            _need(len(v) == len(self.bets), "%s: one value per bet level" % what)
            return _int(v[bi], what, 0)
        return _int(v, what, 0) * (self.bets[bi] // self.unit)

    def bet_index(self, bet):
        for i, b in enumerate(self.bets):
            if b == bet:
                return i
        raise ValueError("bet %r not offered" % (bet,))
