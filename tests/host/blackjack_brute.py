"""An independent blackjack evaluator for the tests: the round played card by card in the engine's
order (s. 22: player, up card, player; hits and split hands in play order, s. 24(3); the dealer's
second card and draws after the player's hands, s. 26; multi-action: hand after hand, s. 26.7),
every card drawn from what is left of a small shoe, results settled by the by-law's sentences
(s. 18-21, s. 20: against a dealer blackjack only the initial wager is lost). Exact fractions, no
code shared with tools/certify/blackjack_exact.py (which works on "no dealer blackjack" weights and
multisets instead of the sequence of cards).

strategy: "optimal" (the best decision with everything seen, the other split hand's cards too) or a
model's table (the device's reading of it: games/blackjack.py suggest)."""
from __future__ import annotations

from fractions import Fraction

ROWS = "A23456789T"


def best(cards: tuple[int, ...]) -> tuple[int, bool]:
    h = sum(cards)
    if 1 in cards and h <= 11:
        return h + 10, True
    return h, False


class Brute:
    def __init__(self, full, h17=True, double_any=False, das=False, strategy="optimal", dealer_hands=1,
                 wager=0, splits=True, sevens=None, suited_678=None):
        self.full = tuple(full)
        self.h17 = h17
        self.double_any = double_any
        self.das = das
        self.table = None if strategy == "optimal" else strategy
        self.nd = dealer_hands
        self.wager = wager  # which dealer hand's wager is valued
        self.splits = splits
        # s. 18.1: three sevens (pay as a Fraction, "3 to 2": 3/2) and a suited 6-7-8; this evaluator
        # deals values, and each of a 6, 7 and 8 is of any suit with the same chance, so a 6-7-8 is
        # of one suit with chance 4/64
        self.sevens = sevens
        self.suited_678 = suited_678
        self.memo: dict = {}

    def value(self) -> Fraction:
        """The expected net result per initial wager of one round."""
        c = list(self.full)
        n = sum(c)
        ev = Fraction(0)
        for p1 in range(1, 11):
            if not c[p1 - 1]:
                continue
            q1 = Fraction(c[p1 - 1], n)
            c[p1 - 1] -= 1
            for up in range(1, 11):
                if not c[up - 1]:
                    continue
                q2 = Fraction(c[up - 1], n - 1)
                c[up - 1] -= 1
                for p2 in range(1, 11):
                    if not c[p2 - 1]:
                        continue
                    q3 = Fraction(c[p2 - 1], n - 2)
                    c[p2 - 1] -= 1
                    hand = (tuple(sorted((p1, p2))), 1, False, False)
                    natural = sorted((p1, p2)) == [1, 10]
                    if natural:
                        ev += q1 * q2 * q3 * self.dealer(tuple(c), up, ((hand[0], 1, False, True),), True)
                    else:
                        ev += q1 * q2 * q3 * self.play(tuple(c), up, (hand,), 0)
                    c[p2 - 1] += 1
                c[up - 1] += 1
            c[p1 - 1] += 1
        return ev

    # the player's part -------------------------------------------------------------------------
    def options(self, hands, i) -> str:
        cards, stake, split, done = hands[i]
        t, soft = best(cards)
        out = ""
        if not (t == 21 and not soft):
            out += "H"
        out += "S"
        if len(cards) == 2:
            if (not split or self.das) and sorted(cards) != [1, 10] and (self.double_any or 9 <= sum(cards) <= 11):
                out += "D"
            if self.splits and len(hands) == 1 and cards[0] == cards[1]:
                out += "P"
        return out

    def letter(self, hands, i, up, ok) -> str:
        cards = hands[i][0]
        col = 9 if up == 1 else up - 2
        st = self.table
        if "P" in ok and st["pair"][ROWS[cards[0] - 1]][col] == "P":
            return "P"
        t, soft = best(cards)
        a = st["soft" if soft else "hard"][str(t)][col]
        if a in "DE":
            a = "D" if "D" in ok else ("H" if a == "D" else "S")
        if a == "H" and "H" not in ok:
            a = "S"
        return a

    def play(self, c, up, hands, i) -> Fraction:
        # hand i is to be played; a split hand of one card takes its second card first
        if i == len(hands):
            return self.dealer(c, up, hands, False)
        key = (c, up, hands, i)
        got = self.memo.get(key)
        if got is not None:
            return got
        cards, stake, split, done = hands[i]
        if len(cards) == 1:
            got = self.draw(c, lambda v: self.after_card(up, hands, i, v), )
        elif done:
            got = self.play(c, up, hands, i + 1)
        else:
            ok = self.options(hands, i)
            if self.table is None:
                got = max(self.act(c, up, hands, i, a) for a in ok)
            else:
                got = self.act(c, up, hands, i, self.letter(hands, i, up, ok))
        self.memo[key] = got
        return got

    def after_card(self, up, hands, i, v):
        cards, stake, split, done = hands[i]
        new = tuple(sorted(cards + (v,)))
        t, soft = best(new)
        done = (split and cards == (1,)) or t > 21 or (t == 21 and not soft)
        return (up, hands[:i] + ((new, stake, split, done),) + hands[i + 1:], i)

    def draw(self, c, then) -> Fraction:
        n = sum(c)
        out = Fraction(0)
        for v in range(1, 11):
            if c[v - 1]:
                c2 = c[:v - 1] + (c[v - 1] - 1,) + c[v:]
                up, hands, i = then(v)
                out += Fraction(c[v - 1], n) * self.play(c2, up, hands, i)
        return out

    def act(self, c, up, hands, i, a) -> Fraction:
        cards, stake, split, done = hands[i]
        if a == "S":
            return self.play(c, up, hands[:i] + ((cards, stake, split, True),) + hands[i + 1:], i)
        if a == "H":
            return self.draw(c, lambda v: self.after_card(up, hands, i, v))
        if a == "D":
            def dbl(v):
                new = tuple(sorted(cards + (v,)))
                return (up, hands[:i] + ((new, 2, split, True),) + hands[i + 1:], i)
            return self.draw(c, dbl)
        # split: two hands of one card each, the first played first
        return self.play(c, up, (((cards[0],), 1, True, False), ((cards[1],), 1, True, False)), i)

    # the dealer's part and the settlement ----------------------------------------------------------
    def dealer(self, c, up, hands, natural) -> Fraction:
        out = Fraction(0)
        for d, p in self.dealer_final(c, up, self.wager).items():
            out += p * self.settle(hands, d, natural)
        return out

    def dealer_final(self, c, up, k) -> dict:
        """{dealer hand k's final cards (sorted): probability}, hands 0..k-1 drawn before it."""
        key = ("d", c, up, k)
        got = self.memo.get(key)
        if got is None:
            got = {}
            if k == 0:
                for d, p, _ in self.dealer_hand(c, (up,)):
                    got[d] = got.get(d, 0) + p
            else:
                for _, p, c2 in self.dealer_hand(c, (up,)):  # hand k-1 ... then this one
                    for d, q in self.dealer_final(c2, up, k - 1).items():
                        got[d] = got.get(d, 0) + p * q
            self.memo[key] = got
        return got

    def dealer_hand(self, c, d) -> list:
        """[(final cards, probability, shoe left)] of one dealer hand from d (s. 26)."""
        key = ("h", c, tuple(sorted(d)))
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = self._dealer_hand(c, d)
        return got

    def _dealer_hand(self, c, d) -> list:
        t, soft = best(d)
        if len(d) >= 2 and not (t < 17 or (t == 17 and soft and self.h17)):
            return [(tuple(sorted(d)), Fraction(1), c)]
        n = sum(c)
        out = []
        for v in range(1, 11):
            if c[v - 1]:
                c2 = c[:v - 1] + (c[v - 1] - 1,) + c[v:]
                p = Fraction(c[v - 1], n)
                for dd, q, c3 in self.dealer_hand(c2, d + (v,)):
                    out.append((dd, p * q, c3))
        return out

    def settle(self, hands, d, natural) -> Fraction:
        dbj = len(d) == 2 and sorted(d) == [1, 10]
        if natural:
            return Fraction(0) if dbj else Fraction(3, 2)  # s. 19, s. 21
        if dbj:
            return Fraction(-1)  # s. 20: the initial wager only, whatever was doubled or split
        dt = best(d)[0]
        out = Fraction(0)
        for cards, stake, split, done in hands:
            t = best(cards)[0]
            if t > 21:
                out -= stake
                continue
            if len(cards) == 3 and cards == (7, 7, 7) and self.sevens is not None:
                out += stake * self.sevens
                continue
            if len(cards) == 3 and cards == (6, 7, 8) and self.suited_678 is not None:
                p = Fraction(4, 64)
                out += p * stake * self.suited_678 + (1 - p) * self.plain(t, dt, stake)
                continue
            out += self.plain(t, dt, stake)
        return out

    @staticmethod
    def plain(t, dt, stake) -> Fraction:
        # s. 18-19: a hand of 21 or less against the dealer's total
        if dt > 21 or t > dt:
            return Fraction(stake)
        if t < dt:
            return Fraction(-stake)
        return Fraction(0)
