# Wheel of fortune (by-law s. 117-122): a wheel of 9 to 60 equal segments (s. 117), one drawn per
# spin with rng.below (every segment equally likely). A wager is on a symbol and wins when the pin
# stops on a segment of that symbol (s. 119). The by-law leaves the layout and the prizes to the
# table (s. 120): the model states both ("segments": the symbol of each segment, in wheel order;
# "wagers": each symbol's payout). play(gen, stake) spins, evaluate(stake, draws) replays it,
# draws = [segment index]. Docs: docs/game-format.md "Wheel of fortune".
from games.limits import quote
from games.table_game import TableGame
from games.table_model import PAY, SECTION, TableModel, need, ratio, win
from games.table_outcome import LOSE, WIN, TableOutcome
from rng import below

FORMAT = "jeton-wheel/1"
MIN_SEGMENTS = 9  # s. 117
MAX_SEGMENTS = 60  # s. 117
SECTION_TEXT = "s. 117-120"  # every wager's section: the by-law gives the game, the model its prizes


class WheelModel(TableModel):
    def __init__(self, m, consume=False):
        TableModel.__init__(self, m, FORMAT, ("segments",), (), None, consume)
        segs = m.get("segments")
        need(isinstance(segs, list) and MIN_SEGMENTS <= len(segs) <= MAX_SEGMENTS,
             "segments: the symbol of each of the wheel's %d to %d equal parts (s. 117)" % (MIN_SEGMENTS, MAX_SEGMENTS))
        self.segments = []
        for i in range(len(segs)):
            need(segs[i] in self.wagers, "segments[%d]: %s is not a wager of the model" % (i, quote(segs[i])))
            self.segments.append(segs[i])
        for wid in self.ids:
            w = self.wagers[wid]
            need(w[SECTION] == SECTION_TEXT, "wagers %s: section %s, a wheel's is %s" % (
                quote(wid), quote(w[SECTION]), quote(SECTION_TEXT)))
            need(wid in self.segments, "wagers %s: no segment of the wheel shows it" % quote(wid))
            w[PAY] = ratio(self.raw[wid]["pays"], "wagers %s: pays" % quote(wid))
        self.done()


class WheelGame(TableGame):
    kind = "wheel"

    def __init__(self, model, consume=False):
        TableGame.__init__(self, WheelModel(model, consume), model)
        self.model = {k: model[k] for k in model if k not in ("wagers", "segments")}

    def check_stake(self, stake, table=None):
        if table:
            raise ValueError("table: nothing stands between spins of the wheel")
        total = 0
        for key in self.keys(stake):
            if not isinstance(key, str):
                raise ValueError("stake: key %r is not a string" % (key,))
            self.credits(key, stake[key], key)
            total += stake[key]
        return total

    def risk(self, stake, table=None):
        return self.check_stake(stake)

    def play(self, gen, stake, table=None):
        self.check_stake(stake, table)
        return self.evaluate(stake, [below(gen, len(self.m.segments))], table)

    def evaluate(self, stake, draws, table=None):
        """The round of a recorded spin: draws = [segment index, 0-based in wheel order]."""
        staked = self.check_stake(stake, table)
        n = len(self.m.segments)
        if not isinstance(draws, list) or len(draws) != 1 or not isinstance(draws[0], int) or not 0 <= draws[0] < n:
            raise ValueError("draws: [segment], 0 to %d" % (n - 1))
        sym = self.m.segments[draws[0]]
        results = [self.settle(key, stake[key], draws[0]) for key in self.keys(stake)]
        return TableOutcome(staked, stake, list(draws), results, None, {"segment": draws[0], "symbol": sym})

    def settle(self, key, c, i):
        if self.m.segments[i] != key:
            return [key, c, LOSE, 0, None]
        n, d = self.m.pay(key)
        return [key, c, WIN, win(c, n, d), None]

    def most(self, stake, table=None):
        best = 0
        for i in range(len(self.m.segments)):
            best = max(best, self.evaluate(stake, [i], table).award)
        return best

    # -- the boot check's recomputation (games/table_exact.py) ----------------------------------------
    def space(self):
        return len(self.m.segments)

    def selections(self, wid):
        self.m.wager(wid)
        return [wid]

    def step(self, key, c, i):
        r = self.settle(key, c, i)
        return r[2], r[3], r[4]

    def at_risk(self, key, credits):
        return credits


def load(path):
    from games.model import read

    return WheelGame(read(path))
