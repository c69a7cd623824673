# Exact RTP of a reel model with integer arithmetic only, small enough for the device's boot check.
#
# Per line, the symbols on the reels are independent, so the expected line pay is a product-
# distribution sum done reel by reel on states (groups still matching, best pay so far): per-reel
# symbol counts, never the full cycle. Scatter counts are a convolution of per-reel counts. Free
# spins: spins are i.i.d. and whether a spin is played depends only on earlier spins, so by Wald's
# identity the feature pays E[spins played] * E[win per free spin]; E[spins played] with retriggers
# and the cap is a forward recursion over the spins played, on the few totals awarded so far.
#
# Memory (the boot check runs in the firmware's heap, docs/games.md): nothing here grows with the
# cycle. Per line the states are one dict keyed by small ints; symbol weights are one list per
# distinct (reel, row); the free-spin recursion keeps one bigint per reachable total, not a table
# over (spins left, headroom). Everything is dropped on return, so a caller can gc.collect()
# between steps (games/certificate.py does, one bet level at a time).
#
# Time: the boot check runs at every power-up, so the work is bounded, not only the model's size:
# the line programme counts the (state, symbol) pairs it visits and refuses the model past
# limits.MAX_WORK per bet level (a hostile pay table can make the states grow as symbols**reels),
# and its heap past limits.MAX_STATES states after one reel.
# The free-spin recursion runs at most cap (limits.MAX_FREE_SPINS) steps.
from games.limits import MAX_STATES, MAX_WORK, ModelError


def _crowded(states):
    # the heap's bound: a state is a dict entry with a bigint key and weight (some 40 bytes)
    raise ModelError("too large to recompute at boot: more than %d states of the line programme "
                     "after one reel (limits.MAX_STATES)" % MAX_STATES)


def _spend(work, n):
    # work[0]: the (state, symbol) pairs visited so far for this bet level
    work[0] += n
    if work[0] > MAX_WORK:
        raise ModelError("too large to recompute at boot: more than %d steps of the line programme "
                         "for one bet level (limits.MAX_WORK)" % MAX_WORK)


def _dists(m, rs):
    # weight of every symbol code per (reel, row) as a list indexed by code; equal rows (every row
    # of a uniform reel) share one list. Returns (table, key_of): key_of[reel][row] -> table index
    nsym = len(m.symbols)
    half = m.rows // 2
    table = []
    key_of = []
    for i in range(m.nreels):
        strip = rs.strips[i]
        n = len(strip)
        w = rs.weights[i]
        first = len(table)
        row_keys = []
        for r in range(m.rows):
            d = [0] * nsym
            off = r - half
            for s in range(n):
                d[strip[(s + off) % n]] += 1 if w is None else w[s]
            k = first
            while k < len(table) and table[k] != d:
                k += 1
            if k == len(table):
                table.append(d)
            row_keys.append(k)
        key_of.append(row_keys)
    return table, key_of


def _maxpay(cpay, mask, n):
    # best pay among the groups in mask for a run of n (cpay rows are cumulative maxima)
    v = 0
    g = 0
    while mask:
        if mask & 1 and cpay[g][n] > v:
            v = cpay[g][n]
        mask >>= 1
        g += 1
    return v


def line_sum(m, rs, bi, work=None):
    """Sum over the cycle of the line pays of all lines (credits), at bet index bi. work: the
    budget's counter, [steps so far] (ModelError past limits.MAX_WORK)."""
    if work is None:
        work = [0]
    if m.ways:
        return ways_sum(m, rs, bi, work)
    table, key_of = _dists(m, rs)
    nr = m.nreels
    nsym = len(m.symbols)
    cpay = m.cpay[bi]
    if m.general:
        return _general_sum(m, rs, table, key_of, cpay, work)
    rgmask = m.rgmask
    shift = len(m.group_names)  # state key: alive groups in the low bits, best pay above them
    low = (1 << shift) - 1
    # product of the reel totals after reel n: a line settled early leaves the rest free
    tail = [1] * (nr + 1)
    for n in range(nr - 1, -1, -1):
        tail[n] = tail[n + 1] * rs.totals[n]
    cache = {}  # lines over the same distributions pay the same (every line of uniform reels)
    total = 0
    for line in m.lines:
        key = tuple(key_of[i][line[i]] for i in range(nr))
        v = cache.get(key)
        if v is None:
            v = 0
            states = {m.all_groups: 1}
            for n in range(nr):
                dist = table[key[n]]
                gmask = rgmask[n]
                nxt_states = {}
                _spend(work, len(states) * nsym)
                for st in states:
                    alive = st & low
                    best = st >> shift
                    w = states[st]
                    for code in range(nsym):
                        cw = dist[code]
                        if not cw:
                            continue
                        nxt = alive & gmask[code]
                        b = best
                        died = alive & ~nxt
                        if died:
                            p = _maxpay(cpay, died, n)
                            if p > b:
                                b = p
                        if nxt:
                            k2 = nxt | (b << shift)
                            nxt_states[k2] = nxt_states.get(k2, 0) + w * cw
                            if len(nxt_states) > MAX_STATES:  # before the dict grows again
                                _crowded(nxt_states)
                        elif b:
                            v += b * w * cw * tail[n + 1]
                states = nxt_states
            for st in states:
                best = st >> shift
                p = _maxpay(cpay, st & low, nr)
                v += (p if p > best else best) * states[st]
            cache[key] = v
        total += v
    return total


def ways_sum(m, rs, bi, work):
    """jeton-reels/3: sum over the cycle of the ways pays (credits) at bet index bi. The reels are
    independent and a group's ways are a product of per-reel factors, so the sum over the cycle of
    the ways of group g with a run of exactly n is (prod over i < n of A_i - prod of B_i) * Z_n *
    (the totals of the reels after n): A_i the sum over reel i's stops of the group's factor
    (members shown + wild multipliers), B_i that of its wilds alone (wild_alone false), Z_n the
    weight of reel n's stops showing neither. Stops x rows per reel and group: no combination."""
    nr = m.nreels
    rows = m.rows
    half = rows // 2
    cpay = m.cpay[bi]
    v = 0
    for g in range(len(m.group_names)):
        bit = 1 << g
        sums = []  # per reel: (A, B, Z)
        for i in range(nr):
            strip = rs.strips[i]
            n = len(strip)
            w = rs.weights[i]
            _spend(work, n * rows)
            sa = sb = z = 0
            for s in range(n):
                ca = cb = 0
                for r in range(rows):
                    c = strip[(s + r - half) % n]
                    if m.rmember[i][c] & bit:
                        ca += 1
                    elif m.wmult[c]:
                        ca += m.wmult[c]
                        cb += m.wmult[c]
                x = 1 if w is None else w[s]
                if ca:
                    sa += ca * x
                    sb += cb * x
                else:
                    z += x
            sums.append((sa, sb, z))
        pa = pb = 1
        for run in range(1, nr + 1):
            sa, sb, z = sums[run - 1]
            pa *= sa
            pb *= sb
            ways = pa if m.wild_alone else pa - pb
            if run < nr:
                tail = sums[run][2]
                for k in range(run + 1, nr):
                    tail *= rs.totals[k]
            else:
                tail = 1
            v += cpay[g][run] * ways * tail
    return v


def _general_sum(m, rs, table, key_of, cpay, work):
    # jeton-reels/2 with multiplier wilds or both-ways pays: per line and direction, a state is
    # (groups still matching grouped by the multiplier their wilds gave so far, best pay so far).
    # A wild multiplies a group where it substitutes (is no member of it on that reel).
    nr = m.nreels
    nsym = len(m.symbols)
    cache = {}
    total = 0
    for line in m.lines:
        key = tuple(key_of[i][line[i]] for i in range(nr))
        for rev in (0, 1) if m.both_ways else (0,):
            v = cache.get((key, rev))
            if v is None:
                v = cache[(key, rev)] = _general_line(m, rs, table, key, cpay, rev, nsym, work)
            total += v
    return total


def _slots(packed, g, empty8, live):
    """The slots of a packed state (g bits each) with groups still matching, into `live` as slot,
    mask, slot, mask, ...: the state taken apart once, not per symbol (each shift of a long state
    is a new bigint, and that garbage between the states kept would leave the heap in pieces)."""
    live.clear()
    full = (1 << g) - 1
    g8 = g * 8
    j = 0
    while packed:
        if not packed & empty8:  # eight empty slots at once
            packed >>= g8
            j += 8
            continue
        mask = packed & full
        if mask:
            live.append(j)
            live.append(mask)
        packed >>= g
        j += 1


def _general_line(m, rs, table, key, cpay, rev, nsym, work):
    # A state is one int (dict keys stay small on the device: no tuple per state): the best pay so
    # far in the low `bb` bits, above them one mask of g bits per multiplier slot, `mults[j]` the
    # multiplier of slot j (slots are added as products of wild multipliers appear).
    nr = m.nreels
    g = len(m.group_names)
    empty8 = (1 << (g * 8)) - 1  # eight slots' bits: one bigint for the whole sum
    top = 1
    for row in cpay:
        for x in row:
            if x > top:
                top = x
    most = 1
    for x in m.wmult:
        if x > most:
            most = x
    bb = 1
    top *= most ** nr  # the largest pay a line can reach
    while top >> (bb - 1):  # MicroPython's int has no bit_length()
        bb += 1
    low = (1 << bb) - 1
    mults = [1]
    order = [nr - 1 - n for n in range(nr)] if rev else list(range(nr))
    tail = [1] * (nr + 1)  # product of the totals of the reels after position n
    for n in range(nr - 1, -1, -1):
        tail[n] = tail[n + 1] * rs.totals[order[n]]
    v = 0
    states = {m.all_groups << bb: 1}
    live = []  # the state's slots with groups still matching: slot, mask, slot, mask, ...
    for n in range(nr):
        i = order[n]
        dist = table[key[i]]
        rg = m.rgmask[i]
        rm = m.rmember[i]
        nxt_states = {}
        _spend(work, len(states) * nsym)
        for st in states:
            w = states[st]
            _slots(st >> bb, g, empty8, live)
            for code in range(nsym):
                cw = dist[code]
                if not cw:
                    continue
                b = st & low
                out = 0
                for x in range(0, len(live), 2):
                    j = live[x]
                    mask = live[x + 1]
                    k = mults[j]
                    ext = mask & rg[code]
                    died = mask & ~ext
                    if died:
                        p = _maxpay(cpay, died, n) * k
                        if p > b:
                            b = p
                    mem = ext & rm[code]
                    if mem:
                        out |= mem << (g * j)
                    if ext & ~mem:  # a wild standing in: this slot's multiplier times its own
                        kk = k * m.wmult[code]
                        if kk not in mults:
                            if len(mults) >= MAX_STATES:  # a slot widens every state by g bits
                                raise ModelError("too large to recompute at boot: more than %d products of "
                                                 "wild multipliers on one line (limits.MAX_STATES)" % MAX_STATES)
                            mults.append(kk)
                        out |= (ext & ~mem) << (g * mults.index(kk))
                if out:
                    k2 = (out << bb) | b
                    nxt_states[k2] = nxt_states.get(k2, 0) + w * cw
                    if len(nxt_states) > MAX_STATES:  # before the dict grows again
                        _crowded(nxt_states)
                elif b:
                    v += b * w * cw * tail[n + 1]
        states = nxt_states
    for st in states:
        best = st & low
        if not rev:  # right to left, a run over every reel pays nothing
            _slots(st >> bb, g, empty8, live)
            for x in range(0, len(live), 2):
                p = _maxpay(cpay, live[x + 1], nr) * mults[live[x]]
                if p > best:
                    best = p
        v += best * states[st]
    return v


def scatter_counts(m, rs):
    """cnt[n] = weight of the cycle showing n scatters (sums to rs.cycle)."""
    maxsc = m.nreels * m.rows
    cnt = [1] + [0] * maxsc
    per = [0] * (m.rows + 1)
    for i in range(m.nreels):
        strip = rs.strips[i]
        n = len(strip)
        w = rs.weights[i]
        for k in range(m.rows + 1):
            per[k] = 0
        for s in range(n):
            k = 0
            if m.scatter is not None:
                off = s - m.rows // 2
                for r in range(m.rows):
                    if strip[(off + r) % n] == m.scatter:
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
    items = list(acnt.items())
    # W[g]: weight, over d**p, of the paths that have played p spins and were given g in all; spin
    # p + 1 is played when g > p. E[T] = sum over p of (weight playing spin p + 1) / d**p, summed by
    # Horner's rule over the common denominator d**p. Only totals reachable from `initial` by
    # retrigger steps appear (9 for a cap of 50 and +5 retriggers), never a table over the cap.
    W = {initial if initial < cap else cap: 1}
    num = 0
    den = 1
    p = 0
    while True:
        playing = 0
        nxt = {}
        for g in W:
            if g > p:
                w = W[g]
                playing += w
                for a, c in items:
                    g2 = g + a
                    if g2 > cap:
                        g2 = cap
                    nxt[g2] = nxt.get(g2, 0) + w * c
        if not playing:
            return num, den
        if p:
            num *= d
            den *= d
        num += playing
        W = nxt
        p += 1


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def rtp(m, bi):
    """Exact return at bet index bi as (num, den) in lowest terms (integers only)."""
    bet = m.bets[bi]
    db = m.base.cycle
    cb = scatter_counts(m, m.base)
    work = [0]
    lb = line_sum(m, m.base, bi, work)
    base = lb
    for n in range(len(cb)):
        base += cb[n] * m.spay[bi][n]
    num, den = base, db
    if m.free:
        df = m.free.cycle
        same = m.free is m.base
        cf = cb if same else scatter_counts(m, m.free)
        per = lb if same else line_sum(m, m.free, bi, work)
        for n in range(len(cf)):
            per += cf[n] * m.spay[bi][n]
        per *= m.multiplier  # sum over the free cycle of one free spin's credits
        # sum over n of cb[n] * E[T | award n], as one fraction; then times per / df
        tnum, tden = 0, 1
        for n in range(len(cb)):
            if cb[n] and m.award[n]:
                tn, td = expected_spins(m, cf, m.award[n])
                tnum, tden = tnum * td + cb[n] * tn * tden, tden * td
        fnum = tnum * per
        fden = tden * df
        num, den = num * fden + fnum, den * fden  # both over db
    den *= bet
    g = _gcd(num, den)
    return num // g, den // g
