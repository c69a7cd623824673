# Reel model: validate a model (dict loaded from JSON, docs/game-format.md) and compile it into
# small integer tables shared by the engine (games/reels.py) and the exact RTP (games/exact.py).
# Symbols become codes 0..n-1; each code carries a bit mask of the line-pay groups it can extend
# (a wild extends every group, a scatter none); pays become cumulative-max tables per bet level,
# so "highest win per line only" is max over groups of cpay[g][run length].
import json

FORMAT = "jeton-reels/1"
FORMAT2 = "jeton-reels/2"  # adds per-reel pay groups, multiplier wilds and both-ways pays
_SHORT = 24  # longest string read() interns: a symbol name, not a display text
_DEPTH = 16  # nesting read() follows to tell an array's items from an object's keys and values


def read(path):
    """The model dict of a JSON file, its symbol names shared. MicroPython's json hands out the
    interned string (qstr) when one exists with the same text, and a fresh heap copy otherwise; a
    5x3 model names its symbols some 600 times in its strips and pay groups, which took 52 KB of
    heap for aurore-89, more than the rest of the boot check. So the short strings that are items
    of an array (the strips and groups: a dozen distinct names) are interned first, and the model
    takes 18 KB. Keys are left alone: the code that reads them names them, so they are interned
    already; so are display texts, used once each."""
    _intern_names(path)
    with open(path) as f:
        return json.load(f)


def _intern_names(path):
    # scan the file's bytes (no parse tree): 256 bytes of buffer, one name at a time, and the
    # kind of every open container ('[' or '{') to know whether a string is an array's item
    buf = bytearray(256)
    tok = bytearray(_SHORT)
    kind = bytearray(_DEPTH)
    depth = 0
    n = -1  # length of the string being read; -1 between strings
    esc = False  # a string with an escape is left to the parser (its text is not its bytes)
    with open(path, "rb") as f:
        while True:
            k = f.readinto(buf)
            if not k:
                return
            for i in range(k):
                c = buf[i]
                if n < 0:
                    if c == 34:  # '"' opens a string
                        n = 0
                        esc = False
                    elif c == 91 or c == 123:  # '[' '{'
                        if depth < _DEPTH:
                            kind[depth] = c
                        depth += 1
                    elif c == 93 or c == 125:  # ']' '}'
                        depth -= 1
                elif esc is None:  # the character after a backslash
                    esc = True
                    n += 1
                elif c == 92:  # '\'
                    esc = None
                elif c == 34:
                    if n <= _SHORT and not esc and 0 < depth <= _DEPTH and kind[depth - 1] == 91:
                        try:
                            # getattr interns its name on MicroPython (a qstr, like every name
                            # in the code); the lookup itself is of no interest
                            getattr(_intern_names, str(tok[:n], "utf-8"), None)
                        except ValueError:
                            pass  # not UTF-8: json.load reports it
                    n = -1
                else:
                    if n < _SHORT:
                        tok[n] = c
                    n += 1


class ModelError(ValueError):
    pass


def _need(cond, msg):
    if not cond:
        raise ModelError(msg)


def _pos_int(v, what):
    _need(isinstance(v, int) and not isinstance(v, bool) and v > 0, "%s must be a positive integer" % what)
    return v


class ReelSet:
    """One set of reels (base game or free spins): codes per stop, weights, totals."""

    def __init__(self, spec, codes, rows):
        _need(isinstance(spec, list) and spec, "reels must be a non-empty list")
        self.strips = []
        self.weights = []  # None for a uniform reel (every stop weight 1)
        self.totals = []
        for i, reel in enumerate(spec):
            strip = reel.get("strip")
            _need(isinstance(strip, list) and len(strip) >= rows, "reel %d: strip shorter than the window" % i)
            sc = []
            for s in strip:
                _need(s in codes, "reel %d: unknown symbol %r" % (i, s))
                sc.append(codes[s])
            w = reel.get("weights")
            if w is None:
                total = len(sc)
            else:
                _need(isinstance(w, list) and len(w) == len(sc), "reel %d: one weight per stop" % i)
                total = 0
                for x in w:
                    _need(isinstance(x, int) and not isinstance(x, bool) and x >= 0, "reel %d: weights are integers >= 0" % i)
                    total += x
                _need(total > 0, "reel %d: weights sum to zero" % i)
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
        _need(isinstance(m, dict), "model must be an object")
        fmt = m.get("format", FORMAT)
        _need(fmt == FORMAT or fmt == FORMAT2, "unknown format %r" % fmt)
        # version 1 reads no key of version 2 (it ignored them, so a v1 model loads unchanged)
        self.v2 = fmt == FORMAT2
        self.id = m.get("id")
        _need(isinstance(self.id, str) and self.id, "id missing")
        name = m.get("name")
        _need(isinstance(name, dict) and "fr" in name and "en" in name, "name needs fr and en")
        self.name = name
        self.rows = _pos_int(m.get("rows", 1), "rows")

    def _read_symbols(self, m):
        """The symbols as codes 0..n-1, the wild and the scatter, v2's multiplier wilds and both-ways."""
        v2 = self.v2
        syms = m.get("symbols")
        if isinstance(syms, dict):
            names = sorted(syms)
        else:
            _need(isinstance(syms, list) and syms, "symbols missing")
            names = list(syms)
        self.symbols = names
        codes = {}
        for i, s in enumerate(names):
            _need(isinstance(s, str) and s not in codes, "bad or duplicate symbol %r" % (s,))
            codes[s] = i
        _need(len(names) <= 255, "too many symbols")
        self.codes = codes
        self.wild = codes.get(m.get("wild")) if m.get("wild") is not None else None
        _need(m.get("wild") is None or self.wild is not None, "wild is not a symbol")
        self.scatter = codes.get(m.get("scatter")) if m.get("scatter") is not None else None
        _need(m.get("scatter") is None or self.scatter is not None, "scatter is not a symbol")
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
                _need(c is not None and c != self.scatter and c != self.wild, "wilds: bad symbol %r" % (s,))
                wmult[c] = _pos_int(wilds[s], "wilds: multiplier of %s" % s)
        self.both_ways = False
        if v2 and m.get("both_ways") is not None:
            _need(m["both_ways"] is True or m["both_ways"] is False, "both_ways must be true or false")
            self.both_ways = m["both_ways"]
        # the engine and games.exact take v2's general path (per reel, per group) when a pay needs it
        self.general = v2 and (self.both_ways or max(wmult) > 1)

    def _read_lines(self, m):
        """The base game's reels, and the pay lines across them."""
        self.base = ReelSet(m.get("reels"), self.codes, self.rows)
        self.nreels = nr = len(self.base.strips)
        lines = m.get("lines")
        _need(isinstance(lines, list) and lines, "lines missing")
        self.lines = []
        for line in lines:
            _need(isinstance(line, list) and len(line) == nr, "a line needs one row per reel")
            for r in line:
                _need(isinstance(r, int) and 0 <= r < self.rows, "line row out of the window")
            self.lines.append(tuple(line))

    def _read_bets(self, m):
        """The bet levels, each a whole number of coins per line."""
        bets = m.get("bets")
        _need(isinstance(bets, list) and bets, "bets missing")
        prev = 0
        for b in bets:
            _pos_int(b, "bet")
            _need(b > prev, "bets must be ascending")
            _need(b % len(self.lines) == 0, "a bet must be a whole number of coins per line")
            prev = b
        self.bets = list(bets)
        self.coins = [b // len(self.lines) for b in bets]

    def _read_pays(self, m):
        """The line-pay groups: bit g set in gmask[code] when the symbol extends group g; the pays as
        cumulative-max tables per bet level; the progressive on one of them."""
        v2, codes, nr, nb = self.v2, self.codes, self.nreels, len(self.bets)
        nsym = len(self.symbols)
        pays = m.get("pays", [])
        _need(isinstance(pays, list) and len(pays) <= 30, "pays must be a list of at most 30 groups")
        self.group_names = []
        self.cpay = [[] for _ in range(nb)]  # cpay[bet index][group] = list, index = run length
        gmask = [0] * nsym
        # per reel: the groups each code is a member of (v2 "reels": a member list per reel)
        member = [[0] * nsym for _ in range(nr)] if v2 else None
        for g, p in enumerate(pays):
            gname = p.get("name")
            _need(isinstance(gname, str) and gname, "pay %d: name missing" % g)
            self.group_names.append(gname)
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
                    _need(s in codes and codes[s] != self.scatter, "pay %s: bad symbol %r" % (gname, s))
                    gmask[codes[s]] |= 1 << g
                    if v2:
                        member[i][codes[s]] |= 1 << g
            table = p.get("pays")
            _need(isinstance(table, dict) and table, "pay %s: pays missing" % gname)
            for bi in range(nb):
                row = [0] * (nr + 1)
                for k in table:
                    n = int(k)
                    _need(1 <= n <= nr, "pay %s: count %s out of range" % (gname, k))
                    row[n] = self._credits(table[k], bi, "pay %s" % gname)
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
            for c in range(nsym):
                if self.wmult[c]:
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
        self.spay = [[0] * (maxsc + 1) for _ in self.bets]
        sp = m.get("scatter_pays") or {}
        _need(not sp or self.scatter is not None, "scatter_pays without a scatter symbol")
        for k in sp:
            n = int(k)
            _need(1 <= n <= maxsc, "scatter count %s out of range" % k)
            for bi in range(len(self.bets)):
                self.spay[bi][n] = self._credits(sp[k], bi, "scatter pay")

    def _read_free_spins(self, m):
        """Free spins: their reels, the spins a count of scatters awards and retriggers, the cap."""
        maxsc = self.nreels * self.rows
        fs = m.get("free_spins")
        self.free = None
        if fs:
            _need(self.scatter is not None, "free_spins need a scatter symbol")
            self.free = ReelSet(fs["reels"], self.codes, self.rows) if fs.get("reels") else self.base
            _need(len(self.free.strips) == self.nreels, "free reels: same number of reels")
            self.award = self._counts(fs.get("award"), maxsc, "award")
            self.retrigger = self._counts(fs.get("retrigger") or {}, maxsc, "retrigger")
            self.multiplier = _pos_int(fs.get("multiplier", 1), "multiplier")
            cap = fs.get("cap")
            self.cap = None if cap is None else _pos_int(cap, "cap")
            _need(self.cap is not None or not any(self.retrigger) or fs.get("uncapped") is True,
                  "retriggers without a cap need \"uncapped\": true")
        else:
            self.award = self.retrigger = [0] * (maxsc + 1)
            self.multiplier = 1
            self.cap = None

    def _progressive(self, spec, pays):
        """{"pay": "<count> <pay name>", "bet": b, "rate": "p/q", "ceiling": c}: that pay at that bet
        is a progressive jackpot growing by p/q of every credit wagered at that bet (s. 92); the pay
        table's value there is its reset, so the certified return counts the progressive at its reset
        (a floor, s. 93). ceiling (optional): the most it ever pays, in credits; what is wagered past
        it rolls into the next reset (firmware/progressive.py). A prize limit needs one (vlt)."""
        if spec is None:
            return None
        _need(isinstance(spec, dict), "progressive must be an object")
        bet = spec.get("bet")
        _need(bet in self.bets, "progressive: bet %r is not offered" % (bet,))
        rate = spec.get("rate")
        _need(isinstance(rate, str) and rate.count("/") == 1, "progressive: rate must be \"p/q\"")
        num, den = rate.split("/")
        num, den = int(num), int(den)
        _need(0 < num < den, "progressive: rate must lie between 0 and 1")
        pay = spec.get("pay")
        _need(isinstance(pay, str) and " " in pay, "progressive: pay must be \"<count> <name>\"")
        count, _, name = pay.partition(" ")
        reset = None
        for p in pays:
            if p.get("name") == name and count in p.get("pays", {}):
                reset = self._credits(p["pays"][count], self.bets.index(bet), "progressive")
        _need(reset, "progressive: %r pays nothing at bet %d" % (pay, bet))
        ceiling = spec.get("ceiling")
        _need(ceiling is None or (isinstance(ceiling, int) and not isinstance(ceiling, bool) and ceiling > reset),
              "progressive: ceiling must be a whole number of credits above the reset %d" % reset)
        return {"pay": pay, "bet": bet, "num": num, "den": den, "reset": reset, "ceiling": ceiling}

    def _credits(self, v, bi, what):
        if isinstance(v, list):
            _need(len(v) == len(self.bets), "%s: one value per bet level" % what)
            v = v[bi]
            _need(isinstance(v, int) and not isinstance(v, bool) and v >= 0, "%s: credits >= 0" % what)
            return v
        _need(isinstance(v, int) and not isinstance(v, bool) and v >= 0, "%s: credits >= 0" % what)
        return v * self.coins[bi]

    def _counts(self, d, maxsc, what):
        _need(isinstance(d, dict), "free_spins %s must be an object" % what)
        out = [0] * (maxsc + 1)
        for k in d:
            n = int(k)
            _need(1 <= n <= maxsc, "free_spins %s: count %s out of range" % (what, k))
            out[n] = _pos_int(d[k], "free_spins %s" % what)
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
