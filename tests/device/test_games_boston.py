# Boston Poker (s. 67.51-67.63) on both runtimes: settlements worked out by hand from the by-law (the
# ante's bonus beside the ante's own result, as the game is published), the deal's order (three and
# three, then two and two), the Bonus on the first three cards, and the boot check.
from games.boston import FOLD, PLAY
from games.cardtable_games import load
from games.certificate import check

RANKS = "23456789TJQKA"
G = load("games/models/boston-93.json")


def h(text):
    return [RANKS.index(x[0]) * 4 + "cdhs".index(x[1]) for x in text.split()]


def deal(player, dealer):
    p, d = h(player), h(dealer)
    return p[:3] + d[:3] + p[3:] + d[3:]  # s. 67.57, 67.60: three each, then two each


def settle(player, dealer, *made, stake=None):
    return G.evaluate(stake or {"ante": 1}, deal(player, dealer) + list(made)).returned


def test_settlements():
    assert settle("2c 5d 9h Jc 3s", "Ac Ad Ah 2s 3c", FOLD) == {"ante": 0, "first": 0}  # s. 67.58
    # higher: both additional bets 1 to 1, the ante returned (s. 67.62)
    assert settle("Kc Kd 8h 4c 2s", "Qs Jd 9h 7s 5c", PLAY) == {"ante": 1, "first": 4, "second": 4}
    # lower: all three lost
    assert settle("Kc Qd 8h 4c 2s", "Ks Qs 9h 7s 5c", PLAY) == {"ante": 0, "first": 0, "second": 0}
    # equal: all returned (s. 67.55)
    assert settle("Ac Kd 5h 3c 2s", "As Kh 5d 3s 2c", PLAY) == {"ante": 1, "first": 2, "second": 2}
    # a flush beating the dealer: the ante returned and paid 15 to 1 (s. 67.63)
    assert settle("2h 7h 9h Jh 3h", "Kc Ks Qd 7s 5c", PLAY) == {"ante": 16, "first": 4, "second": 4}
    # a flush losing to a full house: the ante lost, its bonus paid beside it
    assert settle("2h 7h 9h Jh 3h", "Kc Ks Kd 7s 7c", PLAY) == {"ante": 15, "first": 0, "second": 0}
    # two pairs: tens up pay 2 to 1, nines up nothing
    assert settle("Tc Td 4h 4c 2s", "Ac Kd 9h 7s 5c", PLAY)["ante"] == 3
    assert settle("9c 9d 4h 4c 2s", "Ac Kd Jh 7s 5c", PLAY)["ante"] == 1


def test_the_bonus_on_the_first_three_cards():
    st = {"ante": 1, "bonus": 1}
    assert settle("Qh Kh Ah 2c 3d", "Kc Ks Kd 7s 7c", FOLD, stake=st)["bonus"] == 41  # s. 67.59
    assert settle("2c 2d 9h 9c 3d", "Kc Ks Kd 7s 7c", PLAY, stake=st)["bonus"] == 2
    assert settle("2c 3d 9h 9c 3s", "Kc Ks Kd 7s 7c", PLAY, stake=st)["bonus"] == 0


def test_money_and_decisions():
    assert G.check_stake({"ante": 1}) == 3 and G.cost({"ante": 1}, [], [], PLAY) == 2
    assert G.auto({"ante": 1}, h("2c 5d 9h") + [0] * 7, []) == PLAY
    assert G.shown({"ante": 1}, [], []) == 3


def test_boot_check():
    ok, why, g = check("games/models/boston-93.json", "games/certs/boston-93.json")
    assert ok and g.max_award == [1050] and g.max_risk == [6], why
