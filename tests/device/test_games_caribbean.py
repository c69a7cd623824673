# Caribbean Stud (s. 67.10-67.21) on both runtimes: settlements worked out by hand from the by-law,
# the dealer's opening hand, the built-in strategy's three rules on the hands that decide them, the
# supplemental wager of a model offering it, and the boot check.
from games.cardtable_games import load
from games.caribbean import FOLD, RAISE, CaribbeanGame, ak_raise
from games.certificate import check
from games.model import read

RANKS = "23456789TJQKA"
G = load("games/models/caribbean-94.json")


def h(text):
    return [RANKS.index(x[0]) * 4 + "cdhs".index(x[1]) for x in text.split()]


def settle(stake, player, dealer, *made):
    o = G.evaluate(stake, h(player + " " + dealer) + list(made))
    return o.returned


def test_fold_loses_the_ante():
    assert settle({"ante": 1}, "2c 3d 7h 9s Jc", "4c 5d 6h 8s 3c", FOLD) == {"ante": 0}


def test_dealer_opens_with_ace_king():
    # s. 67.17: A-Q-J-9-8 does not open: ante 1 to 1, raise returned
    assert settle({"ante": 2}, "2c 2d 7h 9s Jc", "Ac Qd Jh 9d 8c", RAISE) == {"ante": 4, "raise": 4}
    # A-K-4-3-2 opens and beats the player's A-Q high
    assert settle({"ante": 2}, "Ad Qc 7h 9s Jc", "Ac Kd 4h 3s 2c", RAISE) == {"ante": 0, "raise": 0}


def test_winning_raise_paid_by_the_players_hand():
    # s. 67.20: a flush 5 to 1 on the raise (2 x ante), the ante 1 to 1
    assert settle({"ante": 1}, "2h 5h 9h Jh Kh", "Ac Kd 4h 3s 2c", RAISE) == {"ante": 2, "raise": 2 * 6}
    # a high-card hand that wins is paid as a pair, 1 to 1
    assert settle({"ante": 1}, "Ad Kc Qh 3d 2s", "Ac Kd Jh 9s 8c", RAISE) == {"ante": 2, "raise": 4}
    # a royal flush: 100 to 1
    assert settle({"ante": 3}, "Ts Js Qs Ks As", "Ac Kd Jh 9s 8c", RAISE) == {"ante": 6, "raise": 6 * 101}
    # equal hands push (s. 67.19)
    assert settle({"ante": 1}, "Ad Kc 5h 3d 2s", "Ac Kd 5s 3s 2c", RAISE) == {"ante": 1, "raise": 2}


def test_built_in_rules():
    up = lambda r: RANKS.index(r)  # noqa: E731
    ak = [12, 11, 7, 4, 2]  # A K 9 6 4
    assert ak_raise(ak, up("9")) and ak_raise(ak, up("4"))  # the up card pairs one of the player's
    assert not ak_raise(ak, up("5"))
    assert ak_raise([12, 11, 10, 4, 2], up("A")) and ak_raise([12, 11, 9, 4, 2], up("K"))  # Q or J, A or K up
    assert not ak_raise(ak, up("A"))
    assert ak_raise([12, 11, 10, 6, 2], up("5")) and not ak_raise([12, 11, 10, 3, 2], up("7"))
    st = {"ante": 1}
    assert G.auto(st, h("2c 2d 7h 9s Jc 3c 4c 5c 6c 8d"), []) == RAISE  # any pair
    assert G.auto(st, h("Ac Qd 7h 9s Jc 3c 4c 5c 6c 8d"), []) == FOLD  # below ace-king
    assert G.auto(st, h("Ac Kd 7h 9s 4c 3c 5c 6c 2d 9d"), []) == RAISE  # ace-king, the 9 up pairs
    assert G.cost(st, [], [], RAISE) == 2 and G.shown(st, [], []) == 5


def test_the_supplemental_wager_pays_even_when_folded():
    m = read("games/models/caribbean-94.json")
    m["wagers"]["progressive"] = {"name": {"fr": "Progressive", "en": "Progressive"}, "section": "s. 67.21",
                                  "pays": {"royal_flush": 10000, "straight_flush": 1000, "four_of_a_kind": 500,
                                           "full_house": 100, "flush": 50}}
    g = CaribbeanGame(m)
    o = g.evaluate({"ante": 1, "progressive": 1}, h("2h 5h 9h Jh Kh 4c 5d 6h 8s 3c") + [FOLD])
    assert o.returned == {"ante": 0, "progressive": 51}


def test_boot_check():
    ok, why, g = check("games/models/caribbean-94.json", "games/certs/caribbean-94.json")
    assert ok and g.max_award == [204, 408, 612] and g.max_risk == [3, 6, 9], why
