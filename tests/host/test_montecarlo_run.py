"""sim.montecarlo: realised return and hit frequency against the certificate, a wrong certified
figure flagged, the progressive's meter, refusal of what the evaluator does not implement, the CLI."""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from fractions import Fraction

import pytest

import sim.montecarlo as mc
from sim.mc_eval import Unsupported, VectorGame
from tools.certify import certify_model, load_model

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def model(name: str) -> str:
    return os.path.join(ROOT, "games", "models", name + ".json")


@pytest.mark.parametrize("name,bet,n", [("aurore-93", 20, 400_000), ("trefle-90", 25, 300_000),
                                        ("sept-royal-87", 3, 300_000)])
def test_realised_return_and_hit_frequency_agree_with_the_certifier(name: str, bet: int, n: int) -> None:
    r = mc.run(model(name), n, bet=bet, workers=2, seed=7, progress=False)
    f = certify_model(load_model(model(name)))["bets"][bet]  # the certifier, not the certificate file
    assert r["games"] == n and r["certified_rtp"] == float(f.rtp)
    assert r["agrees"] and r["ci_99.9"][0] <= float(f.rtp) <= r["ci_99.9"][1], r
    # the observed spread matches the certified standard deviation (within 15 % at this n)
    assert abs(r["std_error"] * math.sqrt(n) / f.std_dev - 1) < 0.15, (r["std_error"], f.std_dev)
    hit = float(f.hit)
    assert abs(r["hit_frequency"] - hit) < 4 * math.sqrt(hit * (1 - hit) / n)
    if name == "aurore-93":
        share = float(f.feature_share)
        assert abs(r["feature_share"] - share) < 0.05, (r["feature_share"], share)


@pytest.mark.parametrize("alone", [False, True])
def test_a_ways_game_realised_return_agrees_with_the_certifier(alone: bool, tmp_path) -> None:
    # jeton-reels/3's worked example (docs/game-format.md), the wilds' own ways paid or not
    with open(os.path.join(ROOT, "tests", "fixtures", "games", "ways-mini.json")) as f:
        raw = json.load(f)
    raw["ways"]["wild_alone"] = alone
    path = tmp_path / "ways-mini.json"
    path.write_text(json.dumps(raw))
    r = mc.run(str(path), 200_000, bet=40, workers=1, seed=11, progress=False)
    f = certify_model(raw)["bets"][40]
    assert r["certified_rtp"] == float(f.rtp) and r["agrees"], r
    assert r["ci_99.9"][0] <= float(f.rtp) <= r["ci_99.9"][1], r


def test_same_seed_same_result_whatever_the_workers_and_chunks() -> None:
    a = mc.run(model("trefle-85"), 100_000, workers=1, seed=4, progress=False, chunk=30_000)
    b = mc.run(model("trefle-85"), 100_000, workers=2, seed=4, progress=False, chunk=1 << 17)
    c = mc.run(model("trefle-85"), 100_000, workers=2, seed=5, progress=False)
    assert a["observed_rtp"] == b["observed_rtp"] and a["hit_frequency"] == b["hit_frequency"]
    assert c["observed_rtp"] != a["observed_rtp"]


def test_a_wrong_certified_figure_is_flagged(monkeypatch) -> None:
    real = mc.certified

    def wrong(path, bet):
        rtp, hit, src = real(path, bet)
        return rtp * Fraction(5, 6), hit, src

    monkeypatch.setattr(mc, "certified", wrong)
    r = mc.run(model("sept-royal-87"), 200_000, bet=1, workers=2, seed=3, progress=False)
    assert not r["agrees"] and r["certified_rtp"] == pytest.approx(7489 / 8512 * 5 / 6)


def test_progressive_meter_pays_the_level_reached_in_whole_credits() -> None:
    # reset 1000, rate 1/100 at bet 3: each game adds 3/100 credit; a win pays floor(level) and the
    # fraction stays on the next meter (firmware/progressive.py won)
    m = mc.Meter({"reset": 1000, "num": 1, "den": 100}, 3)
    m.feed(10, [(4, 1000)])  # 5 games -> 1000.15 -> 1000; the next meter starts at 1000.15
    m.feed(100, [])  # 5 + 100 games: 1003.30
    m.feed(50, [(9, 1000), (49, 1000)])  # 10 -> 1003.60 -> 1003; then 40 -> 1001.80 -> 1001
    assert (m.wins, m.levels, m.extra, m.units, m.rolled) == (3, 1000 + 1003 + 1001, 4, 100080, 0)
    r = mc.run(model("sept-royal-87"), 1 << 17, bet=3, workers=1, seed=1, progress=False)
    p = r["progressive"]
    assert p["pay"] == "3 SEVEN" and p["certified_long_run_rtp"] == pytest.approx(14993 / 17024 + 0.001)
    assert p["observed_rtp_with_meter"] >= r["observed_rtp"]


def test_progressive_meter_stops_at_its_ceiling_and_rolls_the_rest_over() -> None:
    # ceiling 1002: 100 games add 3 credits, 1 of them past the ceiling; the win pays 1002 and the next
    # meter starts at 1001 (the reset and the roll-over), as firmware/progressive.py keeps it
    m = mc.Meter({"reset": 1000, "num": 1, "den": 100, "ceiling": 1002}, 3)
    m.feed(100, [])
    assert (m.units, m.rolled) == (100200, 100)
    m.feed(1, [(0, 1000)])
    assert (m.levels, m.units, m.rolled) == (1002, 100103, 0)


def test_features_it_does_not_implement_are_refused_by_name() -> None:
    with open(model("trefle-90")) as f:
        raw = json.load(f)
    with pytest.raises(Unsupported, match="jeton-reels/1, jeton-reels/2 and jeton-reels/3 only, not 'jeton-reels/9'"):
        VectorGame(dict(raw, format="jeton-reels/9"), 5)
    with pytest.raises(Unsupported, match="model: lines"):  # version 3 pays ways, never lines
        VectorGame(dict(raw, format="jeton-reels/3"), 5)
    with open(os.path.join(ROOT, "tests", "fixtures", "games", "ways-mini.json")) as f:
        ways = json.load(f)
    with pytest.raises(Unsupported, match="ways: bonus"):
        VectorGame(dict(ways, ways=dict(ways["ways"], bonus=1)), 20)
    # jeton-reels/1 ignores version 2's keys (games.model): a v1 model using one is refused, not
    # evaluated without it
    per_reel = dict(raw, pays=[dict(raw["pays"][0], reels=[["BAR"], ["BAR"], ["BAR"]])] + raw["pays"][1:])
    with pytest.raises(Unsupported, match="pay group .*: reels"):
        VectorGame(per_reel, 5)
    with pytest.raises(Unsupported, match="model: both_ways, wilds"):
        VectorGame(dict(raw, wilds={"BAR": 2}, both_ways=True), 5)
    with pytest.raises(Unsupported, match="model: ways"):
        VectorGame(dict(raw, format="jeton-reels/2", ways="both"), 5)
    with pytest.raises(Unsupported, match="model: ways"):
        VectorGame(dict(raw, ways="both"), 5)
    with pytest.raises(Unsupported, match="free_spins: wild_multiplier"):
        VectorGame(dict(raw, free_spins=dict(raw["free_spins"], wild_multiplier=2)), 5)


def _cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim.montecarlo", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env=dict(os.environ, CI="true", **(env or {})))


def test_cli_prints_return_interval_and_hit_frequency_and_no_bar_under_ci() -> None:
    p = _cli(model("trefle-94"), "--spins", "200000", "--workers", "2")
    assert p.returncode == 0, p.stderr
    out = p.stdout.splitlines()
    assert out[0].startswith("trefle-94 bet 5: 200000 games in ")
    assert out[1].startswith("realised return ") and "95 % CI" in out[1] and "99.9 % CI" in out[1]
    assert out[2].startswith("certified return ") and "games/certs/trefle-94.json" in out[2]
    assert out[3].startswith("hit frequency ") and out[-1].endswith(": agrees")
    assert "game/s" not in p.stderr and "%|" not in p.stderr  # no tqdm bar
    j = _cli(model("skeleton-88"), "--spins", "50000", "--json", "--bet", "2")
    r = json.loads(j.stdout)
    assert r["games"] == 50000 and r["bet"] == 2 and r["certified_rtp_fraction"]


def test_cli_refuses_bad_input_with_a_clear_error() -> None:
    p = _cli(model("trefle-94"), "--spins", "0")
    assert p.returncode == 2 and "--spins must be positive" in p.stderr
    p = _cli(model("trefle-94"), "--spins", "1000", "--bet", "7")
    assert p.returncode == 2 and "bet 7 not offered (bets [5, 10, 25])" in p.stderr and "Traceback" not in p.stderr
    p = _cli(os.path.join(ROOT, "no-such-model.json"))
    assert p.returncode == 2 and "No such file" in p.stderr and "Traceback" not in p.stderr
