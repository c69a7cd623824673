"""The exact composition-dependent analysis of the main blackjack wager (host, exact rationals: gmpy2
mpq inside, tools/certify/rational.py; what analyse() returns is Fractions).

For every dealer up card and every initial two-card hand, the player's expected result is worked
out over the shoe actually left (the deck count in play, every card seen removed), recursively over
every hit, stand and double, against the dealer's exact final-total probabilities for that very
shoe (tools/certify/blackjack_dealer.py). Under two strategies: the optimal composition-dependent
one (at every decision the best of the open decisions, compared as exact fractions; ties go to
stand, then hit, then double, then split) and the model's built-in table (total-dependent, the
device's games/blackjack.py suggest()).

No hole card (s. 22, 26) and s. 20 (against a dealer blackjack only the initial wager is lost):
a player who is not dealt a blackjack loses exactly one initial wager when the dealer has one,
whatever he decides, so his result is -P(dealer blackjack) plus his result in the other world;
every value below is that other part, E[result; no dealer blackjack], and the dealer's second card
is drawn from the shoe left after the player's cards, never completing a blackjack.

What is exact and what is not (docs/games.md, "What is exact"): every return, a split pair's
included (s. 24: one split, no re-split; aces take one card each; doubling after it only under
s. 26.1(3)), for strategies that play each hand on its own cards: the two hands and the dealer's are
exchangeable blocks of one shuffle, so the pair is worth twice its first hand, played with the pair
card of the other hand removed, against a dealer drawing right after it.
tests/host/test_certify_blackjack.py measures it against a full enumeration on a small shoe. The
variance and hit frequency of a round with a split treat the two hands as independent given the
shoe after the pair.

Values are (EV, E[X^2], P(X > 0)) of X, the main wager's net result per initial wager, each joint
with "no dealer blackjack"; the split hands carry the distribution of X over -2..2 instead, so that
the pair's E[X^2] and P(X > 0) come from the two hands' convolution (conditionally independent: the
approximation above).
"""
from __future__ import annotations

from games.blackjack_model import BlackjackModel
from tools.certify.blackjack_dealer import BUST, Graph
from tools.certify.rational import Q, fraction

F0 = Q(0)
ROWS_PAIR = "A23456789T"


def full_shoe(decks: int) -> tuple[int, ...]:
    return (4 * decks,) * 9 + (16 * decks,)


def hard(R: tuple[int, ...]) -> int:
    return sum((v + 1) * n for v, n in enumerate(R))


def best(h: int, ace: bool) -> tuple[int, bool]:
    if ace and h <= 11:
        return h + 10, True
    return h, False


def add(R: tuple[int, ...], v: int, n: int = 1) -> tuple[int, ...]:
    c = list(R)
    c[v] += n
    return tuple(c)


def multisets(limit: int, v0: int = 0) -> list[tuple[int, ...]]:
    """Every multiset of values (index 0..9 = ace..ten) whose hard sum is <= limit."""
    out = [(0,) * 10]
    for v in range(v0, 10):
        if v + 1 > limit:
            break
        for rest in multisets(limit - v - 1, v):
            out.append(add(rest, v))
    return out


def col(u: int) -> int:
    """The strategy table's column of up card value u (2..9 -> 0..7, ten 8, ace 9)."""
    return 9 if u == 1 else u - 2


class UpCard:
    """Everything for one dealer up card u (1..10) and one strategy."""

    def __init__(self, rules: BlackjackModel, u: int, dealer: dict, table: dict | None,
                 full: tuple[int, ...] | None = None, split: bool = True):
        self.r = rules
        self.u = u
        self.base = add(full or full_shoe(rules.decks), u - 1, -1)
        self.splits = split  # False: no pair is split (a reduced rule set for the tests)
        self.N = sum(self.base)
        self.dealer = dealer  # R -> six P(outcome, no dealer blackjack)
        self.table = table  # None: optimal
        self.bj = 9 if u == 1 else 0 if u == 10 else -1
        self.memo: dict = {}
        self.options: dict = {}  # two-card R -> {action: EV} (optimal pass; the strategy maker reads it)
        self._pnb: dict = {}

    def shoe(self, R):
        return tuple(b - r for b, r in zip(self.base, R))

    def pnb(self, R) -> Q:
        """P(no dealer blackjack | the player's cards R)."""
        p = self._pnb.get(R)
        if p is None:
            if self.bj < 0:
                p = Q(1)
            else:
                s = self.shoe(R)
                p = 1 - Q(s[self.bj], sum(s))
            self._pnb[R] = p
        return p

    def wl(self, R, t: int) -> tuple[Q, Q]:
        """(P(win), P(lose)) of standing on t with the cards R seen, each joint with no dealer blackjack."""
        P = self.dealer[R]
        if t < 17:
            return P[BUST], P[0] + P[1] + P[2] + P[3] + P[4]
        i = t - 17
        return P[BUST] + sum(P[:i], F0), sum(P[i + 1:BUST], F0)

    def can_double(self, h: int, two: tuple[int, int] | None, split: bool) -> bool:
        if split and not self.r.das:
            return False
        if two is not None and sorted(two) == [0, 9]:
            return False  # an ace and a ten (s. 23)
        return self.r.double_any or 9 <= h <= 11

    def action(self, h: int, ace: bool, pair: int) -> str:
        # the built-in table's letter (games/blackjack.py suggest, the same rules)
        t, soft = best(h, ace)
        c = col(self.u)
        st = self.table
        if pair >= 0 and st["pair"][ROWS_PAIR[pair]][c] == "P":
            return "P"
        return st["soft" if soft else "hard"][str(t)][c]

    def bonus(self, H) -> tuple[Q, Q] | None:
        """(pay, chance) of an s. 18.1 award for the three-card hand H (value counts), if offered:
        three sevens always; a 6, 7 and 8 of one suit with chance 1/16 (docs/games.md: given the values
        the three suits are independent and uniform, the decisions reading values only)."""
        if sum(H) != 3:
            return None
        pays = self.r.pays[self.r.mains[0]]
        if H[6] == 3 and "three_sevens" in pays:
            return Q(*pays["three_sevens"]), Q(1)
        if H[5] == H[6] == H[7] == 1 and "six_seven_eight_suited" in pays:
            return Q(*pays["six_seven_eight_suited"]), Q(1, 16)
        return None

    def stand(self, H, R, s: int) -> dict:
        """{net: probability, joint with no dealer blackjack} of standing with hand H (value counts),
        the cards R seen, s initial wagers on it (2 when doubled)."""
        t = best(hard(H), H[0] > 0)[0]
        w, l = self.wl(R, t)
        q = self.pnb(R)
        d = {-s: l, 0: q - w - l, s: w}
        b = self.bonus(H)
        if b is not None:
            x, p = b
            d = {k: v * (1 - p) for k, v in d.items()}
            d[s * x] = d.get(s * x, F0) + q * p
        return d

    @staticmethod
    def moments(d: dict) -> tuple[Q, Q, Q]:
        return (sum((k * v for k, v in d.items()), F0), sum((k * k * v for k, v in d.items()), F0),
                sum((v for k, v in d.items() if k > 0), F0))

    # the non-split hand: (EV, E2, Pwin)
    def value(self, R) -> tuple[Q, Q, Q]:
        got = self.memo.get(R)
        if got is not None:
            return got
        h = hard(R)
        ace = R[0] > 0
        n = sum(R)
        t, soft = best(h, ace)
        opts = {"S": self.moments(self.stand(R, R, 1))}
        if not (t == 21 and not soft):  # no hit on a hard 21 (s. 22)
            opts["H"] = self.draw(R, False)
        if n == 2:
            vs = [v for v in range(10) for _ in range(R[v])]
            if self.can_double(h, (vs[0], vs[1]), False):
                opts["D"] = self.draw(R, True)
        if self.table is None:
            pick = max(opts, key=lambda a: (opts[a][0], -"SHD".index(a)))
            if n == 2:
                self.options[R] = {a: o[0] for a, o in opts.items()}
        else:
            pick = self.letter(self.action(h, ace, -1), opts)
        got = self.memo[R] = opts[pick]
        return got

    @staticmethod
    def letter(a: str, opts: dict) -> str:
        if a in "DE":
            a = "D" if "D" in opts else ("H" if a == "D" else "S")
        if a == "H" and "H" not in opts:
            a = "S"
        return a

    def draw(self, R, double: bool) -> tuple[Q, Q, Q]:
        s = self.shoe(R)
        N = sum(s)
        h = hard(R)
        ev = e2 = pw = F0
        for v in range(10):
            if not s[v]:
                continue
            p = Q(s[v], N)
            R2 = add(R, v)
            if h + v + 1 > 21:  # hard(R2)
                q = self.pnb(R2)
                ev -= p * q * (2 if double else 1)
                e2 += p * q * (4 if double else 1)
                continue
            a, b, c = self.moments(self.stand(R2, R2, 2)) if double else self.value(R2)
            ev += p * a
            e2 += p * b
            pw += p * c
        return ev, e2, pw

    # a hand after a split: its distribution {net: probability}, joint with no dealer blackjack
    def split_value(self, R, pair: int) -> dict:
        key = (R, pair)
        got = self.memo.get(key)
        if got is not None:
            return got
        H = add(R, pair, -1)  # this hand's cards: R less the other hand's pair card
        h = hard(H)
        ace = H[0] > 0
        n = sum(H)
        t, soft = best(h, ace)
        opts = {"S": self.stand(H, R, 1)}
        if not (pair == 0 and n == 2) and not (t == 21 and not soft):  # split aces: one card (s. 24(4))
            opts["H"] = self.split_draw(R, pair, False)
        if n == 2 and not pair == 0:
            vs = [v for v in range(10) for _ in range(H[v])]
            if self.can_double(h, (vs[0], vs[1]), True):
                opts["D"] = self.split_draw(R, pair, True)
        if self.table is None:
            ev = {a: self.moments(d)[0] for a, d in opts.items()}
            pick = max(opts, key=lambda a: (ev[a], -"SHD".index(a)))
        else:
            pick = self.letter(self.action(h, ace, -1), opts)
        got = self.memo[key] = opts[pick]
        return got

    def split_draw(self, R, pair: int, double: bool) -> dict:
        s = self.shoe(R)
        N = sum(s)
        h = hard(R) - pair - 1  # this hand's hard total (R less the other hand's pair card)
        d: dict = {}
        for v in range(10):
            if not s[v]:
                continue
            p = Q(s[v], N)
            R2 = add(R, v)
            if h + v + 1 > 21:  # hard(H2)
                k = -2 if double else -1
                d[k] = d.get(k, F0) + p * self.pnb(R2)
                continue
            c = self.stand(add(R2, pair, -1), R2, 2) if double else self.split_value(R2, pair)
            for k, x in c.items():
                d[k] = d.get(k, F0) + p * x
        return d

    def split(self, pair: int) -> tuple[Q, Q, Q]:
        """(EV, E2, Pwin) of splitting the pair (both hands)."""
        R0 = add((0,) * 10, pair, 2)
        s = self.shoe(R0)
        N = sum(s)
        d1: dict = {}
        for v in range(10):
            if not s[v]:
                continue
            p = Q(s[v], N)
            for k, x in self.split_value(add(R0, v), pair).items():
                d1[k] = d1.get(k, F0) + p * x
        q = self.pnb(R0)
        ev = e2 = pw = F0
        for i, a in d1.items():
            for j, b in d1.items():
                x = i + j
                pr = a * b / q
                ev += pr * x
                e2 += pr * x * x
                if x > 0:
                    pw += pr
        return ev, e2, pw

    def initial(self, a: int, b: int) -> tuple[tuple[Q, Q, Q], str]:
        """(EV, E2, Pwin) of the initial hand a, b (value indexes), all worlds, and its decision."""
        R0 = add(add((0,) * 10, a), b)
        q = self.pnb(R0)
        if sorted((a, b)) == [0, 9]:  # a blackjack: 3 to 2, a push against the dealer's (s. 19, 21)
            num, den = self.r.pays[self.r.mains[0]]["blackjack"]
            x = Q(num, den)
            return (x * q, x * x * q, q), "BJ"
        ev, e2, pw = self.value(R0)
        pick = "-"
        if a == b and self.splits:
            sp = self.split(a)
            if self.table is None:
                if sp[0] > ev:
                    ev, e2, pw = sp
                    pick = "P"
                self.options[R0]["P"] = sp[0]
            elif self.action(hard(R0), R0[0] > 0, a) == "P":
                ev, e2, pw = sp
                pick = "P"
        return (ev - (1 - q), e2 + (1 - q), pw), pick


def shoes_needed(rules: BlackjackModel, u: int, full: tuple[int, ...] | None = None) -> list[tuple[int, ...]]:
    """Every R (the player's cards seen, and a split hand's pair card) the analysis stands on."""
    base = add(full or full_shoe(rules.decks), u - 1, -1)
    out = {}
    for M in multisets(21):
        if sum(M) < 2 or any(m > b for m, b in zip(M, base)):
            continue
        out[M] = None
        for p in range(10):
            if M[p]:
                R = add(M, p)
                if R[p] <= base[p]:
                    out[R] = None
    return list(out)


def dealer_tables(rules: BlackjackModel, full: tuple[int, ...] | None = None) -> dict[int, dict]:
    """u -> {R: six P(outcome, no dealer blackjack)}: the one expensive part, shared by both strategies.
    full: the shoe's counts of value 1..10 (default: the model's decks; another for the tests)."""
    full = full or full_shoe(rules.decks)
    out = {}
    for u in range(1, 11):
        if not full[u - 1]:
            continue
        Rs = shoes_needed(rules, u, full)
        base = add(full, u - 1, -1)
        probs = Graph(u, rules.h17).probabilities([tuple(b - r for b, r in zip(base, R)) for R in Rs])
        out[u] = dict(zip(Rs, probs))
    return out


def analyse(rules: BlackjackModel, dealer: dict[int, dict], table: dict | None,
            full: tuple[int, ...] | None = None, split: bool = True) -> dict:
    """The main wager's exact figures under one strategy (table None: optimal), per initial wager."""
    full = full or full_shoe(rules.decks)
    total = sum(full)
    ev = e2 = pw = F0
    split_part = F0  # the part of EV from split pairs (reported apart: its variance and hit frequency are the approximated part)
    ups = {}
    for u in range(1, 11):
        if not full[u - 1]:
            continue
        U = UpCard(rules, u, dealer[u], table, full, split)
        pu = Q(full[u - 1], total)
        base = U.base
        N = U.N
        eu = F0
        for a in range(10):
            for b in range(a, 10):
                w = Q(base[a] * (base[b] - (a == b)), N * (N - 1)) * (1 if a == b else 2)
                if not w:
                    continue
                (x, y, z), pick = U.initial(a, b)
                eu += w * x
                ev += pu * w * x
                e2 += pu * w * y
                pw += pu * w * z
                if pick == "P":
                    split_part += pu * w * x
        ups[u] = {"ev": fraction(eu), "options": None if table is not None else {
            R: {a: fraction(x) for a, x in o.items()} for R, o in U.options.items()}}
    return {"ev": fraction(ev), "rtp": fraction(1 + ev), "e2": fraction(e2), "variance": fraction(e2 - ev * ev),
            "hit": fraction(pw), "split_part": fraction(split_part), "ups": ups}
