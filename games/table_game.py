# What every table-game engine shares (games/roulette.py, craps.py, sicbo.py, wheel.py, baccarat.py):
# the stake's checks, the round's most and risk, the rules text. A stake is the player's wagers of one
# round, {key: credits}: a key names the wager and, where it needs one, what it is on
# ("straight:17", "place6", "total:10", "duo:1-2"); credits is one of the wager's bet levels.
from games.limits import MAX_STAKE_KEYS, quote
from games.table_model import BETS
from games.table_outcome import sorted_keys


class TableGame:
    kind = None  # the game's kind, for the jurisdiction (firmware/jurisdiction.py GAME_KINDS)

    def __init__(self, m, model):
        self.m = m
        self.id = m.id
        self.name = m.name
        # every bet level some wager takes, ascending (the model's bets, and the wagers' own levels)
        levels = []
        for wid in m.ids:
            for b in m.bets_of(wid):
                if b not in levels:
                    levels.append(b)
        levels.sort()
        self.bets = levels
        # what the game shows of its model (names, rules); the wagers live compiled in self.m
        self.model = {k: model[k] for k in model if k != "wagers"}
        # the certificate's most one wager returns / puts at risk, per level of self.bets (games/table_check.py)
        self.max_award = None
        self.max_risk = None

    def credits(self, wid, credits, key):
        """credits, when it is one of wager wid's bet levels; ValueError naming the key otherwise."""
        bets = self.m.wager(wid)[BETS]
        if not isinstance(credits, int) or isinstance(credits, bool) or credits not in bets:
            raise ValueError("%s: %r credits is not a bet level of %s (%s)" % (
                quote(key), credits, wid, ", ".join(str(b) for b in bets)))

    def keys(self, stake, what="stake"):
        keys = sorted_keys(stake, what)
        if len(keys) > MAX_STAKE_KEYS:
            raise ValueError("%s: %d wagers, at most %d (limits.MAX_STAKE_KEYS)" % (what, len(keys), MAX_STAKE_KEYS))
        return keys

    def describe(self, lang="fr"):
        from games.table_text import describe

        return describe(self, lang)

    def text_lines(self, lang="fr"):
        from games.table_text import lines

        return lines(self, lang)

    # -- the cabinet's round (firmware/play_table.py) -------------------------------------------------
    # The recall record's draws of a table round are [stake, the table before the round, what the rng
    # drew, the credits it leaves standing]: the round replays from its record alone, with
    # evaluate_round(bet, draws) as a reel game's from evaluate(bet, draws) (firmware/play.py resume,
    # console recall, python -m sim.replay); the table of the next round is the last record's outcome,
    # and the credits standing are what a boot that cannot decide them refunds without the engine.
    def play_round(self, gen, stake, table):
        """The round drawn through the rng (RngFailure to the caller), its draws in the recorded form."""
        o = self.play(gen, stake, table)
        o.draws = [stake, table, o.draws, standing_credits(o.table)]
        return o

    def evaluate_round(self, bet, draws):
        """The round of a recall record: draws = [stake, table, the rng's draws, credits standing];
        ValueError when the record is not a round of this game, or its figures are not the round's."""
        if not isinstance(draws, list) or len(draws) != 4:
            raise ValueError("draws: [stake, table, the rng's draws, credits standing]")
        o = self.evaluate(draws[0], draws[2], draws[1])
        if o.bet != bet:
            raise ValueError("bet %r: the stake takes %d credits" % (bet, o.bet))
        left = standing_credits(o.table)
        if draws[3] != left:
            raise ValueError("credits standing %r: the round leaves %d" % (draws[3], left))
        o.draws = [draws[0], draws[1], o.draws, left]
        return o

    def key_at(self, i):
        """The layout's key number i (layout()'s order), one wager's selections at a time: a touch
        on a board's heap never builds the whole layout. ValueError beyond the layout."""
        n = i
        for wid in self.m.ids:
            sel = self.selections(wid)
            if 0 <= n < len(sel):
                return sel[n]
            n -= len(sel)
        raise ValueError("no wager %d on this layout (0 to %d)" % (i, i - n - 1))

    def index_of(self, key):
        """The layout's number of key (key_at's inverse), one wager's selections at a time; ValueError
        for a key the layout does not offer."""
        n = 0
        for wid in self.m.ids:
            sel = self.selections(wid)
            if key in sel:
                return n + sel.index(key)
            n += len(sel)
        raise ValueError("%s is not a wager of the layout" % quote(key) if isinstance(key, str) else
                         "stake: key %r is not a string" % (key,))

    def layout(self):
        """Every key the layout offers, in the model's order of wagers: a touch names one by its index."""
        out = []
        for wid in self.m.ids:
            out.extend(self.selections(wid))
        return out


def standing_credits(table):
    """The credits a table holds (roulette {key: credits}; craps {"point", "bets"}; None)."""
    if not table:
        return 0
    bets = table["bets"] if "bets" in table else table
    n = 0
    for key in bets:
        n += bets[key]
    return n
