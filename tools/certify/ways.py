"""jeton-reels/3 (true ways): one spin's exact (credits, scatters) distribution and its win entries.

A group's ways are a product of per-reel factors (docs/game-format.md, version 3), so the programme
goes reel by reel on states holding, per group still running, the two products so far (all ways,
and the ways of wilds alone); a group whose run ends settles its credits at once. Reel stops are
first merged into classes by what they mean to the groups (each group's factor and wild factor) and
their scatter count, so a reel of 64 stops is a handful of classes. The states are bounded like the
other programmes (MAX_STEPS, MAX_STATES): a model past them is refused by name.

The return alone does not need this: games/exact.py sums products of per-reel expectations (the
device's boot check), and tools.certify checks the two agree to the last digit.
"""
from __future__ import annotations

from games.model import Model, ModelError, ReelSet
from tools.certify.joint import columns

MAX_STEPS = 20_000_000  # (state, stop class) pairs over every reel of one reel set
MAX_STATES = 400_000  # states after one reel


def _refuse(what: str, bound: int, name: str) -> None:
    raise ModelError("too large to certify exactly: the ways programme passes %d %s (tools/certify/ways.py %s)"
                     % (bound, what, name))


def factors(m: Model, reel: int, col: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Per group, (its factor, its wilds' factor) for one column of reel `reel`: members shown count
    1 each, a wild standing in its multiplier (in both)."""
    out = []
    for g in range(len(m.group_names)):
        bit = 1 << g
        ca = cb = 0
        for c in col:
            if m.rmember[reel][c] & bit:
                ca += 1
            elif m.wmult[c]:
                ca += m.wmult[c]
                cb += m.wmult[c]
        out.append((ca, cb))
    return tuple(out)


def _classes(m: Model, rs: ReelSet, reel: int) -> dict[tuple, int]:
    # stop classes of one reel: (per-group factors, scatters shown) -> weight
    out: dict[tuple, int] = {}
    for (col, sc), w in columns(m, rs, reel).items():
        key = (factors(m, reel, col), sc)
        out[key] = out.get(key, 0) + w
    return out


def distribution(m: Model, rs: ReelSet, bi: int) -> dict[tuple[int, int], int]:
    """{(credits, scatters): cycle weight} of one ways spin of reel set rs at bet index bi, the
    scatter pay in the credits."""
    nr = m.nreels
    ng = len(m.group_names)
    cpay = m.cpay[bi]
    sk = nr * m.rows + 1  # (credits, scatters) as credits * sk + scatters

    def ways(a: int, b: int) -> int:
        return a if m.wild_alone else a - b

    # state: per group (a, b) while running, None once settled -> {credits * sk + scatters: weight}
    states: dict[tuple, dict[int, int]] = {tuple((1, 1) for _ in range(ng)): {0: 1}}
    steps = 0
    for n in range(nr):
        cls = _classes(m, rs, n)
        nxt: dict[tuple, dict[int, int]] = {}
        for st, packed in states.items():
            steps += len(cls) * (1 + len(packed))
            if steps > MAX_STEPS:
                _refuse("steps", MAX_STEPS, "MAX_STEPS")
            for (fac, sc), w in cls.items():
                settled = 0
                out = []
                for g in range(ng):
                    p = st[g]
                    if p is None:
                        out.append(None)
                        continue
                    ca, cb = fac[g]
                    if ca:
                        out.append((p[0] * ca, p[1] * cb))
                    else:  # the run ends on reel n: n reels long
                        settled += cpay[g][n] * ways(*p)
                        out.append(None)
                key = tuple(out)
                d = nxt.get(key)
                if d is None:
                    d = nxt[key] = {}
                add = settled * sk + sc
                for k, c in packed.items():
                    d[k + add] = d.get(k + add, 0) + c * w
        if len(nxt) > MAX_STATES:
            _refuse("states after one reel", MAX_STATES, "MAX_STATES")
        states = nxt
    spay = m.spay[bi]
    dist: dict[tuple[int, int], int] = {}
    for st, packed in states.items():
        settled = sum(cpay[g][nr] * ways(*p) for g, p in enumerate(st) if p is not None)
        for k, c in packed.items():
            sc = k % sk
            key = (k // sk + settled + spay[sc], sc)
            dist[key] = dist.get(key, 0) + c
    return dist


def entries(m: Model, rs: ReelSet, bi: int) -> dict[tuple[int, int], int]:
    """{(group, n): the ways paying "n <group>" summed over the cycle} (n the shortest run paying
    that much, as the engine names it); a way of a x2 wild counts twice. From the per-reel sums:
    ways of a run of exactly n = (prod A - prod B) * Z_n * the totals of the reels after n."""
    nr = m.nreels
    cpay = m.cpay[bi]
    cls = [_classes(m, rs, n) for n in range(nr)]
    out: dict[tuple[int, int], int] = {}
    for g in range(len(m.group_names)):
        pa = pb = 1
        for run in range(1, nr + 1):
            pa *= sum(fac[g][0] * w for (fac, _), w in cls[run - 1].items())
            pb *= sum(fac[g][1] * w for (fac, _), w in cls[run - 1].items())
            after = 1
            if run < nr:
                after = sum(w for (fac, _), w in cls[run].items() if not fac[g][0])
                for k in range(run + 1, nr):
                    after *= rs.totals[k]
            count = (pa if m.wild_alone else pa - pb) * after
            if cpay[g][run] and count:
                n = run
                while n > 1 and cpay[g][n - 1] == cpay[g][run]:
                    n -= 1
                out[(g, n)] = out.get((g, n), 0) + count
    return out
