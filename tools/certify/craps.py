"""Craps' exact laws (s. 95.6-95.17), written from the by-law apart from the device engine
(games/craps.py). Two fair dice: a total t comes in ways(t) = 6 - |t - 7| of the 36 rolls.

Convention (the standard one, e.g. the Wizard of Odds' craps tables): each wager's return is per
resolved wager, over the rolls that decide it while it works, and per credit it puts at risk (the
stake, and a buy or lay commission paid with it, s. 95.17(2)-(3)); pushes return the stake. So a
number N (place, buy, lay, odds, a come or pass point) is decided by the first N or 7: N first with
chance ways(N) / (ways(N) + 6). `rolls` is the expected rolls to decide it (1 for a one-roll wager),
from which the loss per roll follows (the "per roll" house edges)."""
from __future__ import annotations

from fractions import Fraction

from tools.certify.table_law import Law, paid

POINTS = (4, 5, 6, 8, 9, 10)
ALL = Fraction(36)


def ways(t: int) -> int:
    return 6 - abs(t - 7) if 2 <= t <= 12 else 0


def first(n: int) -> Fraction:
    """Chance that n comes before a 7."""
    return Fraction(ways(n), ways(n) + 6)


def decided_in(n: int) -> Fraction:
    """Expected rolls until the first n or 7."""
    return ALL / (ways(n) + 6)


def line_law(c: int, dont: bool) -> Law:
    """A pass or come wager (dont: don't pass, don't come), from its first roll to its decision."""
    rolls = 1 + sum((Fraction(ways(n), 36) * decided_in(n) for n in POINTS), Fraction(0))
    point = sum((Fraction(ways(n), 36) * first(n) for n in POINTS), Fraction(0))  # the point is made
    points = sum((Fraction(ways(n), 36) for n in POINTS), Fraction(0))
    if not dont:
        win = Fraction(ways(7) + ways(11), 36) + point
        return Law(c, [(win, paid(c, 1, 1), paid(c, 1, 1) > c), (1 - win, 0, False)], rolls)
    win = Fraction(ways(2) + ways(3), 36) + (points - point)
    push = Fraction(ways(12), 36)  # barred: s. 95.14(2)
    return Law(c, [(win, paid(c, 1, 1), paid(c, 1, 1) > c), (push, c, False), (1 - win - push, 0, False)], rolls)


def number_law(c: int, n: int, pay: tuple[int, int], right: bool, commission: int = 0) -> Law:
    """A wager decided by the first n or 7: right (place, buy, odds) wins on n, else (lay, don't odds) on 7."""
    p = first(n) if right else 1 - first(n)
    back = paid(c, *pay)
    return Law(c + commission, [(p, back, back > c), (1 - p, 0, False)], decided_in(n))


def hard_law(c: int, n: int, pay: tuple[int, int]) -> Law:
    """Hard n (s. 95.15(1)): its one pair of equal faces before a 7 or an easy n."""
    p = Fraction(1, ways(n) + 6)
    return Law(c, [(p, paid(c, *pay), paid(c, *pay) > c), (1 - p, 0, False)], decided_in(n))


def one_roll_law(c: int, pays: dict[int, tuple[int, int]], parts: int) -> Law:
    """A one-roll wager on the totals of pays; a wager on several totals as parts (horn, world, 3-way
    craps: s. 95.15(8), (10), (11)) has its stake split evenly, each part paid as its total's own wager."""
    out = []
    lose = Fraction(1)
    for t, pay in sorted(pays.items()):
        p = Fraction(ways(t), 36)
        back = paid(c // parts, *pay)
        out.append((p, back, back > c))
        lose -= p
    return Law(c, out + [(lose, 0, False)])


def hop_law(c: int, pair: tuple[int, int], pay: tuple[int, int]) -> Law:
    p = Fraction(1 if pair[0] == pair[1] else 2, 36)
    return Law(c, [(p, paid(c, *pay), paid(c, *pay) > c), (1 - p, 0, False)])


def commission(wid: str, c: int, pay: tuple[int, int]) -> int:
    """5 % (s. 95.17): of the wager for a buy, of the potential winnings for a lay; a fraction of a
    credit is rounded up (the house takes whole credits)."""
    base = c if wid.startswith("buy") else paid(c, *pay) - c
    return -(-base * 5 // 100)


ONE_ROLL = {"field": {2: (2, 1), 3: (1, 1), 4: (1, 1), 9: (1, 1), 10: (1, 1), 11: (1, 1), 12: (2, 1)},
            "any7": {7: None}, "eleven": {11: None}, "any_craps": {2: None, 3: None, 12: None},
            "craps2": {2: None}, "craps3": {3: None}, "craps12": {12: None}}
PARTS = {"horn": (2, 3, 11, 12), "world": (2, 3, 7, 11, 12), "three_way": (2, 3, 12)}


def laws(raw: dict, wagers: dict) -> dict[str, dict[str, object]]:
    """{wager: {stake key: law(credits) -> Law}}; wagers: {id: payout as the model writes it}."""
    out: dict[str, dict[str, object]] = {}
    for wid, pays in wagers.items():
        out[wid] = _laws(wid, pays)
    return out


def _digits(wid: str) -> int:
    return int("".join(ch for ch in wid if ch.isdigit()))


def _laws(wid: str, pays) -> dict[str, object]:
    pay = tuple(pays) if isinstance(pays, list) else None
    if wid in ("pass", "come", "dont_pass", "dont_come"):
        return {wid: lambda c, d=wid.startswith("dont"): line_law(c, d)}
    if wid.startswith("odds"):
        n = _digits(wid)
        law = lambda c: number_law(c, n, pay, True)  # noqa: E731
        return {wid + ":pass": law, wid + ":come": law}
    if wid.startswith("dont_odds"):
        n = _digits(wid)
        law = lambda c: number_law(c, n, pay, False)  # noqa: E731
        return {wid + ":dont_pass": law, wid + ":dont_come": law}
    if wid.startswith(("place", "buy", "lay")):
        n = _digits(wid)
        right = not wid.startswith("lay")
        fee = wid.startswith(("buy", "lay"))
        return {wid: lambda c: number_law(c, n, pay, right, commission(wid, c, pay) if fee else 0)}
    if wid.startswith("hard"):
        return {wid: lambda c: hard_law(c, _digits(wid), pay)}
    if wid == "hop_easy":
        return {"hop_easy:%d-%d" % (a, b): (lambda c, ab=(a, b): hop_law(c, ab, pay))
                for a in range(1, 7) for b in range(a + 1, 7)}
    if wid == "hop_hard":
        return {"hop_hard:%d-%d" % (a, a): (lambda c, ab=(a, a): hop_law(c, ab, pay)) for a in range(1, 7)}
    if wid in PARTS:
        table = {int(t): tuple(v) for t, v in pays.items()}
        return {wid: lambda c: one_roll_law(c, table, len(PARTS[wid]))}
    if wid == "field":
        table = {int(t): tuple(v) for t, v in pays.items()}
        return {wid: lambda c: one_roll_law(c, table, 1)}
    table = {t: pay for t in ONE_ROLL[wid]}
    return {wid: lambda c: one_roll_law(c, table, 1)}
