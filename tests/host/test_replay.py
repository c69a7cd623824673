"""sim.replay reproduces a machine's recorded games bit for bit, and flags any tampering."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from sim import replay
from sim.harness import ROOT, EmulatedCabinet

MODELS = ROOT / "games" / "models"


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> dict:
    cab = EmulatedCabinet(tmp_path_factory.mktemp("replay") / "state").boot()
    try:
        for _ in range(4):
            cab.insert_token()
        for _ in range(12):
            cab.play()
        assert cab.console is not None
        return json.loads(cab.console.command("recall json")[-1])
    finally:
        cab.shutdown()


def test_recorded_games_replay_identically(export: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert len(export["games"]) == 10  # the last ten of twelve
    results = replay.replay(export, MODELS)
    assert all(not r["diffs"] for r in results), results
    f = tmp_path / "recall.json"
    f.write_text(json.dumps(export))
    assert replay.main([str(f)]) == 0
    assert "10 reproduced, 0 differ" in capsys.readouterr().out


def test_tampered_record_is_flagged(export: dict) -> None:
    forged = copy.deepcopy(export)
    g = forged["games"][3]
    g["draws"][0] = (g["draws"][0] + 1) % 8  # a different stop on reel 1
    g2 = forged["games"][5]
    g2["win"] += 10
    results = replay.replay(forged, MODELS)
    flagged = {r["n"] for r in results if r["diffs"]}
    assert g2["n"] in flagged
    # moving a stop changes the outcome digest even when the award happens to be the same
    assert g["n"] in flagged


def test_money_in_while_the_reels_turned_balances_the_credits(export: dict) -> None:
    # a token credited during the spin: in the credits after and in the record's "in" (firmware/game_books.py)
    with_coin = copy.deepcopy(export)
    g = with_coin["games"][2]
    g["after"] += 4
    g["in"] = 4
    assert not replay.replay(with_coin, MODELS)[2]["diffs"]
    del g["in"]  # credits after that the game does not account for
    (diff,) = replay.replay(with_coin, MODELS)[2]["diffs"]
    assert diff.startswith(f"credits {g['before']} - {g['bet']} + ") and diff.endswith(f" + in 0 != recorded {g['after']}")
