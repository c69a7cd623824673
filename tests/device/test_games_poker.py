# Video poker engine (issue 13): the hand evaluator against hands written out from the by-law's
# definitions (By-law respecting casino games, S-13.1, r. 3, s. 67.1 ranks of the cards, s. 67.2
# combinations; quoted in tests/fixtures/poker/bylaw-67.txt), the model loader's errors, the deck
# and draw order, replay and the built-in strategy's suggestion. Runs under both runtimes.
# mp-heap: 384K
import json

from devtest import raises
from fakes_rng import Lcg

from games.model import ModelError
from games.poker import PokerGame, card_name
from games.poker_hand import award
from games.poker_hold import pattern
from games.poker_model import PokerModel

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def cards(text):
    """'As Kd 2c JK' -> card codes (rank * 4 + suit, joker 52)."""
    out = []
    for t in text.split():
        out.append(52 if t == "JK" else RANKS.index(t[0]) * 4 + SUITS.index(t[1]))
    return out


def load(name):
    with open("games/models/%s.json" % name) as f:
        return json.load(f)


def names(m, hand):
    i = award(m, cards(hand))
    return "-" if i < 0 else m.names[i]["en"]


def test_bylaw_ranks_jacks_or_better():
    m = PokerModel(load("jacks-98"))
    # s. 67.2 (1)-(9); "jacks or better" is the pay table's lowest award
    assert names(m, "Ts Js Qs Ks As") == "Royal flush"
    assert names(m, "9h Th Jh Qh Kh") == "Straight flush"
    assert names(m, "Ad 2d 3d 4d 5d") == "Straight flush"  # s. 67.1: the ace completes 2-5
    assert names(m, "7c 7d 7h 7s 2c") == "Four of a kind"
    assert names(m, "3c 3d 3h 9s 9c") == "Full house"
    assert names(m, "2h 6h 9h Jh Kh") == "Flush"
    assert names(m, "Tc Jd Qh Ks Ac") == "Straight"  # highest straight
    assert names(m, "Ac 2d 3h 4s 5c") == "Straight"  # lowest straight
    assert names(m, "Qc Kd Ah 2s 3c") == "-"  # s. 67.2 (6): no Q-K-A-2-3
    assert names(m, "Js Qs Ks As 2s") == "Flush"  # not a straight flush (no wrap-around)
    assert names(m, "8c 8d 8h Ks 2c") == "Three of a kind"
    assert names(m, "4c 4d 9h 9s Kc") == "Two pair"
    assert names(m, "Jc Jd 3h 6s 9c") == "Jacks or better"
    assert names(m, "Tc Td 3h 6s 9c") == "-"  # a pair of tens pays nothing here
    assert names(m, "2c 5d 8h Js Kc") == "-"


def test_bonus_quads_by_rank():
    m = PokerModel(load("double-bonus-99"))
    assert names(m, "Ac Ad Ah As Kc") == "Four aces"
    assert names(m, "3c 3d 3h 3s Kc") == "Four 2s-4s"
    assert names(m, "9c 9d 9h 9s Kc") == "Four 5s-Ks"
    assert m.pays[4][award(m, cards("Ac Ad Ah As Kc"))] == 800  # 160 per coin at 5 coins
    assert m.pays[4][award(m, cards("Ts Js Qs Ks As"))] == 4000  # the 5-coin royal of the model
    assert m.pays[0][award(m, cards("Ts Js Qs Ks As"))] == 250


def test_deuces_wild():
    m = PokerModel(load("deuces-wild-99"))
    assert names(m, "Th Jh Qh Kh Ah") == "Royal flush"
    assert names(m, "2c 2d 2h 2s 9c") == "Four deuces"
    assert names(m, "2c Jh Qh Kh Ah") == "Wild royal flush"
    assert names(m, "2c 2d 9h 9s 9c") == "Five of a kind"
    assert names(m, "2c 5h 6h 8h 9h") == "Straight flush"  # the deuce is the 7
    assert names(m, "2c 2d 4h 5s Ks") == "Three of a kind"
    assert names(m, "2c 4d 4h 5s 5c") == "Full house"
    assert names(m, "2c 3h 7h 9h Kh") == "Flush"
    assert names(m, "2c 3d 4h 6s 7c") == "Straight"
    assert names(m, "2c 3d 5h 9s Kc") == "-"  # only a pair: deuces wild pays from three of a kind
    assert names(m, "2c 2d 3h 5s 9c") == "Three of a kind"


def test_joker():
    m = PokerModel(load("joker-poker-99"))
    assert m.deck == 53
    assert names(m, "JK Ac Ad Ah As") == "Five of a kind"
    assert names(m, "JK Jh Qh Kh Ah") == "Wild royal flush"
    assert names(m, "JK Kc 3d 6h 9s") == "Kings or better"
    assert names(m, "JK Qc 3d 6h 9s") == "-"  # queens are not enough
    assert names(m, "JK 4c 4d 7h 7s") == "Full house"
    assert names(m, "JK Ac 2d 3h 4s") == "Straight"
    assert card_name(52) == "JK" and card_name(cards("Td")[0]) == "Td"


def test_kicker_awards():
    raw = load("jacks-98")
    raw["awards"].insert(2, {"hand": "four_of_a_kind", "name": {"fr": "x", "en": "Four aces with 2-4"},
                             "pays": 400, "ranks": ["A"], "kicker": ["2", "3", "4"]})
    m = PokerModel(raw)
    assert names(m, "Ac Ad Ah As 3c") == "Four aces with 2-4"
    assert names(m, "Ac Ad Ah As 5c") == "Four of a kind"


def test_model_errors():
    base = load("jacks-98")

    def bad(change, words):
        raw = json.loads(json.dumps(base))
        change(raw)
        with raises(ModelError) as e:
            PokerModel(raw)
        assert words in str(e.value), str(e.value)

    bad(lambda r: r.update(format="jeton-reels/1"), "unknown format")
    bad(lambda r: r.update(deck=53), "53-card deck")
    bad(lambda r: r.update(wild="jokers"), "wild must be")
    bad(lambda r: r.update(bets=[2, 1]), "ascending")
    bad(lambda r: r["awards"][0].update(pays=[1, 2]), "one pay per bet level")
    bad(lambda r: r["awards"][0].update(pays=0), "positive integers")
    bad(lambda r: r["awards"][0].update(hand="six_of_a_kind"), "unknown hand")
    bad(lambda r: r["awards"][-1].update(ranks=["J", "X"]), "unknown rank")
    bad(lambda r: r["awards"][3].update(kicker=["2"]), "kicker only for four_of_a_kind")
    bad(lambda r: r["awards"].reverse(), "listed below a lower hand")
    bad(lambda r: r["awards"].append(dict(r["awards"][0], hand="five_of_a_kind")), "needs wild cards")
    bad(lambda r: r.update(strategy=["00|-|-0-|000", "00|-|-0-|000"]), "repeated pattern")
    bad(lambda r: r["awards"][0].pop("name"), "name needs fr and en")


def test_deck_shuffle_and_draw_order():
    g = PokerGame(load("jacks-98"))
    deck = g.shuffle(Lcg(7))
    assert sorted(deck) == list(range(52))
    assert deck != bytes(range(52))
    assert g.shuffle(Lcg(7)) == deck  # the deck is a function of the generator's bits only
    # held cards stay; the discards take deck[5], deck[6], ... from left to right
    assert g.draw(deck, 0b11111) == deck[:5]
    assert g.draw(deck, 0) == deck[5:10]
    assert g.draw(deck, 0b10101) == bytes([deck[0], deck[5], deck[2], deck[6], deck[4]])
    with raises(ValueError):
        g.draw(deck, 32)


def test_evaluate_replays_and_rejects_bad_records():
    g = PokerGame(load("jacks-98"))
    top = cards("Ts Js Qs Ks 3d As 9c 9h 9d 2c")
    deck = bytes(top + [c for c in range(52) if c not in top])
    o = g.evaluate(5, list(deck) + [0b01111])
    assert o.stops == cards("Ts Js Qs Ks As") and o.award == 4000
    assert o.window == [["Ts", "Js", "Qs", "Ks", "As"]] and o.wins == [[-1, "Royal flush", 4000]]
    assert g.award_name(o.award_index, "fr") == "Quinte flush royale"
    assert o.draws == list(deck) + [15] and o.deck == deck and o.holds == 15
    assert g.evaluate(1, o.draws).award == 250
    again = g.evaluate(5, o.draws)  # the record alone gives the same game
    assert again.to_dict() == o.to_dict()
    assert g.evaluate(5, list(deck) + [0]).stops == cards("As 9c 9h 9d 2c")  # three nines
    assert g.evaluate(5, list(deck) + [0]).award == 15
    d = o.to_dict()
    assert d["deck"] == list(deck) and d["holds"] == 15 and d["award"] == 4000
    with raises(ValueError):
        g.evaluate(5, list(deck[:51]) + [0])
    with raises(ValueError):
        g.evaluate(5, list(deck[:51]) + [deck[0], 0])  # a repeated card
    with raises(ValueError):
        g.evaluate(5, [])
    with raises(ValueError):
        g.evaluate(5, list(deck) + [32])  # holds are a 5-bit mask
    with raises(ValueError):
        g.evaluate(6, list(deck) + [0])  # bet not offered


def test_patterns_describe_the_held_cards_only():
    m = PokerModel(load("jacks-98"))
    a = cards("Ts Js Qs Ks 3d")
    b = cards("Qs 3c Ks Ts Js")
    assert pattern(m, a, 0b01111) == pattern(m, b, 0b11101) == "40|1111|-31|121"
    assert pattern(m, a, 0) == "00|-|-0-|000"
    assert pattern(m, a, 0b11111) == "P-"
    assert pattern(m, cards("Jc Jd 3h 6s 9c"), 0b00011) == "20|2|10-|000"


def test_suggestion_follows_the_strategy_list():
    raw = load("jacks-98")
    raw["strategy"] = ["P0", "40|1111|-31|121", "20|2|10-|000"]
    g = PokerGame(raw)
    assert g.suggest(cards("Ts Js Qs Ks 3d")) == 0b01111  # four to a royal
    assert g.suggest(cards("Ts Js Qs Ks As")) == 0b11111  # the royal itself
    assert g.suggest(cards("Jc 3h Jd 6s 9c")) == 0b00101  # the pair of jacks
    assert g.suggest(cards("2c 5d 8h Js Kc")) == 0  # nothing listed: draw five
    raw.pop("strategy")
    assert PokerGame(raw).suggest(cards("Ts Js Qs Ks As")) == 0


def _orders(hand):
    # the 120 orders of five cards (no itertools on MicroPython)
    if len(hand) <= 1:
        return [list(hand)]
    out = []
    for i in range(len(hand)):
        for rest in _orders(hand[:i] + hand[i + 1:]):
            out.append([hand[i]] + rest)
    return out


def _held(g, deal):
    h = g.suggest(bytes(deal))
    return sorted(deal[i] for i in range(5) if h >> i & 1)


def test_the_same_cards_are_held_in_every_order():
    # issue 23.11: 2c 4d 5d 8c 9c dealt as [0,9,13,24,28] held 2c 4d 5d, dealt as [24,28,0,9,13]
    # 8c 9c 2c (ties went to the lowest dealt position); the certifier counts 2c 4d 5d
    for name, hand, want in (("deuces-wild-99", [0, 9, 13, 24, 28], [0, 9, 13]),
                             ("deuces-wild-98", [0, 9, 13, 24, 28], [0, 9, 13]),
                             ("joker-poker-99", cards("JK 9h Ts 3c 4d"), None),
                             ("jacks-98", cards("Jc 3h Jd 6s 9c"), cards("Jc Jd"))):
        g = PokerGame(load(name))
        first = _held(g, hand)
        if want is not None:
            assert first == sorted(want), (name, first)
        for order in _orders(hand):
            assert _held(g, order) == first, (name, order)


def test_canonical_relabels_the_suits_to_the_least_sorted_hand():
    # the certifier's representative of a suit-symmetry class: of the 24 suit relabellings, the one
    # whose sorted cards come first in colex order (the highest card compared first)
    g = PokerGame(load("jacks-98"))
    rep = bytearray(5)
    back = bytearray(5)
    g.canonical(bytes(cards("As Ks Qs Js Ts")), rep, back)  # a royal in spades: in clubs
    assert list(rep) == cards("Tc Jc Qc Kc Ac") and list(back) == [4, 3, 2, 1, 0]
    g.canonical(bytes([24, 28, 0, 9, 13]), rep, back)  # already canonical: the deal sorted
    assert list(rep) == [0, 9, 13, 24, 28] and list(back) == [2, 3, 4, 0, 1]
    # the aces (the highest cards) take the two lowest suits, the sevens the other two; the deuce
    # shares its suit with an ace, and the lowest deuce decides which ace is the club
    g.canonical(bytes(cards("Ah Ad 7s 7c 2h")), rep, back)
    assert list(rep) == cards("2c 7h 7s Ac Ad"), [card_name(c) for c in rep]
    assert list(back) == [4, 3, 2, 0, 1]  # 7c is 7h: of two equal relabellings, the first in _PERMS
    j = PokerGame(load("joker-poker-99"))
    # the joker stays the highest card; the kings take clubs and diamonds, the spades hearts
    j.canonical(bytes(cards("JK Kh Kd 2s 9s")), rep, back)
    assert list(rep) == cards("2h 9h Kc Kd JK"), [card_name(c) for c in rep]


def test_play_deals_holds_and_draws_from_one_shuffle():
    raw = load("jacks-98")
    raw["strategy"] = ["20|2|10-|000", "10|1|-11|000"]  # a pair of jacks or better, else one high card
    g = PokerGame(raw)
    wins = 0
    for seed in range(1, 40):
        o = g.play(Lcg(seed), 5)
        deck = g.shuffle(Lcg(seed))  # the same bits give the same deck
        assert o.deck == deck and o.draws[:-1] == list(deck)
        assert o.holds == g.suggest(deck[:5])
        assert o.stops == list(g.draw(deck, o.holds))
        assert g.evaluate(5, o.draws).award == o.award
        wins += o.award > 0
    assert wins > 5
    with raises(ValueError):
        g.play(Lcg(1), 7)


def test_describe_lists_every_award():
    g = PokerGame(load("double-bonus-99"))
    fr = g.describe("fr")
    en = g.describe("en")
    assert fr[0] == "Double bonus 10/7" and en[0] == "Double Bonus 10/7"
    assert "Quinte flush royale : 250 / 500 / 750 / 1000 / 4000" in fr
    assert "Four aces: 160 / 320 / 480 / 640 / 800" in en


def test_describe_says_how_a_hand_is_played_deal_hold_draw_and_the_wild_cards():
    # s. 89: how prizes are won, not only what they pay (issue 23.14: the rules were one line)
    g = PokerGame(load("double-bonus-99"))
    fr, en = g.describe("fr"), g.describe("en")
    assert fr[1] == "Mises : 1, 2, 3, 4, 5 crédits" and en[1] == "Bets: 1, 2, 3, 4, 5 credits"
    assert "Donner : cinq cartes sont données d'un paquet de 52 cartes, brassé à chaque partie." in fr
    assert "Draw: each card not held is replaced by the next card of the same deck." in en
    assert not [ln for ln in en if "wild" in ln]  # no wild card in double bonus
    assert fr[-1].startswith("Toute défectuosité") and en[-1].startswith("Malfunction voids")
    # the pay lines come after the rules, still "AWARD : v1 / v2 / ..." (the screen's table)
    assert fr.index("Quinte flush royale : 250 / 500 / 750 / 1000 / 4000") > \
        fr.index("Gains (crédits) selon la mise 1 / 2 / 3 / 4 / 5 :")
    deuces = PokerGame(load("deuces-wild-99")).describe("en")
    assert "The four deuces are wild: each stands for any card." in deuces
    joker = PokerGame(load("joker-poker-99")).describe("fr")
    assert "Le joker est frimé : il tient lieu de n'importe quelle carte." in joker
    assert "Donner : cinq cartes sont données d'un paquet de 52 cartes et un joker, brassé à chaque partie." in joker
