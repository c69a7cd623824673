"""Certification of a blackjack model (jeton-blackjack/1): every wager's exact return, the report,
the certificate and the refusals.

- main (and main_1..main_3 of multi-action): the exact composition-dependent return per initial
  wager under the optimal strategy and under the model's built-in table
  (tools/certify/blackjack_exact.py). Multi-action: every dealer hand's wager returns exactly what
  the single hand returns under the same strategy (docs/games.md, "Multi-action": the dealer hands
  are consecutive blocks of one shuffled shoe, drawn by the same rule, hence exchangeable), so the
  optimal strategy is the single hand's and each wager is certified with the single hand's figures.
- insurance (s. 25), twelve_sixteen (s. 21.1), sevens (s. 21.3), over_13 / under_13 (s. 21.4):
  exact over the cards they read (the first two or three of the shoe: by exchangeability, any
  fixed positions of a fresh shuffle are uniformly random distinct cards).

A wager under 83 % (by-law s. 93; L-6, r. 13) is refused by name: the returns are per credit
staked on the wager (the main wager: per initial wager, doubles and splits counted in its result).
`max_award` (the most one round can return, every wager at the bet level: an upper bound, the sum
of each wager's largest return) and `max_risk` (the most one round can put at risk: every wager at
the bet level, doubles, a split, insurance) go into the certificate for the jurisdiction's limits.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction

from games.blackjack_model import HARD_ROWS, PAIR_ROWS, SOFT_ROWS, BlackjackModel
from games.blackjack_progressive import TABLES as PROGRESSIVE
from games.blackjack_progressive import colours_ok, ranks_ok
from rng.crypto.canon import math_hash
from tools.certify import blackjack_exact as bx
from tools.certify.core import FLOOR, frac_str

FORMAT = "jeton-blackjack/1"


def is_blackjack(raw: object) -> bool:
    return isinstance(raw, dict) and raw.get("format") == FORMAT


def _figures(outcomes: list[tuple[Fraction, Fraction, str]]) -> dict:
    """Return, hit frequency and variance of a wager from (probability, net per credit, award)."""
    ev = sum((p * x for p, x, _ in outcomes), Fraction(0))
    e2 = sum((p * x * x for p, x, _ in outcomes), Fraction(0))
    hit = sum((p for p, x, _ in outcomes if x > 0), Fraction(0))
    return {"rtp": 1 + ev, "hit": hit, "variance": e2 - ev * ev,
            "awards": [(a, p) for p, x, a in outcomes if a]}


def _net(pay: tuple[int, int]) -> Fraction:
    return Fraction(pay[0], pay[1])


def side_wagers(m: BlackjackModel) -> dict:
    """Exact figures of every side wager the model offers."""
    d = m.decks
    full = bx.full_shoe(d)
    N = sum(full)
    out = {}
    two = {}  # (first value index, second value index) -> probability
    for a in range(10):
        for b in range(10):
            two[a, b] = Fraction(full[a] * (full[b] - (a == b)), N * (N - 1))
    if "insurance" in m.pays:  # s. 25: the dealer's second card completes his blackjack
        p = Fraction(full[9], N - 1)  # given the up ace: any other card of a fresh shuffle
        x = _net(m.pays["insurance"]["dealer_blackjack"])
        out["insurance"] = _figures([(p, x, "dealer_blackjack"), (1 - p, Fraction(-1), "")])
    if "twelve_sixteen" in m.pays:  # s. 21.1
        pays = m.pays["twelve_sixteen"]
        rows = []
        for (a, b), p in two.items():
            h = a + b + 2
            t = h + 10 if (a == 0 or b == 0) and h <= 11 else h
            if 12 <= t <= 16:
                key = "two_aces_or_eights" if a == b and a in (0, 7) else "total_12_16"
                rows.append((p, _net(pays[key]), key))
            else:
                rows.append((p, Fraction(-1), ""))
        out["twelve_sixteen"] = _merge(rows)
    for k in ("over_13", "under_13"):  # s. 21.4: aces 1
        if k in m.pays:
            x = _net(m.pays[k]["win"])
            rows = []
            for (a, b), p in two.items():
                h = a + b + 2
                won = h > 13 if k == "over_13" else h < 13
                rows.append((p, x if won else Fraction(-1), "win" if won else ""))
            out[k] = _merge(rows)
    if "sevens" in m.pays:  # s. 21.3: the first card, the first two, the first three
        pays = m.pays["sevens"]
        s = 4 * d  # sevens in the shoe; d of each suit
        p1 = Fraction(s, N)
        one = p1 * Fraction(N - s, N - 1)
        two_s = p1 * Fraction(d - 1, N - 1) * Fraction(N - s, N - 2)
        two_u = p1 * Fraction(3 * d, N - 1) * Fraction(N - s, N - 2)
        three_s = p1 * Fraction(d - 1, N - 1) * Fraction(d - 2, N - 2)
        three = p1 * Fraction(s - 1, N - 1) * Fraction(s - 2, N - 2) - three_s
        rows = [(one, _net(pays["one"]), "one"), (two_u, _net(pays["two"]), "two"),
                (two_s, _net(pays["two_suited"]), "two_suited"), (three, _net(pays["three"]), "three"),
                (three_s, _net(pays["three_suited"]), "three_suited")]
        rest = 1 - sum(p for p, _, _ in rows)
        out["sevens"] = _figures([r for r in rows if r[0]] + [(rest, Fraction(-1), "")])
    k = m.progressive_wager
    if k is not None:  # s. 21.2: the first five cards
        probs = progressive_chances(k, d)
        rows = [(p, _net(m.pays[k][a]), a) for a, p in probs.items() if p]
        out[k] = _figures(rows + [(1 - sum(probs.values()), Fraction(-1), "")])
    return out


def progressive_chances(table: str, decks: int) -> dict:
    """{award: exact chance} of an s. 21.2 table: the first five cards of a fresh shuffle enumerated
    card by card (a card a (rank, suit), `decks` of each), a prefix followed only while some award
    not yet decided can still be made; each five-card start pays its table's first award."""
    pats = PROGRESSIVE[table]
    N = 52 * decks
    out = {p[0]: Fraction(0) for p in pats}
    left = [decks] * 52
    cards: list[int] = []

    def first_award(n):
        for name, k, kind, mask, rule in pats:
            if k <= n and ranks_ok(kind, mask, cards, k, True) and colours_ok(rule, cards, k):
                return name, k
        return None, 0

    def alive(n):
        # a longer award than n cards can still be made from this prefix
        for name, k, kind, mask, rule in pats:
            if k > n and ranks_ok(kind, mask, cards, n, False) and colours_ok(rule, cards, n):
                return True
        return False

    def walk(n, p):
        if n >= 2 and not alive(n):
            a, k = first_award(n)
            if a is not None:
                out[a] += p
            return
        if n == 5:
            a, k = first_award(5)
            if a is not None:
                out[a] += p
            return
        for c in range(52):
            if left[c]:
                q = p * Fraction(left[c], N - n)
                left[c] -= 1
                cards.append(c)
                walk(n + 1, q)
                cards.pop()
                left[c] += 1

    walk(0, Fraction(1))
    return out


def _merge(rows: list[tuple[Fraction, Fraction, str]]) -> dict:
    acc: dict = {}
    for p, x, a in rows:
        k = (x, a)
        acc[k] = acc.get(k, Fraction(0)) + p
    return _figures([(p, x, a) for (x, a), p in acc.items()])


def basic_strategy(m: BlackjackModel, dealer: dict | None = None) -> dict:
    """A total-dependent table for these rules (the built-in strategy a model ships): for each row
    and up card, the decision with the best exact return summed over every two-card hand of that
    row (composition-dependent values from the optimal pass, weighted by each hand's chance);
    'D' doubles else hits, 'E' doubles else stands (whichever of hit and stand is better);
    hard 21 and soft 21 stand."""
    dealer = dealer or bx.dealer_tables(m)
    table = {"hard": {str(t): ["S"] * 10 for t in HARD_ROWS}, "soft": {str(t): ["S"] * 10 for t in SOFT_ROWS},
             "pair": {r: ["-"] * 10 for r in PAIR_ROWS}}
    for u in range(1, 11):
        U = bx.UpCard(m, u, dealer[u], None)
        c = bx.col(u)
        rows: dict = {}
        for a in range(10):
            for b in range(a, 10):
                w = Fraction(U.base[a] * (U.base[b] - (a == b)), U.N * (U.N - 1))
                if not w or (a, b) == (0, 9):
                    continue
                U.initial(a, b)
                R = bx.add(bx.add((0,) * 10, a), b)
                opts = U.options[R]
                if a == b:
                    others = max(v for k, v in opts.items() if k != "P")
                    table["pair"][PAIR_ROWS[a]][c] = "P" if opts["P"] > others else "-"
                t, soft = bx.best(a + b + 2, a == 0)
                key = ("soft" if soft else "hard", str(t))
                acc = rows.setdefault(key, {})
                for k in "SHD":
                    if k in opts:
                        acc[k] = acc.get(k, Fraction(0)) + w * opts[k]
                    else:
                        acc.setdefault("no" + k, True)
        for (part, t), acc in rows.items():
            opts = {k: v for k, v in acc.items() if k in "SHD"}
            if "noD" in acc:
                opts.pop("D", None)
            pick = max(opts, key=lambda k: (opts[k], -"SHD".index(k)))
            if pick == "D":
                pick = "D" if opts["H"] >= opts["S"] else "E"
            table[part][t][c] = pick
    return {part: {r: "".join(v) for r, v in rows.items()} for part, rows in table.items()}


def max_risk_award(m: BlackjackModel, sides: dict) -> tuple[dict, dict]:
    """Per bet level: the most one round puts at risk and (an upper bound of) the most it returns."""
    risk, award = {}, {}
    split_stake = 2 * (2 if m.das else 1)  # a split pair, each hand doubled when s. 26.1(3) allows
    per_hand = max(2, split_stake)  # a double alone is 2
    for b in m.bets:
        r = a = 0
        for k in m.mains:
            p = m.pays[k]
            r += per_hand * b
            top = max((Fraction(*p[k]) for k in ("win", "three_sevens", "six_seven_eight_suited") if k in p))
            a += max(b + b * p["blackjack"][0] // p["blackjack"][1], int(per_hand * b * (1 + top)))
        if "insurance" in m.pays:
            s = b // 2
            r += s
            x = m.pays["insurance"]["dealer_blackjack"]
            a += s + s * x[0] // x[1]
        side = [k for k in ("twelve_sixteen", "sevens", m.progressive_wager) if k in m.pays]
        ou = [k for k in ("over_13", "under_13") if k in m.pays]
        for k in side + ou[:1]:  # over and under: one or the other (s. 21.4)
            r += b
        for k in side:
            best_k = max((b + b * m.pays[k][aw][0] // m.pays[k][aw][1] for aw, p in sides[k]["awards"] if p), default=0)
            a += best_k
        if ou:
            a += max(b + b * m.pays[k]["win"][0] // m.pays[k]["win"][1] for k in ou)
        risk[str(b)] = r
        award[str(b)] = a
    return risk, award


def certify(raw: dict, full: tuple[int, ...] | None = None) -> dict:
    """The report of a model; full: another shoe for the main wager (tests: a small one, quick)."""
    t0 = time.perf_counter()
    c0 = time.process_time()
    m = BlackjackModel(raw)
    dealer = bx.dealer_tables(m, full)
    t1 = time.perf_counter()
    opt = bx.analyse(m, dealer, None, full)
    t2 = time.perf_counter()
    auto = bx.analyse(m, dealer, m.strategy, full)
    t3 = time.perf_counter()
    sides = side_wagers(m)
    risk, award = max_risk_award(m, sides)
    wagers = {}
    for k in m.pays:
        if k in m.mains:
            wagers[k] = {"optimal": _main(opt), "strategy": _main(auto), "section": "s. 18-21" if k == "main" else "s. 26.2-26.7"}
        else:
            wagers[k] = {"optimal": sides[k], "strategy": sides[k]}
    return {"id": m.id, "name": m.name, "format": FORMAT, "math_hash": math_hash(raw), "decks": m.decks,
            "rules": {"dealer": "hits_soft_17" if m.h17 else "stands_17", "double": "any" if m.double_any else "9-11",
                      "double_after_split": m.das, "dealer_hands": m.hands},
            "bets": list(m.bets), "wagers": wagers, "max_risk": risk, "max_award": award,
            "seconds": {"dealer": t1 - t0, "optimal": t2 - t1, "strategy": t3 - t2, "total": time.perf_counter() - t0},
            "cpu_seconds": time.process_time() - c0}


def _main(r: dict) -> dict:
    return {"rtp": r["rtp"], "hit": r["hit"], "variance": r["variance"], "split_part": r["split_part"], "awards": []}


def below_floor(rep: dict) -> list[str]:
    """Every wager under the 83 % floor (s. 93), by name: optimal play and the built-in strategy."""
    out = []
    for k, w in rep["wagers"].items():
        for how, what in (("optimal", "returns"), ("strategy", "returns under the built-in strategy")):
            x = w[how]["rtp"]
            if x < FLOOR and not (how == "strategy" and w["strategy"] is w["optimal"]):
                out.append("wager %s %s %.4f %%, below the 83 %% floor of by-law s. 93" % (k, what, float(x) * 100))
    return out


def limit_refusals(rep: dict, juris: str, denom: int) -> list[str]:
    """The jurisdiction's rules the game breaks: at every bet level, what one round can put at risk
    (the maximum bet) and what it can return (the maximum prize)."""
    from firmware import jurisdiction

    out = []
    why = jurisdiction.check_credit(juris, denom)
    if why:
        out.append(why)
    for b in rep["bets"]:
        why = jurisdiction.check_wager(juris, denom, rep["max_risk"][str(b)])
        if why:
            out.append("bet %d: at risk in one round (doubles, split, insurance, side wagers): %s" % (b, why))
    why = jurisdiction.check_maxima(juris, denom, rep["bets"], [rep["max_award"][str(b)] for b in rep["bets"]])
    if why:
        out.append(why)
    for k, w in rep["wagers"].items():
        if w["optimal"]["rtp"] < FLOOR:
            continue  # below_floor names it already
        why = jurisdiction.check_return(juris, w["optimal"]["rtp"].numerator, w["optimal"]["rtp"].denominator)
        if why:
            out.append("wager %s: %s" % (k, why))
    return out


def _fig(f: dict) -> dict:
    return {"rtp": frac_str(f["rtp"]), "rtp_float": float(f["rtp"]), "hit_frequency": frac_str(f["hit"]),
            "hit_frequency_float": float(f["hit"]), "variance": frac_str(f["variance"]),
            "std_dev": math.sqrt(f["variance"]),
            "awards": [{"name": a, "probability": frac_str(p), "one_in": float(1 / p)} for a, p in f["awards"]]}


def to_json(rep: dict) -> dict:
    w = {}
    for k, v in rep["wagers"].items():
        w[k] = {"optimal": _fig(v["optimal"]), "strategy": _fig(v["strategy"])}
        if "split_part" in v["optimal"]:
            w[k]["split_part_float"] = float(v["optimal"]["split_part"])
    return {"id": rep["id"], "format": FORMAT, "math_hash": rep["math_hash"], "decks": rep["decks"],
            "rules": rep["rules"], "bets": rep["bets"], "wagers": w, "max_risk": rep["max_risk"],
            "max_award": rep["max_award"], "floor": frac_str(FLOOR), "seconds": rep["seconds"],
            "cpu_seconds": rep["cpu_seconds"]}


def certificate(rep: dict) -> dict:
    """What ships: the math hash, every wager's exact return per bet level (optimal and built-in)."""
    def per_bet(how: str, key: str) -> dict:
        return {k: {str(b): frac_str(v[how][key]) for b in rep["bets"]} for k, v in rep["wagers"].items()}

    return {"id": rep["id"], "math_hash": rep["math_hash"], "game": FORMAT,
            "rtp": per_bet("optimal", "rtp"), "strategy_rtp": per_bet("strategy", "rtp"),
            "hit_frequency": per_bet("optimal", "hit"),
            "max_award": dict(rep["max_award"]), "max_risk": dict(rep["max_risk"]),
            "floor": frac_str(FLOOR), "tool": "tools.certify", "format": "jeton-cert/1"}


def cert_mismatches(rep: dict, shipped: dict) -> list[str]:
    want = certificate(rep)
    out = []
    for k in ("format", "game", "id", "math_hash", "max_award", "max_risk"):
        if shipped.get(k) != want[k]:
            out.append("%s %r, expected %r" % (k, shipped.get(k), want[k]))
    for key in ("rtp", "strategy_rtp", "hit_frequency"):
        have = shipped.get(key) if isinstance(shipped.get(key), dict) else {}
        for wager, bets in want[key].items():
            hw = have.get(wager) if isinstance(have.get(wager), dict) else {}
            for bet, v in bets.items():
                try:
                    ok = Fraction(hw[bet]) == Fraction(v)
                except (KeyError, TypeError, ValueError, ZeroDivisionError):
                    ok = False
                if not ok:
                    out.append("wager %s bet %s: %s %s differs from the certificate's %r" % (
                        wager, bet, key, v if len(v) < 40 else v[:40] + "...", hw.get(bet)))
    return out


def summary(rep: dict) -> str:
    s = rep["seconds"]
    lines = ["%s  (hash %s…, %d deck%s, %s, double %s%s, %d dealer hand%s; %.1f s: dealer %.1f, optimal %.1f, "
             "built-in %.1f)" % (
                 rep["id"], rep["math_hash"][:16], rep["decks"], "s" if rep["decks"] > 1 else "", rep["rules"]["dealer"],
                 rep["rules"]["double"], ", double after split" if rep["rules"]["double_after_split"] else "",
                 rep["rules"]["dealer_hands"], "s" if rep["rules"]["dealer_hands"] > 1 else "", s["total"], s["dealer"],
                 s["optimal"], s["strategy"])]
    for k, w in rep["wagers"].items():
        o, a = w["optimal"], w["strategy"]
        line = "  %-15s return %.4f %%  hit %.4f  σ %.3f" % (k, float(o["rtp"]) * 100, float(o["hit"]),
                                                            math.sqrt(o["variance"]))
        if a is not o:
            line += "  |  built-in strategy %.4f %% (gap %.4f %%)" % (float(a["rtp"]) * 100,
                                                                    float(o["rtp"] - a["rtp"]) * 100)
        lines.append(line)
    lines.append("  at risk in one round: %s; returned at most: %s (credits per bet level)" % (
        ", ".join("%s: %d" % kv for kv in rep["max_risk"].items()),
        ", ".join("%s: %d" % kv for kv in rep["max_award"].items())))
    return "\n".join(lines)

