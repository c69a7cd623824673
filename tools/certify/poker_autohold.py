"""The certified auto-hold return is the return of the holds the cabinet makes (issue 23.11).

The certifier (tools/certify/poker.py) works out the built-in strategy on one representative per
suit-symmetry class of deals; the device (games/poker.py PokerGame.suggest) holds on the deal it is
dealt. This module runs the device's own `suggest` on deals as a cabinet deals them (a random member
of each class, relabelled by a random suit order, in a random deal order), maps the cards it holds
to the class's representative, and sums the exact expected pay of those holds, deal class by deal
class: the exact return of the device's auto-hold, to be equal to the certificate's `strategy_rtp`
at every bet level.

    python -m tools.certify.poker_autohold [MODEL ...] [--sample N] [--seed S]

Every class (134,459 for 52 cards) takes about 30 s per pay table on this host: `make
autohold`. `--sample N` checks N classes only (their weighted share of the return, against the
certifier's for the same classes); tests/host/test_poker_autohold.py keeps a fast sample.
"""
from __future__ import annotations

import argparse
import glob
import json
import random
import sys
import time
from fractions import Fraction

import numpy as np

from games.model_json import read
from games.poker import PokerGame
from tools.certify.poker import Analysis


def class_of(a: Analysis) -> dict[tuple[int, ...], int]:
    """The certifier's representative deal (sorted card codes) -> its class index."""
    return {tuple(int(c) for c in a.code[row]): k for k, row in enumerate(a.deals)}


def tie_classes(a: Analysis, order: dict) -> np.ndarray:
    """The classes whose first-listed pattern is shared by two holds or more: where the tie-break
    decides (about one deal class in six for the shipped tables)."""
    big = len(order)
    pos = np.full(len(a.pattern_names), big, dtype=np.int64)
    for i, nm in enumerate(a.pattern_names):
        if nm in order:
            pos[i] = order[nm]
    p = pos[a.pattern_ids]
    best = p.min(axis=1)
    return np.nonzero(((p == best[:, None]).sum(axis=1) >= 2) & (best < big))[0]


def relabel(hand: list[int], perm: list[int]) -> list[int]:
    """hand with suit s replaced by perm[s] (the joker, 52, unchanged)."""
    return [c if c == 52 else (c & ~3) | perm[c & 3] for c in hand]


def device_holds(game: PokerGame, a: Analysis, classes: list[int], rng: random.Random) -> list[tuple[int, list[int]]]:
    """Per class: (the representative's hold as a mask over its sorted cards, checked to be the image
    of what the device held on a random member dealt in a random order)."""
    index = class_of(a)
    out = []
    for k in classes:
        rep = [int(c) for c in a.code[a.deals[k]]]
        perm = list(range(4))
        rng.shuffle(perm)
        member = relabel(rep, perm)  # a deal of the same class, as dealt: in a random order
        order = list(range(5))
        rng.shuffle(order)
        dealt = [member[i] for i in order]
        h = game.suggest(bytes(dealt))
        held = [dealt[i] for i in range(5) if h >> i & 1]
        # back to the representative: the inverse relabelling maps the member onto rep
        inv = [0] * 4
        for s in range(4):
            inv[perm[s]] = s
        held_rep = sorted(relabel(held, inv))
        back = sorted(relabel(member, inv))
        assert back == rep and index[tuple(rep)] == k
        mask = sum(1 << rep.index(c) for c in held_rep)
        out.append((mask, held_rep))
    return out


def auto_hold_return(a: Analysis, classes: list[int], masks: list[int], pays: list[int], bet: int) -> Fraction:
    """Exact return over `classes` (each with its weight) when class k holds masks[i] of its
    representative's sorted cards: the expected pay of each hold from the certifier's tables."""
    num = a.ev_numerators(list(pays))
    ks = np.array(classes, dtype=np.int64)
    ms = np.array(masks, dtype=np.int64)
    got = num[ks, ms] * a.weight[ks]  # int64: at most 1.5 M draws x 4,000 credits x 24 deals
    total = Fraction(0)
    for size in range(6):
        sel = np.array([a.size[int(x)] == size for x in ms], dtype=bool)
        if sel.any():
            total += Fraction(int(got[sel].sum()), a.den[(1 << size) - 1])
    return total / int(a.weight[ks].sum()) / bet


def check_model(raw: dict, sample: int | None = None, seed: int = 23, certified: dict | None = None,
                out=sys.stdout) -> list[str]:
    """The differences between the device's auto-hold return and the certifier's strategy (and,
    given, the certificate's strategy_rtp), per bet level; empty when equal. sample: that many
    deal classes at random instead of every one."""
    game = PokerGame(raw)
    m = game.m
    a = Analysis(m)
    rng = random.Random(seed)
    n = len(a.deals)
    classes = sorted(rng.sample(range(n), sample)) if sample and sample < n else list(range(n))
    t0 = time.perf_counter()
    masks = [mask for mask, _ in device_holds(game, a, classes, rng)]
    strategy = a.strategy_holds(m.strategy)
    mine = [int(strategy[k]) for k in classes]
    diffs = []
    for bi, bet in enumerate(m.bets):
        dev = auto_hold_return(a, classes, masks, m.pays[bi], bet)
        cert = auto_hold_return(a, classes, mine, m.pays[bi], bet)
        if certified is not None and len(classes) == n and Fraction(certified[str(bet)]) != cert:
            diffs.append("bet %d: the certifier's strategy returns %.6f %%, its certificate says %.6f %%"
                         % (bet, float(cert) * 100, float(Fraction(certified[str(bet)])) * 100))
        if dev != cert:
            diffs.append("bet %d: the device's auto-hold returns %.6f %%, the certifier's strategy %.6f %% "
                         "(over %d deal classes)" % (bet, float(dev) * 100, float(cert) * 100, len(classes)))
        print("  bet %d: the device's auto-hold %s the certifier's %.6f %% over %d of %d deal classes"
              % (bet, "returns exactly" if dev == cert else "DIFFERS FROM", float(cert) * 100, len(classes), n),
              file=out)
    print("  %.1f s" % (time.perf_counter() - t0), file=out)
    return diffs


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.certify.poker_autohold", description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="*")
    ap.add_argument("--sample", type=int, default=None, help="check that many deal classes, at random")
    ap.add_argument("--seed", type=int, default=23)
    args = ap.parse_args(argv)
    paths = args.models or [p for p in sorted(glob.glob("games/models/*.json"))
                            if read(p).get("format") == "jeton-poker/1"]
    rc = 0
    for path in paths:
        raw = read(path)
        print("%s:" % raw["id"])
        with open("games/certs/%s.json" % raw["id"], encoding="utf-8") as fh:
            cert = json.load(fh)
        diffs = check_model(raw, args.sample, args.seed, cert.get("strategy_rtp"))
        for d in diffs:
            print("%s: %s" % (path, d), file=sys.stderr)
        if diffs:
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
