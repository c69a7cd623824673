# Blackjack model (jeton-blackjack/1, docs/game-format.md): validate the dict loaded from JSON and
# compile it into the small tables shared by the engine (games/blackjack.py), the boot check
# (games/blackjack_check.py) and the host certifier (tools/certify/blackjack.py). By-law s. 13-26.7.
# Card values are 1 (ace) .. 10 (ten and face cards); card codes are rank * 4 + suit as in video
# poker (rank 0 = two .. 12 = ace), a shoe holding every code `decks` times.
from games.blackjack_progressive import TABLES as PROGRESSIVE
from games.limits import ModelError, known_keys, quote
from games.model import bet_list, describe, fr_en

FORMAT = "jeton-blackjack/1"
KEYS = ("format", "id", "family", "version", "name", "rules", "source", "bets", "decks", "dealer", "double",
        "double_after_split", "dealer_hands", "wagers", "strategy")
WAGER_KEYS = ("name", "pays", "section")
MAX_DECKS = 8  # s. 13: 1 to 8 decks
# every wager the format knows, with the awards its pay table must name (in this order)
WAGERS = {
    "main": ("win", "blackjack"),  # s. 18-21 (one dealer hand)
    "main_1": ("win", "blackjack"),  # s. 26.2-26.7: multi-action, one wager per dealer hand
    "main_2": ("win", "blackjack"),
    "main_3": ("win", "blackjack"),
    "insurance": ("dealer_blackjack",),  # s. 25
    "twelve_sixteen": ("total_12_16", "two_aces_or_eights"),  # s. 21.1
    "sevens": ("one", "two", "two_suited", "three", "three_suited"),  # s. 21.3
    "over_13": ("win",),  # s. 21.4
    "under_13": ("win",),  # s. 21.4
}
for _k in PROGRESSIVE:  # s. 21.2: the three tables (games/blackjack_progressive.py)
    WAGERS[_k] = tuple(p[0] for p in PROGRESSIVE[_k])
# s. 18.1, "provided that it is so indicated at the table": a main wager's hand of three sevens (paid
# 3 to 2, s. 21) or of a 6, 7 and 8 of one suit (2 to 1) also wins; awards a main wager may add
BONUS = ("three_sevens", "six_seven_eight_suited")
DEALER = ("hits_soft_17", "stands_17")  # s. 26: hits a soft 17 unless the table says otherwise
DOUBLE = ("9-11", "any")  # s. 23; s. 26.1(1): 2 to 8 and 12 to 20 as well (never a blackjack)
# the built-in strategy's table: rows per hand, one letter per dealer up card 2..9, ten, ace
UPS = 10
ACTIONS = "HSDEP"  # hit, stand, double (else hit), double (else stand), split
HARD_ROWS = tuple(range(4, 22))  # hard 4 .. 21
SOFT_ROWS = tuple(range(12, 22))  # soft 12 (two aces not split) .. 21
PAIR_ROWS = "A23456789T"


def _need(cond, msg):
    if not cond:
        raise ModelError(msg)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def value(code):
    """The card's value (s. 13): 1 for an ace, 10 for a ten or a face card, else its face."""
    r = code >> 2
    if r == 12:
        return 1
    return r + 2 if r < 8 else 10


def _ratio(v, what):
    # "a to b" as [a, b]: positive integers
    _need(isinstance(v, list) and len(v) == 2 and _is_int(v[0]) and _is_int(v[1]) and v[0] > 0 and v[1] > 0,
          "%s: a pay is [a, b] for a to b, positive integers" % what)
    return v[0], v[1]


def _row(v, what, allowed):
    _need(isinstance(v, str) and len(v) == UPS, "%s: %d letters, one per dealer up card 2..9, T, A" % (what, UPS))
    for ch in v:
        _need(ch in allowed, "%s: unknown action %r (use %s)" % (what, ch, allowed))
    return v


def most_cards(decks, hands):
    """The most cards one round can use: each of its hands (two split hands, the dealer's 1-3)
    takes cards worth at most 31 points (a hand draws only below 22, and a card is worth at most
    10), so the round uses no more cards than the cheapest of the shoe that add up to that."""
    budget = (2 + hands) * 31
    n = 0
    for v in range(1, 11):
        for _ in range(4 * decks if v < 10 else 16 * decks):
            if budget < v:
                return n
            budget -= v
            n += 1
    return n


class BlackjackModel:
    """The rules as small values: decks, h17 (dealer hits soft 17), double_any, das, hands (dealer
    hands: 1, or 2-3 for multi-action), mains (the main wager ids), pays[wager][award] = (a, b),
    and the strategy table as strings (hard[total], soft[total], pair[value]: a letter per up card)."""

    def __init__(self, m):
        _need(isinstance(m, dict), "model must be an object")
        _need(m.get("format") == FORMAT, "unknown format %s" % quote(m.get("format")))
        self.id = describe(m, FORMAT, KEYS)
        self.name = m["name"]
        r = m.get("rules")  # s. 89: read before play, a paragraph at a time (a string is at most 1 KB)
        _need(isinstance(r, list) and r, "rules must be a non-empty list of {fr, en} paragraphs")
        _need(len(r) <= 16, "rules: at most 16 paragraphs")
        for i, p in enumerate(r):
            fr_en(p, "rules[%d]" % i)
        self.rules = r
        self.bets = bets = bet_list(m.get("bets"))
        d = m.get("decks")
        _need(_is_int(d) and 1 <= d <= MAX_DECKS, "decks must be 1 to %d (s. 13)" % MAX_DECKS)
        self.decks = d
        dl = m.get("dealer", "hits_soft_17")
        _need(dl in DEALER, "dealer must be hits_soft_17 or stands_17 (s. 26), not %s" % quote(dl))
        self.h17 = dl == "hits_soft_17"
        db = m.get("double", "9-11")
        _need(db in DOUBLE, "double must be 9-11 (s. 23) or any (s. 26.1), not %s" % quote(db))
        self.double_any = db == "any"
        das = m.get("double_after_split", False)
        _need(das is True or das is False, "double_after_split must be true or false (s. 24(5), 26.1(3))")
        self.das = das
        n = m.get("dealer_hands", 1)
        _need(_is_int(n) and 1 <= n <= 3, "dealer_hands must be 1, or 2 or 3 for multi-action (s. 26.3)")
        self.hands = n
        self.mains = ("main",) if n == 1 else tuple("main_%d" % (i + 1) for i in range(n))
        w = m.get("wagers")
        _need(isinstance(w, dict) and w, "wagers missing")
        self.pays = {}
        self.wager_names = {}
        for k in w:
            _need(k in WAGERS, "wagers: unknown wager %s" % quote(k))
            spec = w[k]
            _need(isinstance(spec, dict), "wager %s must be an object" % k)
            known_keys(spec, WAGER_KEYS, "wager %s" % k)
            self.wager_names[k] = fr_en(spec.get("name"), "wager %s name" % k)
            _need(isinstance(spec.get("section"), str), "wager %s: section (the by-law's) missing" % k)
            p = spec.get("pays")
            _need(isinstance(p, dict), "wager %s: pays must be an object" % k)
            known_keys(p, WAGERS[k] + (BONUS if k.startswith("main") else ()), "wager %s pays" % k)
            t = {}
            for a in WAGERS[k]:
                _need(a in p, "wager %s: no pay for %s" % (k, a))
                t[a] = _ratio(p[a], "wager %s pays %s" % (k, a))
            for a in BONUS:
                if a in p:
                    t[a] = _ratio(p[a], "wager %s pays %s" % (k, a))
            self.pays[k] = t
        for k in self.mains:
            _need(k in w, "wager %s missing (%d dealer hand%s)" % (k, n, "s" if n > 1 else ""))
        for k in WAGERS:
            if k.startswith("main") and k in w:
                _need(k in self.mains, "wager %s: not a wager of %d dealer hand%s" % (k, n, "s" if n > 1 else ""))
        _need(n == 1 or "insurance" not in w, "insurance is offered with one dealer hand only (this format)")
        prog = [k for k in w if k in PROGRESSIVE]
        _need(len(prog) <= 1, "wagers: %s: one progressive table at a time (s. 21.2)" % ", ".join(prog))
        self.progressive_wager = prog[0] if prog else None
        self.progressive = None  # no jackpot meter (s. 91: firmware/startup.py asks every game); s. 21.2 pays are fixed
        # whole credits: every pay of every wager at every bet, and insurance at half the wager (s. 25(1))
        for k in self.pays:
            for a in self.pays[k]:
                num, den = self.pays[k][a]
                for b in bets:
                    _need(b * num % den == 0, "bet %d: wager %s pays %s %d to %d is not whole credits" % (
                        b, k, a, num, den))
        if "insurance" in w:
            for b in bets:
                _need(b % 2 == 0, "bet %d: insurance is half the wager (s. 25): bets must be even" % b)
        self.strategy = self._strategy(m.get("strategy"))
        self.cards = most_cards(d, n)
        self.progressive = None  # no progressive on a blackjack model (s. 21.2 is not in this format)


    def _strategy(self, st):
        _need(isinstance(st, dict), "strategy (the built-in play, s. 93) missing")
        known_keys(st, ("hard", "soft", "pair"), "strategy")
        out = {}
        for part, rows, allowed in (("hard", HARD_ROWS, "HSDE"), ("soft", SOFT_ROWS, "HSDE"),
                                    ("pair", PAIR_ROWS, "P-")):
            t = st.get(part)
            _need(isinstance(t, dict), "strategy.%s must be an object" % part)
            want = [str(r) for r in rows]
            known_keys(t, want, "strategy.%s" % part)
            out[part] = {}
            for r in want:
                _need(r in t, "strategy.%s: row %s missing" % (part, r))
                out[part][r] = _row(t[r], "strategy.%s.%s" % (part, r), allowed)
        return out

    def bet_index(self, bet):
        for i, b in enumerate(self.bets):
            if b == bet:
                return i
        raise ValueError("bet %r not offered" % (bet,))

    def check_stake(self, stake):
        """ValueError naming what is wrong unless stake ({wager: credits}) is a round this model plays:
        every main wager placed (s. 26.4), each at a bet level, side wagers only those offered,
        twelve_sixteen at most the main wager (s. 21.1); insurance is not staked before the deal."""
        if not isinstance(stake, dict):
            raise ValueError("stake must be {wager: credits}")
        for k in stake:
            if k not in self.pays or k == "insurance":
                raise ValueError("stake: wager %s not offered before the deal" % quote(k))
            self.bet_index(stake[k])
        for k in self.mains:
            if k not in stake:
                raise ValueError("stake: wager %s missing (s. 26.4)" % k)
        if "twelve_sixteen" in stake and stake["twelve_sixteen"] > stake[self.mains[0]]:
            raise ValueError("stake: twelve_sixteen above the main wager (s. 21.1)")
        if "over_13" in stake and "under_13" in stake:
            raise ValueError("stake: over_13 and under_13 both (s. 21.4: one or the other)")
