# Tournament mode (by-law s. 123-127): an entry fee instead of wagers; each entry plays a fixed
# number of games with tournament credits that have no cash value; the score is the tournament
# credits left. Prizes come from a pool of at least 30 % of the entry fees sold (s. 127), paid by
# hand when the tournament ends. The machine shows that it is a tournament machine (s. 126) and
# the rules are on the console and the display (s. 125).
#
# State (in the ledger's critical state block, st["tour"]):
#   {"fee", "credits", "games", "pct", "shares", "entries", "fees", "scores": [[score, entry]...],
#    "session": None | {"entry", "credits", "left"}}

RETURN_FLOOR_PCT = 30  # s. 127: prizes >= 30 % of the entry fees sold; never configurable lower
TOP = 10  # scores kept


class TournamentError(Exception):
    pass


MAX_FEE = 1000000  # credits: every figure is bounded, so the critical state block always fits
MAX_CREDITS = 1000000
MAX_GAMES = 1000
MAX_HOURS = 720  # 30 days
NAME_LEN = 20  # "tournament start" with every figure at its maximum and the name fits an 80-character console line
_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _bounded(v, lo, hi, what):
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or v > hi:
        raise TournamentError("%s must be a whole number from %d to %d" % (what, lo, hi))
    return v


def check_date(date):
    """'YYYY-MM-DD', a real calendar day (s. 125: the date of the event)."""
    ok = isinstance(date, str) and len(date) == 10 and date[4] == "-" and date[7] == "-"
    if ok:
        y, m, d = date[:4], date[5:7], date[8:]
        ok = y.isdigit() and m.isdigit() and d.isdigit() and 1 <= int(m) <= 12
        if ok:
            y, m, d = int(y), int(m), int(d)
            leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
            ok = 2000 <= y <= 2099 and 1 <= d <= (_DAYS[m - 1] if m != 2 or leap else 28)
    if not ok:
        raise TournamentError("date must be a calendar day YYYY-MM-DD, got %r" % (date,))
    return date


def new(fee, credits, games, pct, date, hours, name="", shares=(50, 30, 20)):
    _bounded(fee, 1, MAX_FEE, "entry fee")
    _bounded(credits, 1, MAX_CREDITS, "tournament credits")
    _bounded(games, 1, MAX_GAMES, "games per entry")
    _bounded(hours, 1, MAX_HOURS, "length in hours")
    _bounded(pct, 0, 100, "prize pool percentage")
    if pct < RETURN_FLOOR_PCT:
        raise TournamentError("prize pool %d %% below the %d %% of entry fees of s. 127" % (pct, RETURN_FLOOR_PCT))
    if sum(shares) != 100 or min(shares) <= 0:
        raise TournamentError("prize shares must be positive and total 100 %%")
    if len(name) > NAME_LEN or not all(" " <= c <= "~" for c in name):
        raise TournamentError("name: at most %d printable ASCII characters" % NAME_LEN)
    return {"fee": fee, "credits": credits, "games": games, "pct": pct, "shares": list(shares),
            "date": check_date(date), "hours": hours, "name": name,
            "entries": 0, "fees": 0, "scores": [], "session": None}


def pool(t):
    """Credits of prizes: the pool rounded UP, so the return is never below the pct promised."""
    return -(-t["fees"] * t["pct"] // 100)


def record_score(t, entry, score):
    t["scores"].append([score, entry])
    t["scores"].sort(key=lambda s: (-s[0], s[1]))  # best score first; ties to the earlier entry
    del t["scores"][TOP:]


def allocate(t):
    """[(entry, score, prize)] for the places that win, summing exactly to pool(t)."""
    total = pool(t)
    places = t["scores"][:len(t["shares"])]
    if not places:
        return []
    shares = t["shares"][:len(places)]
    weight = sum(shares)
    prizes = [total * s // weight for s in shares]
    prizes[0] += total - sum(prizes)  # rounding remainder to the winner
    return [(entry, score, prize) for (score, entry), prize in zip(places, prizes)]


def rules(t, lang):
    """Every element s. 125 lists: the date of the event, its length, the rules of participation,
    the method of prize allocation and the prizes to be won."""
    n = len(t["shares"])
    shares = " / ".join("%d %%" % s for s in t["shares"])
    name = (" " + t["name"]) if t.get("name") else ""
    if lang == "fr":
        return ["TOURNOI%s : le %s, pendant %d h" % (name, t["date"], t["hours"]),
                "Participation : droit d'entrée de %d crédits ; chaque inscription joue %d parties avec %d "
                "crédits de tournoi, sans valeur monétaire ; une inscription à la fois" % (
                    t["fee"], t["games"], t["credits"]),
                "Attribution : pointage = crédits de tournoi restants à la fin de l'inscription ; à égalité, "
                "l'inscription la plus ancienne l'emporte",
                "Prix : %d %% des droits d'entrée vendus, aux %d meilleurs pointages (%s) ; cagnotte actuelle "
                "%d crédits, payés à la main à la fin du tournoi" % (t["pct"], n, shares, pool(t))]
    return ["TOURNAMENT%s: %s, for %d h" % (name, t["date"], t["hours"]),
            "Participation: entry fee %d credits; each entry plays %d games with %d tournament credits, "
            "no cash value; one entry at a time" % (t["fee"], t["games"], t["credits"]),
            "Allocation: score = tournament credits left at the end of the entry; ties go to the "
            "earlier entry",
            "Prizes: %d %% of entry fees sold, to the %d best scores (%s); pool now %d credits, paid by "
            "hand when the tournament ends" % (t["pct"], n, shares, pool(t))]
