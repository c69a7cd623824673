"""The programme from both ends (tools/certify/both_ends.py), which certifies jeton-reels/2 models with
multiplier wilds or both-ways pays without enumerating column combinations: it gives the window
enumeration's distribution and win table (tools/certify/enumerate.py) on random small models, the
brute force's figures (tools/certify/brute.py), a return worked out here from docs/game-format.md
on a game past the old 4,000,000-combination ceiling, and refuses by name what it cannot finish."""
from __future__ import annotations

import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from games.model import Model, ModelError
from tools.certify import both_ends, brute, certify_model
from tools.certify import enumerate as enum
from tools.certify.joint import columns

ROOT = Path(__file__).resolve().parents[2]


def _random_model(seed: int) -> dict:
    """A small jeton-reels/2 model: 3 to 5 reels, 1 to 3 rows, wild, often a multiplier wild and both
    ways, a per-reel group, a wilds group, a scatter, pays from 1 or 2 of a kind."""
    r = random.Random(seed)
    nr, rows = r.randint(3, 5), r.randint(1, 3)
    syms = ["A", "B", "C", "D", "E", "W", "X", "S"]
    wilds = {"X": r.choice([2, 3])} if r.random() < 0.7 else None
    reels = []
    for _ in range(nr):
        strip = [r.choice(syms) for _ in range(r.randint(4, 6))]
        reels.append({"strip": strip, "weights": [r.randint(1, 3) for _ in strip]} if r.random() < 0.5
                     else {"strip": strip})
    pays = []
    for g in "ABCD":
        table = {str(n): r.randint(1, 20) * n for n in range(1 if r.random() < 0.2 else 2, nr + 1) if r.random() < 0.8}
        pays.append({"name": g, "symbols": [g], "pays": table or {str(nr): 50}})
    pays.append({"name": "AB", "reels": [r.sample(["A", "B", "E"], 2) for _ in range(nr)], "pays": {str(nr - 1): 7}})
    pays.append({"name": "WILDS", "symbols": ["W"] + (["X"] if wilds and r.random() < 0.5 else []),
                 "pays": {str(nr): 100}})
    nl = r.randint(1, 4)
    raw = {"format": "jeton-reels/2", "id": "rand-%d" % seed, "name": {"fr": "x", "en": "x"}, "symbols": syms,
           "wild": "W", "scatter": "S", "rows": rows, "lines": [[r.randrange(rows) for _ in range(nr)] for _ in range(nl)],
           "bets": [nl, 2 * nl], "reels": reels, "pays": pays, "scatter_pays": {"2": 2, "3": 5},
           "both_ways": r.random() < 0.7}
    if wilds:
        raw["wilds"] = wilds
    return raw


@pytest.mark.parametrize("seed, fast", [(s, True) for s in range(40)] + [(s, False) for s in range(0, 40, 4)])
def test_distribution_and_win_table_equal_the_window_enumeration(seed: int, fast: bool,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # the paths certification takes when the integers fit (byte-wide packed fields, the last reel's
    # sums in numpy) and the ones it falls back to (fields as narrow as they can be, sums in Python)
    monkeypatch.setattr(both_ends, "USE_NUMPY", fast)
    monkeypatch.setattr(both_ends, "ALIGN_FIELDS", fast)
    m = Model(_random_model(seed))
    for bi in range(len(m.bets)):
        dist, table = enum._enumerate(m, m.base, bi)
        assert both_ends.distribution(m, m.base, bi) == dist
        assert both_ends.entries(m, m.base, bi) == table


@pytest.mark.parametrize("seed", [1, 2, 3, 5, 8])
def test_certified_figures_equal_the_brute_force(seed: int) -> None:
    raw = _random_model(seed)
    raw["free_spins"] = {"award": {"3": 2}, "retrigger": {"3": 1}, "cap": 5, "multiplier": 2}
    cert = certify_model(raw, jobs=1)
    for bi, bet in enumerate(raw["bets"]):
        f = cert["bets"][bet]
        assert (f.rtp, f.hit, f.second) == brute.figures(raw, bi)


# Past the old ceiling: 5 reels of 25 stops, 4,935,168 combinations of their distinct columns
# (tools/certify/enumerate.py refused above 4,000,000), one line on the middle row, both ways, X a
# x2 wild standing in for A.
def _wide() -> dict:
    r = random.Random(28)
    reels = [{"strip": [r.choice("AAXKQJ") for _ in range(25)]} for _ in range(5)]
    return {"format": "jeton-reels/2", "id": "wide-1", "name": {"fr": "x", "en": "x"},
            "symbols": ["A", "X", "K", "Q", "J"], "wilds": {"X": 2}, "both_ways": True, "rows": 3,
            "lines": [[1, 1, 1, 1, 1]], "bets": [1], "reels": reels,
            "pays": [{"name": "A", "symbols": ["A"], "pays": {"3": 5, "4": 20, "5": 100}}]}


def _by_hand(raw: dict) -> tuple[Fraction, Fraction, Fraction]:
    """(return, hit frequency, E[win^2]) of _wide() from the rules of docs/game-format.md, version 2:
    the line shows on reel i the symbol at the drawn stop; left to right the run is the reels from
    reel 1 showing A or X, paying 5 / 20 / 100 for 3 / 4 / 5 times 2 per X in the run; right to left
    the same from reel 5, a run of 5 paying nothing that way."""
    pay = {3: 5, 4: 20, 5: 100}
    strips = [reel["strip"] for reel in raw["reels"]]
    counts = [{s: strip.count(s) for s in "AXO"} for strip in strips]
    for c, strip in zip(counts, strips):
        c["O"] = len(strip) - c["A"] - c["X"]
    total = 1
    for strip in strips:
        total *= len(strip)

    def way(seq: list[str], full_pays: bool) -> int:
        run, mult = 0, 1
        for s in seq:
            if s == "O":
                break
            run += 1
            mult *= 2 if s == "X" else 1
        if run == 5 and not full_pays:
            return 0
        return pay.get(run, 0) * mult

    mean = hit = second = Fraction(0)
    for k in range(3 ** 5):
        seq = ["AXO"[(k // 3 ** i) % 3] for i in range(5)]
        w = 1
        for i, s in enumerate(seq):
            w *= counts[i][s]
        win = way(seq, True) + way(seq[::-1], False)
        mean += w * win
        second += w * win * win
        hit += w if win else 0
    return mean / total, hit / total, second / total


def test_a_game_past_the_old_ceiling_certifies_with_the_figures_worked_by_hand() -> None:
    raw = _wide()
    m = Model(raw)
    n = 1
    for i in range(5):
        n *= len(columns(m, m.base, i))
    assert n > 4_000_000  # what tools/certify/enumerate.py LIMIT refused
    f = certify_model(raw, jobs=1)["bets"][1]
    assert (f.rtp, f.hit, f.second) == _by_hand(raw)


def test_a_model_past_the_programme_s_bounds_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = _random_model(3)
    bound = both_ends.MAX_MEMORY
    monkeypatch.setattr(both_ends, "MAX_MEMORY", 3_000)  # one state of unsettled lines
    with pytest.raises(ModelError, match=r"states after one reel would take more than 0.003 MB \(tools/certify/both_ends.py "
                                         r"MAX_MEMORY\)"):
        certify_model(raw, jobs=1)
    monkeypatch.setattr(both_ends, "MAX_MEMORY", bound)
    monkeypatch.setattr(both_ends, "MAX_STEPS", 10)
    with pytest.raises(ModelError, match="MAX_STEPS"):
        certify_model(raw, jobs=1)
    r = subprocess.run([sys.executable, "-c", "import sys; import tools.certify.both_ends as b; b.MAX_STEPS = 10; "
                        "from tools.certify.__main__ import main; sys.exit(main(sys.argv[1:]))",
                        str(ROOT / "tests" / "fixtures" / "games" / "mini2.json")],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and "INVALID MODEL" in r.stderr and "both_ends.py MAX_STEPS" in r.stderr
