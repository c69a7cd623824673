# Keno engine, model and boot check (issue 13), on both runtimes: awards worked out by hand from the
# pay tables; the draw's mapping from rng.below results proven one-to-one onto ordered draws on a
# small urn (so uniform below() results make every draw equally likely); every shipped keno model
# played and compared with an evaluator written here from docs/game-format.md that reads the JSON
# only; each refusal of the loader and of the boot check names its reason.
import json
import os

from devtest import raises, tmpdir
from fakes_rng import Lcg

from games import keno_exact
from games.certificate import check
from games.keno import KenoGame, load
from games.model import ModelError


def _model(**kw):
    m = {"format": "jeton-keno/1", "id": "k-test", "name": {"fr": "Essai", "en": "Test"},
         "numbers": 80, "drawn": 20, "bets": [1, 2, 5],
         "pays": {"1": {"1": 3}, "4": {"2": 1, "3": 5, "4": [100, 250, 1000]}}}
    m.update(kw)
    return m


class Script:
    """randbits(k) from a list of values (each must be below the range asked for)."""

    def __init__(self, values):
        self.values = list(values)
        self.asked = []

    def randbits(self, k):
        self.asked.append(k)
        return self.values.pop(0)


def test_awards_by_hand():
    g = KenoGame(_model())
    drawn = list(range(21, 41))  # 21..40
    # 4 spots, 3 caught (22, 30, 40), 1 missed (1): pays 5 per credit
    o = g.evaluate(2, [1, 22, 30, 40] + drawn)
    assert (o.picks, o.hits, o.award) == ([1, 22, 30, 40], [22, 30, 40], 10)
    assert o.wins == [(4, "3/4", 10)]
    # 4 of 4 at each bet: the list gives absolute amounts (not 100 x bet)
    assert [g.evaluate(b, [21, 22, 23, 24] + drawn).award for b in (1, 2, 5)] == [100, 250, 1000]
    # 1 of 4 and 0 of 1 pay nothing
    o = g.evaluate(5, [1, 2, 3, 40] + drawn)
    assert (o.hits, o.award, o.wins) == ([40], 0, [])
    assert g.evaluate(1, [80] + drawn).award == 0
    assert g.evaluate(1, [21] + drawn).award == 3
    assert o.window == {"picks": [1, 2, 3, 40], "drawn": drawn, "hits": [40]}


def test_unit_coins():
    # 5 credits a coin: an integer pay is credits per coin
    g = KenoGame(_model(unit=5, bets=[5, 10], pays={"1": {"1": 18}}))
    assert g.evaluate(10, [21] + list(range(21, 41))).award == 36
    with raises(ModelError):
        KenoGame(_model(unit=5, bets=[5, 12], pays={"1": {"1": 18}}))


def test_draw_maps_below_results_one_to_one():
    # partial Fisher-Yates: the k results of below(n), below(n-1), ... give n!/(n-k)! distinct
    # ordered draws; with uniform below() every ordered draw (hence every set) is equally likely
    g = KenoGame(_model(numbers=6, drawn=3, bets=[1], pays={"1": {"1": 2}}))
    seen = set()
    for a in range(6):
        for b in range(5):
            for c in range(4):
                gen = Script([a, b, c])
                o = g.play(gen, 1, [1])
                assert gen.values == []
                assert gen.asked == [3, 3, 2]  # bits for below(6), below(5), below(4)
                seen.add(tuple(o.drawn))
    assert len(seen) == 120


def test_draw_rejects_out_of_range_bits():
    # below(80) draws 7 bits and rejects 80..127: no modulo bias
    g = KenoGame(_model())
    gen = Script([127, 80, 5] + [0] * 19)
    o = g.play(gen, 1, [6])
    assert o.drawn[0] == 6 and o.hits == [6] and o.award == 3
    assert o.drawn[1:] == [2, 3, 4, 5, 1] + list(range(7, 21))  # j = i each time, after the swap of 1 and 6


def test_quick_pick():
    g = KenoGame(_model())
    for seed in range(50):
        p = g.quick_pick(Lcg(seed), 4)
        assert len(p) == 4 and p == sorted(p) and len(set(p)) == 4
        assert all(1 <= x <= 80 for x in p)
        g.check_picks(p)
    with raises(ValueError):
        g.quick_pick(Lcg(1), 3)  # 3 spots are not offered by this table


def test_picks_refused_with_reason():
    g = KenoGame(_model())
    for picks, why in (([], "no spots"), ([1, 2], "2 spots not offered"), ([1, 2, 3, 3], "picked twice"),
                       ([0, 2, 3, 4], "not a number 1..80"), ([81], "not a number 1..80"),
                       (["5"], "not a number"), (None, "no spots")):
        with raises(ValueError) as e:
            g.check_picks(picks)
        assert why in str(e.value), (picks, e.value)
    gen = Lcg(3)
    with raises(ValueError):
        g.play(gen, 1, [1, 2])
    assert gen.x == 3  # refused before a single number was drawn
    with raises(ValueError):
        g.play(gen, 3, [1])  # bet 3 is not offered


def test_evaluate_refuses_bad_draws():
    g = KenoGame(_model())
    drawn = list(range(21, 41))
    for draws, why in ((drawn, "the picks then 20 numbers drawn"), ([1] + drawn[:19] + [21], "number 21 drawn twice"),
                       ([1] + drawn[:19] + [81], "drawn number 81 out of 1..80"), ([1, 2] + drawn, "2 spots not offered")):
        with raises(ValueError) as e:
            g.evaluate(1, draws)
        assert why in str(e.value), (why, e.value)


def test_model_errors_name_the_field():
    cases = (
        (dict(format="jeton-reels/1"), "unknown format"),
        (dict(numbers=10, drawn=20), "drawn (20) exceeds numbers (10)"),
        (dict(pays={"11": {"1": 1}}), "spot count 11 out of range"),
        (dict(pays={"0": {"0": 1}}), "spot count 0 out of range"),
        (dict(pays={"2": {"3": 1}}), "hit count 3 out of range"),
        (dict(pays={"2": {"2": 0}}), "pays nothing"),
        (dict(pays={"2": {"2": [1, 2]}}), "one value per bet level"),
        (dict(pays={"2": {"2": -1}}), "integer >= 0"),
        (dict(pays={"x": {"2": 1}}), "pays: key \"x\" is not a count"),
        (dict(bets=[2, 1]), "ascending"),
        (dict(pays={}), "pays missing"),
        (dict(name={"fr": "x"}), "fr and en"),
    )
    for kw, why in cases:
        with raises(ModelError) as e:
            KenoGame(_model(**kw))
        assert why in str(e.value), (kw, e.value)


def test_comb_and_catch_law_known_answers():
    # C(80, 20) = 3,535,316,142,212,174,320: the number of keno draws, "1 in 3,535,316,142,212,174,320"
    # for a solid 20-spot (en.wikipedia.org/wiki/User:JohnH~enwiki/sandboxP, Keno odds)
    assert keno_exact.comb(80, 20) == 3535316142212174320
    # 10 spots: catching 10 is 1 in 8,911,711.18, 9 is 1 in 163,381.37, 8 is 1 in 7,384.47
    # (www.cryptologic-casinos.biz/keno.htm, the 80/20/10 table)
    m = KenoGame(_model(pays={"10": {"10": 1}})).m
    w = keno_exact.ways(m, 10)
    total = keno_exact.comb(80, 20)
    for h, one_in in ((10, 891171118), (9, 16338137), (8, 738447)):
        assert abs(total * 100 // w[h] - one_in) <= 1, (h, total * 100 // w[h])
    assert sum(w) == total


def _independent_award(model, bet, picks, drawn):
    # from docs/game-format.md, on the JSON alone: count the picks among the drawn numbers
    caught = 0
    for p in picks:
        if p in drawn:
            caught += 1
    v = model["pays"][str(len(picks))].get(str(caught), 0)
    if isinstance(v, list):
        return v[model["bets"].index(bet)]
    return v * bet // model.get("unit", 1)


def test_shipped_models_against_independent_evaluator():
    names = sorted(n for n in os.listdir("games/models") if n.startswith("keno-"))
    assert len(names) >= 4, names
    for name in names:
        with open("games/models/" + name) as f:
            model = json.load(f)
        g = load("games/models/" + name)
        gen = Lcg(len(name))
        won = 0
        for i in range(120):
            spots = g.spots[i % len(g.spots)]
            bet = g.bets[i % len(g.bets)]
            picks = g.quick_pick(gen, spots)
            o = g.play(gen, bet, picks)
            assert len(o.drawn) == 20 and len(set(o.drawn)) == 20
            assert o.award == _independent_award(model, bet, picks, o.drawn), (name, picks, o.drawn)
            assert g.evaluate(bet, o.draws).award == o.award  # replays from its draws
            won += o.award > 0
        assert 0 < won < 120, (name, won)


def test_boot_check_accepts_shipped_and_refuses_tampering():
    for gid in ("keno-classique-92", "keno-etoile-86"):
        ok, why, game = check("games/models/%s.json" % gid, "games/certs/%s.json" % gid)
        assert ok and game.id == gid, why
        assert "spot counts" in why
    with open("games/models/keno-classique-92.json") as f:
        model = json.load(f)
    with open("games/certs/keno-classique-92.json") as f:
        cert = json.load(f)
    d = tmpdir("keno")

    def run(m, c):
        with open(d + "/m.json", "w") as f:
            json.dump(m, f)
        with open(d + "/c.json", "w") as f:
            json.dump(c, f)
        return check(d + "/m.json", d + "/c.json")

    tampered = json.loads(json.dumps(model))
    tampered["pays"]["8"]["8"] += 1
    ok, why, _ = run(tampered, cert)
    assert not ok and "math hash mismatch" in why, why
    # a lying certificate: the hash matches but a return is not the model's
    lying = json.loads(json.dumps(cert))
    lying["rtp"]["5"]["10"] = "99/100"
    ok, why, _ = run(model, lying)
    assert not ok and "5 spots, bet 10: recomputed return" in why, why
    missing = json.loads(json.dumps(cert))
    del missing["rtp"]["7"]
    ok, why, _ = run(model, missing)
    assert not ok and "7 spots: no certified return" in why, why
    low = json.loads(json.dumps(cert))
    low["rtp"]["3"]["5"] = "82/100"
    ok, why, _ = run(model, low)
    assert not ok and "3 spots, bet 5: certified return 82.000 % below the 83 % floor" in why, why


def test_rules_text_before_play_french_then_english():
    # s. 89: name, cost of a card, how it is played and every pay, from the certified model
    g = load("games/models/keno-etoile-90.json")
    fr, en = g.describe("fr"), g.describe("en")
    assert fr[0] == "Keno étoile" and en[0] == "Star Keno"
    assert fr[1] == "Mise : 5, 10, 25 crédits" and en[1] == "Bet: 5, 10, 25 credits"
    assert "Pick 2 to 10 numbers from 1 to 80, or a quick pick; 20 numbers are drawn." in en
    with open("games/models/keno-etoile-90.json") as f:
        top = json.load(f)["pays"]["10"]["10"]
    assert "  10 spots, 10 caught: %d / %d / %d" % tuple(top) in en
    assert "  2 spots, 2 caught: 75 / 150 / 375" in en  # 75 per 5-credit coin
    assert not [ln for ln in en if " 0 caught: 0 " in ln]  # a catch that pays nothing is not listed
    assert "  7 spots, 0 caught: 5 / 10 / 25" in en and "  7 choisis, 0 atteint : 5 / 10 / 25" in fr
    classic = load("games/models/keno-classique-92.json")
    # one spot: singular in both languages (CLDR plural rules: French 0 and 1, English 1)
    assert "  1 spot, 1 caught: 19 / 38 / 57 / 76 / 95" in classic.describe("en")
    assert "  1 choisi, 1 atteint : 19 / 38 / 57 / 76 / 95" in classic.describe("fr")
