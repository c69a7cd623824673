# Reel engine against evaluations it does not compute itself (issue 9, fault 18): games worked out
# by hand from the pay tables; the awards of the host's brute-force evaluator
# (tests/fixtures/games/vectors.json, checked against tools/certify/brute.py by
# tests/host/test_certify_vectors.py); and every shipped model at every bet played on both
# runtimes and compared, line by line, with an evaluator written here from docs/game-format.md
# that reads the model's JSON only (no games.model tables, no games.reels code).
import json
import os

from devtest import raises
from fakes_rng import Lcg

import games


def _vectors():
    with open("tests/fixtures/games/vectors.json") as f:
        return json.load(f)


def test_fixed_draws_match_independent_awards():
    cache = {}
    n = feats = 0
    for v in _vectors():
        g = cache.get(v["model"])
        if g is None:
            cache.clear()  # one model in memory at a time: the heap is the firmware's
            g = cache[v["model"]] = games.load(v["model"])
        o = g.play(Lcg(v["seed"]), v["bet"])
        assert o.draws == v["draws"], (v["model"], v["seed"])
        assert o.award == v["award"], (v["model"], v["seed"], o.award, v["award"])
        assert o.triggered == v["triggered"]
        r = g.evaluate(v["bet"], v["draws"])  # recall: the recorded draws alone give the same game
        assert r.award == v["award"] and r.stops == v["draws"][:len(r.stops)]
        feats += len(o.free) > 0
        n += 1
    assert n >= 80 and feats >= 12


def test_an_outcome_keeps_the_draws_it_was_given():
    # make test s37h: aurore-93's walk on the 128K board heap ran out of memory ("allocating 1024
    # bytes") where evaluate copied the draws of a feature near its cap of 50 free spins (255 draws,
    # a second piece of 1 KB beside play()'s list): the list played or recalled is the outcome's own
    v = next(v for v in _vectors() if v["triggered"] and v["model"].endswith("aurore-93.json"))
    g = games.load(v["model"])
    draws = list(v["draws"])
    assert g.evaluate(v["bet"], draws).draws is draws
    assert g.play(Lcg(v["seed"]), v["bet"]).draws == draws


def test_outcome_parts_add_up():
    g = games.load("games/models/aurore-93.json")
    for seed in range(1, 60):
        o = g.play(Lcg(seed), 40)
        base = sum(c for _, _, c in o.wins)
        assert o.award == base + sum(a for _, _, a in o.free)
        assert len(o.draws) == 5 * (1 + len(o.free))
        assert len(o.window) == 3 and len(o.window[0]) == 5
        d = o.to_dict()
        assert d["award"] == o.award and d["draws"] == o.draws


def test_replay_rejects_bad_draws():
    g = games.load("games/models/sept-royal-87.json")
    with raises(ValueError):
        g.evaluate(1, [0, 0])
    with raises(ValueError):
        g.evaluate(1, [0, 0, 0, 0])
    with raises(ValueError):
        g.evaluate(1, [0, 0, 99])
    with raises(ValueError):
        g.play(Lcg(1), 7)  # bet not offered


def test_describe_french_and_english():
    g = games.load("games/models/aurore-88.json")
    fr = g.describe("fr")
    en = g.describe("en")
    assert fr[0] == "Aurore boréale" and en[0] == "Northern Lights"
    assert "20, 40, 100" in fr[1] and "20 lignes" in fr[1] and "20 lines" in en[1]
    assert any("tours gratuits" in x for x in fr) and any("free spins" in x for x in en)
    assert any("2500" in x for x in fr)  # 5 wilds pay 2500 per coin at the lowest bet
    # the scatter's name agrees with nothing (Étoile polaire is feminine): "(symbole dispersé)"
    assert "  3 x Étoile polaire (symbole dispersé), n'importe où : 40 / 80 / 200" in fr
    # free spins: exactly the counts the model awards them for (free_spins award 3: 10, 4: 15, 5: 20)
    assert "3, 4 ou 5 symboles Étoile polaire : 10, 15 ou 20 tours gratuits; gains multipliés par 2." in fr
    assert "During free spins, 3, 4 or 5 North Star symbols add 5 more (at most 50 spins per feature)." in en
    sevens = games.load("games/models/sept-royal-87.json")
    # "toute combinaison de" agrees with the feminine "Barre"; the last one joined by "ou" / "or"
    assert "  3 x toute combinaison de Barre, Double barre ou Triple barre : 5 / 10 / 15" in sevens.describe("fr")
    assert "  3 x any mix of Bar, Double bar or Triple bar: 5 / 10 / 15" in sevens.describe("en")
    tri = games.load("games/models/tricolore-92.json").describe("en")  # members per reel, left to right
    assert "  3 x Red seven or Red bar, then White seven or White bar, then Blue seven or Blue bar: 12 / 24 / 36" in tri


def _independent(raw, bet, draws):
    """(award, base spin wins as the engine lists them, free spins played) of one game,
    from the model's JSON as docs/game-format.md states the rules: windows from the strips, every
    pay group scanned on every line ("n or more", highest group per line), scatter counted over
    the window, free spins with award, retrigger, cap and multiplier. Shares no code with games."""
    bi = raw["bets"].index(bet)
    coins = bet // len(raw["lines"])
    rows = raw.get("rows", 1)
    wild = raw.get("wild")
    scat = raw.get("scatter")
    spays = raw.get("scatter_pays") or {}
    fs = raw.get("free_spins") or {}
    nr = len(raw["reels"])
    # jeton-reels/2: member lists per reel, wilds with multipliers, both-ways pays
    v2 = raw.get("format") == "jeton-reels/2"
    wilds = {wild: 1} if wild is not None else {}
    if v2:
        wilds.update(raw.get("wilds") or {})
    both = v2 and raw.get("both_ways") is True

    def credits(v):
        return v[bi] if isinstance(v, list) else v * coins

    def spin(reels, stops, mult):
        win = []  # win[reel][row]
        for reel, stop in zip(reels, stops):
            strip = reel["strip"]
            win.append([strip[(stop + r - rows // 2) % len(strip)] for r in range(rows)])
        wins = []
        for li, line in enumerate(raw["lines"]):
            syms = [win[i][line[i]] for i in range(nr)]
            for rev in (False, True) if both else (False,):
                best = 0
                shortest = nr + 1
                for group in raw.get("pays", []):  # the first group listed wins a tie
                    members = group["reels"] if v2 and "reels" in group else [group["symbols"]] * nr
                    run = 0
                    k = 1  # the multipliers of the wilds standing in for a member
                    for i in range(nr):
                        i = nr - 1 - i if rev else i
                        if syms[i] not in members[i]:
                            if syms[i] not in wilds:
                                break
                            k *= wilds[syms[i]]
                        run += 1
                    if rev and run == nr:
                        continue  # a full line pays once, left to right
                    pays = group["pays"]
                    top = 0
                    for n in pays:
                        if int(n) <= run and credits(pays[n]) > top:
                            top = credits(pays[n])
                    # v2: an equal pay goes to the shorter run
                    if top * k > best or (v2 and top and top * k == best and run < shortest):
                        best = top * k
                        shortest = run
                        # named by the shortest run paying that much
                        name = "%d %s" % (min(int(n) for n in pays if credits(pays[n]) == top), group["name"])
                if best:
                    wins.append((li, name + " (R-L)" if rev else name, best * mult))
        n = 0
        for col in win:
            n += col.count(scat) if scat is not None else 0
        if str(n) in spays and credits(spays[str(n)]):
            wins.append((-1, "%d %s" % (n, scat), credits(spays[str(n)]) * mult))
        return sum(c for _, _, c in wins), wins, n

    award, wins, n = spin(raw["reels"], draws[:nr], 1)
    cap = fs.get("cap")
    left = fs.get("award", {}).get(str(n), 0)
    if cap is not None and left > cap:
        left = cap
    given = left
    played = 0
    pos = nr
    while left:
        w, _, k = spin(fs.get("reels") or raw["reels"], draws[pos:pos + nr], fs.get("multiplier", 1))
        award += w
        pos += nr
        played += 1
        left -= 1
        extra = (fs.get("retrigger") or {}).get(str(k), 0)
        if cap is not None and given + extra > cap:
            extra = cap - given
        given += extra
        left += extra
    assert pos == len(draws), "draws left over"
    return award, wins, played


def _raw(path):
    with open(path) as f:
        return json.load(f)


def _agrees(g, raw, o):
    award, wins, played = _independent(raw, o.bet, o.draws)
    assert o.award == award, (g.id, o.bet, o.draws, o.award, award)
    assert o.wins == wins, (g.id, o.draws, o.wins, wins)
    assert len(o.free) == played, (g.id, o.draws)
    return played


def test_games_worked_by_hand():
    # awards read off the pay tables of the model files by hand (docs/game-format.md rules)
    g = games.load("games/models/sept-royal-87.json")
    # strips start SEVEN BLANK BAR1 BLANK CHERRY BLANK BAR2 BLANK BAR1 BLANK BAR3 ...; the drawn stop
    # is the middle row, the one line
    assert g.evaluate(1, [0, 0, 0]).award == 200  # 3 SEVEN: [200, 400, 1500], bet 1
    assert g.evaluate(3, [0, 0, 0]).award == 1500
    o = g.evaluate(2, [4, 14, 2])  # CHERRY CHERRY BAR1: CHERRY "2": [5, 10, 15], bet 2
    assert o.award == 10 and o.wins == [(0, "2 CHERRY", 10)]
    o = g.evaluate(3, [2, 6, 10])  # BAR1 BAR2 BAR3: ANY BAR "3": [5, 10, 15], bet 3
    assert o.award == 15 and o.wins == [(0, "3 ANY BAR", 15)]
    assert g.evaluate(1, [1, 0, 0]).award == 0  # BLANK SEVEN SEVEN: runs start on reel 1

    path = "games/models/trefle-90.json"
    g = games.load(path)
    # window (rows top to bottom) of stops 0, 2, 10:  COIN BLANK BLANK / HAT CLOVER HARP /
    # BLANK COIN HORSESHOE. Only line 3 (rows 0, 1, 2) pays: COIN, CLOVER (wild), HORSESHOE make
    # ANY 3 = 2 per coin; bet 5 is 1 coin per line, bet 25 is 5
    o = g.evaluate(5, [0, 2, 10])
    assert o.award == 2 and o.wins == [(3, "3 ANY", 2)], o.wins
    assert g.evaluate(25, [0, 2, 10]).award == 10
    # stops 7, 8, 6: POT on every reel's middle row: scatter "3" = 20 per coin and 6 free spins
    # (award "3": 6) on the free reels, wins x 3. Free stops 1, 1, 1 show HAT HARP BELL /
    # BLANK BLANK BLANK / COIN CLOVER HAT: line 2 (bottom row) pays ANY 3 = 2, x 3 = 6 per spin
    o = g.evaluate(5, [7, 8, 6] + [1, 1, 1] * 6)
    assert o.triggered == 6 and len(o.free) == 6
    assert o.wins == [(-1, "3 POT", 20)] and o.free[0][1] == [(2, "3 ANY", 6)]
    assert o.award == 20 + 6 * 6
    for draws in ([0, 2, 10], [7, 8, 6] + [1, 1, 1] * 6):  # the evaluator below agrees
        _agrees(g, _raw(path), g.evaluate(5, draws))


def test_independent_evaluator_catches_a_wrong_engine():
    # the cross-check below must be able to fail: one pay changed in the engine's tables only
    path = "games/models/sept-royal-87.json"
    g = games.load(path)
    raw = _raw(path)
    o = g.evaluate(1, [0, 0, 0])
    _agrees(g, raw, o)
    g.m.cpay[0][0][3] = 201  # 3 SEVEN at bet 1 in the engine; the JSON still says 200
    o = g.evaluate(1, [0, 0, 0])
    with raises(AssertionError):
        _agrees(g, raw, o)


def test_every_shipped_model_agrees_with_the_independent_evaluator():
    import rng

    gen = rng.open_generator(rng.open_source("emulated"))
    names = sorted(n for n in os.listdir("games/models")  # reels only: keno and poker have their own tests
                   if _raw("games/models/" + n).get("format", "jeton-reels/1").startswith("jeton-reels/"))
    assert len(names) == 12
    # and mini5, whose cap of 3 cuts a retrigger short (no shipped model's cap does); mini2, a
    # jeton-reels/2 model with both-ways pays and free spins
    paths = ["games/models/" + name for name in names] + ["tests/fixtures/games/mini5.json",
                                                          "tests/fixtures/games/mini2.json"]
    wins = feats = 0
    for path in paths:
        g = games.load(path)
        raw = _raw(path)
        n = 200 if g.m.free else 30  # features trigger about once in 100 to 150 games
        for bet in g.bets:
            for seed in range(1, n + 1):
                o = g.play(Lcg(seed * 7919 + bet), bet)
                feats += _agrees(g, raw, o) > 0
                wins += o.award > 0
            _agrees(g, raw, g.play(gen, bet))  # and one on the real generator
        g = raw = None
    assert wins > 2300 and feats >= 120, (wins, feats)  # 2600 and 150 on these seeds
