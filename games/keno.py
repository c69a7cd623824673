# Keno engine: the player's picks + an unbiased draw of `drawn` numbers out of `numbers` -> hits ->
# award from the pay table of that spot count. Pure logic: no hardware, no NVRAM. A game is a
# function of (bet, draws), draws = the picks then the numbers drawn, in draw order: play() draws
# them, evaluate() replays them, so a recalled game reproduces bit for bit (firmware/recall.py).
from games.keno_model import FORMAT, KenoModel  # noqa: F401  (FORMAT: the loaders' dispatch)
from games.model import read
from rng import below


class KenoOutcome:
    # the reel Outcome's fields (recall digest, display), plus the card itself
    __slots__ = ("bet", "draws", "picks", "drawn", "hits", "stops", "window", "wins", "award", "free", "triggered")

    def __init__(self, bet, draws, picks, drawn, hits, wins, award):
        self.bet = bet
        self.draws = draws  # picks then drawn numbers: enough to replay the game
        self.picks = picks  # the player's spots, as committed with the wager
        self.drawn = drawn  # numbers drawn, in draw order
        self.hits = hits  # picks that were drawn, ascending
        self.stops = drawn
        self.window = {"picks": picks, "drawn": drawn, "hits": hits}  # what the screen shows
        self.wins = wins  # [(spots, "h/s", credits)] or []
        self.award = award
        self.free = []
        self.triggered = 0

    def to_dict(self):
        return {"bet": self.bet, "draws": self.draws, "picks": self.picks, "drawn": self.drawn,
                "hits": self.hits, "wins": self.wins, "award": self.award}


class KenoGame:
    kind = "keno"  # the game's kind, for the jurisdiction (firmware/jurisdiction.py check_kind)

    def __init__(self, model):
        self.m = m = KenoModel(model)
        self.model = {k: model[k] for k in model if k != "pays"}  # compiled into self.m.pay
        self.id = m.id
        self.name = m.name
        self.bets = m.bets
        self.spots = m.spots  # offered spot counts, ascending
        self.max_award = None  # the certificate's most one game pays per bet (games/certificate.py)
        self._pool = bytearray(m.numbers)  # the draw's urn, reused: no list per game
        self._mark = bytearray(m.numbers + 1)  # 1 at each picked number while checking a card
        self._seen = bytearray(m.numbers + 1)  # 1 at each number drawn while evaluating

    # -- picks ------------------------------------------------------------------------------------
    def check_picks(self, picks):
        """Raise ValueError naming what is wrong with a card; None when it can be played."""
        m = self.m
        if not isinstance(picks, list) or not picks:
            raise ValueError("no spots picked")
        if len(picks) not in m.pay:
            raise ValueError("%d spots not offered (offered: %s)" % (len(picks), ",".join(str(s) for s in m.spots)))
        _distinct(picks, self._mark, m.numbers, "spot %r is not a number 1..%d", "spot %d picked twice")

    def _deal(self, gen, k, out, at):
        # partial Fisher-Yates over the preallocated urn: every ordered k-draw equally likely, each
        # position taken with rng.below (rejection sampling, no modulo bias); into out[at:at + k]
        pool = self._pool
        n = len(pool)
        for i in range(n):
            pool[i] = i + 1
        for i in range(k):
            j = i + below(gen, n - i)
            v = pool[j]
            pool[j] = pool[i]
            pool[i] = v
            out[at + i] = v
        return out

    def quick_pick(self, gen, spots):
        """spots numbers chosen by the rng for the player (the same unbiased draw), ascending."""
        if spots not in self.m.pay:
            raise ValueError("%r spots not offered" % (spots,))
        out = self._deal(gen, spots, [0] * spots, 0)
        out.sort()
        return out

    # -- draw -> hits -> award --------------------------------------------------------------------
    def play(self, gen, bet, picks):
        self.m.bet_index(bet)
        self.check_picks(picks)  # before a single number is drawn
        s = len(picks)
        draws = [0] * (s + self.m.drawn)  # one list: the picks, then the numbers as they are drawn
        for i in range(s):
            draws[i] = picks[i]
        self._deal(gen, self.m.drawn, draws, s)
        return self._outcome(bet, draws)

    def evaluate(self, bet, draws):
        """The game of a recorded draws list (a recall record), checked as strictly as a live card."""
        if not isinstance(draws, list):
            raise ValueError("draws: the picks then %d numbers drawn" % self.m.drawn)
        return self._outcome(bet, list(draws))

    def _outcome(self, bet, draws):
        m = self.m
        bi = m.bet_index(bet)
        d = m.drawn
        if len(draws) <= d:
            raise ValueError("draws: the picks then %d numbers drawn" % d)
        picks = draws[:-d]
        drawn = draws[-d:]
        self.check_picks(picks)
        seen = self._seen
        _distinct(drawn, seen, m.numbers, "drawn number %r out of 1..%d", "number %d drawn twice")
        hits = [p for p in picks if seen[p]]
        hits.sort()
        s = len(picks)
        award = m.pay[s][bi][len(hits)]
        wins = [(s, "%d/%d" % (len(hits), s), award)] if award else []
        return KenoOutcome(bet, draws, picks, drawn, hits, wins, award)

    def describe(self, lang="fr"):
        from games.keno_text import describe

        return describe(self, lang)


def _distinct(nums, marks, top, bad, twice):
    # every item an int in 1..top, none twice; leaves marks[v] = 1 at each (preallocated: no set)
    for i in range(len(marks)):
        marks[i] = 0
    for v in nums:
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= top:
            raise ValueError(bad % (v, top))
        if marks[v]:
            raise ValueError(twice % v)
        marks[v] = 1


def load(path):
    return KenoGame(read(path))
