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
