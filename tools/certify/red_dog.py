"""Red Dog (jeton-red-dog/1, by-law s. 63-67): exact figures over every ordered deal of three cards
from a shoe of D decks (52 D (52 D - 1) (52 D - 2) equally likely deals), counted by the three
cards' values: n = 4 D cards of each value, so the first two values (i, j) and the third k come
n (n - [i = j]) (n - [k = i] - [k = j]) ways. Raising on a spread is optimal where the third card's
expectation at the spread's odds is positive (then it is worth raising by the whole wager; never
otherwise: a raise's expectation is its amount times that); the built-in strategy is the device's
auto() asked for every pair of first values.
"""
from __future__ import annotations

from fractions import Fraction

from games import red_dog as dev
from tools.certify.cardtable import Report, Wager, law


def analyse(game: dev.RedDogGame) -> dict:
    pays = game.m.pays["wager"]
    n = 4 * game.decks
    total = 52 * game.decks
    rows = []  # (i, j, spread, raise optimal, raise built-in, [(wagered, returned, count) per unit, no raise / raise])
    for i in range(13):
        for j in range(13):
            first = n * (n - (i == j))
            k = abs(i - j) - 1 if i != j else -1
            if k < 0:  # a pair: the third card makes three of a kind or the round is a push
                trips = first * (n - 2)
                paid = [(1, 1 + pays[0], trips), (1, 1, first * (total - 2) - trips)] if pays[0] else \
                    [(1, 1, first * (total - 2))]
                rows.append((i, j, k, False, False, paid, paid))
                continue
            if k == 0:
                paid = [(1, 1, first * (total - 2))]
                rows.append((i, j, k, False, False, paid, paid))
                continue
            odds = pays[min(k, 4)]
            between = first * n * k if odds else 0
            outside = first * (total - 2) - between
            no = [(1, 1 + odds, between), (1, 0, outside)]
            yes = [(2, 2 * (1 + odds), between), (2, 0, outside)]
            opt = between * (1 + odds) > first * (total - 2)  # mean return of a unit above 1
            auto = game.auto({"wager": game.bets[0]}, [i * 4, j * 4 + 1, 0], []) == dev.RAISE
            rows.append((i, j, k, opt, auto, no, yes))
    return {"rows": rows}


def certify(raw: dict) -> Report:
    game = dev.RedDogGame(raw)
    m = game.m
    an = analyse(game)
    trip_opt, trip_auto = [], []
    for i, j, k, opt, auto, no, yes in an["rows"]:
        trip_opt += yes if opt else no
        trip_auto += yes if auto else no
    w = {"wager": Wager(m.names["wager"], m.section["wager"] + ", " + m.section["raise"],
                        law(trip_opt), law(trip_auto), True)}
    spreads = sorted({k for i, j, k, opt, auto, no, yes in an["rows"] if opt})
    differ = sorted({k for i, j, k, opt, auto, no, yes in an["rows"] if opt != auto})
    top = max(r for row in an["rows"] for part in (row[5], row[6]) for (wg, r, c) in part if c)
    info = {"optimal strategy": "raise on a spread of %s" % (
                "%d or more" % spreads[0] if spreads and spreads == list(range(spreads[0], 12)) else spreads),
            "built-in strategy differs from the optimal on spreads": str(differ or "none"),
            "built-in strategy costs": "%s of the wager" % (w["wager"].optimal.rtp - w["wager"].builtin.rtp)}
    return Report(raw, game.FORMAT, game.id, list(game.bets), w, Fraction(top), Fraction(2), info, analysis=an)
