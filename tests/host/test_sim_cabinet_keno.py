"""The terminal panel's keno keypad and card (sim/cabinet.py): keys to the touch lines the firmware
takes, and the 8 x 10 card with picks, numbers drawn and hits."""
from __future__ import annotations

from types import SimpleNamespace

from rich.console import Console

from sim import cabinet


def test_keypad_keys_become_touch_commands() -> None:
    typed, cmd = "", None
    for key in "17":
        typed, cmd = cabinet.keno_key(key, typed, [])
        assert cmd is None
    assert cabinet.keno_key("n", typed, []) == ("", "spot 17")
    assert cabinet.keno_key("n", "", []) == ("", None)  # nothing typed: no number to mark
    assert cabinet.keno_key("x", "8", []) == ("", "quick 8")
    assert cabinet.keno_key("x", "", [3, 9, 40]) == ("", "quick 3")  # as many as the card holds
    assert cabinet.keno_key("x", "", []) == ("", "quick 5")
    assert cabinet.keno_key("z", "4", [1]) == ("", "clear")
    assert cabinet.keno_key("1", "80", []) == ("01", None)  # two digits at most: the last two
    assert cabinet.keno_key("t", "12", []) == ("12", None)  # other keys keep what was typed


def test_act_sends_touch_lines() -> None:
    sent: list[tuple] = []
    cab = SimpleNamespace(panel=SimpleNamespace(touch=lambda w, n=0: sent.append((w, n))), acceptor=object())
    assert cabinet.act(cab, "spot 17") == "touched spot 17"
    assert cabinet.act(cab, "quick 8") == "touched quick 8"
    assert cabinet.act(cab, "clear") == "touched clear"
    assert cabinet.act(cab, "spot x") == "unknown command 'spot x'"
    assert sent == [("spot", 17), ("quick", 8), ("clear", 0)]


def test_card_shows_picks_drawn_and_hits() -> None:
    grid = cabinet.keno_card({"picks": [1, 2, 80], "drawn": [2, 50], "hits": [2]})
    out = Console(width=80, record=True, color_system="truecolor")
    out.print(grid)
    text = out.export_text()
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["1", "2", "3"] and lines[7].split()[-1] == "80"
    assert lines[8].strip() == "1/3"  # caught / picked
