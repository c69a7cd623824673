# Reel model: validate a model (dict loaded from JSON, docs/game-format.md) and compile it into
# small integer tables shared by the engine (games/reels.py) and the exact RTP (games/exact.py).
# Symbols become codes 0..n-1; each code carries a bit mask of the line-pay groups it can extend
# (a wild extends every group, a scatter none); pays become cumulative-max tables per bet level,
# so "highest win per line only" is max over groups of cpay[g][run length].
from games.limits import (
    MAX_BETS,
    MAX_FREE_SPINS,
    MAX_GROUPS,
    MAX_LINES,
    MAX_REEL_WEIGHT,
    MAX_REELS,
    MAX_ROWS,
    MAX_STOPS,
    MAX_SYMBOLS,
    ModelError,
    count_key,
    known_keys,
    quote,
)
from games.model_json import read  # noqa: F401  the model reader (games.model.read for every caller)

FORMAT = "jeton-reels/1"
FORMAT2 = "jeton-reels/2"  # adds per-reel pay groups, multiplier wilds and both-ways pays
FORMAT3 = "jeton-reels/3"  # version 2 with true ways pays in place of lines
# the keys each format knows, per object: any other is refused by name (a cascade, a pick bonus or a
# version-2 key in a version-1 model would otherwise be certified as the plain game)
KEYS = ("format", "id", "family", "version", "name", "source", "symbols", "wild", "scatter", "rows", "lines",
        "bets", "reels", "pays", "scatter_pays", "free_spins", "progressive")
KEYS2 = KEYS + ("wilds", "both_ways")
# version 3: ways in place of lines (and so no both-ways pays: a way is read from the left only)
KEYS3 = ("format", "id", "family", "version", "name", "source", "symbols", "wild", "scatter", "rows", "ways",
         "bets", "reels", "pays", "scatter_pays", "free_spins", "wilds")
WAYS_KEYS = ("cost", "wild_alone")
REEL_KEYS = ("strip", "weights")
GROUP_KEYS = ("name", "symbols", "pays")
GROUP_KEYS2 = GROUP_KEYS + ("reels",)
FREE_KEYS = ("award", "retrigger", "multiplier", "cap", "uncapped", "reels")
PROGRESSIVE_KEYS = ("pay", "bet", "rate", "ceiling")
TEXT_KEYS = ("fr", "en")


def _need(cond, msg):
    if not cond:
        raise ModelError(msg)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _pos_int(v, what):
    _need(_is_int(v) and v > 0, "%s must be a positive integer" % what)
    return v


def _spins(v, what):
    # a number of free spins: bounded, so that a feature plays, and is recomputed, in bounded time
    _pos_int(v, what)
    _need(v <= MAX_FREE_SPINS, "%s is %d: at most %d (limits.MAX_FREE_SPINS)" % (what, v, MAX_FREE_SPINS))
    return v


def _kind(v):
    # what a value is, for a message (a list where a name belongs)
    return "an object" if isinstance(v, dict) else "a list" if isinstance(v, list) else "%r" % (v,)


def _digits(s):
    if not s:
        return False
    for ch in s:
        if ch < "0" or ch > "9":
            return False
    return True


def _obj(v, what, keys):
    """v as an object whose keys are all in keys (else a ModelError naming what is wrong)."""
    _need(isinstance(v, dict), "%s must be an object" % what)
    known_keys(v, keys, what)
    return v


def fr_en(v, what):
    """A {"fr", "en"} pair of strings (a name shown to the player, s. 89)."""
    _need(isinstance(v, dict), "%s needs fr and en" % what)
    known_keys(v, TEXT_KEYS, what)
    _need(isinstance(v.get("fr"), str) and isinstance(v.get("en"), str), "%s needs fr and en" % what)
    return v


def describe(m, fmt, keys):
    """The descriptive keys every format shares: format is the caller's; id, name, family, version,
    source are checked here, and every key of m must be one of keys (the format's)."""
    _need(isinstance(m, dict), "model must be an object")
    known_keys(m, keys, fmt)
    mid = m.get("id")
    _need(isinstance(mid, str) and mid, "id missing")
    fr_en(m.get("name"), "name")
    _need(m.get("family") is None or isinstance(m["family"], str), "family must be a string")
    _need(m.get("version") is None or isinstance(m["version"], str) or _is_int(m["version"]),
          "version must be a string or an integer")
    _need(m.get("source") is None or isinstance(m["source"], str), "source must be a string")
    return mid


def bet_list(bets):
    """Ascending positive integers, at most MAX_BETS of them."""
    _need(isinstance(bets, list) and bets, "bets missing")
    _need(len(bets) <= MAX_BETS, "%d bet levels: at most %d (limits.MAX_BETS)" % (len(bets), MAX_BETS))
    prev = 0
    for b in bets:
        _pos_int(b, "bet")
        _need(b > prev, "bets must be ascending")
        prev = b
    return list(bets)


def _version_1(d, keys1, keys2, what):
    # a version-2 key in a version-1 object: named as such (the author meant version 2)
    if isinstance(d, dict):
        for k in keys2:
            if k in d and k not in keys1:
                raise ModelError("%s: key %s is a key of %s (the model says %s)" % (what, quote(k), FORMAT2, FORMAT))


class ReelSet:
    """One set of reels (base game or free spins): codes per stop, weights, totals."""

    def __init__(self, spec, codes, rows, what="reels"):
        _need(isinstance(spec, list) and spec, "%s must be a non-empty list" % what)
        _need(len(spec) <= MAX_REELS, "%s: %d reels, at most %d (limits.MAX_REELS)" % (what, len(spec), MAX_REELS))
        self.strips = []
        self.weights = []  # None for a uniform reel (every stop weight 1)
        self.totals = []
        for i, reel in enumerate(spec):
            where = "%s[%d]" % (what, i)
            _obj(reel, where, REEL_KEYS)
            strip = reel.get("strip")
            _need(isinstance(strip, list) and len(strip) >= rows, "%s: strip shorter than the window" % where)
            _need(len(strip) <= MAX_STOPS, "%s: %d stops, at most %d (limits.MAX_STOPS)" % (where, len(strip), MAX_STOPS))
            sc = []
            for s in strip:
                _need(isinstance(s, str), "%s: a stop is a symbol's name, not %s" % (where, _kind(s)))
                _need(s in codes, "%s: unknown symbol %s" % (where, quote(s)))
                sc.append(codes[s])
            w = reel.get("weights")
            if w is None:
                total = len(sc)
            else:
                _need(isinstance(w, list) and len(w) == len(sc), "%s: one weight per stop" % where)
                total = 0
                for x in w:
                    _need(_is_int(x) and x >= 0, "%s: weights are integers >= 0" % where)
                    total += x
                _need(total > 0, "%s: weights sum to zero" % where)
                _need(total <= MAX_REEL_WEIGHT, "%s: weights sum to %d, at most %d (limits.MAX_REEL_WEIGHT)" % (
                    where, total, MAX_REEL_WEIGHT))
                w = list(w)
            self.strips.append(bytes(sc))
            self.weights.append(w)
            self.totals.append(total)
        self.cycle = 1
        for t in self.totals:
            self.cycle *= t

    def weight(self, reel, stop):
        w = self.weights[reel]
        return 1 if w is None else w[stop]


class Model:
    """A reel model, validated and compiled: read in steps, each one a part of docs/game-format.md.
    The order of the steps is the order of the checks, so a bad model names its first fault."""

    def __init__(self, m):
        self._read_format(m)
        self._read_symbols(m)
        self._read_lines(m)
        self._read_bets(m)
        self._read_pays(m)
        self._read_scatter_pays(m)
        self._read_free_spins(m)

    def _read_format(self, m):
        """The format and version (v1 knows no key of v2), the id, the names, the window's rows."""
        _need(isinstance(m, dict), "model must be an object")
        fmt = m.get("format", FORMAT)
        _need(fmt == FORMAT or fmt == FORMAT2 or fmt == FORMAT3, "unknown format %s" % quote(fmt))
        # version 1 knows no key of version 2: a model using one must say jeton-reels/2; a ways model
        # (version 3) is version 2's per-reel groups and wilds with ways in place of lines
        self.ways = fmt == FORMAT3
        self.v2 = v2 = fmt == FORMAT2 or self.ways
        if not v2:
            _version_1(m, KEYS, KEYS2, fmt)
        if fmt != FORMAT3 and isinstance(m, dict) and "ways" in m:
            raise ModelError("%s: key \"ways\" is a key of %s (the model says %s)" % (fmt, FORMAT3, fmt))
        self.id = describe(m, fmt, KEYS3 if self.ways else KEYS2 if v2 else KEYS)
        self.name = m["name"]
        self.rows = _pos_int(m.get("rows", 1), "rows")
        _need(self.rows <= MAX_ROWS, "%d rows, at most %d (limits.MAX_ROWS)" % (self.rows, MAX_ROWS))

    def _read_symbols(self, m):
        """The symbols as codes 0..n-1, the wild and the scatter, v2's multiplier wilds and both-ways."""
        v2 = self.v2
        syms = m.get("symbols")
        if isinstance(syms, dict):
            names = sorted(syms)
            for s in names:
                fr_en(syms[s], "symbols.%s" % s)
        else:
            _need(isinstance(syms, list) and syms, "symbols missing")
            names = list(syms)
        _need(len(names) <= MAX_SYMBOLS, "%d symbols, at most %d (limits.MAX_SYMBOLS)" % (len(names), MAX_SYMBOLS))
        self.symbols = names
        codes = {}
        for i, s in enumerate(names):
            _need(isinstance(s, str) and s and s not in codes, "bad or duplicate symbol %s" % quote(s))
            codes[s] = i
        self.codes = codes
        self.wild = self._symbol(m, "wild")
        self.scatter = self._symbol(m, "scatter")
        _need(self.wild is None or self.wild != self.scatter, "wild and scatter must differ")
        # every wild's line multiplier by code: 0 for a symbol that is not a wild (v2 "wilds")
        self.wmult = wmult = [0] * len(names)
        if self.wild is not None:
            wmult[self.wild] = 1
        wilds = m.get("wilds") if v2 else None
        if wilds is not None:
            _need(isinstance(wilds, dict) and wilds, "wilds must be an object: symbol -> multiplier")
            for s in wilds:
                c = codes.get(s)
                _need(c is not None and c != self.scatter and c != self.wild, "wilds: bad symbol %s" % quote(s))
                wmult[c] = _pos_int(wilds[s], "wilds: multiplier of %s" % s)
        self.both_ways = False
        if v2 and m.get("both_ways") is not None:
            _need(m["both_ways"] is True or m["both_ways"] is False, "both_ways must be true or false")
            self.both_ways = m["both_ways"]
        # the engine and games.exact take v2's general path (per reel, per group) when a pay needs it
        self.general = v2 and not self.ways and (self.both_ways or max(wmult) > 1)

    def _read_lines(self, m):
        """The base reels and the pay lines, one row per reel each."""
        self.base = ReelSet(m.get("reels"), self.codes, self.rows)
        self.nreels = nr = len(self.base.strips)
        self.lines = []
        if self.ways:  # no lines: every way through the window (docs/game-format.md, version 3)
            self._read_ways(m.get("ways"))
            return
        lines = m.get("lines")
        _need(isinstance(lines, list) and lines, "lines missing")
        _need(len(lines) <= MAX_LINES, "%d lines, at most %d (limits.MAX_LINES)" % (len(lines), MAX_LINES))
        for line in lines:
            _need(isinstance(line, list) and len(line) == nr, "a line needs one row per reel")
            for r in line:
                _need(_is_int(r) and 0 <= r < self.rows, "line row out of the window")
            self.lines.append(tuple(line))

    def _read_ways(self, w):
        """Version 3: {"cost": credits per coin, "wild_alone": false}: a way pays its value per coin
        times the coins bet (bet / cost, whatever the number of ways); wild_alone false: a way of
        wilds alone pays as no group but the wilds' own."""
        _obj(w, "ways", WAYS_KEYS)
        self.cost = _pos_int(w.get("cost"), "ways: cost")
        alone = w.get("wild_alone", True)
        _need(alone is True or alone is False, "ways: wild_alone must be true or false")
        self.wild_alone = alone

    def _read_bets(self, m):
        """The bet levels, each a whole number of coins per line (version 3: per ways cost)."""
        self.bets = bet_list(m.get("bets"))
        if self.ways:
            for b in self.bets:
                _need(b % self.cost == 0, "bet %d is not a whole number of coins of %d credits (ways: cost)" % (
                    b, self.cost))
            self.coins = [b // self.cost for b in self.bets]
            return
        for b in self.bets:
            _need(b % len(self.lines) == 0, "a bet must be a whole number of coins per line")
        self.coins = [b // len(self.lines) for b in self.bets]

    def _read_pays(self, m):
        """Line-pay groups (bit g set in gmask[code] when the symbol extends group g), their pays per
        bet level, and the progressive that replaces one of them."""
        v2 = self.v2
        codes = self.codes
        names = self.symbols
        nr = self.nreels
        nb = len(self.bets)
        wmult = self.wmult
        pays = m.get("pays", [])
        _need(isinstance(pays, list) and len(pays) <= MAX_GROUPS,
              "pays must be a list of at most %d groups (limits.MAX_GROUPS)" % MAX_GROUPS)
        self.group_names = []
        self.cpay = [[] for _ in range(nb)]  # cpay[bet index][group] = list, index = run length
        gmask = [0] * len(names)
        # per reel: the groups each code is a member of (v2 "reels": a member list per reel)
        member = [[0] * len(names) for _ in range(nr)] if v2 else None
        for g, p in enumerate(pays):
            if not v2:
                _version_1(p, GROUP_KEYS, GROUP_KEYS2, "pays[%d]" % g)
            _obj(p, "pays[%d]" % g, GROUP_KEYS2 if v2 else GROUP_KEYS)
            gname = p.get("name")
            _need(isinstance(gname, str) and gname, "pays[%d]: name missing" % g)
            self.group_names.append(gname)
            gname = quote(gname)
            per_reel = p.get("reels") if v2 else None
            if per_reel is not None:
                _need(p.get("symbols") is None, "pay %s: symbols or reels, not both" % gname)
                _need(isinstance(per_reel, list) and len(per_reel) == nr, "pay %s: one member list per reel" % gname)
            else:
                members = p.get("symbols")
                _need(isinstance(members, list) and members, "pay %s: symbols missing" % gname)
                per_reel = [members] * nr
            for i in range(nr):
                _need(isinstance(per_reel[i], list) and per_reel[i], "pay %s: reel %d has no member" % (gname, i + 1))
                for s in per_reel[i]:
                    _need(isinstance(s, str), "pay %s: a member is a symbol's name, not %s" % (gname, _kind(s)))
                    _need(s in codes and codes[s] != self.scatter,
                          "pay %s: bad symbol %s" % (gname, quote(s)))
                    gmask[codes[s]] |= 1 << g
                    if v2:
                        member[i][codes[s]] |= 1 << g
            table = p.get("pays")
            _need(isinstance(table, dict) and table, "pay %s: pays missing" % gname)
            counts = []
            for k in table:
                n = count_key(k, "pay %s" % gname)
                _need(1 <= n <= nr, "pay %s: count %s out of range 1..%d" % (gname, k, nr))
                counts.append((n, table[k]))
            for bi in range(nb):
                row = [0] * (nr + 1)
                for n, v in counts:
                    row[n] = self._credits(v, bi, "pay %s" % gname)
                for n in range(1, nr + 1):  # "at least n" semantics: keep the best shorter run
                    if row[n] < row[n - 1]:
                        row[n] = row[n - 1]
                self.cpay[bi].append(row)
        if self.wild is not None:
            gmask[self.wild] = (1 << len(pays)) - 1
        self.gmask = gmask  # groups a code extends on some reel (v1: on every reel)
        # rgmask[reel][code]: the groups a code extends on that reel, the wilds' all of them
        if v2:
            self.rmember = member
            self.rgmask = [list(row) for row in member]
            for c in range(len(names)):
                if wmult[c]:
                    gmask[c] = (1 << len(pays)) - 1
                    for row in self.rgmask:
                        row[c] = gmask[c]
        else:
            self.rgmask = [gmask] * nr
        self.all_groups = (1 << len(pays)) - 1
        self.progressive = self._progressive(m.get("progressive"), pays)
        _need(not self.progressive or not self.general,
              "progressive: not with multiplier wilds or both-ways pays (the pay would have several values)")

    def _read_scatter_pays(self, m):
        """Scatter pays by the number of visible scatters, per bet level."""
        maxsc = self.nreels * self.rows
        nb = len(self.bets)
        self.spay = [[0] * (maxsc + 1) for _ in range(nb)]
        sp = m.get("scatter_pays")
        if sp is not None:
            _need(isinstance(sp, dict), "scatter_pays must be an object {count: value}")
            _need(not sp or self.scatter is not None, "scatter_pays without a scatter symbol")
            for k in sp:
                n = count_key(k, "scatter_pays")
                _need(1 <= n <= maxsc, "scatter_pays: count %s out of range 1..%d" % (k, maxsc))
                for bi in range(nb):
                    self.spay[bi][n] = self._credits(sp[k], bi, "scatter pay")

    def _read_free_spins(self, m):
        """The free spins: their reels, the awards and retriggers by scatter count, multiplier, cap."""
        maxsc = self.nreels * self.rows
        fs = m.get("free_spins")
        self.free = None
        if fs is not None:
            _obj(fs, "free_spins", FREE_KEYS)
            _need(self.scatter is not None, "free_spins need a scatter symbol")
            fr = fs.get("reels")
            self.free = self.base if fr is None else ReelSet(fr, self.codes, self.rows, "free_spins.reels")
            _need(len(self.free.strips) == self.nreels, "free reels: same number of reels")
            self.award = self._counts(fs.get("award"), maxsc, "award")
            _need(max(self.award) > 0, "free_spins award: no count awards spins")
            self.retrigger = self._counts(fs.get("retrigger") or {}, maxsc, "retrigger")
            self.multiplier = _pos_int(fs.get("multiplier", 1), "free_spins multiplier")
            cap = fs.get("cap")
            self.cap = None if cap is None else _spins(cap, "free_spins cap")
            unc = fs.get("uncapped")
            _need(unc is None or unc is True or unc is False, "free_spins uncapped must be true or false")
            _need(self.cap is not None or not any(self.retrigger) or unc is True,
                  "retriggers without a cap need \"uncapped\": true")
        else:
            self.award = self.retrigger = [0] * (maxsc + 1)
            self.multiplier = 1
            self.cap = None

    def _symbol(self, m, key):
        # the code of the wild or the scatter, None when the model has none
        s = m.get(key)
        if s is None:
            return None
        _need(isinstance(s, str) and s in self.codes, "%s is not a symbol" % key)
        return self.codes[s]

    def _progressive(self, spec, pays):
        """{"pay": "<count> <pay name>", "bet": b, "rate": "p/q", "ceiling": c}: that pay at that bet
        is a progressive jackpot growing by p/q of every credit wagered at that bet (s. 92); the pay
        table's value there is its reset, so the certified return counts the progressive at its reset
        (a floor, s. 93). ceiling (optional): the most it ever pays, in credits; what is wagered past
        it rolls into the next reset (firmware/progressive.py). A prize limit needs one (vlt)."""
        if spec is None:
            return None
        _obj(spec, "progressive", PROGRESSIVE_KEYS)
        bet = spec.get("bet")
        _need(_is_int(bet) and bet in self.bets, "progressive: bet %r is not offered" % (bet,))
        rate = spec.get("rate")
        _need(isinstance(rate, str) and rate.count("/") == 1, "progressive: rate must be \"p/q\"")
        num, den = rate.split("/")
        _need(_digits(num) and _digits(den), "progressive: rate must be \"p/q\" in decimal digits")
        num, den = int(num), int(den)
        _need(0 < num < den, "progressive: rate must lie between 0 and 1")
        pay = spec.get("pay")
        _need(isinstance(pay, str) and " " in pay, "progressive: pay must be \"<count> <name>\"")
        count, _, name = pay.partition(" ")
        reset = None
        for p in pays:
            if p.get("name") == name and count in p.get("pays", {}):
                reset = self._credits(p["pays"][count], self.bets.index(bet), "progressive")
        _need(reset, "progressive: %s pays nothing at bet %d" % (quote(pay), bet))
        ceiling = spec.get("ceiling")
        _need(ceiling is None or (_is_int(ceiling) and ceiling > reset),
              "progressive: ceiling must be a whole number of credits above the reset %d" % reset)
        return {"pay": pay, "bet": bet, "num": num, "den": den, "reset": reset, "ceiling": ceiling}

    def _credits(self, v, bi, what):
        if isinstance(v, list):
            _need(len(v) == len(self.bets), "%s: one value per bet level" % what)
            v = v[bi]
            _need(_is_int(v) and v >= 0, "%s: credits >= 0" % what)
            return v
        _need(_is_int(v) and v >= 0, "%s: credits >= 0" % what)
        return v * self.coins[bi]

    def _counts(self, d, maxsc, what):
        _need(isinstance(d, dict), "free_spins %s must be an object" % what)
        out = [0] * (maxsc + 1)
        for k in d:
            n = count_key(k, "free_spins %s" % what)
            _need(1 <= n <= maxsc, "free_spins %s: count %s out of range 1..%d" % (what, k, maxsc))
            out[n] = _spins(d[k], "free_spins %s %s" % (what, k))
        return out

    def bet_index(self, bet):
        for i, b in enumerate(self.bets):
            if b == bet:
                return i
        raise ValueError("bet %r not offered" % (bet,))

    def column(self, rs, reel, stop):
        """Symbol codes shown on one reel for a stop (the stop is the middle row)."""
        strip = rs.strips[reel]
        n = len(strip)
        off = stop - self.rows // 2
        return [strip[(off + r) % n] for r in range(self.rows)]
