# Roulette (by-law s. 68-74): a wheel of 37 pockets (0-36: French or English roulette) or 38 (0-36
# and 00: American roulette), one pocket drawn per spin with rng.below (every pocket equally likely).
# Wagers and payouts: s. 72 (inside and outside) and s. 72.1 (the double and the triple, which live
# over 2 and 3 spins). A round is one spin: play(gen, stake, table) draws the pocket, evaluate(stake,
# draws, table) replays it; table holds the doubles and triples standing after a hit ({key: credits}).
# Pockets are numbered 0-36, and 37 for 00. Docs: docs/game-format.md "Roulette".
from games.limits import quote
from games.table_game import TableGame
from games.table_model import PAY, TableModel, need, ratio, win
from games.table_outcome import LOSE, STAND, WIN, TableOutcome
from rng import below

FORMAT = "jeton-roulette/1"
DZ = 37  # the pocket of 00
# the red numbers of the layout (the same on the single- and double-zero wheels); the others of 1-36 are black
RED = b"\x01\x03\x05\x07\x09\x0c\x0e\x10\x12\x13\x15\x17\x19\x1b\x1e\x20\x22\x24"
# the pairs and trios with a zero that the layout offers as a split or a street, per wheel
ZERO_SPLITS = {1: (b"\x00\x01", b"\x00\x02", b"\x00\x03"),
               2: (b"\x00\x01", b"\x00\x02", b"\x02\x25", b"\x03\x25", b"\x00\x25")}
ZERO_STREETS = {1: (b"\x00\x01\x02", b"\x00\x02\x03"), 2: (b"\x00\x01\x02", b"\x00\x02\x25", b"\x02\x03\x25")}
INSIDE = ("straight", "split", "street", "corner", "six_line", "first_four", "first_five", "double", "triple")
SIZE = {"straight": 1, "split": 2, "street": 3, "corner": 4, "six_line": 6, "double": 1, "triple": 1}
SPINS = {"double": 2, "triple": 3}  # consecutive spins on the number, s. 72.1
OUTSIDE = ("column", "dozen", "low", "even", "red", "black", "odd", "high")
KEYS = ("zeros",)


def bylaw(zeros, triple):
    """The by-law's wagers and payouts (s. 72, 72.1) for a wheel of that many zeros; the double pays
    1,200 to 1 where the triple is not offered, 1,000 to 1 where it is (s. 72.1)."""
    law = {"straight": ([35, 1], "s. 72(2)(a)"), "split": ([17, 1], "s. 72(2)(b)"),
           "street": ([11, 1], "s. 72(2)(c)"), "corner": ([8, 1], "s. 72(2)(d)"),
           "six_line": ([5, 1], "s. 72(2)(f)"), "column": ([2, 1], "s. 72(1)(a)"), "dozen": ([2, 1], "s. 72(1)(b)"),
           "low": ([1, 1], "s. 72(1)(c)"), "even": ([1, 1], "s. 72(1)(d)"), "red": ([1, 1], "s. 72(1)(e)"),
           "black": ([1, 1], "s. 72(1)(f)"), "odd": ([1, 1], "s. 72(1)(g)"), "high": ([1, 1], "s. 72(1)(h)"),
           "double": ([1000, 1] if triple else [1200, 1], "s. 72.1"), "triple": ([10000, 1], "s. 72.1")}
    if zeros == 1:
        law["first_four"] = ([8, 1], "s. 72(2)(e)")  # French or English roulette: 0, 1, 2, 3
    else:
        law["first_five"] = ([6, 1], "s. 72(2)(e)")  # American roulette: 0, 00, 1, 2, 3
    return law


class RouletteModel(TableModel):
    def __init__(self, m, consume=False):
        need(isinstance(m, dict), "model must be an object")
        zeros = m.get("zeros")
        need(zeros == 1 or zeros == 2, "zeros must be 1 (0: French or English roulette) or 2 (0 and 00: American)"
             " (s. 68-69)")
        wagers = m.get("wagers")
        triple = isinstance(wagers, dict) and "triple" in wagers
        TableModel.__init__(self, m, FORMAT, KEYS, (), bylaw(zeros, triple), consume)
        self.zeros = zeros
        self.pockets = 36 + zeros
        for wid in self.ids:
            self.wagers[wid][PAY] = ratio(self.raw[wid]["pays"], "wagers %s: pays" % wid)
        self.done()


def pocket_name(p):
    return "00" if p == DZ else str(p)


def colour(p):
    if p == 0 or p == DZ:
        return "green"
    return "red" if p in RED else "black"


def covers(wid, arg, p):
    """True when the wager wid on arg (bytes of pockets, or a column/dozen number) wins on pocket p."""
    if wid in INSIDE:
        return p in arg
    if p == 0 or p == DZ:  # s. 72(1): the outside wagers always lose on a zero
        return False
    if wid == "column":
        return p % 3 == arg % 3
    if wid == "dozen":
        return (p - 1) // 12 + 1 == arg
    if wid == "low":
        return p <= 18
    if wid == "high":
        return p >= 19
    if wid == "even":
        return p % 2 == 0
    if wid == "odd":
        return p % 2 == 1
    if wid == "red":
        return p in RED
    return p not in RED  # black


def _pocket(tok, zeros):
    # "0".."36", "00" on a double-zero wheel: one spelling per pocket
    if tok == "00" and zeros == 2:
        return DZ
    if not tok or len(tok) > 2 or (len(tok) == 2 and tok[0] == "0"):
        return -1
    for ch in tok:
        if ch < "0" or ch > "9":
            return -1
    n = int(tok)
    return n if n <= 36 else -1


def _inside_ok(wid, sel, zeros):
    # sel: ascending pockets; True when the layout offers that wager on those numbers
    n = len(sel)
    if wid in ("straight", "double", "triple"):
        return n == 1
    a = sel[0]
    if wid == "split":
        if n != 2:
            return False
        if a >= 1 and sel[1] <= 36 and ((sel[1] == a + 1 and a % 3) or sel[1] == a + 3):
            return True
        return bytes(sel) in ZERO_SPLITS[zeros]
    if wid == "street":
        if n != 3:
            return False
        if a >= 1 and a % 3 == 1 and sel[1] == a + 1 and sel[2] == a + 2:
            return True
        return bytes(sel) in ZERO_STREETS[zeros]
    if wid == "corner":
        return n == 4 and a >= 1 and a % 3 != 0 and sel[1] == a + 1 and sel[2] == a + 3 and sel[3] == a + 4 and a + 4 <= 36
    if wid == "six_line":
        if n != 6 or a < 1 or a % 3 != 1 or a + 5 > 36:
            return False
        for i in range(6):
            if sel[i] != a + i:
                return False
        return True
    return False


def selections(wid, zeros):
    """Every key the layout offers for wager wid (the certifier's and the boot check's enumeration)."""
    out = []
    top = 36 + zeros
    if wid in ("straight", "double", "triple"):
        for p in range(top):
            out.append("%s:%s" % (wid, pocket_name(p)))
    elif wid in SIZE:
        n = SIZE[wid]
        for a in range(top):  # every ascending run the layout offers, tried from each first pocket
            for sel in _candidates(a, n, zeros):
                if _inside_ok(wid, sel, zeros):
                    key = "%s:%s" % (wid, "-".join(pocket_name(p) for p in sel))
                    if key not in out:
                        out.append(key)
    elif wid == "first_four" or wid == "first_five":
        out.append(wid)
    elif wid == "column" or wid == "dozen":
        for i in (1, 2, 3):
            out.append("%s:%d" % (wid, i))
    else:
        out.append(wid)
    return out


def _candidates(a, n, zeros):
    # the ascending selections of n pockets starting at a that some inside wager can take
    if a == 0 or a == DZ:
        out = list(ZERO_SPLITS[zeros]) + list(ZERO_STREETS[zeros])
        return [bytes(s) for s in out if s[0] == a and len(s) == n]
    if n == 2:
        return [bytes((a, a + 1)), bytes((a, a + 3)), bytes((a, DZ))]
    if n == 3:
        return [bytes((a, a + 1, a + 2)), bytes((a, a + 1, DZ))]
    if n == 4:
        return [bytes((a, a + 1, a + 3, a + 4))]
    return [bytes(range(a, a + 6))]


class RouletteGame(TableGame):
    kind = "roulette"

    def __init__(self, model, consume=False):
        self._key = None  # parse(): the last key parsed, and what it gave
        self._parsed = None
        TableGame.__init__(self, RouletteModel(model, consume), model)
        self.pockets = self.m.pockets

    # -- a key: what it is on ------------------------------------------------------------------------
    def parse(self, key):
        """The last key parsed is kept (the recomputation asks for one key over every result).
        (wager id, what it is on, hits so far) of a stake or standing key: "straight:17" ->
        ("straight", b"\\x11", 0); "double:17/1" -> ("double", b"\\x11", 1); "column:2" -> ("column", 2, 0);
        "red" -> ("red", None, 0). ValueError naming the key when the layout offers no such wager."""
        if key is self._key:
            return self._parsed
        got = self._parse(key)
        self._key = key
        self._parsed = got
        return got

    def _parse(self, key):
        if not isinstance(key, str):
            raise ValueError("stake: key %r is not a string" % (key,))
        wid, _, rest = key.partition(":")
        self.m.wager(wid)
        hits = 0
        zeros = self.m.zeros
        if wid in SPINS and "/" in rest:
            rest, _, h = rest.partition("/")
            hits = _pocket(h, 1)
            if not 1 <= hits < SPINS[wid]:
                raise ValueError("%s: hits so far must be 1 to %d" % (quote(key), SPINS[wid] - 1))
        if wid in INSIDE and wid not in ("first_four", "first_five"):
            toks = rest.split("-") if rest else []
            sel = bytearray(len(toks))
            for i in range(len(toks)):
                p = _pocket(toks[i], zeros)
                if p < 0:
                    raise ValueError("%s: %s is not a pocket of this wheel" % (quote(key), quote(toks[i])))
                sel[i] = p
            for i in range(1, len(sel)):
                if sel[i] <= sel[i - 1]:
                    raise ValueError("%s: the numbers go in ascending order (00 last), each once" % quote(key))
            if not sel or not _inside_ok(wid, sel, zeros):
                raise ValueError("%s: the layout offers no %s on those numbers" % (quote(key), wid))
            return wid, bytes(sel), hits
        if wid == "first_four" or wid == "first_five":
            if rest:
                raise ValueError("%s: %s takes no numbers" % (quote(key), wid))
            return wid, b"\x00\x01\x02\x03" if wid == "first_four" else b"\x00\x01\x02\x03\x25", 0
        if wid == "column" or wid == "dozen":
            if rest not in ("1", "2", "3"):
                raise ValueError("%s: %s 1, 2 or 3" % (quote(key), wid))
            return wid, int(rest), 0
        if rest:
            raise ValueError("%s: %s takes no numbers" % (quote(key), wid))
        return wid, None, 0

    def check_stake(self, stake, table=None):
        """Total credits of the stake's wagers; ValueError naming the first fault."""
        total = 0
        for key in self.keys(stake):
            wid, _, hits = self.parse(key)
            if hits:
                raise ValueError("%s: a standing double or triple is the table's, not a new wager" % quote(key))
            self.credits(wid, stake[key], key)
            total += stake[key]
        for key in self.keys(table or {}, "table"):
            wid, _, hits = self.parse(key)
            if not hits:
                raise ValueError("table: %s is not a standing double or triple" % quote(key))
            self.credits(wid, table[key], key)
        return total

    def risk(self, stake):
        """Credits the stake puts at risk this round (no commission at roulette)."""
        return self.check_stake(stake)

    # -- the spin ------------------------------------------------------------------------------------
    def play(self, gen, stake, table=None):
        self.check_stake(stake, table)  # before the wheel turns
        return self.evaluate(stake, [below(gen, self.pockets)], table)

    def evaluate(self, stake, draws, table=None):
        """The round of a recorded spin: draws = [pocket] (37 is 00)."""
        staked = self.check_stake(stake, table)
        if not isinstance(draws, list) or len(draws) != 1 or not isinstance(draws[0], int) or not 0 <= draws[0] < self.pockets:
            raise ValueError("draws: [pocket], 0 to %d" % (self.pockets - 1))
        p = draws[0]
        results = []
        nxt = {}
        for src in (stake, table or {}):
            for key in self.keys(src):
                results.append(self.settle(key, src[key], p, nxt))
        results.sort()
        return TableOutcome(staked, stake, list(draws), results, nxt, {"pocket": pocket_name(p), "colour": colour(p)})

    def settle(self, key, credits, p, nxt):
        """[key, credits, status, returned, next key] of one wager on pocket p; a double or triple that
        hit and has spins to go is put in nxt under its next key."""
        wid, arg, hits = self.parse(key)
        if not covers(wid, arg, p):
            return [key, credits, LOSE, 0, None]
        if wid in SPINS and hits + 1 < SPINS[wid]:
            k = "%s:%s/%d" % (wid, pocket_name(arg[0]), hits + 1)
            nxt[k] = credits
            return [key, credits, STAND, 0, k]
        n, d = self.m.pay(wid)
        return [key, credits, WIN, win(credits, n, d), None]

    def most(self, stake, table=None):
        """The most this round can return (every pocket tried): what a prize limit holds it to."""
        self.check_stake(stake, table)
        best = 0
        for p in range(self.pockets):
            best = max(best, self.evaluate(stake, [p], table).award)
        return best

    # -- the boot check's recomputation (games/table_exact.py) ----------------------------------------
    def space(self):
        return self.pockets  # equally likely draws of one round

    def selections(self, wid):
        return selections(wid, self.m.zeros)

    def step(self, key, credits, i):
        """(status, returned, next key or None) of one wager over draw i: the chain the recomputation follows."""
        r = self.settle(key, credits, i, {})
        return r[2], r[3], r[4]

    def at_risk(self, key, credits):
        return credits


def load(path):
    from games.model import read

    return RouletteGame(read(path))
