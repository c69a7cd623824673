# Craps (by-law s. 95.1-95.17): two dice, each face from rng.below(gen, 6) (every one of the 36
# rolls equally likely). A round on the cabinet is one roll. The table carries what lives across
# rolls: the point (0 on a come-out roll) and the standing wagers, {"point": p, "bets": {key: credits}}.
# play(gen, stake, table) rolls, evaluate(stake, draws, table) replays: draws = [die 1, die 2].
# Keys: a line wager placed is "pass", "dont_pass", "come", "dont_come"; once its point is known it
# stands as "pass6", "dont_come9", ...; its odds (s. 95.16) are "odds6:pass", "odds6:come",
# "dont_odds9:dont_come"; "place6", "buy4", "lay10", "hard8" stand under their own key; one-roll
# wagers ("field", "any7", "horn", "hop_easy:2-5", "hop_hard:3-3", ...) are decided by every roll.
# Working (s. 95.15(1), 95.16(3), 95.17(1)-(2)): place, buy, hardways and a come bet's odds are off on
# a come-out roll (they stay, undecided; a come bet decided then takes its odds down, returned).
# Docs: docs/game-format.md "Craps".
from games.limits import quote
from games.table_game import TableGame
from games.table_model import BETS, PAY, SECTION, TableModel, ceil_div, is_int, need, ratio, win
from games.table_model import COMMISSION as COMM
from games.table_outcome import LOSE, PUSH, RETURNED, STAND, WIN, TableOutcome
from rng import below

FORMAT = "jeton-craps/1"
POINTS = (4, 5, 6, 8, 9, 10)
LINE = ("pass", "dont_pass", "come", "dont_come")
KEYS = ("odds_max", "dont_odds_max")
WAGER_KEYS = ("commission",)
# one-roll wagers (s. 95.14(5), 95.15(2)-(8), (10), (11)); their totals and pays are _bylaw()'s
ONE_ROLL = ("field", "any7", "eleven", "any_craps", "craps2", "craps3", "craps12", "horn", "world", "three_way")
PARTS = ("horn", "world", "three_way")
SINGLE_PAYS = ("any7", "eleven", "any_craps", "craps2", "craps3", "craps12")  # one payout [n, d] for its totals


def _bylaw():
    # the by-law's pays and section of every wager, made when a model is compiled and garbage after:
    # as module dicts they held 2.6 KB of a board's heap for as long as the game was loaded
    odds = {4: [2, 1], 5: [3, 2], 6: [6, 5], 8: [6, 5], 9: [3, 2], 10: [2, 1]}  # true odds: s. 95.16(1), 95.17(2)
    lay = {4: [1, 2], 5: [2, 3], 6: [5, 6], 8: [5, 6], 9: [2, 3], 10: [1, 2]}  # s. 95.16(2), 95.17(3)
    place = {4: [9, 5], 5: [7, 5], 6: [7, 6], 8: [7, 6], 9: [7, 5], 10: [9, 5]}  # s. 95.17(1)
    hard = {4: [7, 1], 6: [9, 1], 8: [9, 1], 10: [7, 1]}  # s. 95.15(1)
    # one-roll wagers: the totals they win on, with each total's payout
    one_roll = {
        "field": ({"2": [2, 1], "3": [1, 1], "4": [1, 1], "9": [1, 1], "10": [1, 1], "11": [1, 1], "12": [2, 1]},
                  "s. 95.14(5)"),
        "any7": ({"7": [4, 1]}, "s. 95.15(2)"), "eleven": ({"11": [15, 1]}, "s. 95.15(3)"),
        "any_craps": ({"2": [7, 1], "3": [7, 1], "12": [7, 1]}, "s. 95.15(4)"),
        "craps2": ({"2": [30, 1]}, "s. 95.15(5)"), "craps3": ({"3": [15, 1]}, "s. 95.15(6)"),
        "craps12": ({"12": [30, 1]}, "s. 95.15(7)"),
        # the stake is split evenly over the totals, each part paid as that total's own wager (s. 95.15(8), (10), (11))
        "horn": ({"2": [30, 1], "3": [15, 1], "11": [15, 1], "12": [30, 1]}, "s. 95.15(8)"),
        "world": ({"2": [30, 1], "3": [15, 1], "7": [4, 1], "11": [15, 1], "12": [30, 1]}, "s. 95.15(10)"),
        "three_way": ({"2": [30, 1], "3": [15, 1], "12": [30, 1]}, "s. 95.15(11)"),
    }
    law = {"pass": ([1, 1], "s. 95.14(1)"), "dont_pass": ([1, 1], "s. 95.14(2)"), "come": ([1, 1], "s. 95.14(3)"),
           "dont_come": ([1, 1], "s. 95.14(4)"), "hop_hard": ([30, 1], "s. 95.15(9)"),
           "hop_easy": ([15, 1], "s. 95.15(9)")}
    for wid in one_roll:
        pays, sec = one_roll[wid]
        law[wid] = (pays[sorted(pays)[0]] if wid in SINGLE_PAYS else pays, sec)
    for n in POINTS:
        law["odds%d" % n] = (odds[n], "s. 95.16(1), (3)")
        law["dont_odds%d" % n] = (lay[n], "s. 95.16(2), (4)")
        law["place%d" % n] = (place[n], "s. 95.17(1)")
        law["buy%d" % n] = (odds[n], "s. 95.17(2)")
        law["lay%d" % n] = (lay[n], "s. 95.17(3)")
        if n in hard:
            law["hard%d" % n] = (hard[n], "s. 95.15(1)")
    return law


def _single_wins(wid, t):
    # the totals a one-payout one-roll wager wins on (s. 95.15(2)-(7))
    if wid == "any7":
        return t == 7
    if wid == "eleven":
        return t == 11
    if wid == "any_craps":
        return t == 2 or t == 3 or t == 12
    return t == (2 if wid == "craps2" else 3 if wid == "craps3" else 12)


def _multiples(v, what):
    # {"4": m, ...}: the most an odds wager may be, in multiples of its line wager, per point
    need(isinstance(v, dict), "%s: {point: multiple of the line wager} for 4, 5, 6, 8, 9, 10" % what)
    out = {}
    for n in POINTS:
        k = v.get(str(n))
        need(is_int(k) and 1 <= k <= 100, "%s: point %d needs a multiple 1 to 100" % (what, n))
        out[n] = k
    need(len(v) == len(POINTS), "%s: points 4, 5, 6, 8, 9, 10 only" % what)
    return out


class CrapsModel(TableModel):
    def __init__(self, m, consume=False):
        TableModel.__init__(self, m, FORMAT, KEYS, WAGER_KEYS, _bylaw(), consume)
        for wid in self.ids:
            w = self.wagers[wid]
            raw = self.raw[wid]
            what = "wagers %s" % quote(wid)
            c = raw.get("commission")
            if wid.startswith("buy") or wid.startswith("lay"):
                if c != [5, 100]:  # buy: 5 % of the wager; lay: 5 % of the potential winnings (s. 95.17(2), (3))
                    need(False, "%s: commission %r, the by-law's is [5, 100] (5 %%, %s)" % (what, c, w[SECTION]))
                w[COMM] = (5, 100)
            else:
                need(c is None, "%s: only buy and lay wagers take a commission" % what)
            if wid in ONE_ROLL and wid not in SINGLE_PAYS:
                pay = {}
                for t in raw["pays"]:
                    pay[int(t)] = ratio(raw["pays"][t], "%s: pays %s" % (what, t))
                if wid in PARTS:
                    for b in w[BETS]:
                        need(b % len(pay) == 0, "%s: bet %d does not split evenly over its %d totals" % (what, b, len(pay)))
                w[PAY] = pay
            else:
                w[PAY] = ratio(raw["pays"], "%s: pays" % what)
        self.odds_max = None
        self.dont_odds_max = None
        if _any(self.ids, "odds"):
            self.odds_max = _multiples(m.get("odds_max"), "odds_max")
        else:
            need(m.get("odds_max") is None, "odds_max without an odds wager")
        if _any(self.ids, "dont_odds"):
            self.dont_odds_max = _multiples(m.get("dont_odds_max"), "dont_odds_max")
        else:
            need(m.get("dont_odds_max") is None, "dont_odds_max without a don't odds wager")
        self.done()


def _any(ids, prefix):
    for wid in ids:
        if wid[:len(prefix)] == prefix and wid[len(prefix)].isdigit():
            return True
    return False


def _point(s):
    # "6" -> 6 when it is a point number, else 0
    return int(s) if s in ("4", "5", "6", "8", "9", "10") else 0


def _number(wid):
    # the point number a wager id ends with ("place10" -> 10, "odds6" -> 6), else 0
    if wid[-2:] == "10":
        return 10
    return _point(wid[-1:])


class CrapsGame(TableGame):
    kind = "dice"

    def __init__(self, model, consume=False):
        TableGame.__init__(self, CrapsModel(model, consume), model)
        self._key = None  # parse(): the last key parsed, and what it gave
        self._parsed = None

    # -- keys ------------------------------------------------------------------------------------------
    def parse(self, key):
        """(wager id, point or 0, what it backs or faces, standing): "pass" -> ("pass", 0, None, False);
        "pass6" -> ("pass", 6, None, True); "odds6:come" -> ("odds6", 6, "come", False);
        "hop_easy:2-5" -> ("hop_easy", 0, b"\\x02\\x05", False). ValueError naming a key no wager has.
        The last key parsed is kept: the recomputation asks for one key 36 times over."""
        if key is self._key:
            return self._parsed
        got = self._parse(key)
        self._key = key
        self._parsed = got
        return got

    def _parse(self, key):
        if not isinstance(key, str):
            raise ValueError("stake: key %r is not a string" % (key,))
        m = self.m
        if key in m.wagers:  # a wager placed under its own id: the line bets' first roll, place6, field...
            if key.startswith("odds") or key.startswith("dont_odds") or key.startswith("hop"):
                raise ValueError("%s: say what it is on (%s)" % (quote(key), "hop_easy:2-5" if key.startswith("hop")
                                                                  else key + (":pass" if key[0] == "o" else ":dont_pass")))
            return key, _number(key), None, False
        name, _, on = key.partition(":")
        if not on:
            for base in LINE:  # a line wager standing on its point: "pass6", "dont_come9"
                if name.startswith(base) and _point(name[len(base):]):
                    m.wager(base)
                    return base, _point(name[len(base):]), None, True
        elif name in m.wagers and (name.startswith("odds") or name.startswith("dont_odds")):
            want = ("pass", "come") if name.startswith("odds") else ("dont_pass", "dont_come")
            if on not in want:
                raise ValueError("%s: odds back %s (%s:%s)" % (quote(key), " or ".join(want), name, want[0]))
            return name, _number(name), on, False
        elif name in m.wagers and (name == "hop_easy" or name == "hop_hard"):
            if (len(on) != 3 or on[1] != "-" or not "1" <= on[0] <= on[2] <= "6"
                    or (on[0] == on[2]) != (name == "hop_hard")):
                raise ValueError("%s: %s on two faces 1-6, ascending (%s)" % (
                    quote(key), name, "hop_hard:3-3" if name == "hop_hard" else "hop_easy:2-5"))
            return name, 0, bytes((int(on[0]), int(on[2]))), False
        m.wager(name)  # not offered: named
        raise ValueError("%s: %s takes nothing after ':'" % (quote(key), name))

    def commission(self, wid, credits):
        """The commission paid with a buy or lay wager (s. 95.17(2), (3)), rounded up to a whole credit."""
        w = self.m.wagers[wid]
        if w[COMM] is None:
            return 0
        n, d = w[COMM]
        if wid.startswith("buy"):
            return ceil_div(credits * n, d)  # 5 % of the wager
        return ceil_div((win(credits, w[PAY][0], w[PAY][1]) - credits) * n, d)  # 5 % of what it can win

    def at_risk(self, key, credits):
        return credits + self.commission(self.parse(key)[0], credits)

    # -- the table -------------------------------------------------------------------------------------
    def check_table(self, table):
        """(point, {key: credits}, [(key, credits, parsed)]) of a table that can stand between rolls;
        ValueError naming a fault."""
        if table is None:
            return 0, {}, []
        if not isinstance(table, dict) or len(table) != 2 or "point" not in table or "bets" not in table:
            raise ValueError("table: {\"point\": 0 or a point, \"bets\": {key: credits}}")
        p = table["point"]
        if p != 0 and p not in POINTS:
            raise ValueError("table: point %r is not 0, 4, 5, 6, 8, 9 or 10" % (p,))
        bets = table["bets"]
        out = []
        for key in self.keys(bets, "table"):
            got = self.parse(key)
            wid, n, on, standing = got
            c = bets[key]
            if not is_int(c) or c <= 0:
                raise ValueError("table: %s: %r credits" % (quote(key), c))
            if wid in LINE and not standing:
                raise ValueError("table: %s has no point: it is decided by the roll it is placed for" % quote(key))
            if (wid == "pass" or wid == "dont_pass") and n != p:
                raise ValueError("table: %s stands but the point is %d" % (quote(key), p))
            if on is not None and not wid.startswith("hop") and "%s%d" % (on, n) not in bets:
                raise ValueError("table: %s backs no %s%d" % (quote(key), on, n))
            if wid in ONE_ROLL or wid.startswith("hop"):
                raise ValueError("table: %s is decided by one roll: it never stands" % quote(key))
            out.append((key, c, got))
        return p, bets, out

    def _round(self, stake, table):
        # (credits taken, point, [(key, credits, parsed)] of the stake then the table): every check, once
        p, bets, standing = self.check_table(table)
        total = 0
        out = []
        for key in self.keys(stake):
            got = self.parse(key)
            wid, n, on, standing_key = got
            c = stake[key]
            self.credits(wid, c, key)
            if standing_key:
                raise ValueError("%s: a line wager is placed as %s; its point is the dice's" % (quote(key), wid))
            if key in bets:
                raise ValueError("%s: already on the table" % quote(key))
            if (wid == "pass" or wid == "dont_pass") and p:
                raise ValueError("%s: on a come-out roll only (the point is %d; s. 95.14)" % (quote(key), p))
            if (wid == "come" or wid == "dont_come") and not p:
                raise ValueError("%s: after the come-out roll only (s. 95.14(3), (4))" % quote(key))
            if on is not None and not wid.startswith("hop"):
                line = "%s%d" % (on, n)
                if line not in bets:
                    raise ValueError("%s: no %s on the table to back (s. 95.16)" % (quote(key), line))
                mult = (self.m.odds_max if wid.startswith("odds") else self.m.dont_odds_max)[n]
                if c > mult * bets[line]:
                    raise ValueError("%s: %d credits, at most %d x the %d on %s" % (quote(key), c, mult, bets[line], line))
            total += c + self.commission(wid, c)
            out.append((key, c, got))
        if not p and out and "pass" not in stake and "dont_pass" not in stake:
            raise ValueError("stake: a come-out roll needs a pass or don't pass wager (s. 95.11)")
        if not out and not standing:
            raise ValueError("stake: no wager on the table")
        return total, p, out + standing

    def check_stake(self, stake, table=None):
        """Credits the round takes (its new wagers and their commissions); ValueError naming the first
        wager the table does not allow now."""
        return self._round(stake, table)[0]

    def risk(self, stake, table=None):
        return self.check_stake(stake, table)

    def withdrawable(self, table):
        """The standing wagers the player may take down between rolls, sorted: don't pass and don't
        come (s. 95.14), odds (s. 95.16), place, buy and lay (s. 95.17), hardways (s. 95.15(1)); never
        pass or come (they are played until won or lost)."""
        return [k for k, c, got in self.check_table(table)[2] if got[0] != "pass" and got[0] != "come"]

    def withdraw(self, table, key):
        """(table after, credits returned): key taken down with the odds it carries; the stake is
        returned, a buy or lay commission is not (it was the price of the wager's acceptance)."""
        if key not in self.withdrawable(table):
            raise ValueError("%s: not a standing wager the player may take down" % quote(key))
        bets = dict(table["bets"])
        back = bets.pop(key)
        wid, n, on, standing = self.parse(key)
        if standing:  # its odds go with it
            odds = "%s%d:%s" % ("dont_odds" if wid.startswith("dont") else "odds", n, wid)
            if odds in bets:
                back += bets.pop(odds)
        return {"point": table["point"], "bets": bets}, back

    # -- the roll ------------------------------------------------------------------------------------
    def play(self, gen, stake, table=None):
        self.check_stake(stake, table)  # before the dice roll
        d1 = below(gen, 6) + 1
        d2 = below(gen, 6) + 1
        return self.evaluate(stake, [d1, d2], table)

    def evaluate(self, stake, draws, table=None):
        """The round of a recorded roll: draws = [die 1, die 2], faces 1-6."""
        staked, p, wagers = self._round(stake, table)
        if not isinstance(draws, list) or len(draws) != 2 or not _face(draws[0]) or not _face(draws[1]):
            raise ValueError("draws: [die 1, die 2], faces 1 to 6")
        d1, d2 = draws
        t = d1 + d2
        results = []
        nxt = {}
        for key, c, got in wagers:
            r = self.settle(key, c, got, d1, d2, p != 0)
            if r[4] is not None:  # (a come bet moves only on the roll that decides one standing there)
                nxt[r[4]] = c
            results.append(r)
        results.sort()
        if p:
            p = 0 if t == p or t == 7 else p
        elif t in POINTS:
            p = t
        return TableOutcome(staked, stake, list(draws), results, {"point": p, "bets": nxt},
                            {"dice": [d1, d2], "total": t, "point": p})

    def settle(self, key, c, got, d1, d2, working):
        """[key, credits, status, returned, next key] of one wager (parsed: got) over the roll d1, d2;
        working: the point is on (place, buy, hardways and a come bet's odds are off on a come-out roll)."""
        wid, n, on, standing = got
        pay = self.m.pay(wid)
        t = d1 + d2
        if wid in LINE:
            if not standing:  # its first roll: the come-out rules (s. 95.14(1)-(4))
                if wid == "pass" or wid == "come":
                    if t == 7 or t == 11:
                        return [key, c, WIN, win(c, 1, 1), None]
                    if t == 2 or t == 3 or t == 12:
                        return [key, c, LOSE, 0, None]
                else:
                    if t == 2 or t == 3:
                        return [key, c, WIN, win(c, 1, 1), None]
                    if t == 12:
                        return [key, c, PUSH, c, None]
                    if t == 7 or t == 11:
                        return [key, c, LOSE, 0, None]
                return [key, c, STAND, 0, "%s%d" % (wid, t)]
            won, lost = (t == n, t == 7) if wid == "pass" or wid == "come" else (t == 7, t == n)
        elif wid.startswith("odds"):
            if on == "come" and not working:  # off on the come-out: returned if its come bet is decided
                if t == n or t == 7:
                    return [key, c, RETURNED, c, None]
                return [key, c, STAND, 0, key]
            won, lost = t == n, t == 7
        elif wid.startswith("dont_odds") or wid.startswith("lay"):  # on every roll
            won, lost = t == 7, t == n
        elif wid.startswith("place") or wid.startswith("buy"):
            if not working:
                return [key, c, STAND, 0, key]
            won, lost = t == n, t == 7
        elif wid.startswith("hard"):
            if not working:
                return [key, c, STAND, 0, key]
            won, lost = t == n and d1 == d2, t == 7 or t == n
        elif wid.startswith("hop"):
            won = (d1 == on[0] and d2 == on[1]) or (d1 == on[1] and d2 == on[0])
            return [key, c, WIN, win(c, pay[0], pay[1]), None] if won else [key, c, LOSE, 0, None]
        else:  # one roll
            return self._one_roll(key, c, wid, pay, t)
        if won:
            return [key, c, WIN, win(c, pay[0], pay[1]), None]
        if lost:
            return [key, c, LOSE, 0, None]
        return [key, c, STAND, 0, key]

    def _one_roll(self, key, c, wid, pay, t):
        if wid in SINGLE_PAYS:
            if _single_wins(wid, t):
                return [key, c, WIN, win(c, pay[0], pay[1]), None]
            return [key, c, LOSE, 0, None]
        p = pay.get(t)
        if p is None:
            return [key, c, LOSE, 0, None]
        part = c // len(pay) if wid in PARTS else c  # the part on that total; the other parts lose
        back = win(part, p[0], p[1])
        return [key, c, WIN if back > c else PUSH, back, None]

    def most(self, stake, table=None):
        """The most this round can return (every roll tried)."""
        best = 0
        for i in range(36):
            best = max(best, self.evaluate(stake, [i // 6 + 1, i % 6 + 1], table).award)
        return best

    # -- the boot check's recomputation (games/table_exact.py): each wager as it works ------------------
    def space(self):
        return 36

    def selections(self, wid):
        self.m.wager(wid)
        if wid[:4] == "odds":
            return [wid + ":pass", wid + ":come"]
        if wid[:9] == "dont_odds":
            return [wid + ":dont_pass", wid + ":dont_come"]
        if wid == "hop_easy":
            return ["hop_easy:%d-%d" % (a, b) for a in range(1, 7) for b in range(a + 1, 7)]
        if wid == "hop_hard":
            return ["hop_hard:%d-%d" % (a, a) for a in range(1, 7)]
        return [wid]

    def step(self, key, c, i):
        r = self.settle(key, c, self.parse(key), i // 6 + 1, i % 6 + 1, True)
        return r[2], r[3], r[4]


def _face(v):
    return is_int(v) and 1 <= v <= 6


def load(path):
    from games.model import read

    return CrapsGame(read(path))
