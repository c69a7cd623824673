# Let It Ride (s. 67.1-67.9) on both runtimes: settlements worked out by hand from the by-law, the
# wagers taken back given back at once, the built-in strategy's rules on the hands that decide them,
# the supplemental wager of a model that offers it, and the boot check.
from games.cardtable_games import load
from games.certificate import check
from games.let_it_ride import PULL, RIDE, LetItRideGame, ride3, ride4
from games.model import read

RANKS = "23456789TJQKA"
G = load("games/models/let-it-ride-98.json")


def h(text):
    return [RANKS.index(x[0]) * 4 + "cdhs".index(x[1]) for x in text.split()]


def test_riding_wagers_paid_by_the_final_hand():
    # s. 67.7-67.8: pair of tens or better wins 1 to 1 on each wager still riding
    o = G.evaluate({"ride": 1}, h("Tc 2d 5h Th 9s") + [PULL, PULL])
    assert (o.wagered, o.returned, o.bet) == ({"ride": 1}, {"ride": 2}, 1)
    o = G.evaluate({"ride": 1}, h("Tc 2d 5h Th 9s") + [RIDE, PULL])
    assert o.returned == {"ride": 4}
    # a pair of nines pays nothing: every riding wager lost
    o = G.evaluate({"ride": 1}, h("9c 2d 5h 9h Ks") + [RIDE, RIDE])
    assert (o.wagered, o.returned) == ({"ride": 3}, {"ride": 0})
    # a royal flush on three wagers: 3 x (1 + 1000)
    assert G.evaluate({"ride": 1}, h("Ts Js Qs Ks As") + [RIDE, RIDE]).award == 3003
    # two pairs 2 to 1, full house 11 to 1, a wheel straight 5 to 1
    assert G.evaluate({"ride": 1}, h("2c 2d 5h 5s 9c") + [PULL, RIDE]).award == 2 * 3
    assert G.evaluate({"ride": 1}, h("2c 2d 5h 5s 5c") + [PULL, PULL]).award == 12
    assert G.evaluate({"ride": 1}, h("Ac 2d 3h 4s 5c") + [PULL, PULL]).award == 6


def test_taking_back_gives_the_wager_back_at_once():
    assert G.cost({"ride": 1}, [], [], PULL) == -1 and G.cost({"ride": 1}, [], [], RIDE) == 0
    assert G.check_stake({"ride": 1}) == 3
    assert [G.shown({"ride": 1}, [], m) for m in ([], [1], [1, 1])] == [3, 4, 5]


def test_built_in_rules_on_three_cards():
    assert ride3(h("Tc Td 2h")) and ride3(h("2c 2d 2h")) and not ride3(h("9c 9d Ah"))
    assert ride3(h("Qs Ks As")) and ride3(h("Ts Ks As"))  # three to a royal flush
    assert ride3(h("3s 4s 5s")) and not ride3(h("2s 3s 4s")) and not ride3(h("As 2s 3s"))
    assert ride3(h("7s 9s Ts")) and not ride3(h("6s 8s 9s"))  # one gap: a ten or better
    assert ride3(h("7s Ts Js")) and not ride3(h("6s 9s Ts"))  # two gaps: two of them
    assert not ride3(h("As 2s 4s")) and not ride3(h("3s 4d 5s"))


def test_built_in_rules_on_four_cards():
    assert ride4(h("Tc Td 2h 5s")) and ride4(h("2c 2d 5h 5s")) and ride4(h("3c 3d 3h 9s"))
    assert ride4(h("2s 7s 9s Ks")) and not ride4(h("9c 9d 2h 5s"))
    assert ride4(h("7c 8d 9h Ts")) and ride4(h("Tc Jd Qh Ks")) and not ride4(h("Jc Qd Kh As"))
    assert not ride4(h("5c 6d 7h 8s")) and not ride4(h("Tc Jd Qh As"))  # worth exactly nothing: taken back


def test_the_supplemental_wager_of_a_model_offering_it():
    m = read("games/models/let-it-ride-98.json")
    m["wagers"]["bonus"] = {"name": {"fr": "Mise supplémentaire", "en": "Bonus"}, "section": "s. 67.9",
                            "pays": {"royal_flush": 20000, "straight_flush": 2000, "four_of_a_kind": 200,
                                     "full_house": 100, "flush": 50, "straight": 25}}
    g = LetItRideGame(m)
    o = g.evaluate({"ride": 1, "bonus": 1}, h("2c 2d 5h 5s 5c") + [PULL, PULL])
    assert o.returned == {"ride": 12, "bonus": 101}
    o = g.evaluate({"ride": 1, "bonus": 1}, h("Tc Td 5h 6s 9c") + [PULL, PULL])
    assert o.returned == {"ride": 2, "bonus": 0}


def test_boot_check():
    ok, why, g = check("games/models/let-it-ride-98.json", "games/certs/let-it-ride-98.json")
    assert ok and g.max_award == [3003] and g.max_risk == [3], why
