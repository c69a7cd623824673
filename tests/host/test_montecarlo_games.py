"""Monte-Carlo with the device engine agrees with the exact figures (modest N), and flags a mismatch."""
from __future__ import annotations

import math
from fractions import Fraction

import sim.montecarlo as mc
from tools.certify import certify_model, load_model


def test_montecarlo_agrees_with_exact_return_and_hit_frequency() -> None:
    for path, bet, n in (("games/models/sept-royal-88.json", 3, 30000), ("games/models/trefle-90.json", 25, 20000)):
        r = mc.run(path, n, bet=bet, workers=2, seed=7, progress=False)
        assert r["agrees"], r
        hit = float(certify_model(load_model(path))["bets"][bet].hit)
        se = math.sqrt(hit * (1 - hit) / n)
        assert abs(r["hit_frequency"] - hit) < 4 * se


def test_montecarlo_flags_a_wrong_figure(monkeypatch) -> None:
    real = mc.exact.rtp

    def wrong(m, bi):
        n, d = real(m, bi)
        return n * 5, d * 6  # claims 5/6 of the true return

    monkeypatch.setattr(mc.exact, "rtp", wrong)
    r = mc.run("games/models/sept-royal-88.json", 20000, workers=2, seed=3, progress=False)
    assert not r["agrees"] and abs(r["exact_rtp"] - float(Fraction(5, 6) * Fraction(*real(
        __import__("games").load("games/models/sept-royal-88.json").m, 0)))) < 1e-12
