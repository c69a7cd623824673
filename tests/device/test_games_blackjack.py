# Blackjack engine, model loader and boot check (issue 26; By-law respecting casino games, S-13.1,
# r. 3, s. 13-26.7). Each rule is checked on a shoe whose first cards are set by hand, so the
# expected result is the by-law's sentence, not the engine's arithmetic: s. 15 (no blackjack on a
# split hand), s. 20 (21 of three cards loses to a dealer blackjack; a doubled hand loses only the
# initial wager), s. 21 (3 to 2), s. 21.1, 21.3, 21.4, s. 22 (no hit on a hard 21), s. 23 (double on
# 9-11 only), s. 24 (split aces one card; no double after a split), s. 25 (insurance 2 to 1),
# s. 26 (hits a soft 17 unless the table stands on all 17), s. 26.1, s. 26.7 (multi-action).
# Runs under both runtimes; the heap of one round is measured under MicroPython.
# mp-heap: 384K
import gc
import json

from devtest import MICROPYTHON, raises, rmtree, tmpdir

from games.blackjack import DECISION, MOVES, BlackjackGame, total
from games.blackjack_check import check, side_return
from games.blackjack_model import BlackjackModel, ModelError, most_cards

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SHIPPED = ("blackjack-1d-94", "blackjack-6d-88", "blackjack-8d-90", "multi-action-6d-99")


def c(t):
    return RANKS.index(t[0]) * 4 + SUITS.index(t[1])


def load(name):
    with open("games/models/%s.json" % name) as f:
        return json.load(f)


def shoe(decks, first, hands=1):
    """The cards a round deals (most_cards of them), the first ones `first` (e.g. "As 9h Kd"), the
    rest in code order."""
    cnt = [decks] * 52
    out = bytearray()
    for t in first.split():
        k = c(t)
        cnt[k] -= 1
        assert cnt[k] >= 0, t
        out.append(k)
    for k in range(52):
        for _ in range(cnt[k]):
            out.append(k)
    return bytes(out[:most_cards(decks, hands)])


class Counter:
    """randbits(k) from a 31-bit LCG: the same sequence on CPython and MicroPython."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def randbits(self, k):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 7) & ((1 << k) - 1)


G6 = BlackjackGame(load("blackjack-6d-88"))  # hits soft 17, double 9-11, no double after split
G8 = BlackjackGame(load("blackjack-8d-90"))  # stands on 17, s. 26.1: double any, after a split too


def run(g, stake, first, moves):
    st = g.state(stake, shoe(g.m.decks, first, g.m.hands))
    for mv in moves:
        st = g.decide(st, mv)
    assert g.legal(st) == "", g.legal(st)
    return g.settle(st)


def test_totals_s13_s14():
    assert total([c("As"), c("6d")]) == (17, True)  # soft 17
    assert total([c("As"), c("6d"), c("Th")]) == (17, False)
    assert total([c("As"), c("Ad")]) == (12, True)
    assert total([c("Ks"), c("Qd"), c("2h")]) == (22, False)


def test_blackjack_pays_3_to_2_s21():
    o = run(G6, {"main": 2}, "As 9h Kd 7c 5s", "")
    assert o.results["main"] == (2, 5)  # the wager and 3 for 2
    assert o.dealer == [[c("9h"), c("7c"), c("5s")]]


def test_blackjack_against_blackjack_is_a_push_s19():
    o = run(G6, {"main": 4}, "As Ah Kd Tc", "N")
    assert o.results["main"] == (4, 4)


def test_doubled_hand_loses_only_the_initial_wager_s20():
    st = G6.state({"main": 2}, shoe(6, "5h As 6d 9c Kd"))
    assert G6.legal(st) == "IN"  # s. 25: the ace up, insurance first
    st = G6.decide(st, "N")
    assert G6.legal(st) == "HSD"  # 11: double (s. 23); not a pair
    st = G6.decide(st, "D")
    o = G6.settle(st)
    assert o.results["main"] == (4, 2)  # staked 4, the double returned: only the initial 2 lost
    assert o.hands[0][0] == [c("5h"), c("6d"), c("9c")] and o.hands[0][2]


def test_insurance_pays_2_to_1_s25():
    o = run(G6, {"main": 4}, "5h As 6d 9c Kd", "ID")
    assert o.results["insurance"] == (2, 6)  # half the wager, paid 2 to 1
    assert o.results["main"] == (8, 4)
    o = run(G6, {"main": 4}, "5h As 6d 9c 7d", "IS")  # no dealer blackjack: the insurance is lost
    assert o.results["insurance"] == (2, 0)


def test_three_card_21_loses_to_a_dealer_blackjack_s20():
    st = G6.state({"main": 2}, shoe(6, "5h Ts 6d Kc Ad"))
    assert G6.legal(st) == "HSD"
    st = G6.decide(st, "H")
    assert G6.legal(st) == ""  # s. 22: no hit on a hard 21
    assert G6.settle(st).results["main"] == (2, 0)


def test_split_aces_take_one_card_and_make_no_blackjack_s15_s24():
    st = G6.state({"main": 2}, shoe(6, "Ah 6c Ad Kc 9s Tc 5h"))
    assert G6.legal(st) == "HSP"  # two aces: no double (2 or 12, s. 23)
    st = G6.decide(st, "P")
    assert G6.legal(st) == ""  # one card on each ace, nothing more
    o = G6.settle(st)
    assert o.hands == [[[c("Ah"), c("Kc")], 1, False], [[c("Ad"), c("9s")], 1, False]]
    # the dealer makes 21 with three cards: A-K after a split is a 21 that pushes, not a blackjack
    assert o.dealer == [[c("6c"), c("Tc"), c("5h")]]
    assert o.results["main"] == (4, 2)


def test_no_double_after_split_s24_but_s26_1_allows_it():
    st = G6.state({"main": 2}, shoe(6, "8h 6c 8d 3c"))
    st = G6.decide(st, "P")
    assert G6.legal(st) == "HS"  # 8-3 after the split: no double (s. 24(5)), no re-split
    st = G8.state({"main": 2}, shoe(8, "8h 6c 8d 3c"))
    st = G8.decide(st, "P")
    assert G8.legal(st) == "HSD"  # s. 26.1(3)


def test_double_on_9_10_11_only_s23():
    def legal(g, first):
        return g.legal(g.state({"main": 2}, shoe(g.m.decks, first)))

    assert legal(G6, "5h 9c 3d") == "HS"  # 8
    assert legal(G6, "5h 9c 4d") == "HSD"  # 9
    assert legal(G6, "Ah 9c 8d") == "HSD"  # an ace and an 8 total 9 (the ace counted 1, s. 13)
    assert legal(G6, "Ah 9c 9d") == "HSD"  # 10
    assert legal(G6, "6h 9c 6d") == "HSP"  # 12: split, no double
    assert legal(G8, "5h 9c 3d") == "HSD"  # s. 26.1(1): 2 to 8 and 12 to 20 too
    assert legal(G8, "Th 9c 8d") == "HSD"
    assert legal(G8, "As 9c Kd") == ""  # a blackjack: nothing to decide


def test_dealer_hits_soft_17_unless_the_table_stands_s26():
    o = run(G6, {"main": 2}, "Th 6c 8d As 4d", "S")
    assert o.dealer == [[c("6c"), c("As"), c("4d")]] and o.results["main"] == (2, 0)  # soft 17 hit: 21
    o = run(G8, {"main": 2}, "Th 6c 8d As 4d", "S")
    assert o.dealer == [[c("6c"), c("As")]] and o.results["main"] == (2, 4)  # stands on 17: 18 wins


def test_side_wagers_s21_1_s21_3_s21_4():
    stake = {"main": 4, "sevens": 2, "over_13": 2, "twelve_sixteen": 4}
    o = run(G6, stake, "7h 2c 7h 7h Tc Td", "H")
    assert o.results["sevens"] == (2, 2 + 2 * 5000)  # three sevens of one suit
    assert o.results["over_13"] == (2, 4)  # 14
    assert o.results["twelve_sixteen"] == (4, 8)  # 14: 1 to 1
    assert o.results["main"] == (4, 10)  # three sevens: 3 to 2 (s. 18.1, this table offers it)
    assert o.award == 10002 + 4 + 8 + 10 and o.bet == 12
    o = run(G6, {"main": 2, "sevens": 2, "under_13": 2}, "7h 2c 6h Ks Tc Td", "S")
    assert o.results["sevens"] == (2, 8)  # the first card only: 3 to 1
    assert o.results["under_13"] == (2, 0)  # 13 loses both (s. 21.4)
    o = run(G6, {"main": 2, "over_13": 2}, "7h 2c 6h Ks Tc Td", "S")
    assert o.results["over_13"] == (2, 0)
    o = run(G6, {"main": 2, "twelve_sixteen": 2, "sevens": 2}, "Ah 9c Ad 7s 7d", "S")
    assert o.results["twelve_sixteen"] == (2, 6)  # two aces: 2 to 1
    assert o.results["sevens"] == (2, 0)
    o = run(G6, {"main": 2, "sevens": 2}, "7h 9c 7c 7d 9d", "S")
    assert o.results["sevens"] == (2, 2 + 2 * 500)  # three sevens, not one suit


def test_three_sevens_and_a_suited_6_7_8_also_win_s18_1():
    m = load("blackjack-6d-88")
    assert m["wagers"]["main"]["pays"]["three_sevens"] == [3, 2]  # as s. 21 pays s. 18.1(1)
    assert m["wagers"]["main"]["pays"]["six_seven_eight_suited"] == [2, 1]
    o = run(G6, {"main": 2}, "7h 9c 7d 7s Tc Ad", "H")  # 777 against the dealer's 20: still wins, 3 to 2
    assert o.results["main"] == (2, 5)
    o = run(G6, {"main": 2}, "6h 9c 7h 8h 5c 7c", "H")  # suited 6-7-8 against a three-card 21: 2 to 1
    assert o.dealer == [[c("9c"), c("5c"), c("7c")]] and o.results["main"] == (2, 6)
    o = run(G6, {"main": 2}, "6h 9c 7h 8c 5c 7c", "H")  # not of one suit: 21 against 21, a push
    assert o.results["main"] == (2, 2)
    o = run(G6, {"main": 2}, "7h Tc 7d 7s Ad", "H")  # against a dealer blackjack it loses (s. 20)
    assert o.results["main"] == (2, 0)


def test_the_progressive_wager_reads_the_first_five_cards_s21_2():
    def game(table, pays):
        m = load("blackjack-1d-94")
        m["wagers"][table] = {"name": {"fr": "Progressive", "en": "Progressive"}, "section": "s. 21.2",
                              "pays": pays}
        return BlackjackGame(m)

    g = game("progressive_1", {"ace_to_five_suited": [10000, 1], "two_to_five_suited": [5000, 1],
                               "four_five_six_suited": [500, 1], "ace_jack_suited": [50, 1],
                               "blackjack_suited": [10, 1], "pair_ten_to_ace": [3, 1], "blackjack": [2, 1]})
    # the player stands on 2-3: his "first five cards" are his two and the shoe's next three
    o = run(g, {"main": 2, "progressive_1": 2}, "3s 9c 2s 4s 5s As Kd 8h", "S")
    assert o.results["progressive_1"] == (2, 2 + 2 * 10000)  # A-2-3-4-5 of one suit: the jackpot line
    assert len(o.shoe) >= 6 and g.evaluate(o.stake, o.draws).to_dict() == o.to_dict()
    o = run(g, {"main": 2, "progressive_1": 2}, "3s 9c 2s 4s 5s Ad Kd 8h", "S")
    assert o.results["progressive_1"] == (2, 2 + 2 * 5000)  # the first four: 2-3-4-5 of one suit
    o = run(g, {"main": 2, "progressive_1": 2}, "Jh 9c Ah 4s 5s Ad Kd 8h", "")
    assert o.results["progressive_1"] == (2, 2 + 2 * 50)  # ace and jack of one suit
    o = run(g, {"main": 2, "progressive_1": 2}, "Qh 9c Ad 4s 5s Ac Kd 8h", "")
    assert o.results["progressive_1"] == (2, 2 + 2 * 2)  # a blackjack
    o = run(g, {"main": 2, "progressive_1": 2}, "Qh 9c Qd 4s 5s Ad Kd 8h", "S")
    assert o.results["progressive_1"] == (2, 2 + 2 * 3)  # a pair of queens
    o = run(g, {"main": 2, "progressive_1": 2}, "Qh 9c 9d 4s 5s Ad Kd 8h", "S")
    assert o.results["progressive_1"] == (2, 0)
    g = game("progressive_2", {"four_aces_one_colour": [10000, 1], "three_aces_suited": [2500, 1],
                               "three_aces": [250, 1], "two_aces_suited": [100, 1], "two_aces": [25, 1]})
    o = run(g, {"main": 2, "progressive_2": 2}, "Ah 9c Ad As 5s 2d Kd 8h", "P")
    assert o.results["progressive_2"] == (2, 2 + 2 * 250)  # three aces, whatever the split made of them
    with raises(ModelError):  # one progressive table at a time
        m = load("blackjack-1d-94")
        m["wagers"]["progressive_1"] = m["wagers"]["progressive_2"] = {
            "name": {"fr": "P", "en": "P"}, "section": "s. 21.2", "pays": {}}
        BlackjackModel(m)


def test_stake_rules():
    for bad in ({}, {"main": 3}, {"main": 2, "insurance": 1}, {"main": 2, "twelve_sixteen": 4},
                {"main": 2, "over_13": 2, "under_13": 2}, {"main": 2, "roulette": 2}, [2], {"main_1": 2}):
        with raises(ValueError):
            G6.m.check_stake(bad)


def test_what_a_stake_can_put_at_risk():
    # the vlt's bet limit counts the whole round: a double (or a split), insurance, the side wagers
    assert G6.at_risk({"main": 4}) == 8 + 2
    assert G6.at_risk({"main": 4, "sevens": 2, "over_13": 2, "twelve_sixteen": 4}) == 8 + 2 + 2 + 2 + 4
    assert G8.at_risk({"main": 4}) == 16 + 2  # s. 26.1(3): a split pair, both doubled
    g = BlackjackGame(load("multi-action-6d-99"))
    assert g.at_risk({"main_1": 2, "main_2": 4, "main_3": 10}) == 2 * (2 + 4 + 10)
    with open("games/certs/blackjack-6d-88.json") as f:
        cert = json.load(f)
    for b in G6.bets:  # the certificate's max_risk: every wager the model offers at one bet level
        stake = {"main": b, "sevens": b, "over_13": b, "twelve_sixteen": b}
        assert G6.at_risk(stake) == cert["max_risk"][str(b)], b
    # the worst a round can risk: insurance lost, a split pair each doubled and lost (s. 26.1(3))
    o = run(G8, {"main": 4}, "8h As 8d 3c 2d 7h 9h 9c", "IPDD")
    assert o.results["insurance"] == (2, 0) and o.results["main"] == (16, 0) and o.bet == G8.at_risk({"main": 4})


def test_multi_action_dealer_hands_share_the_first_card_s26_7():
    g = BlackjackGame(load("multi-action-6d-99"))
    o = run(g, {"main_1": 2, "main_2": 4, "main_3": 10}, "Th 6c 9d Tc 5s 4h Td Kh Qh", "S")
    assert o.dealer == [[c("6c"), c("Tc"), c("5s")], [c("6c"), c("4h"), c("Td")], [c("6c"), c("Kh"), c("Qh")]]
    assert o.results == {"main_1": (2, 0), "main_2": (4, 0), "main_3": (10, 20)}
    # a double doubles every wager (s. 26.6)
    o = run(g, {"main_1": 2, "main_2": 2, "main_3": 2}, "5h 6c 5d Tc Tc 9s 4h Td Kh Qh", "D")
    assert [o.results[k][0] for k in ("main_1", "main_2", "main_3")] == [4, 4, 4]


def test_built_in_strategy_is_the_table():
    def auto(first):
        return G6.auto(G6.state({"main": 2}, shoe(6, first)))

    assert auto("Th 6c 6d") == "S" and auto("Th Tc 6d") == "H"  # hard 16: stands against 6, hits against a ten
    assert auto("8h Tc 8d") == "P"
    assert auto("5h 6c 6d") == "D"  # 11 against 6
    assert auto("Ah 6c 8d") == "D"  # soft 19 (A-8: 9 with the ace counted 1) doubles against 6
    assert auto("5h Ac 6d") == "N"  # insurance is never taken
    st = G6.state({"main": 2}, shoe(6, "Th 9c 6d"))
    assert G6.auto(st) == G6.m.strategy["hard"]["16"][7]


def test_play_replays_bit_for_bit_and_resumes_after_every_decision():
    g = G6
    with open("games/certs/blackjack-6d-88.json") as f:
        most = max(json.load(f)["max_award"].values())
    stakes = ({"main": 2}, {"main": 4, "sevens": 2},
              {"main": 20, "twelve_sixteen": 10, "under_13": 4}, {"main": 10, "over_13": 2})
    for i in range(60):
        stake = stakes[i % len(stakes)]
        o = g.play(Counter(1000 + i), stake)
        again = g.evaluate(stake, list(o.draws))
        assert again.to_dict() == o.to_dict()
        # the cabinet's path: commit the state, cut the power, read it back, decide, and so on
        gen = Counter(1000 + i)
        st = json.loads(json.dumps(g.deal(gen, stake)))
        while g.legal(st):
            st = json.loads(json.dumps(g.decide(st, g.auto(st))))
        assert g.settle(st).to_dict() == o.to_dict()
        assert o.bet == sum(v[0] for v in o.results.values()) and o.award == sum(v[1] for v in o.results.values())
        assert o.bet <= g.at_risk(stake) and o.award <= most  # the certificate's bound, any stake


def test_the_shoe_holds_what_a_round_can_use_and_records_are_short():
    for name, n in (("blackjack-1d-94", 25), ("blackjack-6d-88", 55), ("blackjack-8d-90", 62), ("multi-action-6d-99", 74)):
        g = BlackjackGame(load(name))
        assert g.m.cards == n
        st = g.deal(Counter(3), {g.m.mains[0]: 2} if g.m.hands == 1 else {k: 2 for k in g.m.mains})
        assert len(st["shoe"]) == 2 * n and len(json.dumps(st)) < 250
    # a long round: two split hands of twos hit with aces, twos, threes... and the dealer's
    # (hit until nothing is open: a bust or a hard 21) stays within one deck's 25 cards
    g = BlackjackGame(load("blackjack-1d-94"))
    st = g.state({"main": 2}, shoe(1, "2c 3d 2h Ac Ad 2s As Ah 3c 3h 3s 4c 4d 4h 4s 5c 5d 5h 5s"))
    st = g.decide(st, "P")
    while g.legal(st):
        st = g.decide(st, "H" if "H" in g.legal(st) else "S")
    o = g.settle(st)
    assert len(o.shoe) >= 20 and len(json.dumps(o.draws)) < 200, len(o.shoe)


def test_bad_records_and_decisions_are_refused():
    st = G6.state({"main": 2}, shoe(6, "5h 9c 3d"))
    with raises(ValueError):
        G6.decide(st, "D")  # 8: no double
    with raises(ValueError):
        G6.decide(st, "P")
    with raises(ValueError):
        G6.settle(st)  # not finished
    bad = dict(st)
    bad["shoe"] = "zz" + st["shoe"][2:]
    with raises(ValueError):
        G6.legal(bad)
    bad["shoe"] = "00" + st["shoe"][2:]  # a fifth... seventh two of clubs
    with raises(ValueError):
        G6.legal(bad)
    with raises(ValueError):
        G6.evaluate({"main": 2}, list(shoe(6, "5h 9c 3d")))  # decisions missing (the round is not over)
    o = G6.play(Counter(7), {"main": 2})
    d = o.draws
    with raises(ValueError):
        G6.evaluate({"main": 2}, d + [DECISION + len(MOVES)])  # no such decision
    n = len(o.shoe)
    with raises(ValueError):
        G6.evaluate({"main": 2}, d[:n - 1] + d[n:])  # a card short: the round needs it
    with raises(ValueError):
        G6.evaluate({"main": 2}, d[:n] + [0] + d[n:])  # a card the round does not use
    with raises(ValueError):
        G6.evaluate({"main": 2}, [0] * 7 + d[n:])  # seven two of clubs: six decks hold six


def test_model_errors_are_named():
    base = load("blackjack-1d-94")
    cases = (
        ("decks", 9, "decks"), ("decks", 0, "decks"), ("dealer", "hits_17", "dealer"), ("double", "10-11", "double"),
        ("double_after_split", 1, "double_after_split"), ("dealer_hands", 4, "dealer_hands"),
        ("bets", [1, 2], "blackjack"), ("bets", [2, 2], "ascending"), ("surrender", True, "surrender"),
        ("rules", "text", "rules"),
    )
    for key, v, word in cases:
        m = dict(base)
        m[key] = v
        with raises(ModelError) as e:
            BlackjackModel(m)
        assert word in str(e.value), (key, str(e.value))
    m = json.loads(json.dumps(base))
    m["wagers"]["main"]["pays"]["blackjack"] = [2, 1]
    m["bets"] = [1, 2]
    with raises(ModelError) as e:
        BlackjackModel(m)
    assert "insurance" in str(e.value) and "bet 1" in str(e.value)
    m = json.loads(json.dumps(base))
    m["wagers"]["roulette"] = m["wagers"]["main"]
    with raises(ModelError) as e:
        BlackjackModel(m)
    assert "roulette" in str(e.value)
    m = json.loads(json.dumps(base))
    m["wagers"]["main"]["pays"]["blackjack"] = [3, 0]
    with raises(ModelError) as e:
        BlackjackModel(m)
    assert "blackjack" in str(e.value)
    m = json.loads(json.dumps(base))
    m["strategy"]["hard"]["16"] = "HHHHHHHHHX"
    with raises(ModelError) as e:
        BlackjackModel(m)
    assert "strategy.hard.16" in str(e.value)
    m = json.loads(json.dumps(base))
    del m["strategy"]["pair"]["T"]
    with raises(ModelError) as e:
        BlackjackModel(m)
    assert "row T" in str(e.value)
    m = json.loads(json.dumps(base))
    m["dealer_hands"] = 2
    with raises(ModelError) as e:
        BlackjackModel(m)
    assert "main_1" in str(e.value)


def test_every_shipped_model_passes_its_boot_check():
    for name in SHIPPED:
        ok, reason, game = check("games/models/%s.json" % name, "games/certs/%s.json" % name)
        assert ok, (name, reason)
        assert len(game.max_risk) == len(game.bets) and len(game.max_award) == len(game.bets)
        gc.collect()


def test_side_returns_on_the_device_are_the_published_ones():
    # Super Sevens, six decks, three-card guarantee: 26,650,800 returned on 30,079,920 equally likely
    # ordered three-card starts (Wizard of Odds, "Super Sevens", six-deck table: 480 + 11,664 +
    # 34,560 + 124,416 + 2,142,720 winners; house edge 11.400 %)
    n, d = side_return(G6.m, "sevens")
    assert n * 30079920 == 26650800 * d
    # insurance: the dealer's second card is one of the 96 tens among the 311 other cards
    n, d = side_return(G6.m, "insurance")
    assert n * 311 == 3 * 96 * d


def test_the_firmware_boot_check_certifies_it_and_reads_what_the_boot_asks():
    # games.certificate.check is the firmware's boot check (it dispatches here); firmware/startup.py
    # then asks every certified game its progressive (a reel game's jackpot meter: none here, s. 21.2's
    # pays are fixed) and its kind (a card game: offered under vlt, S-13.1, r. 7, s. 3), and disables a
    # game it has no play flow for by name (tests/host/test_e2e_games.py)
    from firmware import jurisdiction
    from games import certificate

    ok, reason, game = certificate.check("games/models/blackjack-1d-94.json", "games/certs/blackjack-1d-94.json")
    assert ok and game.id == "blackjack-1d-94", reason
    assert game.m.progressive is None and game.kind == "cards"
    assert jurisdiction.check_kind("vlt", game.kind) is None


def test_a_lying_or_sub_floor_certificate_is_refused_by_wager():
    t = tmpdir("bj")
    try:
        with open("games/certs/blackjack-6d-88.json") as f:
            cert = json.load(f)
        cert["rtp"]["over_13"]["2"] = "95/100"  # the device recomputes the side wagers
        with open(t + "/c.json", "w") as f:
            json.dump(cert, f)
        ok, reason, game = check("games/models/blackjack-6d-88.json", t + "/c.json")
        assert not ok and "over_13" in reason and "recomputed" in reason, reason
        # the sevens of one deck (60.181 %): a certificate telling the truth names the wager
        with open("tests/fixtures/blackjack-1d-sevens-60.json") as f:
            from rng.crypto.canon import math_hash
            h = math_hash(json.load(f))
        cert = {"id": "blackjack-1d-sevens-60", "math_hash": h,
                "rtp": {"main": {"2": "99/100", "4": "99/100"}, "sevens": {"2": "13/20", "4": "13/20"}},
                "strategy_rtp": {"main": {"2": "99/100", "4": "99/100"}, "sevens": {"2": "13/20", "4": "13/20"}}}
        with open(t + "/s.json", "w") as f:
            json.dump(cert, f)
        ok, reason, game = check("tests/fixtures/blackjack-1d-sevens-60.json", t + "/s.json")
        assert not ok and "wager sevens" in reason and "floor" in reason, reason
        # s. 21.2's first table at the by-law's pays, one deck: 102,482/162,435 (63.091 %, the line
        # counts of tests/host/test_certify_blackjack.py), refused by name though the device cannot
        # recompute its five cards
        m = load("blackjack-1d-94")
        m["wagers"]["progressive_1"] = {"name": {"fr": "P", "en": "P"}, "section": "s. 21.2", "pays": {
            "ace_to_five_suited": [10000, 1], "two_to_five_suited": [5000, 1], "four_five_six_suited": [500, 1],
            "ace_jack_suited": [50, 1], "blackjack_suited": [10, 1], "pair_ten_to_ace": [3, 1], "blackjack": [2, 1]}}
        with open(t + "/p.json", "w") as f:
            json.dump(m, f)
        with open("games/certs/blackjack-1d-94.json") as f:
            cert = json.load(f)
        from rng.crypto.canon import math_hash
        cert["math_hash"] = math_hash(m)
        for key in ("rtp", "strategy_rtp"):
            cert[key]["progressive_1"] = {str(b): "102482/162435" for b in m["bets"]}
        with open(t + "/pc.json", "w") as f:
            json.dump(cert, f)
        ok, reason, game = check(t + "/p.json", t + "/pc.json")
        assert not ok and "wager progressive_1" in reason and "floor" in reason, reason
    finally:
        rmtree(t)


def test_one_round_fits_a_small_heap():
    # what one whole round allocates (no collection during it: the unix port's gc.mem_alloc()
    # counts garbage too) and what its outcome keeps; an 8-deck shoe is the largest
    g = G8
    g.play(Counter(1), {"main": 2})
    gc.collect()
    if not MICROPYTHON:
        return
    churn = live = 0
    for i in range(20):
        gc.collect()
        before = gc.mem_alloc()
        o = g.play(Counter(50 + i), {"main": 4, "sevens": 2})
        churn = max(churn, gc.mem_alloc() - before)
        gc.collect()
        live = max(live, gc.mem_alloc() - before)
        del o  # the next round's measure starts without this one's outcome
    print("blackjack 8 decks: a round allocates %d bytes, its outcome keeps %d" % (churn, live))
    assert churn < 20 * 1024 and live < 4 * 1024, (churn, live)
