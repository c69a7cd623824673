"""War (jeton-war/1, by-law s. 67.33-67.40): exact figures over every ordered deal from a shoe of D
decks (6 or 8), counted by the cards' ranks (n = 4 D of each): the first two cards (i, j) come
n (n - [i = j]) ways; after a tie the war cards are two more cards of the 52 D - 2 left, whose
ranks (k, l) come m_k (m_l - [k = l]) ways with m = n, less the two of rank i. The burnt cards are
any cards of the shoe: every ordered selection of positions is equally likely, so which places the
war cards take does not change their law. Surrendering and going to war are compared exactly; the
built-in strategy is the device's auto(), asked at every tie.
"""
from __future__ import annotations

from fractions import Fraction

from games import war as dev
from tools.certify.cardtable import Report, Wager, law


def analyse(game: dev.WarGame) -> dict:
    m = game.m
    n = 4 * game.decks
    total = 52 * game.decks
    rest = (total - 2) * (total - 3)  # the two war cards after any first two
    win, tie = m.pays["war"]
    a = m.pays["wager"]
    first = {"win": 0, "lose": 0, "tie": 0}
    for i in range(13):
        for j in range(13):
            first["win" if i > j else "lose" if i < j else "tie"] += n * (n - (i == j))
    # after a tie of rank i (the same for every i): the war cards' ranks
    war = {"win": 0, "tie": 0, "lose": 0}
    for k in range(13):
        for l in range(13):
            mk = n - 2 * (k == 0)
            ml = n - 2 * (l == 0) - (k == l)
            war["win" if k > l else "tie" if k == l else "lose"] += mk * ml
    ties = first["tie"]
    plain = [(1, 1 + a, first["win"] * rest), (1, 0, first["lose"] * rest)]
    surrender = plain + [(1, Fraction(1, 2), ties * rest)]
    to_war = plain + [(2, 2 + win, ties * war["win"]), (2, 2 + tie, ties * war["tie"]), (2, 0, ties * war["lose"])]
    ev_war = (win * war["win"] + tie * war["tie"] - 2 * war["lose"])  # net, per credit, over the war cards
    ev_surrender = Fraction(-1, 2) * rest
    auto = game.auto({"wager": game.bets[0]}, [0] * 10, [])
    return {"first": first, "war": war, "rest": rest, "surrender": surrender, "to_war": to_war,
            "war_optimal": ev_war > ev_surrender, "auto": auto == dev.WAR}


def certify(raw: dict) -> Report:
    game = dev.WarGame(raw)
    m = game.m
    an = analyse(game)
    opt = an["to_war"] if an["war_optimal"] else an["surrender"]
    built = an["to_war"] if an["auto"] else an["surrender"]
    w = {"wager": Wager(m.names["wager"], m.section["wager"] + ", " + m.section["war"], law(opt), law(built), True)}
    top = max(2 + max(m.pays["war"]), 1 + m.pays["wager"])
    risk = 2
    if "tie" in m.pays:
        t = m.pays["tie"]
        n = an["rest"]
        tl = law([(1, 1 + t, an["first"]["tie"] * n), (1, 0, (an["first"]["win"] + an["first"]["lose"]) * n)])
        w["tie"] = Wager(m.names["tie"], m.section["tie"], tl, tl, False)
        top = max(1 + m.pays["wager"], 2 + max(m.pays["war"]) + 1 + t)
        risk += 1
    info = {"optimal strategy": "go to war on a tie" if an["war_optimal"] else "surrender on a tie",
            "built-in strategy": "go to war on a tie" if an["auto"] else "surrender on a tie",
            "surrendering every tie instead": "return %s" % law(an["surrender"]).rtp}
    return Report(raw, game.FORMAT, game.id, list(game.bets), w, Fraction(top), Fraction(risk), info, analysis=an)
