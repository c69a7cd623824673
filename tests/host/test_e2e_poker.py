"""Video poker on the real firmware (issue 13): a 5-card-draw session on the emulated cabinet
(frozen firmware image, 128K heap), hands played with the built-in strategy's holds; its recall
holds each game's deck order and holds, and sim.replay reproduces every game bit for bit."""
from __future__ import annotations

import copy
import json

import pytest

from games import load
from sim import replay
from sim.harness import ROOT, EmulatedCabinet

MODELS = ROOT / "games" / "models"


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> dict:
    cab = EmulatedCabinet(tmp_path_factory.mktemp("poker") / "state", extra_args=["--games", "deuces-wild-100"]).boot()
    try:
        assert cab.firmware.ready["game"] == "deuces-wild-100", cab.firmware.lines[-20:]
        for _ in range(5):
            cab.insert_token()
        for _ in range(12):
            cab.play()
        assert cab.console is not None
        return json.loads(cab.console.command("recall json")[-1])
    finally:
        cab.shutdown()


def test_session_replays_bit_for_bit(export: dict) -> None:
    games = export["games"]
    assert len(games) == 10 and all(g["id"] == "deuces-wild-100" for g in games)
    g = load(str(MODELS / "deuces-wild-100.json"))
    for rec in games:
        deck, holds = rec["draws"][:-1], rec["draws"][-1]
        assert sorted(deck) == list(range(52)) and 0 <= holds < 32
        assert holds == g.suggest(bytes(deck[:5]))  # the machine held what its strategy says
    results = replay.replay(export, MODELS)
    assert all(not r["diffs"] for r in results), results
    assert all(len(r["window"][0]) == 5 for r in results)


def test_a_changed_hold_is_flagged(export: dict) -> None:
    forged = copy.deepcopy(export)
    rec = forged["games"][2]
    rec["draws"][-1] ^= 0b10000  # hold or discard the fifth card
    flagged = {r["n"] for r in replay.replay(forged, MODELS) if r["diffs"]}
    assert flagged == {rec["n"]}
