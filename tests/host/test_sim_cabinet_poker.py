"""The terminal panel's video poker keys (sim/cabinet.py): 1-5 and h become the touch screen's hold
and auto-hold lines while a dealt hand waits, and nothing otherwise (a digit is then keno's)."""
from __future__ import annotations

from types import SimpleNamespace

from rich.console import Console

from sim import cabinet

OPEN = {"hand": {"held": [0, 1, 0, 0, 0], "open": True}}


def test_hold_keys_only_while_a_hand_waits() -> None:
    assert [cabinet.poker_key(k, OPEN) for k in "15h6z"] == ["hold 1", "hold 5", "auto", None, None]
    drawn = {"hand": {"held": [0, 1, 0, 0, 0], "open": False}}
    assert cabinet.poker_key("1", drawn) is None and cabinet.poker_key("1", {}) is None


def test_act_sends_hold_lines() -> None:
    sent: list[tuple] = []
    cab = SimpleNamespace(panel=SimpleNamespace(touch=lambda w, n=0: sent.append((w, n))), acceptor=object())
    assert cabinet.act(cab, "hold 3") == "touched hold 3"
    assert cabinet.act(cab, "auto") == "touched auto"
    assert cabinet.act(cab, "hold x") == "unknown command 'hold x'"
    assert sent == [("hold", 3), ("auto", 0)]


def panel_text(screen: dict, lang: str = "fr") -> str:
    cab = SimpleNamespace(panel=SimpleNamespace(screen=screen, lamps={}), firmware=SimpleNamespace(lines=[]))
    out = Console(width=120, record=True)
    out.print(cabinet.render(cab, "", lang))
    return out.export_text()


def test_the_panel_marks_held_cards_while_the_hand_waits_and_not_after_the_draw() -> None:
    screen = {"reels": [["As", "Kd", "7c", "7h", "Ts"]], "hand": OPEN["hand"], "state": "hold", "game": {}}
    text = panel_text(screen)
    line = next(ln for ln in text.splitlines() if "GARDÉE" in ln)
    cards = next(ln for ln in text.splitlines() if "K\u2666" in ln)  # the card, not its code "Kd"
    assert "Kd" not in text and "10\u2660" in cards and "A\u2660" in cards
    assert line.count("GARDÉE") == 1 and abs(line.index("GARDÉE") - cards.index("K\u2666")) <= 3  # under card 2
    assert "1-5 garder/hold" in text
    assert "HELD" in panel_text(screen, "en")
    # issue 23.14: once drawn the final hand shows no hold mark
    drawn = dict(screen, state="credit", hand={"held": [0, 1, 0, 0, 0], "open": False})
    text = panel_text(drawn)
    assert "GARDÉE" not in text and "K\u2666" in text
