"""The terminal panel of `make run` (sim/cabinet.py), issue 23.16: it showed the symbols' codes
(`BAR2`, `Jc`), no dollars, and in line mode the previous game's win. Now: the model's names in
the player's language, dollars beside credits, the reels hidden while they turn (s. 94), the win
and the winning lines of the game just played; a piped session prints each game once it is over."""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from rich.console import Console

from sim import cabinet

ROOT = Path(__file__).resolve().parents[2]
MODEL = json.loads((ROOT / "games" / "models" / "sept-royal-87.json").read_text(encoding="utf-8"))
WINDOW = [["BAR2", "SEVEN", "BLANK"], ["CHERRY", "BAR1", "BAR3"], ["BLANK", "CHERRY", "SEVEN"]]


def panel(screen: dict, lang: str = "fr") -> str:
    cab = SimpleNamespace(panel=SimpleNamespace(screen=dict({"game": MODEL["name"], "cents": 25}, **screen), lamps={}),
                          firmware=SimpleNamespace(lines=[]))
    out = Console(width=160, record=True)
    out.print(cabinet.render(cab, "", lang))
    return out.export_text()


def test_the_reels_show_the_models_names_in_the_players_language_never_the_codes() -> None:
    frame = {"id": "sept-royal-87", "state": "credit", "reels": WINDOW, "credits": 40, "bet": 3, "win": 0}
    for lang in ("fr", "en"):
        text = panel(frame, lang)
        for row in WINDOW:
            for code in row:
                assert MODEL["symbols"][code][lang] in text, (lang, code)
        assert not [c for c in ("BAR2", "BAR1", "BAR3", "SEVEN", "CHERRY") if c in text]
    assert "Royal Sevens" in panel(frame, "en") and "Sept Royal" in panel(frame, "fr")


def test_credits_bet_and_win_are_shown_in_dollars_too() -> None:
    text = panel({"id": "sept-royal-87", "state": "credit", "reels": WINDOW, "credits": 4000, "bet": 3, "win": 40,
                  "outcome": {"bet": 3, "lines": [[0, 40]]}})
    # 25 cents a credit (the frame's cents): 4000 credits are 1 000,00 $
    assert "CRÉDITS 4000 (1\u00a0000,00 $)" in text and "MISE 3 (0,75 $)" in text and "GAIN 40 (10,00 $)" in text
    assert "Gagné : 40 crédits (10,00 $)" in text and "Ligne 1 : 40 crédits" in text
    en = panel({"state": "credit", "credits": 1, "bet": 1, "win": 1, "outcome": {"bet": 1, "lines": [[0, 1]]}}, "en")
    assert "CREDITS 1 ($0.25)" in en and "Won 1 credit ($0.25) on a $0.25 bet" in en and "Line 1: 1 credit" in en


def test_while_the_reels_turn_nothing_of_the_outcome_is_shown() -> None:
    text = panel({"id": "sept-royal-87", "state": "spin", "reels": WINDOW, "credits": 37, "bet": 3, "win": 0,
                  "outcome": None})
    assert not [n for n in ("Sept rouge", "Cerise", "Double barre") if n in text] and "…" in text


def test_a_piped_session_prints_each_game_once_its_reels_stop(tmp_path: Path) -> None:
    """Line mode printed the frame 0.3 s after PLAY: the reels still turning (SPIN_MS is 500), so
    the win it showed was the game before's. Each printed frame is now the game just played:
    credits before - bet + win = credits after, game after game."""
    ports = ["--auto-ports", "--screen-port", "0"]
    cmds = "token\ntoken\nplay\nplay\nplay\nplay\nquit\n"
    r = subprocess.run([sys.executable, "-m", "sim.cabinet", "--state", str(tmp_path / "s"), "--games", "sept-royal-87",
                        *ports], input=cmds, capture_output=True, text=True, timeout=120, cwd=ROOT,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0, r.stderr[-2000:]
    frames = [ast.literal_eval(line) for line in r.stdout.splitlines() if line.startswith("{")]  # the frames, as printed
    assert len(frames) == 6, r.stdout
    credits = frames[1]["credits"]
    assert credits == 8  # two $1 tokens at 25 cents
    for games, f in enumerate(frames[2:], 1):
        assert f["state"] != "spin" and f["games"] == games, f
        assert f["outcome"]["bet"] == f["bet"] == 1
        assert f["credits"] == credits - 1 + f["win"], (credits, f)  # its own win, not the game before's
        credits = f["credits"]
