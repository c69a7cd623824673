# Sic bo (issue 26; by-law s. 95.18-95.24), on both runtimes: throws settled by hand from s. 95.22 and
# 95.24; the throw maps rng.below's three results onto the dice; every wager of the shipped model,
# played through evaluate() on each of the 216 throws, returns what its certificate says; refusals
# by name; the by-law's full table is refused at boot where a wager is under 83 %.
import json

from devtest import raises, rmtree, tmpdir

from games.certificate import check
from games.limits import ModelError
from games.model import read
from games.sicbo import SicBoGame
from games.table_outcome import LOSE, WIN
from rng.crypto.canon import math_hash

FIX = "tests/fixtures/games/"


class Script:
    def __init__(self, values):
        self.values = list(values)

    def randbits(self, k):
        return self.values.pop(0)


def _all():
    return SicBoGame(read(FIX + "sicbo_bylaw_all.json"))


def _res(o):
    return {r[0]: (r[2], r[3]) for r in o.results}


def test_throws_by_hand():
    g = _all()
    stake = {"small": 5, "big": 5, "total11": 1, "duo:2-4": 1, "single:4": 5, "double:4": 1, "triple:4": 1,
             "any_triple": 1}
    r = _res(g.evaluate(stake, [4, 2, 5]))  # 11: big; 2 and 4 show; one 4
    assert r["big"] == (WIN, 10) and r["small"] == (LOSE, 0) and r["total11"] == (WIN, 7)  # 6 to 1
    assert r["duo:2-4"] == (WIN, 6) and r["single:4"] == (WIN, 10) and r["double:4"] == (LOSE, 0)
    r = _res(g.evaluate(stake, [4, 4, 2]))  # 10: small; two 4s: the double, the single 2 to 1
    assert r["small"] == (WIN, 10) and r["double:4"] == (WIN, 9) and r["single:4"] == (WIN, 15)
    assert r["duo:2-4"] == (WIN, 6) and r["triple:4"] == (LOSE, 0)
    r = _res(g.evaluate(stake, [4, 4, 4]))  # 12, a three of a kind: small and big lose (s. 95.22(6), (7))
    assert r["small"] == (LOSE, 0) and r["big"] == (LOSE, 0) and r["triple:4"] == (WIN, 151)
    assert r["any_triple"] == (WIN, 25) and r["double:4"] == (WIN, 9) and r["single:4"] == (WIN, 20)  # 3 to 1
    assert r["duo:2-4"] == (LOSE, 0)
    r = _res(g.evaluate({"total4": 1, "total17": 1, "total10": 1}, [1, 1, 2]))
    assert r == {"total4": (WIN, 51), "total17": (LOSE, 0), "total10": (LOSE, 0)}
    assert _res(g.evaluate({"total9": 1}, [3, 3, 3])) == {"total9": (WIN, 7)}  # totals count a triple


def test_the_throw_maps_below_onto_the_dice():
    g = _all()
    o = g.play(Script([0, 5, 7, 6, 2]), {"small": 1})  # 3 bits a die: 6 and 7 drawn again
    assert o.draws == [1, 6, 3] and o.window == {"dice": [1, 6, 3], "total": 10}


def test_every_wager_returns_what_its_certificate_says():
    g = SicBoGame(read("games/models/sicbo-83.json"))
    with open("games/certs/sicbo-83.json") as f:
        cert = json.load(f)
    for wid in g.m.ids:
        for bet in g.m.bets_of(wid):
            key = g.selections(wid)[-1]
            back = 0
            for i in range(216):
                back += g.evaluate({key: bet}, [i // 36 + 1, i // 6 % 6 + 1, i % 6 + 1]).award
            p, q = cert["rtp"][wid].split("/")
            assert back * int(q) == int(p) * 216 * bet, (wid, bet, back)
    # the hand-counted ways: small/big win on 105 of 216 throws, a duo on 30, a total of 10 on 27
    assert cert["rtp"]["small"] == "35/36" and cert["rtp"]["duo"] == "5/6" and cert["rtp"]["total10"] == "7/8"


def test_the_loader_and_the_stake_refuse_by_name():
    raw = read("games/models/sicbo-83.json")
    raw["wagers"]["total10"]["pays"] = [7, 1]
    with raises(ModelError) as e:
        SicBoGame(raw)
    assert 'wagers "total10": pays 7 to 1, the by-law pays 6 to 1 (s. 95.22(4), 95.24)' in str(e.value), str(e.value)
    g = SicBoGame(read("games/models/sicbo-83.json"))
    for stake, want in (({"duo:2-2": 1}, "duo on two different faces"), ({"single:7": 1}, "single on one face, 1 to 6"),
                        ({"total9": 1}, 'wager "total9" not offered'), ({"triple:3": 1}, 'wager "triple" not offered'),
                        ({"small": 4}, "not a bet level of small")):
        with raises(ValueError) as e:
            g.evaluate(stake, [1, 2, 3])
        assert want in str(e.value), (stake, str(e.value))
    for draws in ([1, 2], [0, 1, 2], [1, 2, 7]):
        with raises(ValueError):
            g.evaluate({"small": 1}, draws)
    with raises(ValueError):
        g.evaluate({"small": 1}, [1, 2, 3], {"x": 1})  # nothing stands at sic bo


def test_the_boot_check():
    ok, reason, game = check("games/models/sicbo-83.json", "games/certs/sicbo-83.json")
    assert ok and reason == "ok: sicbo-83, 14 wagers, lowest return 83.333 % (duo)", reason
    # the by-law's full table with its exact returns (hand-counted: a three of a kind on one number 1
    # throw in 216, at 150 to 1 returns 151/216): refused at boot, naming the first wager under 83 %
    raw = read(FIX + "sicbo_bylaw_all.json")
    g = SicBoGame(raw)
    cert = {"id": g.id, "math_hash": math_hash(raw), "rtp": {}}
    ways = {4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 25, 10: 27, 11: 27, 12: 25, 13: 21, 14: 15, 15: 10, 16: 6, 17: 3}
    for t, w in ways.items():
        cert["rtp"]["total%d" % t] = "%d/216" % (w * ({4: 51, 5: 31, 6: 19, 7: 13, 8: 9, 13: 9, 14: 13, 15: 19,
                                                          16: 31, 17: 51}.get(t, 7)))
    cert["rtp"].update({"small": "210/216", "big": "210/216", "duo": "180/216", "single": "199/216",
                        "any_triple": "150/216", "double": "144/216", "triple": "151/216"})
    d = tmpdir("sicbo")
    try:
        path = d + "/c.json"
        with open(path, "w") as f:
            json.dump(cert, f)
        ok, reason, game = check(FIX + "sicbo_bylaw_all.json", path)
        assert not ok and reason == "any_triple, bet 1: certified return 69.444 % below the 83 % floor (s. 93)", reason
    finally:
        rmtree(d)
