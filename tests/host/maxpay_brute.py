"""The most one game can pay, by brute force: a second implementation for the tests, written from
docs/game-format.md's rules, sharing no code with games/ or tools/certify (it reads the raw model).

Every stop combination of positive weight is a window; each window is evaluated line by line, group
by group ("n or more", the highest group per line, ties to the shorter run then the first group,
version 2's per-reel members, multiplier wilds and both-ways pays), plus the scatter. The feature's
best series is searched over (spins left, spins given so far) with every free window's (credits,
retrigger) as a choice at each spin; the progressive's pay, when a base line wins it at its bet, is
replaced by its ceiling. None: no bound (an uncapped retrigger, a progressive without a ceiling).
"""
from __future__ import annotations

import itertools
from functools import lru_cache


def _credits(v, bi: int, coins: int) -> int:
    return v[bi] if isinstance(v, list) else v * coins


class Evaluator:
    def __init__(self, raw: dict, bi: int) -> None:
        self.raw = raw
        self.v2 = raw.get("format") == "jeton-reels/2"
        self.nr = len(raw["reels"])
        self.rows = raw.get("rows", 1)
        self.scatter = raw.get("scatter")
        self.wilds = {raw["wild"]: 1} if raw.get("wild") else {}
        if self.v2:
            self.wilds.update(raw.get("wilds") or {})
        self.both = self.v2 and raw.get("both_ways") is True
        coins = raw["bets"][bi] // len(raw["lines"])
        self.groups = []  # (name, members per reel, {n: credits})
        for p in raw.get("pays", []):
            per = p["reels"] if self.v2 and "reels" in p else [p["symbols"]] * self.nr
            self.groups.append((p["name"], [set(x) for x in per],
                                {int(k): _credits(v, bi, coins) for k, v in p["pays"].items()}))
        self.spays = {int(k): _credits(v, bi, coins) for k, v in (raw.get("scatter_pays") or {}).items()}

    def _value(self, table: dict, run: int) -> int:
        return max((v for n, v in table.items() if n <= run), default=0)

    def _named(self, table: dict, run: int) -> int:
        v = self._value(table, run)
        return min(n for n in range(1, run + 1) if self._value(table, n) == v)

    def line(self, syms: list[str], rev: bool) -> tuple[int, str | None]:
        """(credits, name) of one line read one way: reel order, or right to left."""
        order = list(range(self.nr - 1, -1, -1)) if rev else list(range(self.nr))
        best, best_run, name = 0, 0, None
        for gname, members, table in self.groups:
            run, mult = 0, 1
            for i in order:
                s = syms[i]
                if s in members[i]:
                    run += 1
                elif s in self.wilds:
                    run += 1
                    mult *= self.wilds[s]
                else:
                    break
            if rev and run == self.nr:
                continue  # a full line is paid once, left to right
            v = self._value(table, run) * mult
            if v > best or (v and v == best and run < best_run):
                best, best_run, name = v, run, "%d %s" % (self._named(table, run), gname)
        return best, name

    def window(self, reels: list[dict], stops: tuple[int, ...]) -> list[list[str]]:
        return [[r["strip"][(s + k - self.rows // 2) % len(r["strip"])] for k in range(self.rows)]
                for r, s in zip(reels, stops)]

    def spin(self, win: list[list[str]]) -> tuple[int, int, list[str]]:
        """(credits, scatters shown, the names of the base-game line wins, left to right)."""
        total, names = 0, []
        for line in self.raw["lines"]:
            syms = [win[i][row] for i, row in enumerate(line)]
            for rev in (False, True) if self.both else (False,):
                v, name = self.line(syms, rev)
                if v:
                    total += v
                    if not rev:
                        names.append(name)
        n = sum(col.count(self.scatter) for col in win) if self.scatter else 0
        return total + self.spays.get(n, 0), n, names


def windows(raw: dict, reels: list[dict]):
    """Every stop combination of positive weight."""
    for stops in itertools.product(*[range(len(r["strip"])) for r in reels]):
        if all(not r.get("weights") or r["weights"][s] > 0 for r, s in zip(reels, stops)):
            yield stops


def game_max(raw: dict, bet: int) -> int | None:
    bi = raw["bets"].index(bet)
    ev = Evaluator(raw, bi)
    fs = raw.get("free_spins") or {}
    award = {int(k): v for k, v in (fs.get("award") or {}).items()}
    retrig = {int(k): v for k, v in (fs.get("retrigger") or {}).items()}
    cap = fs.get("cap")
    mult = fs.get("multiplier", 1)
    choices = set()  # (credits, retrigger) of every free window
    if fs:
        for stops in windows(raw, fs.get("reels") or raw["reels"]):
            credits, n, _ = ev.spin(ev.window(fs.get("reels") or raw["reels"], stops))
            choices.add((credits * mult, retrig.get(n, 0)))

    # uncapped: a spin that retriggers can follow every spin, so a paying window can come any number
    # of times: no bound
    endless = cap is None and any(a for _, a in choices) and any(w for w, _ in choices)

    @lru_cache(maxsize=None)
    def series(left: int, given: int) -> float:
        if not left:
            return 0
        if endless:
            return float("inf")
        best = 0.0
        for w, a in choices:
            extra = a if cap is None else min(a, cap - given)
            best = max(best, w + series(left - 1 + extra, given + extra))
        return best

    prog = raw.get("progressive")
    prog_here = prog is not None and prog["bet"] == bet
    best = 0.0
    for stops in windows(raw, raw["reels"]):
        credits, n, names = ev.spin(ev.window(raw["reels"], stops))
        if prog_here and prog["pay"] in names:
            if prog.get("ceiling") is None:
                return None
            # the first line winning it: its fixed award, the pay's value at this bet (the reset)
            _, gname = prog["pay"].split(" ", 1)
            table = next(t for g, _, t in ev.groups if g == gname)
            credits += prog["ceiling"] - table[int(prog["pay"].split(" ")[0])]
        s = award.get(n, 0)
        if cap is not None:
            s = min(s, cap)
        f = series(s, s) if s else 0
        best = max(best, credits + f)
    return None if best == float("inf") else int(best)
