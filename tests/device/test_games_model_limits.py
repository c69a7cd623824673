# Bad and large models (issue 23.10), both runtimes: the model checks (games/model.py,
# games/keno_model.py, games/poker_model.py) refuse every malformed kind and every bound of
# games/limits.py in one message naming it, each bound holds at its value and refuses one past it,
# and the device's boot check (games.certificate.check) answers every one of them with a reason in
# bounded time and heap, never an exception. The host certifier's side: tests/host/test_certify_bad_models.py.
# mp-heap: 320K  (this module and games/ compiled from source take some 100 KB that a board's frozen image
# does not; a recomputation at its 256-state bound needs 4.7 KB pieces for its dicts, games/exact.py)
import json

from devtest import raises, rmtree, tmpdir

from games import certificate, exact, limits
from games.keno_model import KenoModel
from games.limits import ModelError
from games.model import Model, read
from games.poker_model import PokerModel
from rng.crypto.canon import math_hash


def load(name):
    return read("games/models/%s.json" % name)


def copy(v):
    # a deep copy without one big JSON text (MicroPython's heap in a test is fragmented)
    if isinstance(v, dict):
        return {k: copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [copy(x) for x in v]
    return v


def why(cls, raw):
    with raises(ModelError) as e:
        cls(raw)
    return str(e.value)


def skeleton(**kw):
    m = copy(load("skeleton-88"))
    m.update(kw)
    return m


def test_values_of_the_wrong_kind_are_named():
    # each of these was a traceback (AttributeError, TypeError) in tools.certify
    m = skeleton()
    m["reels"][0] = "AAA"
    assert why(Model, m) == "reels[0] must be an object"
    m = skeleton()
    m["pays"][0] = ["SEVEN"]
    assert why(Model, m) == "pays[0] must be an object"
    m = skeleton()
    m["reels"][1]["strip"][3] = ["SEVEN"]
    assert why(Model, m) == "reels[1]: a stop is a symbol's name, not a list"
    m = skeleton()
    m["pays"][0]["symbols"] = [{"x": 1}]
    assert why(Model, m) == 'pay "SEVEN": a member is a symbol\'s name, not an object'
    assert why(Model, skeleton(wild=["SEVEN"])) == "wild is not a symbol"
    a = copy(load("aurore-88"))
    a["scatter_pays"] = [0, 0, 1]
    assert why(Model, a) == "scatter_pays must be an object {count: value}"
    a = copy(load("aurore-88"))
    a["free_spins"] = [10, 15]
    assert why(Model, a) == "free_spins must be an object"
    a = copy(load("aurore-88"))
    a["free_spins"]["award"] = [0, 0, 10]
    assert why(Model, a) == "free_spins award must be an object"
    assert why(Model, ["not", "a", "model"]) == "model must be an object"


def test_count_keys_have_one_spelling():
    # "3" and "03" in one group certified silently with the later value (skeleton-88 at 311 %);
    # a fullwidth "\uff13" certified on the host (int() reads it) and was refused on the device
    for key in ("03", "\uff13", " 3", "3 ", "+3", "3.0", "", "1000"):
        m = skeleton()
        table = m["pays"][0]["pays"]
        table[key] = table.pop("3")
        assert why(Model, m) == 'pay "SEVEN": key %s is not a count (decimal digits 0-9, no leading zero)' % (
            limits.quote(key)), key
    a = copy(load("aurore-88"))
    a["scatter_pays"]["03"] = 1
    assert why(Model, a).startswith('scatter_pays: key "03" is not a count')
    a = copy(load("aurore-88"))
    a["free_spins"]["award"]["\uff13"] = a["free_spins"]["award"].pop("3")
    assert why(Model, a).startswith('free_spins award: key "\\uff13" is not a count')
    k = copy(load("keno-classique-88"))
    k["pays"]["\uff13"] = k["pays"].pop("3")
    assert why(KenoModel, k).startswith('pays: key "\\uff13" is not a count')
    k = copy(load("keno-classique-88"))
    k["pays"]["3"]["03"] = 1
    assert why(KenoModel, k).startswith('pays 3: key "03" is not a count')


def test_keys_a_format_does_not_know_are_refused_by_name():
    # a cascade or a pick bonus was certified as the plain game without it
    assert why(Model, skeleton(cascade=True)) == 'jeton-reels/1: unknown key "cascade"'
    assert why(Model, skeleton(pick_bonus={"picks": 3})) == 'jeton-reels/1: unknown key "pick_bonus"'
    assert why(Model, skeleton(both_ways=True)) == \
        'jeton-reels/1: key "both_ways" is a key of jeton-reels/2 (the model says jeton-reels/1)'
    m = skeleton(format="jeton-reels/2", cascade=True)
    assert why(Model, m) == 'jeton-reels/2: unknown key "cascade"'
    m = skeleton()
    m["reels"][0]["nudge"] = 1
    assert why(Model, m) == 'reels[0]: unknown key "nudge"'
    m = skeleton()
    m["pays"][1]["multiplier"] = 2
    assert why(Model, m) == 'pays[1]: unknown key "multiplier"'
    m = skeleton()
    m["name"]["de"] = "Drei"
    assert why(Model, m) == 'name: unknown key "de"'
    a = copy(load("aurore-88"))
    a["free_spins"]["sticky_wilds"] = True
    assert why(Model, a) == 'free_spins: unknown key "sticky_wilds"'
    s = copy(load("sept-royal-87"))
    s["progressive"]["link"] = "x"
    assert why(Model, s) == 'progressive: unknown key "link"'
    k = copy(load("keno-classique-88"))
    k["bonus"] = 1
    assert why(KenoModel, k) == 'jeton-keno/1: unknown key "bonus"'
    p = copy(load("jacks-98"))
    p["double_up"] = True
    assert why(PokerModel, p) == 'jeton-poker/1: unknown key "double_up"'
    p = copy(load("jacks-98"))
    p["awards"][0]["progressive"] = True
    assert why(PokerModel, p) == 'award 0: unknown key "progressive"'


def test_poker_bets_are_one_to_five_coins():
    p = copy(load("jacks-98"))
    p["bets"] = [1, 2, 3, 4, 5, 6]
    for a in p["awards"]:
        if isinstance(a["pays"], list):
            a["pays"].append(a["pays"][-1])
    assert why(PokerModel, p) == "bet 6: a video poker bet is 1 to 5 coins (limits.MAX_POKER_COINS)"
    p["bets"] = [0, 1]
    assert why(PokerModel, p) == "bet must be a positive integer"
    p = copy(load("jacks-98"))
    p["bets"] = [5]
    for a in p["awards"]:
        if isinstance(a["pays"], list):
            a["pays"] = a["pays"][-1:]
    assert PokerModel(p).bets == [5]  # the bound itself


def _reels(n, stops=3, weights=None):
    reel = {"strip": (["SEVEN", "BAR", "CHERRY", "BLANK"] * 65)[:stops]}
    if weights is not None:
        reel["weights"] = weights
    return [copy(reel) for _ in range(n)]


def test_each_bound_holds_at_its_value_and_refuses_one_past():
    def shape(nr, rows=1, stops=3, weights=None, lines=1, bets=None):
        m = skeleton(rows=rows, reels=_reels(nr, stops, weights), lines=[[0] * nr] * lines,
                     bets=bets or [lines])
        for p in m["pays"]:
            p["pays"] = {"3": 1}
        return m

    assert limits.MAX_REELS == 5
    assert Model(shape(5)).nreels == 5
    assert why(Model, shape(6)) == "reels: 6 reels, at most 5 (limits.MAX_REELS)"
    assert Model(shape(3, rows=5, stops=5)).rows == 5
    assert why(Model, shape(3, rows=6, stops=6)) == "6 rows, at most 5 (limits.MAX_ROWS)"
    assert Model(shape(3, stops=256)).base.totals == [256] * 3
    assert why(Model, shape(3, stops=257)) == "reels[0]: 257 stops, at most 256 (limits.MAX_STOPS)"
    assert Model(shape(3, weights=[65534, 1, 1])).base.cycle == 65536 ** 3
    assert why(Model, shape(3, weights=[65535, 1, 1])) == \
        "reels[0]: weights sum to 65537, at most 65536 (limits.MAX_REEL_WEIGHT)"
    assert len(Model(shape(3, lines=50)).lines) == 50
    assert why(Model, shape(3, lines=51)) == "51 lines, at most 50 (limits.MAX_LINES)"
    assert len(Model(shape(3, bets=list(range(1, 11)))).bets) == 10
    assert why(Model, shape(3, bets=list(range(1, 12)))) == "11 bet levels: at most 10 (limits.MAX_BETS)"
    m = skeleton()
    m["pays"] = [{"name": "G%d" % g, "symbols": ["SEVEN"], "pays": {"3": 1}} for g in range(31)]
    assert why(Model, m) == "pays must be a list of at most 30 groups (limits.MAX_GROUPS)"
    m["pays"] = m["pays"][:30]
    assert len(Model(m).group_names) == 30
    syms = ["S%d" % i for i in range(256)]
    m = skeleton(symbols=syms[:255], reels=[{"strip": syms[:255]}] * 3)
    m["pays"] = [{"name": "S0", "symbols": ["S0"], "pays": {"3": 1}}]
    assert len(Model(m).symbols) == 255
    m["symbols"] = syms
    assert why(Model, m) == "256 symbols, at most 255 (limits.MAX_SYMBOLS)"


def test_free_spins_are_bounded():
    # "cap": 1000000000 ran past 300 s in tools.certify and 120 s in the boot check
    a = copy(load("aurore-88"))
    fs = a["free_spins"]
    fs["cap"] = limits.MAX_FREE_SPINS
    assert Model(a).cap == 100
    fs["cap"] = 101
    assert why(Model, a) == "free_spins cap is 101: at most 100 (limits.MAX_FREE_SPINS)"
    fs["cap"] = 400  # aurore-88 at 400 died printing its 4,300-digit return on the host
    assert why(Model, a) == "free_spins cap is 400: at most 100 (limits.MAX_FREE_SPINS)"
    fs["cap"] = 50
    fs["award"]["3"] = 101
    assert why(Model, a) == "free_spins award 3 is 101: at most 100 (limits.MAX_FREE_SPINS)"
    fs["award"]["3"] = 10
    fs["retrigger"]["3"] = 101
    assert why(Model, a) == "free_spins retrigger 3 is 101: at most 100 (limits.MAX_FREE_SPINS)"
    fs["retrigger"]["3"] = 100
    assert Model(a).retrigger[3] == 100


def test_strategy_is_bounded():
    p = copy(load("jacks-98"))
    p["strategy"] = ["x%d" % i for i in range(256)]
    assert len(PokerModel(p).strategy) == 256
    p["strategy"].append("y")
    assert why(PokerModel, p) == "strategy: 257 patterns, at most 256 (limits.MAX_STRATEGY)"


def hostile(nsym, ngroups, nreels, nlines):
    # symbols in pseudo-random subsets of the groups: the line programme's states multiply
    x = 1
    syms = ["S%d" % i for i in range(nsym)]
    groups = []
    for g in range(ngroups):
        mem = []
        for i in range(nsym):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            if x >> 16 & 1:
                mem.append(syms[i])
        groups.append({"name": "G%d" % g, "symbols": mem or [syms[g % nsym]], "pays": {str(nreels): g + 1, "2": 1}})
    reels = [{"strip": [syms[(i * (r + 3)) % nsym] for i in range(nsym)],
              "weights": [1 + (i * 7 + r) % 5 for i in range(nsym)]} for r in range(nreels)]
    return {"format": "jeton-reels/1", "id": "hostile", "name": {"fr": "h", "en": "h"}, "rows": 3,
            "symbols": syms, "reels": reels, "lines": [[(k // 3 ** r) % 3 for r in range(nreels)] for k in range(nlines)],
            "bets": [nlines], "pays": groups}


def test_the_recomputation_is_bounded_in_heap_and_time():
    # within every bound of the format, yet the line programme's states grow as symbols ** reels:
    # refused after 256 states (limits.MAX_STATES) or 200 000 steps (limits.MAX_WORK)
    with raises(ModelError) as e:
        exact.rtp(Model(hostile(40, 30, 5, 1)), 0)
    assert str(e.value) == ("too large to recompute at boot: more than 256 states of the line programme "
                            "after one reel (limits.MAX_STATES)")
    with raises(ModelError) as e:
        exact.rtp(Model(hostile(100, 5, 5, 50)), 0)
    assert str(e.value) == ("too large to recompute at boot: more than 200000 steps of the line programme "
                            "for one bet level (limits.MAX_WORK)")
    # multiplier wilds (jeton-reels/2): each product of wild multipliers on a line widens every
    # state of the programme by a slot of group bits; 17 wilds of distinct prime multipliers
    primes = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59)
    ws = ["W%d" % i for i in range(17)]
    wild = {"format": "jeton-reels/2", "id": "wilds", "name": {"fr": "w", "en": "w"}, "rows": 1,
            "symbols": ["A"] + ws, "wilds": {w: primes[i] for i, w in enumerate(ws)},
            "reels": [{"strip": ["A"] + ws}] * 3, "lines": [[0, 0, 0]], "bets": [1],
            "pays": [{"name": "A", "symbols": ["A"], "pays": {"3": 1}}]}
    with raises(ModelError) as e:
        exact.rtp(Model(wild), 0)
    assert str(e.value) == ("too large to recompute at boot: more than 256 products of wild multipliers on one "
                            "line (limits.MAX_STATES)")
    wild["wilds"] = {w: 2 for w in ws}  # the same wilds all x2: a handful of products, computed
    assert exact.rtp(Model(wild), 0)[1] > 0
    # at the bound and one past it: the steps skeleton-88 takes
    m = Model(load("skeleton-88"))
    work = [0]
    exact.line_sum(m, m.base, 0, work)
    saved = exact.MAX_WORK
    try:
        exact.MAX_WORK = work[0]
        assert exact.rtp(m, 0) == (22, 25)  # its certified 88 % at bet 1 (games/certs/skeleton-88.json)
        exact.MAX_WORK = work[0] - 1
        with raises(ModelError):
            exact.rtp(m, 0)
    finally:
        exact.MAX_WORK = saved


def _write(d, name, model, cert=None):
    # model: a dict, a text, or a list of (text, times) pieces (large files: a board-sized heap)
    path = "%s/%s.json" % (d, name)
    with open(path, "w") as f:
        if isinstance(model, list):
            for piece, times in model:
                for _ in range(times):
                    f.write(piece)
        elif isinstance(model, str):
            f.write(model)
        else:
            json.dump(model, f)
    cpath = "%s/%s.cert.json" % (d, name)
    with open(cpath, "w") as f:
        json.dump(cert or {"id": "x", "math_hash": "0" * 64, "rtp": {}}, f)
    return path, cpath


def test_the_boot_check_names_every_fault_and_never_raises():
    d = tmpdir("badmodels")
    try:
        # a hostile model whose certificate has its hash: the device starts the recomputation and
        # stops at its bound (a model that would take minutes is refused, not computed)
        h = hostile(40, 30, 5, 1)
        path, cpath = _write(d, "hostile", h, {"id": "hostile", "math_hash": math_hash(h), "rtp": {"1": "9/10"}})
        ok, reason, game = certificate.check(path, cpath)
        assert not ok and reason == ("invalid model: too large to recompute at boot: more than 256 states of "
                                     "the line programme after one reel (limits.MAX_STATES)"), reason
        m = skeleton()
        m["pays"][0]["pays"] = json.loads('{"3": 1000}')
        dup = json.dumps(m).replace('"pays": {"3": 1000}', '"pays": {"3": 1000, "3": 300}')
        a = copy(load("aurore-88"))
        a["free_spins"]["cap"] = 400
        cases = (
            (dup, 'unreadable model or certificate: pays[0].pays: duplicate key "3" at byte '),
            ([("[", 8000), ("]", 8000)], "unreadable model or certificate: [0][0][0][0][0][0][0][0]: nested deeper"),
            ('{"format": "jeton-reels/1", "cap": 1000000000}', "unreadable model or certificate: cap: integer of 10 digits"),
            (skeleton(cascade=True), 'invalid model: jeton-reels/1: unknown key "cascade"'),
            (a, "invalid model: free_spins cap is 400: at most 100 (limits.MAX_FREE_SPINS)"),
            (dict(copy(load("keno-classique-88")), pays={"\uff13": {"3": 1}}), 'invalid model: pays: key "\\uff13"'),
            (dict(copy(load("jacks-98")), bets=[1, 2, 3, 4, 5, 6]),
             "invalid model: bet 6: a video poker bet is 1 to 5 coins (limits.MAX_POKER_COINS)"),
            ([("[", 1), ("1,", 8190), ("1]", 1)], None),  # 16 KB of the heaviest JSON: a list, or the heap
        )
        for i, (model, want) in enumerate(cases):
            path, cpath = _write(d, "m%d" % i, model)
            ok, reason, game = certificate.check(path, cpath)
            assert not ok and game is None and "\n" not in reason, (i, reason)
            if want is None:  # a list of 8,192 integers fits the host; MicroPython's heap may not hold it
                assert reason == "invalid model: model must be an object" or reason.startswith(
                    certificate.NO_MEMORY), reason
            else:
                assert reason.startswith(want), (i, reason)
    finally:
        rmtree(d)
