# What the card-poker table games share (issue 26 game 5), on both runtimes: the deal from the shoe
# (games/cards.py), the hand values of 3 and 5 cards against the by-law's orders worked out by hand
# (s. 67.1-67.2, 67.11-67.12, 67.22-67.24), the model loader's refusals (each names its key), the
# stake's and the recorded decisions' checks, the replay of every shipped game from its record, the
# boot check (games/cardtable_cert.py, through games/certificate.py) and the heap one round takes.
# mp-heap: 320K  (every shipped card table replayed and checked from source in one process)
import gc
import json

from devtest import MICROPYTHON, raises, tmpdir

from games import cards, hand3, hand5
from games.cardtable_games import FORMATS, RECORD, engine, load
from games.certificate import check
from games.limits import ModelError
from games.model import read

SHIPPED = ("three-card-96", "let-it-ride-98", "caribbean-94", "war-97", "red-dog-97", "crazy-four-92", "boston-93",
           "three-five-seven-94")
RANKS = "23456789TJQKA"


def c(name):
    """'As' -> the card code (rank * 4 + suit, suits c d h s)."""
    return RANKS.index(name[0]) * 4 + "cdhs".index(name[1])


def h(text):
    return [c(x) for x in text.split()]


class Script:
    """randbits(k) from a list of values (each below the range asked for); records the widths."""

    def __init__(self, values):
        self.values = list(values)
        self.asked = []

    def randbits(self, k):
        self.asked.append(k)
        return self.values.pop(0) if self.values else 0


class Counter:
    """randbits(k) from a 31-bit LCG: the same sequence on CPython and MicroPython."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def randbits(self, k):
        out = 0
        got = 0
        while got < k:
            self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
            out |= ((self.x >> 8) & 0xFFFF) << got
            got += 16
        return out & ((1 << k) - 1)


def _model(name):
    return read("games/models/%s.json" % name)


def test_card_names_and_codes():
    assert cards.name(c("As")) == "As" and cards.name(0) == "2c" and cards.name(51) == "As"
    assert cards.rank(c("Td")) == cards.TEN and cards.rank_index("Q") == cards.QUEEN
    assert cards.rank_index("1") == -1 and cards.rank_index("QQ") == -1


def test_deal_is_a_partial_shuffle_of_the_shoe():
    # below() results 0, 0, ... keep every position in place: the deal is 0..k-1; the widths asked
    # are those of n, n - 1, ... (rng.deal: one rng.below per card, docs/rng.md)
    g = Script([])
    assert cards.deal(g, 1, 6) == [0, 1, 2, 3, 4, 5]
    assert g.asked == [6, 6, 6, 6, 6, 6]  # 51..46 need 6 bits each
    g = Script([])
    assert cards.deal(g, 8, 3) == [0, 1, 2]
    assert g.asked == [9, 9, 9]  # 415, 414, 413
    # the j-th card takes the position i + below(n - i): 3 then 0 then 1 of a shoe of 52
    assert cards.deal(Script([3, 0, 1]), 1, 3) == [3, 1, 0]


def test_recorded_positions_are_checked():
    assert cards.check([0, 52, 104, 311], 6, 4) == [0, 0, 0, 51]  # a 6-deck shoe: the copies of 2c
    for bad in ([0, 0, 1], [0, 1, 52], [0, 1], [0, 1, -1], [0, True, 2], [0, 1, "2"]):
        with raises(ValueError):
            cards.check(bad, 1, 3)


def test_three_card_hands_by_the_by_law():
    v = lambda t: hand3.value(h(t))  # noqa: E731
    # s. 67.23: straight flush, three of a kind, straight, flush, pair, then the highest card
    order = ["Qh Kh Ah", "2h 3h Ah", "Ac Ad Ah", "2c 2d 2h", "Qc Kd Ah", "Ac 2d 3h", "2c 5c 9c",
             "Ac Ad Kh", "Kc Kd Ah", "2c 2d 3h", "Ac Kd Jh", "Ac Qd Jh", "2c 3d 5h"]
    values = [v(t) for t in order]
    assert values == sorted(values, reverse=True), values
    assert len(set(values)) == len(values)
    assert v("Ah 2h 3h") < v("2s 3s 4s")  # A-2-3 is the lowest straight flush (s. 67.23 (1))
    assert v("Ac 2d 3h") < v("2c 3d 4h")  # and the lowest straight (s. 67.23 (3))
    assert hand3.category(v("Kc Ad 2h")) == hand3.HIGH  # no wrap-around
    assert v("Ac Kd 2h") == v("As Kc 2d")  # same ranks: a push (s. 67.24)
    assert [hand3.NAMES[hand3.category(v(t))] for t in ("Ac Ad Ah", "2c 3c 4c", "9c 9d 2h")] == [
        "three_of_a_kind", "straight_flush", "pair"]


def test_five_card_hands_by_the_by_law():
    v = lambda t: hand5.value(h(t))  # noqa: E731
    order = ["Ts Js Qs Ks As", "9s Ts Js Qs Ks", "As 2s 3s 4s 5s", "Ac Ad Ah As 2c", "2c 2d 2h 2s Ac",
             "3c 3d 3h 2s 2c", "2c 2d 2h Ac Ad", "2c 5c 9c Jc Kc", "Tc Jd Qh Ks Ac", "Ac 2d 3h 4s 5c",
             "Ac Ad Ah 3c 2c", "Ac Ad 2h 2s 3c", "Kc Kd Qh Qs Ac", "Ac Ad Kh Qs Jc", "Ac Ad 4h 3s 2c",
             "Kc Kd Ah Qs Jc", "Ac Kd Qh Js 9c", "Qc Kd Ah 2s 3c", "Ac Kd 4h 3s 2c", "7c 5d 4h 3s 2c"]
    values = [v(t) for t in order]
    assert values == sorted(values, reverse=True), [order[i] for i in range(len(order) - 1) if values[i] <= values[i + 1]]
    assert len(set(values)) == len(values)
    names = [hand5.NAMES[hand5.category(v(t))] for t in order]
    assert names[:3] == ["royal_flush", "straight_flush", "straight_flush"]
    assert names[17] == "high_card"  # Q-K-A-2-3: no straight (s. 67.11 (6))
    assert v("Ac Kd 4h 3s 2c") == v("As Kc 4d 3h 2s")  # s. 67.12: no higher card, a push
    assert hand5.top_rank(v("Tc Td 4h 3s 2c")) == cards.TEN
    # best five of seven (s. 67.50): the straight flush hidden in seven cards
    assert hand5.best_of_7(h("2c 9h Th Jh Qh 3d Kh")) == v("9h Th Jh Qh Kh")
    assert hand5.best_of_7(h("2c 2d 7h 7s 9c Jd Ah")) == v("7h 7s 2c 2d Ah")


def _good(name):
    return engine(_model(name)["format"])


def _refused(name, change, words):
    m = _model(name)
    g = engine(m["format"])
    change(m)
    with raises(ModelError) as e:
        g(m)
    assert words in str(e.value), str(e.value)


def test_every_refusal_names_its_key():
    _refused("three-card-96", lambda m: m.__setitem__("pays", 1), 'unknown key "pays"')
    _refused("three-card-96", lambda m: m["wagers"].__setitem__("big", {}), 'unknown wager "big"')
    _refused("three-card-96", lambda m: m["wagers"].pop("ante"), "ante missing")
    _refused("three-card-96", lambda m: m["wagers"]["ante"].__setitem__("pays", 0), "wagers.ante.pays")
    _refused("three-card-96", lambda m: m["wagers"]["ante"].__setitem__("pays", 10 ** 7), "limits.MAX_ODDS")
    _refused("three-card-96", lambda m: m["wagers"]["pair_plus"]["pays"].__setitem__("royal", 1),
             'wagers.pair_plus.pays: unknown hand "royal"')
    _refused("three-card-96", lambda m: m["wagers"]["pair_plus"].__setitem__("pays", {}), "wagers.pair_plus.pays")
    _refused("three-card-96", lambda m: m["wagers"]["ante"]["bonus"].pop("section"), "wagers.ante.bonus.section")
    _refused("three-card-96", lambda m: m["wagers"]["play"].__setitem__("section", "67.28"), "wagers.play.section")
    _refused("three-card-96", lambda m: m["wagers"]["play"].__setitem__("odds", 1), 'wagers.play: unknown key "odds"')
    _refused("three-card-96", lambda m: m.__setitem__("decks", 2), "decks 2: this game is played with 1")
    _refused("three-card-96", lambda m: m.__setitem__("decks", 9), "limits.MAX_DECKS")
    _refused("three-card-96", lambda m: m.__setitem__("rules", {"fr": ["x"]}), "rules.en")
    _refused("three-card-96", lambda m: m["rules"].__setitem__("fr", "texte"), "rules.fr")
    _refused("three-card-96", lambda m: m.__setitem__("bets", [2, 1]), "ascending")
    _refused("three-card-96", lambda m: m.__setitem__("format", "jeton-3cp/1"), "unknown format")
    _refused("war-97", lambda m: m.__setitem__("bets", [2, 3]), "bet 3: every bet is an even number")
    _refused("war-97", lambda m: m.__setitem__("decks", 7), "decks 7: this game is played with 6 or 8")
    _refused("red-dog-97", lambda m: m["wagers"]["raise"].__setitem__("pays", 1), "wagers.raise has no pays")
    _refused("let-it-ride-98", lambda m: m["wagers"]["ride"].__setitem__("min_pair", "10"), "wagers.ride.min_pair")
    for f in FORMATS:  # every format has an engine, and its record's size is the one stated
        assert engine(f).FORMAT == f and RECORD[f][0] == engine(f).CARDS
    with raises(ValueError):
        engine("jeton-reels/1")


def test_stakes_are_checked_before_anything_is_dealt():
    g = _good("three-card-96")(_model("three-card-96"))
    assert g.check_stake({"ante": 2, "pair_plus": 3}) == 5
    for bad in ({}, {"bogus": 1}, {"ante": 4}, {"ante": True}, {"play": 1}, {"ante": "1"}, [("ante", 1)]):
        gen = Script([])
        with raises(ValueError):
            g.deal(gen, bad)
        assert gen.asked == []  # nothing drawn for a refused stake
    lir = _good("let-it-ride-98")(_model("let-it-ride-98"))
    assert lir.check_stake({"ride": 1}) == 3  # three equal wagers (s. 67.4)
    cs = _good("caribbean-94")(_model("caribbean-94"))
    with raises(ValueError):
        cs.check_stake({})


def test_recorded_decisions_are_checked():
    g = _good("three-card-96")(_model("three-card-96"))
    deal = h("Qc 6d 4h 2c 3d 5s")
    stake = {"ante": 1}
    assert g.evaluate(stake, deal + [1]).award == 2 + 1  # the dealer does not open: ante 1 to 1, play back
    for bad in (deal, deal + [1, 1], deal + [2], deal + [True], deal[:5] + [1], deal[:5] + [0, 1], "abc"):
        with raises(ValueError):
            g.evaluate(stake, bad)
    assert g.evaluate({"pair_plus": 1}, deal).award == 0  # no ante: no decision to record


def _lcg_rounds(name, stakes, rounds):
    g = load("games/models/%s.json" % name)
    gen = Counter(7 + len(name))
    for i in range(rounds):
        stake = stakes[i % len(stakes)]
        positions = g.deal(gen, stake)
        cs = g.cards(positions)
        made = []
        paid = g.check_stake(stake)
        while True:
            legal = g.pending(stake, cs, made)
            if legal is None:
                assert len(made) <= RECORD[g.FORMAT][1]
                break
            d = legal[(i + len(made)) % len(legal)]  # every decision taken, not only the built-in one
            paid += g.cost(stake, cs, made, d)
            made.append(d)
        out = g.evaluate(stake, positions + made)
        again = g.evaluate(stake, out.draws)  # the record replays bit for bit
        assert again.to_dict() == out.to_dict()
        assert out.bet == paid, (name, stake, out.to_dict())  # what the decisions added, what was taken back
        assert out.award == sum(out.returned.values()) and out.award >= 0
        yield g, stake, out


def test_every_shipped_game_replays_from_its_record():
    stakes = {"three-card-96": [{"ante": 1}, {"ante": 2, "pair_plus": 1}, {"pair_plus": 3}],
              "let-it-ride-98": [{"ride": 1}], "caribbean-94": [{"ante": 3}, {"ante": 1}],
              "war-97": [{"wager": 2}], "red-dog-97": [{"wager": 5}, {"wager": 1}],
              "crazy-four-92": [{"ante": 1}, {"ante": 1, "queens_up": 1}],
              "boston-93": [{"ante": 1}, {"ante": 1, "bonus": 1}],
              "three-five-seven-94": [{"three": 2, "five": 2, "seven": 2}, {"three": 2, "five": 2}]}
    for name in SHIPPED:
        n = 0
        ok, why, certified = check("games/models/%s.json" % name, "games/certs/%s.json" % name)
        for g, stake, out in _lcg_rounds(name, stakes[name], 60):
            n += 1
            # within the certificate's most a round pays and puts at risk at the stake's bet level
            bi = certified.bets.index(max(stake.values()))
            assert out.award <= certified.max_award[bi] and out.bet <= certified.max_risk[bi], (name, out.to_dict())
        assert n == 60
        g = load("games/models/%s.json" % name)
        o = g.play(Counter(99), stakes[name][0])  # the built-in strategy's round
        assert o.decisions == [g.auto(stakes[name][0], o.cards, o.decisions[:i]) for i in range(len(o.decisions))]


def test_every_shipped_game_says_its_rules_and_pays_before_play():
    for name in SHIPPED:
        g = load("games/models/%s.json" % name)
        for lang in ("fr", "en"):
            text = g.describe(lang)
            assert text[0] == g.name[lang] and text[-1].startswith("Toute" if lang == "fr" else "Malfunction")
            for wid in g.m.wagers:  # every wager named, with its section of the by-law
                title = g.m.names[wid][lang]
                assert [x for x in text if x.startswith(title) and g.m.section[wid] in x], (name, wid, lang)
            assert (" à 1" if lang == "fr" else " to 1") in "\n".join(text)


def _write(d, name, obj):
    path = d + "/" + name
    with open(path, "w") as f:
        json.dump(obj, f)
    return path


def test_boot_check_accepts_every_shipped_game():
    for name in SHIPPED:
        ok, why, g = check("games/models/%s.json" % name, "games/certs/%s.json" % name)
        assert ok, (name, why)
        assert why.startswith("ok: %s" % name)
        assert len(g.max_award) == len(g.bets) and len(g.max_risk) == len(g.bets)
    ok, why, g = check("games/models/three-card-96.json", "games/certs/three-card-96.json")
    assert g.max_award == [50, 100, 150] and g.max_risk == [3, 6, 9]


def test_boot_check_refuses_by_name():
    d = tmpdir("cardtable")
    model = _model("three-card-96")
    with open("games/certs/three-card-96.json") as f:
        cert = json.load(f)
    mp = _write(d, "m.json", model)

    def refused(cert2, words, mpath=mp):
        cp = _write(d, "c.json", cert2)
        ok, why, g = check(mpath, cp)
        assert not ok and g is None and words in why, why

    bad = json.loads(json.dumps(cert))
    bad["rtp"]["pair_plus"]["2"] = "82/100"  # a lying certificate: the floor is checked on what it says
    refused(bad, "wager pair_plus, bet 2: certified return 82.000 % below the 83 % floor")
    bad = json.loads(json.dumps(cert))
    bad["strategy_rtp_wagered"]["ante"]["1"] = "1/2"
    refused(bad, "wager ante, bet 1: certified built-in strategy's return per credit wagered 50.000 %")
    bad = json.loads(json.dumps(cert))
    del bad["strategy_rtp"]["ante"]
    refused(bad, "wager ante: no certified built-in strategy's return")
    bad = json.loads(json.dumps(cert))
    bad["id"] = "three-card-97"
    refused(bad, "certificate is for 'three-card-97'")
    bad = json.loads(json.dumps(cert))
    bad["max_risk"] = {"1": 3}
    refused(bad, "certificate: bet 2: no max_risk")
    tampered = json.loads(json.dumps(model))
    tampered["wagers"]["pair_plus"]["pays"]["flush"] = 5
    refused(cert, "math hash mismatch", _write(d, "t.json", tampered))
    broken = json.loads(json.dumps(model))
    broken["wagers"]["ante"]["pays"] = -1
    refused(cert, "invalid model: wagers.ante.pays", _write(d, "b.json", broken))
    ok, why, g = check(mp, d + "/none.json")
    assert not ok and "unreadable" in why


def test_one_round_in_a_boards_heap():
    # the engine and one round of each shipped game: what it keeps, and what a round allocates
    if not MICROPYTHON:
        return
    for name in SHIPPED:
        load("games/models/%s.json" % name)  # its modules imported (frozen in flash on a board)
        gc.collect()
        a = gc.mem_alloc()
        g = load("games/models/%s.json" % name)
        gc.collect()
        b = gc.mem_alloc()
        stake = {w: g.bets[-1] for w in g.m.stakes}  # every wager it offers (3-5-7 Poker needs two)
        o = g.play(Counter(5), stake)
        c2 = gc.mem_alloc()
        print("heap %s: engine %d bytes, one round %d bytes" % (name, b - a, c2 - b))
        assert b - a < 12000, (name, b - a)
        assert c2 - b < 10000, (name, c2 - b)
        del g, o
