"""A card table game offered to the real firmware that the cabinet does not play yet (issue 26:
blackjack): the game is certified at power-up, then disabled by name because this cabinet does not play
that game yet (firmware/play_cards.py plays the eight card-poker table games); with nothing else
offered the cabinet is in the "game" tilt, told why, and a power cycle boots the same way (before the
fix, power-up raised on the card-table model and restarted: see
tests/device/test_firmware_cardtable_offer.py). Offered beside a reel game, the reel game plays."""
from __future__ import annotations

from pathlib import Path

from sim.harness import EmulatedCabinet


def test_offered_alone_it_is_a_named_tilt_at_every_power_up(tmp_path: Path) -> None:
    for _ in range(2):  # a power cut, then the same power-up again: no restart, the same tilt
        cab = EmulatedCabinet(tmp_path / "s", extra_args=["--games", "blackjack-1d-94"]).boot()
        try:
            assert cab.firmware.ready["game"] is None and cab.firmware.ready["state"] == "tilt", cab.firmware.ready
            state = "\n".join(cab.console.command("state"))
            assert "no certified game to offer (blackjack-1d-94: table game: this cabinet has no play flow" in state, state
            events = "\n".join(cab.console.command("events"))
            assert "game-off" in events and "blackjack-1d-94: table game: this cabinet has no play flow" in events, events
            assert "restart" not in events
        finally:
            cab.power_cut()


def test_beside_a_reel_game_the_reel_game_plays(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "s", extra_args=["--games", "blackjack-1d-94,sept-royal-87"]).boot()
    try:
        assert cab.firmware.ready["game"] == "sept-royal-87" and cab.firmware.ready["state"] == "idle"
    finally:
        cab.shutdown()
