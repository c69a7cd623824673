# 3 Card Poker (s. 67.22-67.32) on both runtimes: every settlement worked out by hand from the by-law's
# sections, the built-in strategy's boundary (Q-6-4 plays, Q-6-3 folds), and the boot check.
from devtest import raises

from games.cardtable_games import load
from games.certificate import check
from games.three_card import FOLD, PLAY

RANKS = "23456789TJQKA"
G = load("games/models/three-card-96.json")


def h(text):
    return [RANKS.index(x[0]) * 4 + "cdhs".index(x[1]) for x in text.split()]


def settle(stake, player, dealer, *made):
    o = G.evaluate(stake, h(player + " " + dealer) + list(made))
    return o.wagered, o.returned


def test_fold_loses_the_ante_only():
    assert settle({"ante": 2}, "2c 5d 9h", "Ac Ad Ah", FOLD) == ({"ante": 2}, {"ante": 0})


def test_dealer_does_not_open_below_a_queen():
    # s. 67.29: J-10-8 does not open: ante 1 to 1, play returned
    assert settle({"ante": 3}, "2c 5d 9h", "Jc Td 8h", PLAY) == ({"ante": 3, "play": 3}, {"ante": 6, "play": 3})
    # Q-3-2 opens: the player's 9-high loses both
    assert settle({"ante": 3}, "2c 5d 9h", "Qc 3d 2h", PLAY) == ({"ante": 3, "play": 3}, {"ante": 0, "play": 0})


def test_higher_hand_wins_both_tie_pushes():
    assert settle({"ante": 1}, "Kc Kd 2h", "Qc Qd Ah", PLAY)[1] == {"ante": 2, "play": 2}  # s. 67.30
    assert settle({"ante": 1}, "Ac Kd 9h", "As Kh 9c", PLAY)[1] == {"ante": 1, "play": 1}  # same ranks: push
    assert settle({"ante": 1}, "Ac Kd 8h", "As Kh 9c", PLAY)[1] == {"ante": 0, "play": 0}


def test_ante_bonus_whatever_the_dealer_holds():
    # s. 67.31: a straight pays the ante 1 to 1 more even when the dealer's straight flush beats it
    assert settle({"ante": 2}, "4c 5d 6h", "7s 8s 9s", PLAY)[1] == {"ante": 2, "play": 0}
    # three of a kind beating the dealer: ante 1 to 1 and 4 to 1, play 1 to 1
    assert settle({"ante": 2}, "7c 7d 7h", "Qc 3d 2h", PLAY)[1] == {"ante": 2 + 2 + 8, "play": 4}
    # a straight flush against a dealer who does not open: ante 1 + 5, play returned
    assert settle({"ante": 1}, "Qh Kh Ah", "Jc 5d 2h", PLAY)[1] == {"ante": 7, "play": 1}
    # no bonus when folded
    assert settle({"ante": 1}, "Qh Kh Ah", "Jc 5d 2h", FOLD)[1] == {"ante": 0}


def test_pair_or_plus_on_the_players_cards_alone():
    # s. 67.32: 40, 30, 6, 4, 1 to 1, whatever the dealer holds, played or folded
    assert settle({"pair_plus": 1}, "Qh Kh Ah", "2c 3c 4c") == ({"pair_plus": 1}, {"pair_plus": 41})
    assert settle({"pair_plus": 2}, "9c 9d 9h", "Ac Ad As")[1] == {"pair_plus": 62}
    assert settle({"pair_plus": 1}, "Ac 2d 3h", "Kc Kd Ks")[1] == {"pair_plus": 7}
    assert settle({"pair_plus": 1}, "2c 7c Jc", "Kc Kd Ks")[1] == {"pair_plus": 5}
    assert settle({"pair_plus": 3}, "2c 2d Jc", "Kc Kd Ks")[1] == {"pair_plus": 6}
    assert settle({"pair_plus": 3}, "2c 3d Jc", "Kc Kd Ks")[1] == {"pair_plus": 0}
    assert settle({"ante": 1, "pair_plus": 1}, "2c 2d Jc", "Kc Kd Ks", FOLD)[1] == {"ante": 0, "pair_plus": 2}


def test_most_one_round_pays():
    # the certificate's 50 per credit: straight flush A-K-Q beating an open dealer, both wagers on it
    o = G.evaluate({"ante": 3, "pair_plus": 3}, h("Qh Kh Ah Qc 3d 2h") + [PLAY])
    assert o.award == 150 and o.bet == 9


def test_built_in_strategy_plays_queen_six_four():
    assert G.auto({"ante": 1}, h("Qc 6d 4h 2c 2d 2h"), []) == PLAY
    assert G.auto({"ante": 1}, h("Qc 6d 3h 2c 2d 2h"), []) == FOLD
    assert G.auto({"ante": 1}, h("2c 2d 3h Ac Ad Ah"), []) == PLAY
    assert G.pending({"pair_plus": 1}, h("2c 2d 3h Ac Ad Ah"), []) is None
    assert G.shown({"ante": 1}, h("2c 2d 3h Ac Ad Ah"), []) == 3
    assert G.cost({"ante": 3}, [], [], PLAY) == 3 and G.cost({"ante": 3}, [], [], FOLD) == 0


def test_boot_check():
    ok, why, g = check("games/models/three-card-96.json", "games/certs/three-card-96.json")
    assert ok and "lowest return 96.627 %" in why, why
    with raises(ValueError):
        G.evaluate({"ante": 1}, h("Qh Kh Ah Qh 3d 2h") + [PLAY])  # a card dealt twice
