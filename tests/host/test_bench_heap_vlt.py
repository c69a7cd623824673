"""The vlt profile's heap in `make bench` (tools/bench/bench_heap_vlt.py; issue 25: every shipped
game's session with its SAS line fits 112 KB, under every jurisdiction profile): which games it
measures, that each session is a vlt cabinet's with its line, and the rows it prints."""
from __future__ import annotations

import json
from pathlib import Path

from tools.bench import bench_heap, bench_heap_vlt

ROOT = Path(__file__).resolve().parents[2]


def _bets(game: str) -> list[int]:
    return json.loads((ROOT / "games" / "models" / f"{game}.json").read_text())["bets"]


def test_the_games_measured_are_those_a_vlt_offers_at_a_25_cent_credit():
    offered = bench_heap_vlt.vlt_games()
    shipped = bench_heap.shipped_games(tables=True)
    assert offered and set(offered) <= set(shipped)
    # L-6, r. 3, s. 4 and S-13.1, r. 7, s. 6: a wager of at most $2.50 (reference/vlt-rules.md): a
    # game whose model takes a larger bet level at 25 cents a credit is not offered
    for game in shipped:
        if max(_bets(game)) * 25 > 250:
            assert game not in offered, game
    assert "aurore-93" not in offered  # bets up to 100 credits: $25
    # S-13.1, r. 7, s. 3: card games, reel games, keno and bingo; no dice, roulette or wheel
    assert not {g for g in offered if g.startswith(("craps", "sicbo", "roulette", "roue"))}
    # video poker at 1-5 credits ($1.25), its royal flush at 5 credits 4,000 credits ($1,000: the
    # prize limit, not above it), and the 7-reel game at 1-3 credits
    assert {"jacks-98", "sept-royal-87"} <= set(offered)
    # at a 5-cent credit a game at 25 credits a bet ($1.25) comes within the limits
    assert len(bench_heap_vlt.vlt_games(denom_cents=5)) > len(offered)


class _Cabinet:
    """Stands for the emulated cabinet: records what it was made with; its boot stops the session."""

    made: list[dict] = []

    def __init__(self, state_dir, **kw) -> None:
        _Cabinet.made.append(kw)
        self.firmware = type("F", (), {"lines": []})()

    def boot(self) -> None:
        raise RuntimeError("not booted: the test's stand-in")

    def shutdown(self) -> None:
        pass

    def close_sas(self) -> None:
        pass


def test_a_vlt_session_is_a_vlt_cabinet_with_its_sas_line(monkeypatch):
    monkeypatch.setattr(bench_heap, "EmulatedCabinet", _Cabinet)
    _Cabinet.made.clear()
    assert bench_heap.run("jacks-98", 112, "frozen", sas=True, juris="vlt")["result"] == bench_heap.TIMEOUT
    assert bench_heap.run("jacks-98", 112, "frozen")["result"] == bench_heap.TIMEOUT
    vlt, casino = _Cabinet.made
    assert vlt["sas"] and vlt["heap"] == "112K" and vlt["extra_args"] == ["--games", "jacks-98", "--jurisdiction", "vlt"]
    assert not casino["sas"] and casino["extra_args"] == ["--games", "jacks-98"]


def test_a_vlt_row_is_its_session_with_the_line_bisected_and_flagged(monkeypatch):
    tried = []

    def settled(game, heap_k, code, boot_only=False, sas=False, juris="casino"):
        tried.append((heap_k, boot_only, sas, juris))
        fits = heap_k >= (104 if boot_only else 120)  # a session of 113-120K, a boot of 97-104K
        return {"result": bench_heap.FIT if fits else bench_heap.NOFIT, "boot_used": 103000, "used": 103500}

    monkeypatch.setattr(bench_heap, "settled", settled)
    row = bench_heap.measure("jacks-98", "frozen", 144, sas=True, juris="vlt", sas_only=True)
    assert {(sas, juris) for _, _, sas, juris in tried} == {(True, "vlt")}  # never without its line
    assert row["sas_boot_k"] == 104 and row["sas_session_k"] == 120 and row["sas_used"] == 103500
    assert row["boot_k"] is row["session_k"] is None
    assert bench_heap.flag(row) == "OVER 112K"
    line = bench_heap.row_line(row)
    assert line.split()[:5] == ["frozen", "jacks-98", "-", "-", "-"] and line.endswith("OVER 112K")
