# The keys every table-game model shares (issue 26; docs/game-format.md "Table games"): the
# descriptive keys, the rules the player reads before play (s. 89), the bet levels and the wagers,
# each with its name, its payout and the by-law section that gives it. A family's loader
# (games/roulette.py, craps.py, sicbo.py, wheel.py, baccarat.py) passes its own table of the
# by-law's payouts (BYLAW: wager id -> (pays, section)), so a model cannot offer a wager the by-law
# does not know, nor pay one otherwise than the by-law does; the wheel of fortune, whose payouts the
# by-law leaves open (s. 120), passes none and checks the form of each payout only.
from games.limits import MAX_WAGERS, ModelError, known_keys, quote
from games.model import bet_list, describe, fr_en

KEYS = ("format", "id", "family", "version", "name", "rules", "source", "bets", "wagers")
WAGER_KEYS = ("name", "pays", "section", "bets")
MAX_RATIO = 100000  # a payout's terms: 10,000 to 1 (s. 72.1's triple) is the by-law's largest


def need(cond, msg):
    if not cond:
        raise ModelError(msg)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def ratio(v, what):
    """(n, d) of a payout written [n, d]: "n to d", both positive integers."""
    need(isinstance(v, list) and len(v) == 2 and is_int(v[0]) and is_int(v[1]) and 0 < v[0] <= MAX_RATIO
         and 0 < v[1] <= MAX_RATIO, "%s: a payout is [n, d] (n to d), positive integers up to %d" % (what, MAX_RATIO))
    return v[0], v[1]


def win(stake, n, d):
    """Credits a winning wager of stake returns at n to d: the stake and the winnings, rounded down to a
    whole credit (a model whose bet levels make every payout whole loses nothing to it; certified per
    bet level either way)."""
    return stake + stake * n // d


def ceil_div(a, b):
    return -(-a // b)


# a wager of a compiled model: (its names fr and en in one bytes (wager_name()), section, bet levels
# (credits), payout as the family compiles it, commission (n, d) or None).
# A list while the family compiles it, one tuple after (done()). Not objects: craps offers 50 wagers,
# and an instance with its attributes costs a board's heap twice what its five fields do.
NAME = 0
SECTION = 1
BETS = 2
PAY = 3
COMMISSION = 4


class TableModel:
    """The shared part of a table-game model. wagers: {id: [names, section, bets, pay, commission]};
    ids: the ids, sorted (MicroPython's dict keeps no insertion order: what iterates wagers goes
    through ids). raw: {id: the model's wager object} while the family's loader compiles the payouts
    (it sets each PAY, and COMMISSION where the wager has one), None after (done()). consume: the
    model's wagers lose their names and bet levels as they are compiled, so that the model and the
    game are not whole in the heap at once (the boot check, which hashed the model before: a
    craps-83 check needed 46 KB, 36 so)."""

    def __init__(self, m, fmt, keys=(), wager_keys=(), bylaw=None, consume=False):
        need(isinstance(m, dict), "model must be an object")
        need(m.get("format") == fmt, "unknown format %s (want %s)" % (quote(m.get("format")), fmt))
        self.id = describe(m, fmt, KEYS + keys)
        self.name = m["name"]
        fr_en(m.get("rules"), "rules")
        self.rules = m["rules"]
        need(isinstance(m.get("source"), str) and m["source"], "source missing: the by-law sections the game follows")
        self.bets = bet_list(m.get("bets"))
        wagers = m.get("wagers")
        need(isinstance(wagers, dict) and wagers, "wagers missing: at least one")
        need(len(wagers) <= MAX_WAGERS, "%d wagers: at most %d (limits.MAX_WAGERS)" % (len(wagers), MAX_WAGERS))
        self.ids = sorted(wagers)
        self.wagers = dict.fromkeys(self.ids)  # its table made once, at its size: no growth in pieces
        self.raw = wagers
        for wid in self.ids:
            w = wagers[wid]
            what = "wagers %s" % quote(wid)
            need(isinstance(w, dict), "%s must be an object" % what)
            known_keys(w, WAGER_KEYS + wager_keys, what)
            fr_en(w.get("name"), what + ": name")
            need(isinstance(w.get("section"), str) and w["section"], "%s: section missing (the by-law's)" % what)
            bets = bet_list(w["bets"]) if "bets" in w else self.bets
            if bylaw is not None:  # each message made only when it is said: a wager's list of the
                law = bylaw.get(wid)  # by-law's ids took 1 KB of a boot check's heap 50 times (craps-83)
                if law is None:
                    need(False, "%s is not a wager of the by-law (%s: %s)" % (what, fmt, ", ".join(sorted(bylaw))))
                if w.get("pays") != law[0]:
                    need(False, "%s: pays %s, the by-law pays %s (%s)" % (what, _show(w.get("pays")), _show(law[0]), law[1]))
                if w["section"] != law[1]:
                    need(False, "%s: section %s, the by-law's is %s" % (what, quote(w["section"]), quote(law[1])))
            self.wagers[wid] = [_names(w["name"]), w["section"], bets, None, None]
            if consume:  # the wager's names and levels, compiled, leave the model as the game takes them
                del w["name"]
                w.pop("bets", None)
        self.progressive = None  # no progressive on a table game (firmware/startup.py asks every game)

    def done(self):
        """The family compiled every payout: the raw wagers go (the model can be dropped), and each
        wager becomes one tuple whose bet levels, payout and commission are one object for all the
        wagers that have equal ones (craps-83: 50 wagers, 11 lists of bet levels, 17 payouts)."""
        self.raw = None
        seen = {}
        for wid in self.ids:
            w = self.wagers[wid]
            self.wagers[wid] = (w[0], w[1], _shared(seen, w[2]), _shared(seen, w[3]), _shared(seen, w[4]))

    def wager_name(self, wid, lang):
        """The wager's name in lang, "fr" or "en" (the model's, shown to the player: s. 89)."""
        b = self.wager(wid)[NAME]
        n = b[0] << 8 | b[1]
        return str(b[2:2 + n] if lang == "fr" else b[2 + n:], "utf-8")

    def wager(self, wid):
        w = self.wagers.get(wid)
        if w is None:
            raise ValueError("wager %s not offered" % quote(wid))
        return w

    def bets_of(self, wid):
        return self.wagers[wid][BETS]

    def pay(self, wid):
        return self.wagers[wid][PAY]


def _names(name):
    # a wager's {fr, en} in one bytes: the French name's length (2 bytes), its UTF-8, the English
    # name's. A dict and two strings a wager took craps-83's 50 wagers 4.9 KB of a board's heap,
    # spread over the heap its boot check used (docs/sas.md "Memory"); small pieces, not one block
    # of them all: after the check the heap may have no 1 KB in one piece (a block of 1.1 KB was not
    # found with 48 KB free)
    fr = name["fr"].encode()
    return bytes((len(fr) >> 8, len(fr) & 255)) + fr + name["en"].encode()


def _shared(seen, v):
    # v, or the equal value met before (a list and a tuple never: their types are kept)
    if isinstance(v, list):
        key = ("l",) + tuple(v)
    elif isinstance(v, tuple) or v is None:
        key = v
    else:  # a craps total's payouts {total: (n, d)}: its tuples shared
        for t in v:
            v[t] = _shared(seen, v[t])
        return v
    got = seen.get(key)
    if got is None:
        seen[key] = v
        return v
    return got


def _show(v):
    # a payout as the model writes it, for a message
    if isinstance(v, list) and len(v) == 2:
        return "%r to %r" % (v[0], v[1])
    if isinstance(v, dict):
        return "{" + ", ".join("%s: %s" % (k, _show(v[k])) for k in sorted(v)) + "}"
    return repr(v)
