# Baccarat (issue 26; by-law s. 27-37), on both runtimes: coups dealt by hand through the drawing rules
# of s. 37; the s. 31 commission per stake, rounded up; a tie returns the player's and banker's
# wagers (s. 36); the deal is the standard partial Fisher-Yates (rng.deal's, card for card, from the
# same generator), a fresh shoe each coup; refusals by name; the boot check.
import json

from devtest import raises, rmtree, tmpdir

from games.baccarat import BaccaratGame, bank_draws, commission, coup, value
from games.certificate import check
from games.limits import ModelError
from games.model import read
from games.table_outcome import LOSE, PUSH, WIN
from rng import deal

RANK_OF_VALUE = (8, 12, 0, 1, 2, 3, 4, 5, 6, 7)  # a ten for 0, an ace for 1, then two to nine


class Script:
    def __init__(self, values):
        self.values = list(values)

    def randbits(self, k):
        return self.values.pop(0)


class Counter:
    """randbits(k) from a 31-bit LCG: the same sequence on CPython and MicroPython."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def randbits(self, k):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 7) & ((1 << k) - 1)


def card(v, k):
    """A distinct card code of value v: the k-th of that value (suit, then deck)."""
    return (k // 4) * 52 + RANK_OF_VALUE[v] * 4 + k % 4


def deal_of(*values):
    return [card(v, i) for i, v in enumerate(values)]


def _game(name="baccarat-85"):
    return BaccaratGame(read("games/models/%s.json" % name))


def test_card_values():
    assert [value(card(v, 0)) for v in range(10)] == list(range(10))
    assert value(48) == 1 and value(32) == value(36) == value(40) == value(44) == 0  # ace; ten, J, Q, K
    assert value(52 + 7 * 4) == 9  # a nine of the second deck


def test_the_drawing_rules_of_s37_by_hand():
    g = _game()
    stake = {"player": 1, "banker": 20, "tie": 1}
    # player 3+5 = 8: a natural, no more cards
    o = g.evaluate(stake, deal_of(3, 4, 5, 3))
    assert o.window["player_total"] == 8 and o.window["banker_total"] == 7 and o.window["winner"] == "player"
    # player 2+3 = 5 draws an 8 (3); bank 1+2 = 3 stands on a player's third card of 8
    o = g.evaluate(stake, deal_of(2, 1, 3, 2, 8))
    assert (o.window["player_total"], o.window["banker_total"], len(o.window["banker"])) == (3, 3, 2)
    assert o.window["winner"] == "tie"
    # the same, the player's third a 9: bank 3 draws (a 4): 7 against 4
    o = g.evaluate(stake, deal_of(2, 1, 3, 2, 9, 4))
    assert (o.window["player_total"], o.window["banker_total"]) == (4, 7)
    # bank 6 draws on a player's third card of 6 or 7 only
    assert len(g.evaluate(stake, deal_of(1, 3, 2, 3, 6, 0)).draws) == 6
    assert len(g.evaluate(stake, deal_of(1, 3, 2, 3, 5)).draws) == 5
    # the player stands on 6 (3+3); the bank draws on 0-5 (2+3), stands on 6 and 7
    o = g.evaluate(stake, deal_of(3, 2, 3, 3, 9))
    assert o.window == {"player": ["3c", "3h"], "banker": ["2d", "3s", "9c"], "player_total": 6, "banker_total": 4,
                        "winner": "player"}
    assert len(g.evaluate(stake, deal_of(3, 3, 3, 3)).draws) == 4
    # the s. 37 table, row by row: True where the bank hits on the player's third card of value v
    rows = {3: "HHHHHHHHSH", 4: "SSHHHHHHSS", 5: "SSSSHHHHSS", 6: "SSSSSSHHSS"}
    for bank, row in rows.items():
        assert [bank_draws(bank, v) for v in range(10)] == [c == "H" for c in row], bank
    assert all(bank_draws(b, v) for b in (0, 1, 2) for v in range(-1, 10))
    assert not any(bank_draws(7, v) for v in range(-1, 10))
    assert [bank_draws(b, -1) for b in range(3, 7)] == [True, True, True, False]
    assert coup([0, 0, 9, 9, 0, 0]) == (4, 9, 9)


def test_payouts_and_the_commission():
    g = _game("baccarat-85")
    banker_wins = deal_of(1, 4, 0, 4)  # player 1, bank 8: a natural
    r = {x[0]: (x[2], x[3]) for x in g.evaluate({"banker": 20, "player": 5, "tie": 1}, banker_wins).results}
    assert r == {"banker": (WIN, 39), "player": (LOSE, 0), "tie": (LOSE, 0)}  # 1 to 1 less 5 %
    tie = deal_of(4, 4, 4, 4)  # 8 and 8
    r = {x[0]: (x[2], x[3]) for x in g.evaluate({"banker": 20, "player": 5, "tie": 1}, tie).results}
    assert r == {"banker": (PUSH, 20), "player": (PUSH, 5), "tie": (WIN, 9)}  # 8 to 1; s. 36
    # s. 31: 5 % of the next multiple of 10, rounded up to a whole credit
    assert [commission(c) for c in (1, 5, 10, 15, 20, 25, 30, 40, 50, 60, 100)] == [1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 5]
    g = _game("baccarat-mini-85")
    r = {x[0]: (x[2], x[3]) for x in g.evaluate({"banker": 10}, banker_wins).results}
    assert r == {"banker": (WIN, 19)}  # 10 credits: the commission of a 10 is half a credit, taken whole


def test_a_banker_win_that_pays_its_commission_only_is_a_push():
    raw = read("games/models/baccarat-85.json")
    raw["wagers"]["banker"]["bets"] = [1, 20]
    g = BaccaratGame(raw)
    r = g.evaluate({"banker": 1}, deal_of(1, 4, 0, 4)).results[0]
    assert r[2:4] == [PUSH, 1]  # 2 back less a commission of 1 (5 % of 10, rounded up)


def test_the_deal_is_the_standard_partial_shuffle():
    g = _game()
    n = 52 * 8
    for seed in (1, 2, 3, 26, 1993):
        o = g.play(Counter(seed), {"player": 1})
        assert o.draws == deal(Counter(seed), n, len(o.draws)), seed  # rng.deal: the same cards, in order
        assert 4 <= len(o.draws) <= 6 and len(set(o.draws)) == len(o.draws)
    # below(416) takes 9 bits; 416..511 are drawn again; card i is position i of the shuffled shoe
    o = g.play(Script([415, 500, 0, 0, 0, 0, 0]), {"tie": 1})  # 415, then 1, 2, 3 (rejecting 500)
    assert o.draws[:4] == [415, 1, 2, 3]  # an ace and three twos: the player's 3 draws, the bank's 4 too
    assert o.draws == [415, 1, 2, 3, 4, 5]


def test_a_recorded_deal_is_checked():
    g = _game()
    for draws, want in ((deal_of(1, 4, 0), "the 4 to 6 cards dealt"),
                        (deal_of(1, 4, 0, 4, 5), "the drawing rules (s. 37) take 4"),
                        (deal_of(2, 1, 3, 2), "the drawing rules (s. 37) take 6"), ([0, 0, 1, 2], "card 0 dealt twice"),
                        ([416, 0, 1, 2], "not a card of a 8-deck shoe"), ([0, 1, 2, True], "not a card")):
        with raises(ValueError) as e:
            g.evaluate({"player": 1}, draws)
        assert want in str(e.value), (draws, str(e.value))
    with raises(ValueError) as e:
        g.evaluate({"banker": 10}, deal_of(1, 4, 0, 4))
    assert '"banker": 10 credits is not a bet level of banker (20, 40, 60, 100)' in str(e.value)


def test_the_loader_refuses_by_name():
    def refused(change, want):
        raw = read("games/models/baccarat-85.json")
        change(raw)
        with raises(ModelError) as e:
            BaccaratGame(raw)
        assert want in str(e.value), (want, str(e.value))

    refused(lambda m: m.update(decks=4), "decks must be 6 to 8 (s. 27)")
    refused(lambda m: m["wagers"]["tie"].update(pays=[9, 1]), 'wagers "tie": pays 9 to 1, the by-law pays 8 to 1')
    refused(lambda m: m["wagers"]["banker"].update(commission=[4, 100]), "commission [4, 100], the by-law's is [5, 100]")
    refused(lambda m: m["wagers"]["banker"].pop("commission"), "the by-law's is [5, 100] (5 %, s. 31)")
    refused(lambda m: m["wagers"]["player"].update(commission=[5, 100]), "only the banker's wager pays a commission")


def test_the_boot_check():
    ok, reason, game = check("games/models/baccarat-85.json", "games/certs/baccarat-85.json")
    assert ok and reason == "ok: baccarat-85, 3 wagers, lowest return 85.640 % (tie)", reason
    assert game.kind == "cards" and game.bets == [1, 2, 5, 10, 20, 40, 50, 60, 100]
    assert game.max_award == [9, 18, 45, 90, 180, 78, 450, 117, 195]  # the tie's 9 x, the banker's 2 x less 5 %
    d = tmpdir("baccarat")
    try:
        with open("games/certs/baccarat-85.json") as f:
            cert = json.load(f)
        cert["rtp"]["tie"] = "4/5"  # the device cannot recompute 416^6 orders: the floor and the hash hold
        path = d + "/c.json"
        with open(path, "w") as f:
            json.dump(cert, f)
        ok, reason, game = check("games/models/baccarat-85.json", path)
        assert not ok and reason == "tie, bet 1: certified return 80.000 % below the 83 % floor (s. 93)", reason
        cert["rtp"]["tie"] = [cert["rtp"]["player"]] * 5  # one per bet level, but the tie has 6
        with open(path, "w") as f:
            json.dump(cert, f)
        ok, reason, game = check("games/models/baccarat-85.json", path)
        assert not ok and reason == "tie: no certified return", reason
    finally:
        rmtree(d)
