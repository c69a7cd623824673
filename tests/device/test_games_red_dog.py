# Red Dog (s. 63-67) on both runtimes: settlements worked out by hand from the by-law, the raise
# offered on a spread only, the built-in strategy's spread of 7, and the boot check.
from games.cardtable_games import load
from games.certificate import check
from games.red_dog import NO_RAISE, RAISE, spread

RANKS = "23456789TJQKA"
G = load("games/models/red-dog-97.json")


def h(text):
    out = []
    for x in text.split():
        code = RANKS.index(x[0]) * 4 + "cdhs".index(x[1])
        while code in out:
            code += 52
        out.append(code)
    return out


def test_consecutive_and_pairs():
    assert G.evaluate({"wager": 2}, h("6c 7d 2h")).returned == {"wager": 2}  # s. 66 (1): a push
    assert G.pending({"wager": 2}, h("6c 7d 2h"), []) is None
    assert G.evaluate({"wager": 2}, h("6c 6d 6h")).returned == {"wager": 24}  # three of a kind 11 to 1
    assert G.evaluate({"wager": 2}, h("6c 6d 7h")).returned == {"wager": 2}  # (2): otherwise a push


def test_spreads():
    # s. 67: spread of 1 pays 5 to 1, 2: 4 to 1, 3: 2 to 1, 4 and over 1 to 1; the raise alike
    assert G.evaluate({"wager": 1}, h("6c 8d 7h") + [NO_RAISE]).returned == {"wager": 6}
    assert G.evaluate({"wager": 1}, h("6c 8d 7h") + [RAISE]).returned == {"wager": 6, "raise": 6}
    assert G.evaluate({"wager": 1}, h("6c 9d 8h") + [NO_RAISE]).award == 5
    assert G.evaluate({"wager": 1}, h("Tc 6d 8h") + [NO_RAISE]).award == 3
    assert G.evaluate({"wager": 5}, h("2c Ad Kh") + [RAISE]).returned == {"wager": 10, "raise": 10}
    # the third card equal to either end, or outside, loses (s. 66 (3))
    assert G.evaluate({"wager": 5}, h("2c Ad Ah") + [RAISE]).returned == {"wager": 0, "raise": 0}
    assert G.evaluate({"wager": 5}, h("4c 9d 3h") + [NO_RAISE]).returned == {"wager": 0}
    assert [spread(h(t)) for t in ("2c Ad", "6c 6d", "6c 7d", "9c 4d")] == [11, -1, 0, 4]


def test_built_in_strategy_raises_from_a_spread_of_seven():
    st = {"wager": 1}
    assert G.auto(st, h("2c Td 3h"), []) == RAISE and G.auto(st, h("2c 9d 3h"), []) == NO_RAISE
    assert G.cost(st, [], [], RAISE) == 1 and G.shown(st, h("2c 9d 3h"), []) == 2


def test_boot_check():
    ok, why, g = check("games/models/red-dog-97.json", "games/certs/red-dog-97.json")
    assert ok and g.max_award == [12, 24, 60] and g.max_risk == [2, 4, 10], why


def test_a_raised_rounds_wins_and_digest_are_the_same_on_both_runtimes():
    # the wins listed in the wagers' sorted order, not a dict's (MicroPython's put the raise first,
    # CPython's the wager): a raised round's recall digest on the cabinet did not match the host's
    # replay (sim/fuzz card_round, python -m sim.replay). s. 67: a spread of 7 pays 1 to 1 on both.
    from firmware.recall import digest

    o = G.evaluate_round(4, [{"wager": 2}, h("3c Jd 8h") + [RAISE]])
    assert o.wins == [["raise", "", 4], ["wager", "spread_7", 4]]
    # the same digest on both runtimes (this file runs under each): its value is CPython's
    assert digest(o) == "01b9e3216c5bf49aefe3a03dd4494874"
