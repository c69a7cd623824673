"""One convention for every model id (issue 23.19, docs/game-format.md "Model ids"): a shipped
model's id is `<family>-<N>` and its `version` is N, the floor in whole percent of the lowest
certified return (`rtp`) over every bet level (and every spot count of a keno card): the id never
overstates the return of any wager the game offers. For video poker `rtp` is the optimal-play
return; the built-in strategy's (`strategy_rtp`) is at most that. Before, poker ids named the pay
schedule (jacks-85 was 8/5 and returned 96-97 %) while reel ids rounded the return (aurore-89
returns 88.96 %)."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from games.model_json import read

ROOT = Path(__file__).resolve().parents[2]
MODELS = sorted((ROOT / "games" / "models").glob("*.json"))


def lowest_return(cert: dict) -> Fraction:
    out = []
    for v in cert["rtp"].values():  # {bet: r}; keno {spots: {bet: r}}; a table game {wager: r or [r per bet]}
        out += ([Fraction(x) for x in v.values()] if isinstance(v, dict) else [Fraction(x) for x in v]
                if isinstance(v, list) else [Fraction(v)])
    return min(out)


@pytest.mark.parametrize("path", MODELS, ids=[p.stem for p in MODELS])
def test_the_id_names_the_floor_of_the_lowest_return(path: Path) -> None:
    model = read(str(path))
    cert = json.loads((ROOT / "games" / "certs" / f"{model['id']}.json").read_text(encoding="utf-8"))
    n = int(lowest_return(cert) * 100)  # floor: a Fraction's int() truncates, and returns are > 0
    assert model["version"] == str(n), (model["id"], model["version"], n)
    assert model["id"] == f"{model['family']}-{n}" == path.stem
    if "strategy_rtp" in cert:  # the auto-hold's (blackjack: the built-in table's) is at most the optimal one
        for k, v in cert["rtp"].items():
            if isinstance(v, dict):  # per wager: blackjack's {wager: {bet: return}}, a card-table game's {bet: {wager: return}}
                assert all(Fraction(cert["strategy_rtp"][k][x]) <= Fraction(v[x]) for x in v), (k, v)
            else:
                assert Fraction(cert["strategy_rtp"][k]) <= Fraction(v)


def test_the_families_return_versions_are_distinct() -> None:
    ids = [read(str(p))["id"] for p in MODELS]
    assert len(ids) == len(set(ids))
    assert int(lowest_return({"rtp": {"1": "8896006/10000000"}}) * 100) == 88  # 88.96 % is 88, not 89
