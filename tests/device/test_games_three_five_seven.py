# 3-5-7 Poker (s. 67.41-67.50) on both runtimes: settlements worked out by hand from the by-law's
# tables (s. 67.48-67.50), the deal's order (the player's three, then the dealer's four, the first
# two of which make the 5-card hand), the withdrawal of the 7-card wager (s. 67.47: half lost), the
# ace-to-five of mixed suits that is no straight (s. 67.41), the built-in strategy and the boot check.
from devtest import raises

from games import hand5
from games.cardtable_games import load
from games.certificate import check
from games.three_five_seven import KEEP, WITHDRAW

RANKS = "23456789TJQKA"
G = load("games/models/three-five-seven-94.json")
ALL = {"three": 2, "five": 2, "seven": 2}


def h(text):
    return [RANKS.index(x[0]) * 4 + "cdhs".index(x[1]) for x in text.split()]


def settle(player, dealer, *made, stake=None):
    return G.evaluate(stake or ALL, h(player) + h(dealer) + list(made)).returned


def test_the_three_card_wager():
    # s. 67.48, per 2 credits: straight flush 40 to 1, three of a kind 25, straight 6, flush 4, pair 1
    st = {"three": 2, "five": 2}
    assert settle("2h 3h Ah", "Kc Qd 9s 5c", stake=st)["three"] == 82  # A-2-3 suited: a straight flush
    assert settle("7c 7d 7h", "Kc Qd 9s 5c", stake=st)["three"] == 52
    assert settle("Qc Kd Ah", "2c 5d 9s 8c", stake=st)["three"] == 14  # A-K-Q: a straight
    assert settle("2c 9c Jc", "3d 5d 8s 4c", stake=st)["three"] == 10
    assert settle("2c 2d Jc", "3d 5d 8s 4c", stake=st)["three"] == 4
    assert settle("Kc Ad 2h", "3d 5d 8s Tc", stake=st)["three"] == 0  # K-A-2: no wrap-around


def test_the_five_card_wager_is_the_three_and_the_dealers_first_two():
    st = {"three": 2, "five": 2}
    assert settle("Th Jh Qh", "Kh Ah 2c 3d", stake=st)["five"] == 1002  # a royal flush, 500 to 1
    assert settle("6c 6d 9h", "2s Jc 6h 6s", stake=st)["five"] == 4  # sixes (s. 67.49); the last two apart
    assert settle("5c 5d 9h", "2s Jc 5h 5s", stake=st)["five"] == 0  # fives: not paid
    assert settle("4c 5d 6h", "7s 8c 2h 2s", stake=st)["five"] == 14  # a straight, 6 to 1
    # s. 67.41: the ace completes A-2-3-4-5 only as a straight flush in five cards
    assert settle("Ac 2d 3h", "4s 5c Kh Ks", stake=st)["five"] == 0
    assert settle("Ac 2c 3c", "4c 5c Kh Ks", stake=st)["five"] == 202  # its straight flush, 100 to 1
    assert settle("9c 9d 4h", "4s 9h Kh Ks", stake=st)["five"] == 26  # full house, 12 to 1
    assert settle("9c 9d 4h", "4s Jh Kh Ks", stake=st)["five"] == 8  # two pairs, 3 to 1


def test_the_seven_card_wager_is_the_best_five_of_seven():
    # s. 67.50, per 2 credits: royal 100, straight flush 20, four 7, full house 5, flush 4, straight 3,
    # three of a kind 2, two pairs of tens or better (the higher pair) 1 to 1
    assert settle("Th Jh 2c", "Qh 3d Kh Ah", KEEP)["seven"] == 202
    assert settle("Tc Td 4h", "4s 9h 2h 7c", KEEP)["seven"] == 4  # tens and fours
    assert settle("9c 9d 4h", "4s Jh 2h 7c", KEEP)["seven"] == 0  # nines up: not paid
    assert settle("Kc Kd Qh", "Qs 4h 4c 2d", KEEP)["seven"] == 4  # three pairs: the best two, kings up
    assert settle("Ac 2d 3h", "4s 5c 9h Jd", KEEP)["seven"] == 0  # A-2-3-4-5 of mixed suits: nothing
    assert settle("Ac 2d 3h", "4s 5c 6h Jd", KEEP)["seven"] == 8  # 2 to 6: a straight
    assert settle("2c 7c 9c", "Jc 4c 2d 2h", KEEP)["seven"] == 10  # a flush beats the three twos
    # s. 67.47: withdrawn, half of it comes back whatever the cards
    assert settle("Th Jh 2c", "Qh 3d Kh Ah", WITHDRAW)["seven"] == 1
    assert settle("7c 3d 2h", "9s 4h 4c 8d", WITHDRAW)["seven"] == 1


def test_money_decisions_and_the_built_in_strategy():
    assert G.check_stake(ALL) == 6 and G.check_stake({"three": 2, "five": 2}) == 4
    with raises(ValueError) as e:
        G.check_stake({"three": 2, "seven": 2})
    assert "required (s. 67.45)" in str(e.value), e.value
    with raises(ValueError) as e:
        G.check_stake({"three": 1, "five": 2})  # every level even: half of the 7-card wager may be lost
    assert "not a bet level" in str(e.value), e.value
    assert G.pending(ALL, h("7c 3d 2h 9s 4h 4c 8d"), []) == (WITHDRAW, KEEP)
    assert G.pending({"three": 2, "five": 2}, h("7c 3d 2h 9s 4h 4c 8d"), []) is None
    assert G.shown(ALL, [], []) == 3 and G.shown(ALL, [], [KEEP]) == 7
    # withdraw on 7-3-2 ... 9-5-2 of three suits only (tools/certify/three_five_seven.py derives them)
    assert G.auto(ALL, h("7c 3d 2h") + [0] * 4, []) == WITHDRAW
    assert G.auto(ALL, h("2h 9s 5d") + [0] * 4, []) == WITHDRAW
    assert G.auto(ALL, h("7c 3d 2c") + [0] * 4, []) == KEEP  # two of one suit: a flush draw
    assert G.auto(ALL, h("6c 3d 2h") + [0] * 4, []) == KEEP
    assert G.auto(ALL, h("9c 5d 3h") + [0] * 4, []) == KEEP
    assert G.auto(ALL, h("7c 7d 2h") + [0] * 4, []) == KEEP
    with raises(ValueError) as e:
        G.evaluate(ALL, h("7c 3d 2h 9s 4h 4c 8d"))  # the 7-card wager waits for its decision
    assert "waits for a decision" in str(e.value), e.value


def test_the_wheel_of_mixed_suits():
    assert hand5.category(hand5.value(h("Ac 2d 3h 4s 5c"))) == hand5.STRAIGHT  # Boston, Let It Ride: a straight
    assert hand5.category(hand5.value(h("Ac 2d 3h 4s 5c"), False)) == hand5.HIGH
    assert hand5.category(hand5.value(h("Ac 2c 3c 4c 5c"), False)) == hand5.STRAIGHT_FLUSH
    assert hand5.value(h("Ac 2d 3h 4s 5c"), False) > hand5.value(h("Kc 2d 3h 4s 5c"), False)  # ace high
    assert hand5.category(hand5.best_of_7(h("Ac 2d 3h 4s 5c 5d 9h"), False)) == hand5.PAIR


def test_boot_check():
    ok, why, g = check("games/models/three-five-seven-94.json", "games/certs/three-five-seven-94.json")
    # one round at 2 credits a wager: 2 x (41 + 501 + 101) at most (A-K-Q suited, then J-10 of the suit)
    assert ok and g.max_award == [1286] and g.max_risk == [6], why
    assert settle("Ah Kh Qh", "Jh Th 2c 3d", KEEP) == {"three": 82, "five": 1002, "seven": 202}
