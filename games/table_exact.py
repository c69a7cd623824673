# Exact return of a table game's wager, integers only: the boot check's recomputation
# (games/table_check.py) of what the certificate claims, done with the engine's own settlement, so a
# certificate cannot claim what the engine does not pay. A round draws one of game.space() equally
# likely results; game.step(key, credits, i) gives (status, credits returned, next key or None) of
# one wager over result i. A wager that stands (a craps point, a roulette double after its first hit)
# goes on under its next key; one that stands under the same key is undecided by that result. Per
# resolved wager (the standard convention: docs/games.md "Table games"):
#     value(k) = (sum of the returns of the results that decide k + sum of value(k') of those that
#                 move it to k') / (results that do not leave it where it is)
# and the return is value / what the wager put at risk (its stake and any commission paid with it).
# Roulette: 37 or 38 results, craps 36, sic bo 216, wheel <= 60: a few thousand steps per model.
from games.table_outcome import WIN

MAX_DEPTH = 6  # keys a wager can pass through (a craps come bet: 2; a roulette triple: 3)


def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def _add(f, p, q):
    # f + p/q, reduced: f and the result are [num, den]
    n = f[0] * q + p * f[1]
    d = f[1] * q
    g = gcd(n, d)
    return [n // g, d // g]


def _chain(game, key, credits, memo, depth):
    # [value num, den, win num, den] of wager key standing with credits
    got = memo.get(key)
    if got is not None:
        return got
    if depth > MAX_DEPTH:
        raise ValueError("%s: undecided after %d keys" % (key, MAX_DEPTH))
    n = game.space()
    val = [0, 1]
    hit = [0, 1]
    loops = 0
    for i in range(n):
        status, returned, nxt = game.step(key, credits, i)
        if nxt is None:
            val = _add(val, returned, 1)
            if status == WIN and returned > credits:  # a win above the stake (table_outcome.py)
                hit = _add(hit, 1, 1)
        elif nxt == key:
            loops += 1
        else:
            sub = _chain(game, nxt, credits, memo, depth + 1)
            val = _add(val, sub[0], sub[1])
            hit = _add(hit, sub[2], sub[3])
    if loops == n:
        raise ValueError("%s: no result decides it" % key)
    out = [val[0], val[1] * (n - loops), hit[0], hit[1] * (n - loops)]
    memo[key] = out
    return out


def figures(game, key, credits):
    """((return num, den), (hit num, den)) of the wager key at credits, per resolved wager, not reduced:
    the return per credit it puts at risk, the chance that it wins."""
    v = _chain(game, key, credits, {}, 0)
    return (v[0], v[1] * game.at_risk(key, credits)), (v[2], v[3])


def rtp(game, wid, bet):
    """(num, den): the return of wager wid at bet credits, on the layout's first selection of it
    (every selection of a wager returns alike: the certifier checks each, tools/certify/table.py)."""
    return figures(game, game.selections(wid)[0], bet)[0]
