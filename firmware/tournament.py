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


def new(fee, credits, games, pct, shares=(50, 30, 20)):
    if fee <= 0 or credits <= 0 or games <= 0:
        raise TournamentError("fee, credits and games must be positive")
    if pct < RETURN_FLOOR_PCT:
        raise TournamentError("prize pool %d %% below the %d %% of entry fees of s. 127" % (pct, RETURN_FLOOR_PCT))
    if sum(shares) != 100 or min(shares) <= 0:
        raise TournamentError("prize shares must be positive and total 100 %%")
    return {"fee": fee, "credits": credits, "games": games, "pct": pct, "shares": list(shares),
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
    if lang == "fr":
        return ["TOURNOI : droit d'entrée %d crédits, %d crédits de tournoi, %d parties" % (
            t["fee"], t["credits"], t["games"]),
            "Pointage : crédits de tournoi restants. Prix : %d %% des droits d'entrée, partagés %s" % (
            t["pct"], " / ".join("%d %%" % s for s in t["shares"]))]
    return ["TOURNAMENT: entry fee %d credits, %d tournament credits, %d games" % (t["fee"], t["credits"], t["games"]),
            "Score: tournament credits left. Prizes: %d %% of entry fees, shared %s" % (
            t["pct"], " / ".join("%d %%" % s for s in t["shares"]))]
