# War (s. 67.33-67.40) on both runtimes: settlements worked out by hand from the by-law (the burnt
# cards never count), the tie wager of a model offering it, and the boot check.
from games.cardtable_games import load
from games.certificate import check
from games.model import read
from games.war import SURRENDER, WAR, WarGame

RANKS = "23456789TJQKA"
G = load("games/models/war-97.json")


def deal(p, d, p2="2c", d2="2d", burnt=("3c", "4c", "5c")):
    # shoe positions: the first deck's code, the later decks' for repeats (six decks)
    names = [p, d] + list(burnt) + [p2] + list(burnt) + [d2]
    out = []
    for n in names:
        code = RANKS.index(n[0]) * 4 + "cdhs".index(n[1])
        while code in out:
            code += 52
        out.append(code)
    return out


def test_first_cards():
    assert G.evaluate({"wager": 2}, deal("Kc", "Qd")).returned == {"wager": 4}  # s. 67.38 (1)
    assert G.evaluate({"wager": 2}, deal("2c", "Ad")).returned == {"wager": 0}  # (2)
    assert G.pending({"wager": 2}, [48, 1] + [0] * 8, []) is None


def test_tie_surrender_or_war():
    o = G.evaluate({"wager": 2}, deal("7c", "7d") + [SURRENDER])  # half the wager lost (s. 67.38 (3))
    assert (o.wagered, o.returned) == ({"wager": 2}, {"wager": 1})
    o = G.evaluate({"wager": 2}, deal("7c", "7d", "9h", "8s") + [WAR])  # s. 67.39 (1)
    assert (o.wagered, o.returned) == ({"wager": 2, "war": 2}, {"wager": 4, "war": 2})
    o = G.evaluate({"wager": 2}, deal("7c", "7d", "9h", "9s") + [WAR])  # (3): both 1 to 1
    assert o.returned == {"wager": 4, "war": 4}
    o = G.evaluate({"wager": 2}, deal("7c", "7d", "8h", "9s") + [WAR])  # (2)
    assert o.returned == {"wager": 0, "war": 0}
    # the burnt cards do not count
    assert G.evaluate({"wager": 2}, deal("7c", "7d", "9h", "8s", ("Ac", "Ad", "Ah")) + [WAR]).award == 6
    assert G.auto({"wager": 2}, [], []) == WAR and G.cost({"wager": 2}, [], [], WAR) == 2


def test_the_tie_wager():
    m = read("games/models/war-97.json")
    m["wagers"]["tie"] = {"name": {"fr": "Égalité", "en": "Tie"}, "pays": 10, "section": "s. 67.40"}
    g = WarGame(m)
    assert g.evaluate({"wager": 2, "tie": 2}, deal("7c", "7d", "9h", "9s") + [WAR]).award == 22 + 8
    assert g.evaluate({"wager": 2, "tie": 2}, deal("8c", "7d")).returned == {"wager": 4, "tie": 0}


def test_boot_check():
    ok, why, g = check("games/models/war-97.json", "games/certs/war-97.json")
    assert ok and g.max_award == [8] and g.max_risk == [4], why
