# Crazy Four Poker (s. 67.75-67.87) on both runtimes: the four-card hands' order (s. 67.65), the best
# four of five, settlements worked out by hand from the by-law, the 3 x play only with a pair of aces
# or better, the built-in strategy's boundary, and the boot check.
from devtest import raises

from games import hand4
from games.cardtable_games import load
from games.certificate import check
from games.crazy_four import FOLD, PLAY, PLAY3

RANKS = "23456789TJQKA"
G = load("games/models/crazy-four-92.json")


def h(text):
    return [RANKS.index(x[0]) * 4 + "cdhs".index(x[1]) for x in text.split()]


def test_four_card_hands_by_the_by_law():
    v = lambda t: hand4.value(h(t))  # noqa: E731
    order = ["Ac Ad Ah As", "2c 2d 2h 2s", "Js Qs Ks As", "As 2s 3s 4s", "Ac Ad Ah 2s", "2c 7c 9c Jc",
             "Jc Qd Kh As", "Ac 2d 3h 4s", "Ac Ad Kh Ks", "3c 3d 2h 2s", "Ac Ad Kh Qs", "2c 2d 4h 3s",
             "Ac Kd Qh 9s", "Kc 4d 3h 2s", "Qc Jd Th 8s"]
    values = [v(t) for t in order]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert hand4.category(v("Qc Kd Ah 2s")) == hand4.HIGH  # no wrap-around
    assert v("Ac Kd 5h 3s") == v("As Kh 5d 3c")
    # the best four of five (s. 67.82, 67.83): the fifth card discarded
    assert hand4.best(h("Ac Ad Ah 2c As")) == v("Ac Ad Ah As")
    assert hand4.best(h("9c 5h 6h 7h 8h")) == v("5h 6h 7h 8h")


def settle(stake, player, dealer, *made):
    return G.evaluate(stake, h(player + " " + dealer) + list(made)).returned


def test_settlements():
    st = {"ante": 1}
    # fold: the ante and the Super Bonus lost (s. 67.81)
    assert settle(st, "2c 5d 9h Jc 3s", "Ac Ad Ah 2s 3c", FOLD) == {"ante": 0, "super_bonus": 0}
    # the dealer does not open below a king: play 1 to 1, ante and Super Bonus returned (s. 67.82)
    assert settle(st, "Kc Qd 8h 4c 2s", "Qs Jd 9h 7s 5c", PLAY) == {"ante": 1, "play": 2, "super_bonus": 1}
    # he opens and loses: ante and play 1 to 1, the Super Bonus returned (s. 67.84, 67.86)
    assert settle(st, "Ac Ad 8h 4c 2s", "Kc Qs 9h 7s 5c", PLAY3) == {"ante": 2, "play": 6, "super_bonus": 1}
    # he wins: ante and play lost, the Super Bonus too without a straight
    assert settle(st, "Kc Qd 8h 4c 2s", "Ks Qs 9h 7s 5c", PLAY) == {"ante": 0, "play": 0, "super_bonus": 0}
    # a flush losing to a dealer's three of a kind: the Super Bonus still pays 3 to 1 (s. 67.85)
    assert settle(st, "2h 7h 9h Jh 3s", "Kc Ks Kd 7s 5c", PLAY) == {"ante": 0, "play": 0, "super_bonus": 4}
    # four aces played 3 x: 200 to 1 on the Super Bonus
    assert settle(st, "Ac Ad Ah As 2s", "Kc Qs 9h 7s 5c", PLAY3) == {"ante": 2, "play": 6, "super_bonus": 201}
    # equal hands push (s. 67.83)
    assert settle(st, "Ac Kd 5h 3c 2s", "As Kh 5d 3s 2c", PLAY) == {"ante": 1, "play": 1, "super_bonus": 1}


def test_queens_up_alone_and_when_folded():
    st = {"ante": 1, "queens_up": 1}
    assert settle(st, "Qc Qd 8h 4c 2s", "Ac Ad Ah 2h 3c", FOLD)["queens_up"] == 2  # 1 to 1
    assert settle(st, "Jc Jd 8h 4c 2s", "Ac Ad Ah 2h 3c", FOLD)["queens_up"] == 0
    assert settle(st, "9c 9d 9h 4c 2s", "Ac Ad Ah 2h 3c", FOLD)["queens_up"] == 8  # 7 to 1
    assert settle(st, "Ac Kd 3h 3c 2s", "Qc Qd Jh 2h 8c", FOLD)["queens_up"] == 0  # a pair of threes


def test_three_times_only_with_aces_or_better():
    assert G.pending({"ante": 1}, h("Ac Ad 8h 4c 2s Kc Qs 9h 7s 5c"), []) == (FOLD, PLAY, PLAY3)
    assert G.pending({"ante": 1}, h("Kc Kd 8h 4c 2s Ac Qs 9h 7s 5c"), []) == (FOLD, PLAY)
    with raises(ValueError):
        G.evaluate({"ante": 1}, h("Kc Kd 8h 4c 2s Ac Qs 9h 7s 5c") + [PLAY3])
    assert G.cost({"ante": 2}, [], [], PLAY3) == 6 and G.check_stake({"ante": 1, "queens_up": 1}) == 3


def test_built_in_strategy():
    st = {"ante": 1}
    assert G.auto(st, h("Kc Qd 8h 4c 2s") + [0] * 5, []) == PLAY
    assert G.auto(st, h("Kc Qd 7h 6c 2s") + [0] * 5, []) == FOLD
    assert G.auto(st, h("Ac Ad 7h 6c 2s") + [0] * 5, []) == PLAY3


def test_boot_check():
    ok, why, g = check("games/models/crazy-four-92.json", "games/certs/crazy-four-92.json")
    assert ok and g.max_award == [260] and g.max_risk == [6], why
