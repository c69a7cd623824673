# Exact RTP of a reel model with integer arithmetic only, small enough for the device's boot check.
#
# Per line, the symbols on the reels are independent, so the expected line pay is a product-
# distribution sum done reel by reel on states (groups still matching, best pay so far): per-reel
# symbol counts, never the full cycle. Scatter counts are a convolution of per-reel counts. Free
# spins: spins are i.i.d. and whether a spin is played depends only on earlier spins, so by Wald's
# identity the feature pays E[spins played] * E[win per free spin]; E[spins played] with retriggers
# and the cap is an integer recursion over (spins left, headroom under the cap).


def _dists(m, rs):
    # per (reel, row): list of (code, weight), deduplicated so equal distributions share an id
    ids = {}
    table = []
    key_of = []
    for i in range(m.nreels):
        strip = rs.strips[i]
        n = len(strip)
        w = rs.weights[i]
        row_keys = []
        for r in range(m.rows):
            d = {}
            off = r - m.rows // 2
            for s in range(n):
                c = strip[(s + off) % n]
                d[c] = d.get(c, 0) + (1 if w is None else w[s])
            items = sorted(d.items())
            k = (i, tuple(items))
            if k not in ids:
                ids[k] = len(table)
                table.append(items)
            row_keys.append(ids[k])
        key_of.append(row_keys)
    return table, key_of


def line_sum(m, rs, bi):
    """Sum over the cycle of the line pays of all lines (credits), at bet index bi."""
    table, key_of = _dists(m, rs)
    nr = m.nreels
    cpay = m.cpay[bi]
    gmask = m.gmask
    cache = {}
    best_of = {}

    def maxpay(mask, n):
        k = (mask, n)
        v = best_of.get(k)
        if v is None:
            v = 0
            g = 0
            mm = mask
            while mm:
                if mm & 1 and cpay[g][n] > v:
                    v = cpay[g][n]
                mm >>= 1
                g += 1
            best_of[k] = v
        return v

    # product of the reel totals after reel n: a line settled early leaves the rest free
    tail = [1] * (nr + 1)
    for n in range(nr - 1, -1, -1):
        tail[n] = tail[n + 1] * rs.totals[n]
    total = 0
    for line in m.lines:
        key = tuple(key_of[i][line[i]] for i in range(nr))
        v = cache.get(key)
        if v is None:
            v = 0
            states = {(m.all_groups, 0): 1}
            for n in range(nr):
                nxt_states = {}
                for st in states:
                    alive, best = st
                    w = states[st]
                    for code, cw in table[key[n]]:
                        nxt = alive & gmask[code]
                        b = best
                        died = alive & ~nxt
                        if died:
                            p = maxpay(died, n)
                            if p > b:
                                b = p
                        if nxt:
                            k2 = (nxt, b)
                            nxt_states[k2] = nxt_states.get(k2, 0) + w * cw
                        elif b:
                            v += b * w * cw * tail[n + 1]
                states = nxt_states
            for st in states:
                alive, best = st
                p = maxpay(alive, nr)
                v += (p if p > best else best) * states[st]
            cache[key] = v
        total += v
    return total


def scatter_counts(m, rs):
    """cnt[n] = weight of the cycle showing n scatters (sums to rs.cycle)."""
    maxsc = m.nreels * m.rows
    cnt = [1] + [0] * maxsc
    for i in range(m.nreels):
        strip = rs.strips[i]
        n = len(strip)
        w = rs.weights[i]
        per = [0] * (m.rows + 1)
        for s in range(n):
            k = 0
            if m.scatter is not None:
                for c in m.column(rs, i, s):
                    if c == m.scatter:
                        k += 1
            per[k] += 1 if w is None else w[s]
        out = [0] * (maxsc + 1)
        for a in range(maxsc + 1):
            if cnt[a]:
                for b in range(m.rows + 1):
                    if per[b] and a + b <= maxsc:
                        out[a + b] += cnt[a] * per[b]
        cnt = out
    return cnt


def expected_spins(m, cnt, initial):
    """E[free spins played] for a feature starting with `initial` spins: (num, den)."""
    d = m.free.cycle
    acnt = {}
    for n in range(len(cnt)):
        if cnt[n]:
            a = m.retrigger[n]
            acnt[a] = acnt.get(a, 0) + cnt[n]
    if m.cap is None:
        mu = 0
        for a in acnt:
            mu += a * acnt[a]
        if mu >= d:
            raise ValueError("uncapped retriggers: the feature never ends on average")
        return initial * d, d - mu  # E[T] = s / (1 - E[extra spins per spin])
    cap = m.cap
    s = initial if initial < cap else cap
    # N[L][r]: E[T | r left, headroom L - r] * d**(L - 1), filled for L = 1..cap
    items = list(acnt.items())
    prev = [0]  # L = 0: nothing left
    dpow = 1
    for L in range(1, cap + 1):
        cur = [0] * (L + 1)
        for r in range(1, L + 1):
            h = L - r
            acc = dpow
            for a, c in items:
                e = a if a < h else h
                acc += c * prev[r - 1 + e]
            cur[r] = acc
        prev = cur
        if L < cap:
            dpow *= d
    return prev[s], dpow


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def rtp(m, bi):
    """Exact return at bet index bi as (num, den) in lowest terms (integers only)."""
    bet = m.bets[bi]
    db = m.base.cycle
    cb = scatter_counts(m, m.base)
    lb = line_sum(m, m.base, bi)
    base = lb
    for n in range(len(cb)):
        base += cb[n] * m.spay[bi][n]
    num, den = base, db
    if m.free:
        df = m.free.cycle
        same = m.free is m.base
        cf = cb if same else scatter_counts(m, m.free)
        per = lb if same else line_sum(m, m.free, bi)
        for n in range(len(cf)):
            per += cf[n] * m.spay[bi][n]
        per *= m.multiplier  # sum over the free cycle of one free spin's credits
        fnum, fden = 0, 1
        for n in range(len(cb)):
            if cb[n] and m.award[n]:
                tn, td = expected_spins(m, cf, m.award[n])
                # sum of cb[n] * E[T] * per / df; divided by db with the base part
                a = cb[n] * tn * per
                b = td * df
                fnum, fden = fnum * b + a * fden, fden * b
        num, den = num * fden + fnum, den * fden  # both over db
    den *= bet
    g = _gcd(num, den)
    return num // g, den // g
