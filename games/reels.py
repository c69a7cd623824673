# Reel game engine: RNG draws -> reel stops -> window -> award. Pure logic: no hardware, no NVRAM.
# Every game is a function of (bet, draws): play() takes the draws from the generator through rng's
# unbiased scaling, evaluate() replays them, so a recalled game reproduces bit for bit.

from games.model import Model, read
from rng import below, weighted

_EMPTY = ()


class Outcome:
    __slots__ = ("bet", "draws", "stops", "window", "wins", "award", "free", "triggered")

    def __init__(self, bet, draws, stops, window, wins, award, free, triggered):
        self.bet = bet
        self.draws = draws  # every RNG result used, in order: enough to replay the game
        self.stops = stops  # base spin stops (middle row), one per reel
        self.window = window  # window[row][reel] symbol names of the base spin
        self.wins = wins  # base spin: list of (line index, -1 for scatter, -2 a ways win; pay name, credits)
        self.award = award  # credits won in total, free spins included
        self.free = free  # one (stops, wins, credits) per free spin played, in order
        self.triggered = triggered  # free spins awarded by the base spin (0 when none)

    def to_dict(self):
        return {"bet": self.bet, "draws": self.draws, "stops": self.stops, "window": self.window,
                "wins": self.wins, "award": self.award, "triggered": self.triggered,
                "free": [{"stops": s, "wins": w, "award": a} for s, w, a in self.free]}


# What games.model compiles into small tables and nothing reads again from the dict: the game lets
# it go (12 KB of the 25 KB a 5x3 game kept in the heap, docs/games.md).
_COMPILED = ("reels", "lines", "pays", "free_spins")


class ReelGame:
    kind = "reels"  # the game's kind, for the jurisdiction (firmware/jurisdiction.py check_kind)

    def __init__(self, model):
        self.m = m = Model(model)
        # the certified model's descriptive part (id, names, the symbols' display names, ...); its
        # reels, lines, pays and free spins live compiled in self.m
        self.model = {k: model[k] for k in model if k not in _COMPILED}
        self.id = m.id
        self.name = m.name
        self.bets = m.bets
        self.rows = m.rows
        self.max_award = None  # the certificate's most one game pays per bet (games/certificate.py)
        self._win = bytearray(m.rows * m.nreels)  # window codes of the spin being evaluated

    # -- draws -> stops -------------------------------------------------------------------------
    def _spin_draws(self, gen, rs, out):
        for i in range(len(rs.strips)):
            w = rs.weights[i]
            out.append(below(gen, len(rs.strips[i])) if w is None else weighted(gen, w))

    def play(self, gen, bet):
        bi = self.m.bet_index(bet)
        draws = []
        # base spin, then as many free spins as the game awards: the flow only depends on the
        # draws already taken, so evaluate() can replay it from the recorded list
        self._spin_draws(gen, self.m.base, draws)
        left = self._free_count(draws, bi)
        while left:
            self._spin_draws(gen, self.m.free, draws)
            left = self._free_count(draws, bi)
        return self.evaluate(bet, draws)

    def _free_count(self, draws, bi):
        # free spins still to play after the draws so far (replays the counting part only)
        m = self.m
        nr = m.nreels
        stops = draws[:nr]
        left = m.award[self._scatters(m.base, stops)] if m.free else 0
        if left and m.cap is not None and left > m.cap:
            left = m.cap
        given = left
        pos = nr
        while left and pos + nr <= len(draws):
            left -= 1
            extra = m.retrigger[self._scatters(m.free, draws[pos:pos + nr])]
            if extra and m.cap is not None and given + extra > m.cap:
                extra = m.cap - given
            given += extra
            left += extra
            pos += nr
        return left

    def _scatters(self, rs, stops):
        m = self.m
        if m.scatter is None:
            return 0
        n = 0
        for i, s in enumerate(stops):
            for c in m.column(rs, i, s):
                if c == m.scatter:
                    n += 1
        return n

    # -- stops -> window -> award -------------------------------------------------------------
    def _fill(self, rs, stops):
        m = self.m
        win = self._win
        nr = m.nreels
        for i in range(nr):
            s = stops[i]
            if not 0 <= s < len(rs.strips[i]):
                raise ValueError("stop out of range")
            col = m.column(rs, i, s)
            for r in range(m.rows):
                win[r * nr + i] = col[r]

    def _spin_wins(self, bi, mult):
        # line wins then scatter win of the window in self._win; returns (wins, credits, scatters)
        m = self.m
        win = self._win
        nr = m.nreels
        rgmask = m.rgmask
        cpay = m.cpay[bi]
        wins = []
        total = 0
        lines = m.lines
        if m.general:
            total = self._general_wins(cpay, mult, wins)
            lines = ()
        elif m.ways:
            total = _ways_wins(m, cpay, win, mult, wins)
        for li, line in enumerate(lines):
            alive = m.all_groups
            best = 0
            bestg = -1
            bestn = 0
            n = 0
            while n < nr:
                nxt = alive & rgmask[n][win[line[n] * nr + n]]
                died = alive & ~nxt
                if died:
                    best, bestg, bestn = _best(died, cpay, n, best, bestg, bestn)
                alive = nxt
                n += 1
                if not alive:
                    break
            if alive:
                best, bestg, bestn = _best(alive, cpay, nr, best, bestg, bestn)
            if best:
                credits = best * mult
                wins.append((li, "%d %s" % (bestn, m.group_names[bestg]), credits))
                total += credits
        sc = 0
        if m.scatter is not None:
            for c in win:
                if c == m.scatter:
                    sc += 1
            sp = m.spay[bi][sc]
            if sp:
                wins.append((-1, "%d %s" % (sc, m.symbols[m.scatter]), sp * mult))
                total += sp * mult
        return wins, total, sc

    def _general_wins(self, cpay, mult, wins):
        # jeton-reels/2 with multiplier wilds or both-ways pays: each line, each direction, each
        # group scanned on its own (a wild multiplies where it substitutes, i.e. is no member)
        m = self.m
        total = 0
        for li, line in enumerate(m.lines):
            for rev in (0, 1) if m.both_ways else (0,):
                v, g, n = _line_best(m, cpay, self._win, line, rev)
                if v:
                    name = "%d %s" % (n, m.group_names[g])
                    wins.append((li, name + " (R-L)" if rev else name, v * mult))
                    total += v * mult
        return total

    def window_names(self):
        m = self.m
        nr = m.nreels
        return [[m.symbols[self._win[r * nr + i]] for i in range(nr)] for r in range(m.rows)]

    def evaluate(self, bet, draws):
        m = self.m
        bi = m.bet_index(bet)
        nr = m.nreels
        if len(draws) < nr:
            raise ValueError("not enough draws")
        stops = list(draws[:nr])
        self._fill(m.base, stops)
        window = self.window_names()
        wins, award, sc = self._spin_wins(bi, 1)
        left = m.award[sc] if m.free else 0
        if left and m.cap is not None and left > m.cap:
            left = m.cap
        triggered = given = left
        free = []
        pos = nr
        while left:
            if pos + nr > len(draws):
                raise ValueError("not enough draws for the free spins")
            fstops = list(draws[pos:pos + nr])
            pos += nr
            self._fill(m.free, fstops)
            fw, credits, sc = self._spin_wins(bi, m.multiplier)
            free.append((fstops, fw, credits))
            award += credits
            left -= 1
            extra = m.retrigger[sc]
            if extra and m.cap is not None and given + extra > m.cap:
                extra = m.cap - given
            given += extra
            left += extra
        if pos != len(draws):
            raise ValueError("draws left over")
        # play()'s own list is kept, not copied: with free spins a copy is a second piece of a KB or
        # more, which the 128K board heap in pieces once lacked at this line (make test s37h, aurore-93)
        return Outcome(bet, draws if isinstance(draws, list) else list(draws), stops, window, wins, award, free,
                       triggered)

    def describe(self, lang="fr"):
        from games.text import describe

        return describe(self, lang)


def _best(mask, cpay, n, best, bestg, bestn):
    # best cumulative pay among the groups in mask for a run of n; first group wins a tie
    g = 0
    while mask:
        if mask & 1:
            row = cpay[g]
            v = row[n]
            if v > best:
                best = v
                bestg = g
                k = n
                while k > 1 and row[k - 1] == v:  # name the shortest run paying this much
                    k -= 1
                bestn = k
        mask >>= 1
        g += 1
    return best, bestg, bestn


def _ways_wins(m, cpay, win, mult, wins):
    # jeton-reels/3: every group pays its ways (groups add up, no line). Per reel, a group's factor
    # is its members shown plus its wilds' multipliers (a wild standing in); the ways are the
    # product of the factors from reel 1 while nonzero. wild_alone false: the ways of wilds alone
    # (the product of the wild factors) are not the group's. Listed as (-2, "<n> <name>", credits).
    nr = m.nreels
    rows = m.rows
    total = 0
    for g in range(len(m.group_names)):
        bit = 1 << g
        a = b = 1
        run = 0
        while run < nr:
            ca = cb = 0
            for r in range(rows):
                c = win[r * nr + run]
                if m.rmember[run][c] & bit:
                    ca += 1
                elif m.wmult[c]:
                    ca += m.wmult[c]
                    cb += m.wmult[c]
            if not ca:
                break
            a *= ca
            b *= cb
            run += 1
        row = cpay[g]
        ways = a if m.wild_alone else a - b
        if row[run] and ways:
            n = run
            while n > 1 and row[n - 1] == row[run]:  # name the shortest run paying this much
                n -= 1
            credits = row[run] * ways * mult
            wins.append((-2, "%d %s" % (n, m.group_names[g]), credits))
            total += credits
    return total


def _line_best(m, cpay, win, line, rev):
    # (credits, group, run named) of the best win of one line in one direction: the highest pay
    # times the multipliers of the wilds substituting in its run; ties: shorter run, first group.
    # Right to left, a run over every reel pays nothing (the left-to-right win paid that line).
    nr = m.nreels
    best = bestg = bestn = 0
    bestrun = nr + 1
    for g in range(len(m.group_names)):
        bit = 1 << g
        k = 1
        run = 0
        while run < nr:
            i = nr - 1 - run if rev else run
            c = win[line[i] * nr + i]
            if not m.rgmask[i][c] & bit:
                break
            if not m.rmember[i][c] & bit:
                k *= m.wmult[c]
            run += 1
        if rev and run == nr:
            continue
        row = cpay[g]
        v = row[run] * k
        if v > best or (v and v == best and run < bestrun):
            best, bestg, bestrun = v, g, run
            n = run
            while n > 1 and row[n - 1] == row[run]:  # name the shortest run paying this much
                n -= 1
            bestn = n
    return best, bestg, bestn


def load(path):
    m = read(path)
    if isinstance(m, dict) and m.get("format") == "jeton-poker/1":  # video poker (games/poker.py)
        from games.poker import PokerGame

        return PokerGame(m)
    return ReelGame(m)
