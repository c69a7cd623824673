"""A table game offered to a cabinet that does not play table games yet (issue 26: the blackjack
engine and certificates come first, the cabinet's play flow later): it is disabled at boot, named,
and the cabinet plays its other games. Before, the boot check certified blackjack-1d-94, the cabinet
made it its game, and its first round faulted at every resume ("stake must be {wager: credits}",
three times in a row: board reset)."""
from __future__ import annotations

from pathlib import Path

from sim.harness import EmulatedCabinet


def test_blackjack_is_disabled_at_boot_and_the_reel_game_plays(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path, extra_args=["--games", "blackjack-1d-94,aurore-88"]).boot()
    try:
        assert cab.firmware.ready["game"] == "aurore-88", cab.firmware.lines[-20:]
        assert any("game blackjack-1d-94: DISABLED: blackjack-1d-94: a table game: this cabinet does not play "
                   "it yet (issue 26)" in line for line in cab.firmware.lines), cab.firmware.lines[-20:]
        while cab.panel.screen.get("credits", 0) < cab.panel.screen.get("bet", 1):
            cab.insert_token()
        cab.play(timeout=30)
        assert cab.meters()["games_played"] == 1
        assert not any("board reset" in line for line in cab.firmware.lines)
    finally:
        cab.shutdown()
