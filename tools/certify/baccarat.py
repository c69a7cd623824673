"""Baccarat's exact laws (s. 27-37), composition-exact, written from the by-law apart from the device
engine (games/baccarat.py). Every coup's first cards are the first cards of a shuffled shoe of 6 to
8 decks (s. 27): the enumeration runs over the values (0-9: ten and court cards 0, ace 1) of the first
4, 5 or 6 cards dealt without replacement, each weighted by the number of card orders that give it,
and counts a coup that stops at k cards with every order of the 6 - k cards after it, so the three
counts add up to N (N-1) ... (N-5), N = 52 x decks: the units of the published combination counts
(the Wizard of Odds, "Baccarat - Basic Rules and House Edge": 8 decks, banker 2,292,252,566,437,888,
player 2,230,518,282,592,256, tie 475,627,426,473,216). Drawing rules: s. 37's tables.

The banker's wager pays 1 to 1 less the s. 31 commission, 5 % of the wager computed on the next
multiple of 10 credits when it is not one, rounded up to a whole credit (docs/game-format.md
"Baccarat"), collected only when the banker wins (s. 35); a tie returns the player's and banker's
wagers (s. 36)."""
from __future__ import annotations

from fractions import Fraction

from tools.certify.table_law import Law, paid

# s. 37: the bank's hand, by its two-card total, when the player took a third card of value v
BANK_STANDS_ON = {3: {8}, 4: {0, 1, 8, 9}, 5: {0, 1, 2, 3, 8, 9}, 6: {0, 1, 2, 3, 4, 5, 8, 9}}


def bank_hits(bank: int, third: int | None) -> bool:
    if bank <= 2:
        return True
    if bank == 7:
        return False
    if third is None:  # the player stood: the bank hits on 3-5, stands on 6 (s. 37's "does not take" column)
        return bank <= 5
    return third not in BANK_STANDS_ON[bank]


def shoe(decks: int) -> list[int]:
    """Cards of each value 0-9 in a shoe."""
    return [16 * decks] + [4 * decks] * 9


def counts(cards: list[int]) -> dict[str, int]:
    """{"player", "banker", "tie"}: the 6-card orders of the shoe cards[v] (cards of value v) in which
    that hand wins (or the hands tie)."""
    n = sum(cards)
    c = list(cards)
    out = {"player": 0, "banker": 0, "tie": 0}

    def add(p: int, b: int, w: int) -> None:
        out["tie" if p == b else ("player" if p > b else "banker")] += w

    def tail(used: int) -> int:  # orders of the cards after the coup, up to the sixth
        w = 1
        for i in range(used, 6):
            w *= n - i
        return w

    for a in range(10):
        wa = c[a]
        c[a] -= 1
        for b in range(10):
            wb = wa * c[b]
            c[b] -= 1
            for x in range(10):
                wx = wb * c[x]
                c[x] -= 1
                for y in range(10):
                    w4 = wx * c[y]
                    if not w4:
                        continue
                    c[y] -= 1
                    p, bk = (a + x) % 10, (b + y) % 10
                    if p >= 8 or bk >= 8:  # a natural
                        add(p, bk, w4 * tail(4))
                    elif p <= 5:  # the player takes a third card
                        for e in range(10):
                            w5 = w4 * c[e]
                            if not w5:
                                continue
                            p3 = (p + e) % 10
                            if bank_hits(bk, e):
                                c[e] -= 1
                                for f in range(10):
                                    add(p3, (bk + f) % 10, w5 * c[f])
                                c[e] += 1
                            else:
                                add(p3, bk, w5 * tail(5))
                    elif bank_hits(bk, None):
                        for f in range(10):
                            add(p, (bk + f) % 10, w4 * c[f] * tail(5))
                    else:
                        add(p, bk, w4 * tail(4))
                    c[y] += 1
                c[x] += 1
            c[b] += 1
        c[a] += 1
    return out


def commission(credits: int) -> int:
    base = -(-credits // 10) * 10
    return -(-base * 5 // 100)


def laws(raw: dict, wagers: dict) -> dict[str, dict[str, object]]:
    k = counts(shoe(raw["decks"]))
    total = sum(k.values())
    pw, bw, tw = (Fraction(k[h], total) for h in ("player", "banker", "tie"))
    out: dict[str, dict[str, object]] = {}
    for wid, pays in wagers.items():
        pay = tuple(pays)
        if wid == "tie":
            law = (lambda c: Law(c, [(tw, paid(c, *pay), paid(c, *pay) > c), (1 - tw, 0, False)]))
        else:
            win, lose = (pw, bw) if wid == "player" else (bw, pw)
            fee = commission if wid == "banker" else (lambda c: 0)
            law = (lambda c, win=win, lose=lose, fee=fee, pay=pay: Law(c, [
                (win, paid(c, *pay) - fee(c), paid(c, *pay) - fee(c) > c), (tw, c, False), (lose, 0, False)]))
        out[wid] = {wid: law}
    return out
