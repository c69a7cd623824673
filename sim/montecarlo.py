"""Monte-Carlo confirmation of a reel game's certified return.

    python -m sim.montecarlo MODEL --spins N [--bet B] [--workers K] [--seed S] [--json]

Plays N games with the vectorised evaluator (sim/mc_eval.py, award for award the device engine's:
sim/mc_crosscheck.py) on a host DRBG's draws scaled as the device scales them (sim/mc_stream.py),
in chunks spread over worker processes (every core by default). Prints progress on stderr (a TTY,
CI unset), then the realised return with its confidence interval against the certified return
(the certificate games/certs/<model>.json beside the model, else tools.certify), the hit frequency,
the feature's share, and for a game with a progressive its meter run as firmware/progressive.py
runs it. Exit status 1 when the certified return lies outside the 99.9 % interval.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import sys
import time
from fractions import Fraction

import numpy as np

from games.model import read
from sim.mc_eval import VectorGame
from sim.mc_stream import Streams, key_for
from tools.progress import bar

Z = {"95": 1.959963984540054, "99.9": 3.2905267314919255}
CHUNK = 1 << 17  # games per job: a few hundred ms of work, a few MB of stream

_game: VectorGame | None = None  # the worker's compiled game


def _init(path: str, bet: int) -> None:
    global _game
    _game = VectorGame(read(path), bet)


def _chunk(job: tuple[bytes, int, int]) -> dict:
    """Sums over games first .. first+n-1; the progressive's wins listed (rare) for the meter."""
    key, first, n = job
    c = time.process_time()
    r = _game.play(Streams(key, first, n))
    a = r["award"]
    out = {"n": n, "sum": int(a.sum()), "sum2": float(np.dot(a.astype(np.float64), a.astype(np.float64))),
           "hits": int(np.count_nonzero(a)), "free": int(r["free"].sum()),
           "triggers": int(np.count_nonzero(r["spins"])), "spins": int(r["spins"].sum()), "prog": [],
           "cpu": time.process_time() - c}
    if r["prog"] is not None:
        w = np.nonzero(r["prog"])[0]
        out["prog"] = [(int(i), int(r["prog"][i])) for i in w]
    return out


def certified(path: str, bet: int) -> tuple[Fraction, Fraction, str]:
    """(return, hit frequency, source) of the model at this bet: its certificate when it ships one
    beside it (games/models/X.json -> games/certs/X.json), else computed by tools.certify."""
    cert = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(path))), "certs", os.path.basename(path))
    if os.path.exists(cert):
        with open(cert) as f:
            c = json.load(f)
        return Fraction(c["rtp"][str(bet)]), Fraction(c["hit_frequency"][str(bet)]), os.path.relpath(cert)
    from tools.certify import certify_model, load_model

    f = certify_model(load_model(path))["bets"][bet]
    return f.rtp, f.hit, "tools.certify"


class Meter:
    """The progressive's meter over the games in order, as firmware/progressive.py keeps it: every game
    at its bet adds bet * p / q credit before it is settled (s. 92: the run is at that bet), the meter
    stops at its ceiling and what passes it rolls over; a win pays the whole credits on the meter in
    place of the pay's fixed award, and the next meter starts at the reset plus what rolled over (the
    fraction of a credit included). Amounts in units of 1/q credit, exact."""

    def __init__(self, spec: dict, bet: int) -> None:
        self.reset, self.num, self.den, self.bet = spec["reset"], spec["num"], spec["den"], bet
        self.top = None if spec.get("ceiling") is None else spec["ceiling"] * spec["den"]
        self.units = self.reset * self.den  # the meter
        self.rolled = 0  # what passed the ceiling, for the next reset
        self.wins = 0
        self.extra = 0  # credits paid above the fixed awards
        self.levels = 0  # sum of the amounts won

    def _fill(self, units: int) -> None:
        if self.top is not None and units > self.top:
            self.rolled += units - self.top
            units = self.top
        self.units = units

    def feed(self, n: int, wins: list[tuple[int, int]]) -> None:
        last = -1
        for i, fixed in wins:
            self._fill(self.units + (i - last) * self.bet * self.num)  # the winning game's wager too
            amount = self.units // self.den
            left = self.units - amount * self.den + self.rolled
            self.rolled = 0
            self._fill(self.reset * self.den + left)
            self.extra += amount - fixed
            self.levels += amount
            self.wins += 1
            last = i
        self._fill(self.units + (n - 1 - last) * self.bet * self.num)


def run(path: str, games: int, bet: int | None = None, workers: int | None = None, seed: int = 1,
        progress: bool | None = None, chunk: int = CHUNK) -> dict:
    raw = read(path)
    _init(path, bet or raw["bets"][0])
    game = _game
    m = game.m
    bet = game.bet
    want, want_hit, source = certified(path, bet)
    prog = m.progressive if m.progressive and m.progressive["bet"] == bet else None
    meter = Meter(prog, bet) if prog else None
    key = key_for(seed)
    jobs = [(key, a, min(chunk, games - a)) for a in range(0, games, chunk)]
    workers = workers or os.cpu_count() or 1
    tot = {"n": 0, "sum": 0, "sum2": 0.0, "hits": 0, "free": 0, "triggers": 0, "spins": 0, "cpu": 0.0}
    t0 = time.perf_counter()
    with mp.Pool(workers, _init, (path, bet)) as pool, bar(total=games, unit="game", enabled=progress) as b:
        for r in pool.imap(_chunk, jobs):  # in order: the progressive's meter runs game after game
            for k in tot:
                tot[k] += r[k]
            if meter:
                meter.feed(r["n"], r["prog"])
            b.update(r["n"])
    secs = time.perf_counter() - t0
    n = tot["n"]
    mean = tot["sum"] / n
    var = max(tot["sum2"] / n - mean * mean, 0.0) * n / max(n - 1, 1)
    se = math.sqrt(var / n) / bet
    obs = mean / bet
    out = {"model": path, "id": game.m.id, "bet": bet, "games": n, "seed": seed, "workers": workers,
           "seconds": secs, "games_per_s": n / secs if secs else None, "cpu_seconds": tot["cpu"],
           "evaluator": "sim.mc_eval (numpy)",
           "certified_rtp": float(want), "certified_rtp_fraction": "%d/%d" % (want.numerator, want.denominator),
           "certified_from": source, "observed_rtp": obs, "std_error": se,
           "hit_frequency": tot["hits"] / n, "certified_hit_frequency": float(want_hit),
           "feature_triggers": tot["triggers"], "free_spins": tot["spins"],
           "feature_share": tot["free"] / tot["sum"] if tot["sum"] else 0.0}
    for k, z in Z.items():
        out["ci_" + k] = [obs - z * se, obs + z * se]
    out["agrees"] = abs(obs - float(want)) <= Z["99.9"] * se
    if meter:
        rate = Fraction(prog["num"], prog["den"])
        out["progressive"] = {"pay": prog["pay"], "reset": prog["reset"], "rate": "%d/%d" % (prog["num"], prog["den"]),
                              "wins": meter.wins, "mean_level_when_won": meter.levels / meter.wins if meter.wins else None,
                              "observed_rtp_with_meter": (tot["sum"] + meter.extra) / (n * bet),
                              "certified_long_run_rtp": float(want + rate)}
    return out


def report(r: dict) -> str:
    pct = lambda x: "%.4f %%" % (x * 100)  # noqa: E731
    lines = [
        "%s bet %d: %d games in %.1f s (%.0f games/s, %d workers, %s)" % (
            r["id"], r["bet"], r["games"], r["seconds"], r["games_per_s"] or 0, r["workers"], r["evaluator"]),
        "realised return   %s  95 %% CI %s – %s, 99.9 %% CI %s – %s" % (
            pct(r["observed_rtp"]), pct(r["ci_95"][0]), pct(r["ci_95"][1]), pct(r["ci_99.9"][0]), pct(r["ci_99.9"][1])),
        "certified return  %s  (%s)" % (pct(r["certified_rtp"]), ", ".join(
            ([r["certified_rtp_fraction"]] if len(r["certified_rtp_fraction"]) <= 40 else []) + [r["certified_from"]])),
        "hit frequency     %s  (1 in %.3f), certified %s" % (
            pct(r["hit_frequency"]), 1 / r["hit_frequency"] if r["hit_frequency"] else float("inf"),
            pct(r["certified_hit_frequency"])),
    ]
    if r["feature_triggers"]:
        lines.append("free spins        triggered %d times (1 in %.1f), %d spins, %.2f %% of the return" % (
            r["feature_triggers"], r["games"] / r["feature_triggers"], r["free_spins"], r["feature_share"] * 100))
    p = r.get("progressive")
    if p:
        lines.append("progressive       %s won %d times, mean level %s; return with the meter %s, certified long run %s" % (
            p["pay"], p["wins"], "-" if p["mean_level_when_won"] is None else "%.1f" % p["mean_level_when_won"],
            pct(p["observed_rtp_with_meter"]), pct(p["certified_long_run_rtp"])))
    lines.append("certified return inside the 99.9 % interval: agrees" if r["agrees"]
                 else "certified return OUTSIDE the 99.9 % interval: DISAGREES")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m sim.montecarlo")
    ap.add_argument("model")
    ap.add_argument("--spins", "--games", dest="spins", type=int, default=1_000_000, help="games to play")
    ap.add_argument("--bet", type=int)
    ap.add_argument("--workers", type=int, help="processes (default: every core)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.spins <= 0:
        ap.error("--spins must be positive")
    if a.workers is not None and a.workers <= 0:
        ap.error("--workers must be positive")
    try:
        bets = read(a.model)["bets"]
        if a.bet is not None and a.bet not in bets:
            raise ValueError("bet %d not offered (bets %s)" % (a.bet, bets))
        VectorGame(read(a.model), a.bet or bets[0])  # refuses what it cannot evaluate, before any work
    except (OSError, ValueError, KeyError, TypeError) as e:  # ModelError, Unsupported, JSON errors
        ap.error("%s: %s" % (a.model, e))
    r = run(a.model, a.spins, a.bet, a.workers, a.seed)
    print(json.dumps(r, indent=1) if a.json else report(r))
    return 0 if r["agrees"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
