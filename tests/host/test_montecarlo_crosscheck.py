"""The vectorised evaluator against the device engine, spin for spin, on the same streams:
>= 10^5 games of every shipped reel model (jeton-reels/1, /2 and /3) and of the jeton-reels/2 test
models of test_certify_reels2.py and the jeton-reels/3 worked example (ways-mini), at the top bet
(the progressive's bet for sept-royal), then random jeton-reels/3 models (test_certify_ways.py's:
multiplier wilds, per-reel groups, free spins) at every bet: every award, stop, byte read and free
spin equal. The device engine is the slow side: about 12 s of CPU
for each aurore model (5 x 3, 20 lines), 1-2 s for each 3-reel model (the device evaluates each
distinct list of draws once: sim/mc_crosscheck.py)."""
from __future__ import annotations

import glob
import json
import os

import numpy as np
import pytest

from games.model import read
from sim.mc_crosscheck import crosscheck
from sim.mc_eval import VectorGame
from sim.mc_stream import Streams, key_for

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# every reel game shipped (keno and video poker are not reel games), and the jeton-reels/2 test
# models: mini2 (per-reel groups, multiplier wilds, both ways, free spins with a multiplier and a
# cap) and mini2-plain (per-reel groups on the device's group-mask path)
MODELS = sorted(p for p in glob.glob(os.path.join(ROOT, "games", "models", "*.json"))
                if read(p).get("format", "jeton-reels/1").startswith("jeton-reels/"))
MODELS += [os.path.join(ROOT, "tests", "fixtures", "games", n) for n in ("mini2.json", "mini2-plain.json", "ways-mini.json")]
SPINS = 100_000


@pytest.mark.slow
@pytest.mark.parametrize("path", MODELS, ids=[os.path.basename(p)[:-5] for p in MODELS])
def test_every_award_equal_over_1e5_games(path: str) -> None:
    raw = read(path)
    r = crosscheck(path, raw["bets"][-1], SPINS, seed=2024, progress=False)
    assert r["games"] == SPINS and r["mismatches"] == [], r["mismatches"]


OTHER_BETS = [os.path.join(ROOT, "games", "models", n + ".json")
              for n in ("aurore-88", "trefle-94", "sept-royal-84", "tricolore-92")]
OTHER_BETS.append(os.path.join(ROOT, "tests", "fixtures", "games", "mini2.json"))


@pytest.mark.parametrize("path", OTHER_BETS, ids=[os.path.basename(p)[:-5] for p in OTHER_BETS])
def test_other_bets_and_tiny_stream_buffers_agree(path: str) -> None:
    # prefix 16 / extension 16 bytes: most draws of a feature game come from on-demand blocks
    for bet in read(path)["bets"][:-1]:
        r = crosscheck(path, bet, 4000, seed=bet, prefix=16, ext=16, progress=False)
        assert r["mismatches"] == [], r["mismatches"]


@pytest.mark.parametrize("seed", range(6))
def test_random_ways_models_agree_at_every_bet(seed: int, tmp_path) -> None:
    from test_certify_ways import _random_model  # 3-4 reels, 1-3 rows, wild_alone either way

    path = tmp_path / "ways.json"
    raw = _random_model(seed)
    path.write_text(json.dumps(raw))
    for bet in raw["bets"]:
        r = crosscheck(str(path), bet, 3000, seed=seed, workers=1, progress=False)
        assert r["games"] == 3000 and r["mismatches"] == [], r["mismatches"]


def test_progressive_wins_agree_with_firmware_progressive_hit() -> None:
    # 3 SEVEN at bet 3 comes once in ~330 000 games: find them with the vectorised evaluator, then
    # play exactly those games (and their neighbours) on the device engine
    path = os.path.join(ROOT, "games", "models", "sept-royal-87.json")
    vg = VectorGame(read(path), 3)
    r = vg.play(Streams(key_for(5), 0, 1_500_000))
    wins = np.nonzero(r["prog"])[0]
    assert len(wins) >= 1
    assert (r["prog"][wins] == r["base"][wins]).all()  # one line: the win is the whole base award
    for i in wins[:3]:
        c = crosscheck(path, 3, 3, seed=5, first=max(int(i) - 1, 0), progress=False)
        assert c["mismatches"] == [], c["mismatches"]
    # the same games at bet 2 pay the fixed award and are no progressive win
    assert VectorGame(read(path), 2).play(Streams(key_for(5), int(wins[0]), 1))["prog"] is None


def test_a_model_the_evaluator_refuses_raises_before_any_worker_starts() -> None:
    # a pool's initializer that raises is started again and again: the first ways model the
    # evaluator could not compile hung the cross-check so (a keno model: the device engine refuses it)
    from games.limits import ModelError

    with pytest.raises(ModelError, match="jeton-keno/1"):
        crosscheck(os.path.join(ROOT, "games", "models", "keno-etoile-90.json"), 1, 10, workers=1, progress=False)


def test_a_wrong_award_or_draw_is_reported(monkeypatch) -> None:
    import sim.mc_crosscheck as xc

    class Off(VectorGame):
        def play(self, st, block=8192):
            r = super().play(st, block)
            r["award"][3] += 1  # one credit too many in game 3
            r["pos"][5] += 1  # one byte too many read in game 5
            return r

    monkeypatch.setattr(xc, "VectorGame", Off)
    path = os.path.join(ROOT, "games", "models", "trefle-90.json")
    r = xc.crosscheck(path, 5, 10, seed=1, first=100, workers=1, progress=False)
    assert [(g, k) for g, k, _, _ in r["mismatches"]] == [(103, "award"), (105, "bytes")]
    g, k, want, got = r["mismatches"][0]
    assert got == want + 1
