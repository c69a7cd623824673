# Sic bo (by-law s. 95.18-95.24): three dice, each face from rng.below(gen, 6) (every one of the 216
# ordered throws equally likely). A round is one throw: play(gen, stake) throws, evaluate(stake, draws)
# replays it, draws = [die 1, die 2, die 3]. Wagers (s. 95.22) and payouts (s. 95.24); keys:
# "small", "big", "any_triple", "total10", "triple:3", "double:5", "duo:1-2", "single:4".
# Readings where the by-law's words leave a choice (docs/game-format.md "Sic bo"): a two of a kind
# on a number wins when at least two dice show it (three do too); totals win whatever the dice, a
# three of a kind included; small and big lose on any three of a kind (s. 95.22(6), (7)).
from games.limits import quote
from games.table_game import TableGame
from games.table_model import PAY, TableModel, ratio, win
from games.table_outcome import LOSE, WIN, TableOutcome
from rng import below

FORMAT = "jeton-sicbo/1"
# s. 95.24: the payout of each total, 4 to 17
TOTALS = {4: 50, 5: 30, 6: 18, 7: 12, 8: 8, 9: 6, 10: 6, 11: 6, 12: 6, 13: 8, 14: 12, 15: 18, 16: 30, 17: 50}
ON_FACE = ("triple", "double", "single")  # wagers on one face, "triple:3"


def _bylaw():
    law = {"triple": ([150, 1], "s. 95.22(1), 95.24"), "double": ([8, 1], "s. 95.22(2), 95.24"),
           "any_triple": ([24, 1], "s. 95.22(3), 95.24"), "duo": ([5, 1], "s. 95.22(5), 95.24"),
           "small": ([1, 1], "s. 95.22(6), 95.24"), "big": ([1, 1], "s. 95.22(7), 95.24"),
           "single": ({"1": [1, 1], "2": [2, 1], "3": [3, 1]}, "s. 95.22(8), 95.24")}
    for t in TOTALS:
        law["total%d" % t] = ([TOTALS[t], 1], "s. 95.22(4), 95.24")
    return law


class SicBoModel(TableModel):
    def __init__(self, m, consume=False):
        TableModel.__init__(self, m, FORMAT, (), (), _bylaw(), consume)
        for wid in self.ids:
            pays = self.raw[wid]["pays"]
            if wid == "single":  # 1, 2 or 3 dice showing the number: [1 to 1, 2 to 1, 3 to 1]
                self.wagers[wid][PAY] = [ratio(pays[k], "wagers single: pays %s" % k) for k in ("1", "2", "3")]
            else:
                self.wagers[wid][PAY] = ratio(pays, "wagers %s: pays" % quote(wid))
        self.done()


def _face(v):
    return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6


class SicBoGame(TableGame):
    kind = "dice"

    def __init__(self, model, consume=False):
        self._key = None  # parse(): the last key parsed, and what it gave
        self._parsed = None
        TableGame.__init__(self, SicBoModel(model, consume), model)

    def parse(self, key):
        """The last key parsed is kept (the recomputation asks for one key over every result).
        (wager id, faces it is on as bytes or None): "duo:1-2" -> ("duo", b"\\x01\\x02")."""
        if key is self._key:
            return self._parsed
        got = self._parse(key)
        self._key = key
        self._parsed = got
        return got

    def _parse(self, key):
        if not isinstance(key, str):
            raise ValueError("stake: key %r is not a string" % (key,))
        wid, _, on = key.partition(":")
        self.m.wager(wid)
        if wid in ON_FACE:
            if len(on) != 1 or not "1" <= on <= "6":
                raise ValueError("%s: %s on one face, 1 to 6 (%s:4)" % (quote(key), wid, wid))
            return wid, bytes((int(on),))
        if wid == "duo":
            a, _, b = on.partition("-")
            if len(a) != 1 or len(b) != 1 or not "1" <= a < b <= "6":
                raise ValueError("%s: duo on two different faces, ascending (duo:1-2)" % quote(key))
            return wid, bytes((int(a), int(b)))
        if on:
            raise ValueError("%s: %s takes nothing after ':'" % (quote(key), wid))
        return wid, None

    def check_stake(self, stake, table=None):
        if table:
            raise ValueError("table: nothing stands between throws at sic bo")
        total = 0
        for key in self.keys(stake):
            wid = self.parse(key)[0]
            self.credits(wid, stake[key], key)
            total += stake[key]
        return total

    def risk(self, stake, table=None):
        return self.check_stake(stake)

    def play(self, gen, stake, table=None):
        self.check_stake(stake, table)
        return self.evaluate(stake, [below(gen, 6) + 1, below(gen, 6) + 1, below(gen, 6) + 1], table)

    def evaluate(self, stake, draws, table=None):
        """The round of a recorded throw: draws = [die 1, die 2, die 3], faces 1-6."""
        staked = self.check_stake(stake, table)
        if not isinstance(draws, list) or len(draws) != 3 or not (_face(draws[0]) and _face(draws[1]) and _face(draws[2])):
            raise ValueError("draws: [die 1, die 2, die 3], faces 1 to 6")
        results = [self.settle(key, stake[key], draws) for key in self.keys(stake)]
        return TableOutcome(staked, stake, list(draws), results, None, {"dice": list(draws), "total": sum(draws)})

    def settle(self, key, c, dice):
        wid, on = self.parse(key)
        pay = self.m.pay(wid)
        a, b, d = dice
        t = a + b + d
        three = a == b == d
        if wid == "single":
            k = (a == on[0]) + (b == on[0]) + (d == on[0])
            if not k:
                return [key, c, LOSE, 0, None]
            n, q = pay[k - 1]
            return [key, c, WIN, win(c, n, q), None]
        if wid == "triple":
            ok = three and a == on[0]
        elif wid == "double":
            ok = (a == on[0]) + (b == on[0]) + (d == on[0]) >= 2
        elif wid == "any_triple":
            ok = three
        elif wid == "duo":
            ok = on[0] in dice and on[1] in dice
        elif wid == "small":
            ok = 4 <= t <= 10 and not three
        elif wid == "big":
            ok = 11 <= t <= 17 and not three
        else:  # totalN
            ok = t == int(wid[5:])
        if ok:
            return [key, c, WIN, win(c, pay[0], pay[1]), None]
        return [key, c, LOSE, 0, None]

    def most(self, stake, table=None):
        best = 0
        for i in range(216):
            best = max(best, self.evaluate(stake, _throw(i), table).award)
        return best

    # -- the boot check's recomputation (games/table_exact.py) ----------------------------------------
    def space(self):
        return 216

    def selections(self, wid):
        self.m.wager(wid)
        if wid in ON_FACE:
            return ["%s:%d" % (wid, f) for f in range(1, 7)]
        if wid == "duo":
            return ["duo:%d-%d" % (x, y) for x in range(1, 7) for y in range(x + 1, 7)]
        return [wid]

    def step(self, key, c, i):
        r = self.settle(key, c, _throw(i))
        return r[2], r[3], r[4]

    def at_risk(self, key, credits):
        return credits


def _throw(i):
    return [i // 36 + 1, i // 6 % 6 + 1, i % 6 + 1]


def load(path):
    from games.model import read

    return SicBoGame(read(path))
