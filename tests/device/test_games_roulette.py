# Roulette (issue 26; by-law s. 68-74), on both runtimes: payouts worked out by hand from s. 72 and
# 72.1; the layout's selections counted from its geometry; the spin maps rng.below's result onto the
# pocket one to one; every shipped model's wagers, played on every pocket through the engine's own
# evaluate(), return exactly what the certificate says; the double stands after its first hit; each
# refusal of the loader, of a stake and of the boot check names its reason.
import json

from devtest import raises, rmtree, tmpdir

from games.certificate import check
from games.limits import ModelError
from games.model import read
from games.roulette import DZ, RouletteGame, selections
from games.table_outcome import LOSE, STAND, WIN

FIX = "tests/fixtures/games/"


class Script:
    """randbits(k) from a list of values (each must be below the range asked for)."""

    def __init__(self, values):
        self.values = list(values)
        self.asked = []

    def randbits(self, k):
        self.asked.append(k)
        return self.values.pop(0)


def _game(name="roulette-double-87"):
    return RouletteGame(read("games/models/%s.json" % name))


def _raw(name="roulette-simple-97"):
    return read("games/models/%s.json" % name)


def test_payouts_by_hand():
    g = _game()
    # 17 is black, odd, low, in the second dozen and column 2 (17 = 3 x 5 + 2)
    o = g.evaluate({"straight:17": 5, "split:17-20": 2, "street:16-17-18": 1, "corner:13-14-16-17": 1,
                    "six_line:13-14-15-16-17-18": 1, "column:2": 1, "dozen:2": 2, "black": 5, "red": 5,
                    "odd": 1, "even": 1, "low": 1, "high": 1, "first_four": 1}, [17])
    got = {r[0]: (r[2], r[3]) for r in o.results}
    assert got["straight:17"] == (WIN, 5 * 36)  # 35 to 1: the stake and 35 times it
    assert got["split:17-20"] == (WIN, 2 * 18)  # 17 to 1
    assert got["street:16-17-18"] == (WIN, 12)  # 11 to 1
    assert got["corner:13-14-16-17"] == (WIN, 9)  # 8 to 1
    assert got["six_line:13-14-15-16-17-18"] == (WIN, 6)  # 5 to 1
    assert got["column:2"] == (WIN, 3) and got["dozen:2"] == (WIN, 6)  # 2 to 1
    assert got["black"] == (WIN, 10) and got["odd"] == (WIN, 2) and got["low"] == (WIN, 2)
    for k in ("red", "even", "high", "first_four"):
        assert got[k] == (LOSE, 0), k
    assert o.bet == 28 and o.award == 180 + 36 + 12 + 9 + 6 + 3 + 6 + 10 + 2 + 2
    assert o.window == {"pocket": "17", "colour": "black"} and o.draws == [17] and o.table == {}


def test_outside_wagers_always_lose_on_zero():
    for name, zeros in (("roulette-simple-97", (0,)), ("roulette-americaine-92", (0, DZ))):
        g = _game(name)
        outside = {"column:1": 1, "column:2": 1, "column:3": 1, "dozen:1": 1, "dozen:2": 1, "dozen:3": 1,
                   "red": 1, "black": 1, "odd": 1, "even": 1, "low": 1, "high": 1}
        for z in zeros:
            o = g.evaluate(outside, [z])
            assert o.award == 0 and all(r[2] == LOSE for r in o.results), (name, z)
        assert g.evaluate({"straight:0": 1}, [0]).award == 36
    g = _game("roulette-americaine-92")
    assert g.evaluate({"straight:00": 2, "first_five": 1}, [DZ]).award == 72 + 7  # 00 straight; 6 to 1
    assert g.evaluate({"split:0-00": 1}, [DZ]).window == {"pocket": "00", "colour": "green"}


def test_the_layout_counts_its_wagers():
    # 1-36 in 12 rows of 3: 24 side-by-side and 33 one-above-the-other splits, with 3 zero splits on
    # the single-zero layout (0-1, 0-2, 0-3) and 5 on the double-zero one (0-1, 0-2, 00-2, 00-3, 0-00);
    # 12 streets and the zero trios (2 / 3); 11 x 2 corners; 11 six lines; a straight per pocket
    for zeros, splits, streets in ((1, 60, 14), (2, 62, 15)):
        assert len(selections("split", zeros)) == splits
        assert len(selections("street", zeros)) == streets
        assert len(selections("corner", zeros)) == 22 and len(selections("six_line", zeros)) == 11
        assert len(selections("straight", zeros)) == 36 + zeros
        for wid in ("split", "street", "corner", "six_line", "straight"):
            keys = selections(wid, zeros)
            assert len(set(keys)) == len(keys)
    assert "split:2-00" in selections("split", 2) and "street:0-2-00" in selections("street", 2)
    assert "split:0-00" not in selections("split", 1) and "split:3-4" not in selections("split", 1)


def test_the_spin_maps_below_onto_the_pocket():
    # rng.below(gen, 37): 6 bits, values 37-63 rejected and drawn again; the pocket is the value
    g = _game("roulette-simple-97")
    for v in (0, 17, 36):
        gen = Script([v])
        o = g.play(gen, {"straight:%d" % v: 1})
        assert o.draws == [v] and o.award == 36 and gen.asked == [6]
    gen = Script([37, 63, 5])
    assert g.play(gen, {"red": 1}).draws == [5] and gen.asked == [6, 6, 6]
    g = _game("roulette-americaine-92")  # 38 pockets: 37 is 00
    assert g.play(Script([37]), {"straight:00": 1}).window["pocket"] == "00"


def test_every_wager_returns_what_its_certificate_says():
    # the engine's own evaluate() on every pocket, for every wager of every shipped roulette model at
    # every bet level, against the certified fraction: return = sum of returned / (pockets x stake)
    for name in ("roulette-simple-97", "roulette-americaine-92", "roulette-double-87"):
        g = _game(name)
        with open("games/certs/%s.json" % name) as f:
            cert = json.load(f)
        for wid in g.m.ids:
            bets = g.m.bets_of(wid)
            rtp = cert["rtp"][wid]
            rtp = rtp if isinstance(rtp, list) else [rtp] * len(bets)
            for i in range(len(bets)):
                key = selections(wid, g.m.zeros)[-1]  # the layout's last: the boot check takes the first
                k = 3 if wid == "triple" else 2 if wid == "double" else 1
                back = _returned(g, {key: bets[i]}, None, k)
                p, q = rtp[i].split("/")
                n = g.pockets ** k
                assert back * int(q) == int(p) * n * bets[i], (name, wid, bets[i], back, rtp[i])


def _returned(g, stake, table, k):
    # the credits returned over every sequence of k spins, a spin's return weighted by the pockets of
    # the spins after it (pockets^(k-1) for the first): the return is that over pockets^k x stake
    if k == 0:
        return 0
    total = 0
    for p in range(g.pockets):
        o = g.evaluate(stake, [p], table)
        total += o.award * g.pockets ** (k - 1)
        if o.table:  # a double or triple that hit stands for the next spin
            total += _returned(g, {}, o.table, k - 1)
    return total


def test_the_double_stands_after_its_first_hit():
    g = _game()
    o = g.evaluate({"double:17": 2, "straight:17": 1}, [17])
    assert o.table == {"double:17/1": 2} and o.award == 36
    assert ["double:17", 2, STAND, 0, "double:17/1"] in o.results
    o = g.evaluate({}, [17], o.table)  # the second spin on 17: 1,200 to 1 (no triple offered)
    assert o.results == [["double:17/1", 2, WIN, 2 * 1201, None]] and o.table == {} and o.bet == 0
    o = g.evaluate({}, [18], {"double:17/1": 2})
    assert o.award == 0 and o.results[0][2] == LOSE and o.table == {}
    assert g.evaluate({"double:17": 1}, [16]).table == {}  # a miss on the first spin: lost


def test_the_loader_refuses_by_name():
    def refused(change, want):
        raw = _raw()
        change(raw)
        with raises(ModelError) as e:
            RouletteGame(raw)
        assert want in str(e.value), (want, str(e.value))

    refused(lambda m: m["wagers"]["straight"].update(pays=[36, 1]), 'wagers "straight": pays 36 to 1, the by-law pays 35 to 1')
    refused(lambda m: m["wagers"].update(basket={"name": {"fr": "a", "en": "a"}, "pays": [6, 1], "section": "x"}),
            'wagers "basket" is not a wager of the by-law')
    refused(lambda m: m["wagers"].update(first_five=m["wagers"]["first_four"]), 'wagers "first_five" is not a wager')
    refused(lambda m: m.update(zeros=3), "zeros must be 1")
    refused(lambda m: m["wagers"]["red"].update(section="s. 73"), 'section "s. 73", the by-law\'s is "s. 72(1)(e)"')
    refused(lambda m: m["wagers"]["red"].update(colour="red"), 'wagers "red": unknown key "colour"')
    refused(lambda m: m.update(spin=7), 'unknown key "spin"')
    refused(lambda m: m["wagers"]["red"].update(bets=[5, 2]), "bets must be ascending")
    refused(lambda m: m.pop("rules"), "rules needs fr and en")
    # s. 72.1: the double pays 1,000 to 1 only where the triple is offered
    raw = read("games/models/roulette-double-87.json")
    raw["wagers"]["double"]["pays"] = [1000, 1]
    with raises(ModelError) as e:
        RouletteGame(raw)
    assert "the by-law pays 1200 to 1 (s. 72.1)" in str(e.value), str(e.value)
    RouletteGame(read(FIX + "roulette_bylaw_all.json"))  # with the triple: 1,000 to 1 is the by-law's


def test_a_stake_is_refused_by_name():
    g = _game()
    for stake, want in (({"split:17-19": 1}, 'the layout offers no split on those numbers'),
                        ({"split:20-17": 1}, "ascending order"),
                        ({"straight:00": 1}, '"00" is not a pocket of this wheel'),
                        ({"straight:07": 1}, '"07" is not a pocket'),
                        ({"first_five": 1}, 'wager "first_five" not offered'),
                        ({"red": 3}, '"red": 3 credits is not a bet level of red (1, 2, 5, 10, 25)'),
                        ({"double:17": 10}, "not a bet level of double (1, 2, 5)"),
                        ({"double:17/1": 1}, "a standing double or triple is the table's"),
                        ({"column:4": 1}, "column 1, 2 or 3"), ({"red:1": 1}, "red takes no numbers"),
                        ({7: 1}, "is not a string"), ([1], "an object")):
        with raises(ValueError) as e:
            g.evaluate(stake, [0])
        assert want in str(e.value), (stake, str(e.value))
    with raises(ValueError) as e:
        g.evaluate({"red": 1}, [0], {"double:17": 1})
    assert "not a standing double or triple" in str(e.value)
    for draws in ([37], [-1], [], [1, 2], "1"):
        with raises(ValueError):
            g.evaluate({"red": 1}, draws)


def test_most_and_risk():
    g = _game()
    stake = {"straight:17": 5, "red": 2, "split:17-20": 1}
    assert g.risk(stake) == 8
    assert g.most(stake) == 180 + 18  # 17 is black: the straight and the split


def test_the_boot_check_recomputes_and_names_a_lying_certificate():
    ok, reason, game = check("games/models/roulette-double-87.json", "games/certs/roulette-double-87.json")
    assert ok and reason == "ok: roulette-double-87, 15 wagers, lowest return 87.728 % (double)", reason
    assert game.kind == "roulette" and game.bets == [1, 2, 5, 10, 25]
    assert game.max_award == [1201, 2402, 6005, 360, 900]  # the double at 1-5, then the straight
    d = tmpdir("roulette")
    try:
        with open("games/certs/roulette-double-87.json") as f:
            cert = json.load(f)
        cert["rtp"]["red"] = "99/100"  # above the floor, but not what the engine pays
        path = d + "/c.json"
        with open(path, "w") as f:
            json.dump(cert, f)
        ok, reason, game = check("games/models/roulette-double-87.json", path)
        assert not ok and game is None
        assert reason == "red, bet 1: recomputed return 97.297 % differs from the certified 99.000 %", reason
        # the by-law's every wager, the triple offered (double zero): a certificate with the exact
        # returns, each worked out by hand (n numbers at k to 1 return n (k + 1) / 38), and one lie
        true = {"straight": "36/38", "split": "36/38", "street": "36/38", "corner": "36/38", "six_line": "36/38",
                "column": "36/38", "dozen": "36/38", "low": "36/38", "high": "36/38", "even": "36/38",
                "odd": "36/38", "red": "36/38", "black": "36/38", "first_five": "35/38",
                "double": "1001/1444", "triple": "10001/54872"}  # 1/38^2 x 1,001; 1/38^3 x 10,001
        from rng.crypto.canon import math_hash
        cert = {"id": "roulette-bylaw-all", "math_hash": math_hash(read(FIX + "roulette_bylaw_all.json")),
                "rtp": dict(true)}
        cert["rtp"]["double"] = "9/10"  # a lie: the engine pays 1,000 to 1 on 1/1,444
        with open(path, "w") as f:
            json.dump(cert, f)
        ok, reason, game = check(FIX + "roulette_bylaw_all.json", path)
        assert not ok and reason == "double, bet 1: recomputed return 69.321 % differs from the certified 90.000 %", reason
        cert["rtp"] = true
        with open(path, "w") as f:
            json.dump(cert, f)
        ok, reason, game = check(FIX + "roulette_bylaw_all.json", path)
        assert not ok and reason == "double, bet 1: certified return 69.321 % below the 83 % floor (s. 93)", reason
    finally:
        rmtree(d)


def test_the_rules_before_play_name_every_wager_and_its_payout():
    # s. 89: the game's name, its rules, every wager with its payout, section and bet levels, French first
    g = _game("roulette-americaine-92")
    fr, en = g.describe("fr"), g.describe("en")
    assert fr[0] == "Roulette américaine" and en[0] == "American roulette"
    assert fr[1] == g.m.rules["fr"] and en[1] == g.m.rules["en"]
    assert len(fr) == len(en) == 3 + 14 + 1
    assert "  Plein (un numéro) : 35 à 1 (art. 72(2)(a)); mises 1/2/5/10/25 crédits" in fr
    assert "  Straight (one number): 35 to 1 (s. 72(2)(a)); bets 1/2/5/10/25 credits" in en
    assert "  First five (0, 00, 1, 2, 3): 6 to 1 (s. 72(2)(e)); bets 1/2/5/10/25 credits" in en
    assert fr[-1].startswith("Toute défectuosité annule") and en[-1].startswith("Malfunction voids")
