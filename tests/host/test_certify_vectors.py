"""The fixed-draw vectors the device test replays hold awards from the independent brute evaluator."""
from __future__ import annotations

import json
from pathlib import Path

from tools.certify.brute import replay

ROOT = Path(__file__).resolve().parents[2]


def test_vector_awards_come_from_the_independent_evaluator() -> None:
    vecs = json.loads((ROOT / "tests/fixtures/games/vectors.json").read_text())
    models: dict[str, dict] = {}
    for v in vecs:
        raw = models.setdefault(v["model"], json.loads((ROOT / v["model"]).read_text()))
        assert replay(raw, v["bet"], v["draws"]) == v["award"]
    assert sum(1 for v in vecs if v["triggered"]) >= 12
