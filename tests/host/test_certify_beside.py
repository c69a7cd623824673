"""tools/certify/beside.py: a 5-reel game's free-spin set is worked out in a forked child while the
certifier does the base set. The figures must not depend on it, and a child that fails must be an
error that says so, never a silent or partial result."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from games.limits import ModelError
from tools.certify.beside import beside
from tools.certify.core import certify_model

ROOT = Path(__file__).resolve().parents[2]


def _boom(x: int) -> int:
    raise ValueError(f"no figure for {x}")


def _vanish() -> int:
    os._exit(3)  # a child killed before it wrote anything


def test_the_childs_result_comes_back_whole() -> None:
    big = {(w, s): w * 7 + s for w in range(3000) for s in range(4)}  # larger than a pipe's buffer
    assert beside(dict, big)() == big


def test_a_failure_in_the_child_is_raised_by_name() -> None:
    with pytest.raises(RuntimeError, match="_boom in the child process: ValueError: no figure for 5"):
        beside(_boom, 5)()


def _refuse(n: int) -> int:
    raise ModelError("too large to certify exactly: %d" % n)


def test_a_model_refused_in_the_child_stays_a_refusal() -> None:
    # a limit the free-spin set passes in the child (tools/certify/joint.py) is the model's fault:
    # tools.certify prints it as one line, not as a RuntimeError's traceback
    with pytest.raises(ModelError, match="too large to certify exactly: 7"):
        beside(_refuse, 7)()


def test_a_child_that_dies_without_a_result_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="died without a result"):
        beside(_vanish)()


@pytest.mark.parametrize("game", ["aurore-88"])
def test_one_process_and_two_give_the_same_exact_figures(game: str) -> None:
    raw = json.loads((ROOT / "games" / "models" / f"{game}.json").read_text())
    one, two = certify_model(raw, jobs=1), certify_model(raw, jobs=2)
    assert one["bets"].keys() == two["bets"].keys()
    for bet, a in one["bets"].items():
        b = two["bets"][bet]
        assert (a.rtp, a.hit, a.second, a.trigger, a.feature_second, a.triggers, a.base_dist) == \
               (b.rtp, b.hit, b.second, b.trigger, b.feature_second, b.triggers, b.base_dist)
        assert a.free_dist == b.free_dist and a.free_dist  # the forked set is the free-spin one
