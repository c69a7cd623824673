# Model of a card-poker table game (by-law s. 63-67.87; docs/game-format.md "Card-poker table
# games"): the keys every such format shares, checked here, and the wagers, checked against the
# family's schema (the engine module's WAGERS). A malformed model or one past a bound is refused
# naming the key (games/limits.py ModelError), on the device and on the host alike.
#
# schema: a tuple of wagers (id, kind, pays, extras): kind STAKE (the player places it before the
# deal), OPTIONAL (a stake the model may leave out: a side wager), DECISION (placed or withdrawn at
# a decision point: play, raise, war) or PART (placed with the stake's wager: a Super Bonus); pays
# ODDS (one integer, X to 1), a tuple of the hand names a pay table may list, or None (no pays of
# its own: paid as the wager it adds to); extras: ((key, spec), ...) with spec a tuple of hand names
# (a pay of its own on the wager, {name, pays, section}: 3 Card Poker's ante bonus) or RANK (a rank
# letter, e.g. the lowest paying pair).
from games.limits import MAX_DECKS, MAX_ODDS, ModelError, known_keys, quote
from games.model import bet_list, describe, fr_en

STAKE = 0
OPTIONAL = 1
DECISION = 2
PART = 3  # placed with the stake's first wager, equal to it (Crazy Four's Super Bonus, s. 67.79)
ODDS = "odds"
RANK = "rank"
KEYS = ("format", "id", "family", "version", "name", "rules", "source", "decks", "bets", "wagers")
WAGER_KEYS = ("name", "pays", "section")
RANKS = "23456789TJQKA"


def _need(cond, msg):
    if not cond:
        raise ModelError(msg)


def _odds(v, what):
    _need(isinstance(v, int) and not isinstance(v, bool) and 0 < v <= MAX_ODDS,
          "%s must be a whole number from 1 to %d (X to 1; limits.MAX_ODDS)" % (what, MAX_ODDS))
    return v


def _table(v, names, what):
    """A pay table {hand: X} over the allowed hand names -> list of odds per name (0: pays nothing)."""
    _need(isinstance(v, dict) and v, "%s must be an object {hand: X to 1} of %s" % (what, ", ".join(names)))
    out = [0] * len(names)
    for k in v:
        _need(k in names, "%s: unknown hand %s (%s)" % (what, quote(k), ", ".join(names)))
        out[names.index(k)] = _odds(v[k], "%s.%s" % (what, k))
    return out


def _section(v, what):
    _need(isinstance(v, str) and v.startswith("s. "), "%s.section must name the by-law's section (\"s. ...\")" % what)
    return v


def _lines(v, what):
    # the rules a player reads (s. 89): paragraphs, each a string (a string's bound: model_json)
    _need(isinstance(v, list) and v, "%s must be a non-empty list of paragraphs" % what)
    for p in v:
        _need(isinstance(p, str) and p, "%s: a paragraph is a non-empty string" % what)


class CardTableModel:
    """id, name, rules, decks, bets; wagers: the offered wager ids; stakes: those a stake may name
    (sorted); pays[id]: the odds or the pay table (list by the schema's hand names); extra[id][key];
    section[id]; names[id] ({fr, en})."""

    def __init__(self, m, fmt, schema, decks=(1,), even=False):
        _need(isinstance(m, dict), "model must be an object")
        _need(m.get("format") == fmt, "unknown format %s (expected %s)" % (quote(m.get("format")), fmt))
        self.id = describe(m, fmt, KEYS)
        self.name = m["name"]
        r = m.get("rules")
        _need(isinstance(r, dict), "rules needs fr and en (s. 89: the rules before play)")
        known_keys(r, ("fr", "en"), "rules")
        _lines(r.get("fr"), "rules.fr")
        _lines(r.get("en"), "rules.en")
        self.rules = r
        d = m.get("decks")
        _need(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= MAX_DECKS,
              "decks must be a whole number from 1 to %d (limits.MAX_DECKS)" % MAX_DECKS)
        _need(d in decks, "decks %d: this game is played with %s" % (d, " or ".join(str(x) for x in decks)))
        self.decks = d
        self.bets = bet_list(m.get("bets"))
        if even:  # a wager that loses half (a surrender) needs whole credits either way
            for b in self.bets:
                _need(b % 2 == 0, "bet %d: every bet is an even number of credits (half of it may be lost)" % b)
        w = m.get("wagers")
        _need(isinstance(w, dict) and w, "wagers missing")
        ids = [s[0] for s in schema]
        for k in w:
            _need(k in ids, "wagers: unknown wager %s (%s)" % (quote(k), ", ".join(ids)))
        self.wagers = []
        self.pays = {}
        self.extra = {}
        self.section = {}
        self.names = {}
        self.parts = {}  # (wager, key) -> the object of a pay of its own (name, section)
        for wid, kind, pays, extras in schema:
            v = w.get(wid)
            if v is None:
                _need(kind == OPTIONAL, "wagers: %s missing (every %s model offers it)" % (wid, fmt))
                continue
            what = "wagers.%s" % wid
            _need(isinstance(v, dict), "%s must be an object" % what)
            known_keys(v, WAGER_KEYS + tuple(e[0] for e in extras), what)
            self.names[wid] = fr_en(v.get("name"), what + ".name")
            self.section[wid] = _section(v.get("section"), what)
            p = v.get("pays")
            if pays is None:  # paid as the wager it adds to (Red Dog's raise, s. 67)
                _need(p is None, "%s has no pays of its own (it is paid as the wager it adds to)" % what)
                self.pays[wid] = None
            else:
                self.pays[wid] = _odds(p, what + ".pays") if pays == ODDS else _table(p, pays, what + ".pays")
            ex = {}
            for key, spec in extras:
                e = v.get(key)
                if e is None:
                    continue
                if spec == RANK:
                    _need(isinstance(e, str) and len(e) == 1 and e in RANKS,
                          "%s.%s must be a rank letter (%s)" % (what, key, RANKS))
                    ex[key] = RANKS.index(e)
                else:  # a pay of its own on this wager: {name, pays, section}
                    where = "%s.%s" % (what, key)
                    _need(isinstance(e, dict), "%s must be an object {name, pays, section}" % where)
                    known_keys(e, WAGER_KEYS, where)
                    fr_en(e.get("name"), where + ".name")
                    _section(e.get("section"), where)
                    ex[key] = _table(e.get("pays"), spec, where + ".pays")
                    self.parts[(wid, key)] = e
            self.extra[wid] = ex
            self.wagers.append(wid)
        self.stakes = sorted(s[0] for s in schema if s[1] in (STAKE, OPTIONAL) and s[0] in self.pays)
        self.progressive = None  # no progressive meter on a card-table model (the cabinet's, later)
