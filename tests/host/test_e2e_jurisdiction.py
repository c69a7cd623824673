"""End to end: the firmware image booted under the vlt profile (`--jurisdiction vlt`, what
`make run JURIS=vlt` passes) disables a game that breaks the video-lottery limits, naming the rule
in its event, and plays one that keeps them; a cabinet with no game inside them is in the limits
tilt, which the player's screen words (docs/screen.md)."""
from __future__ import annotations

from pathlib import Path

from sim.cabinet import firmware_args
from sim.harness import EmulatedCabinet


def test_vlt_boot_disables_a_game_over_the_limits(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "s", extra_args=firmware_args("aurore-93,sept-royal-87", "emulated", "vlt")).boot()
    try:
        ready = cab.firmware.ready
        assert ready["jurisdiction"] == "vlt" and ready["game"] == "sept-royal-87", ready
        assert cab.console
        events = "\n".join(cab.console.command("events"))
        # aurore-93 bets 100 credits: $25.00 at 25 cents
        assert "aurore-93: vlt maximum bet: $25.00 above $2.50" in events, events
    finally:
        cab.shutdown()


def test_vlt_boot_with_no_game_inside_the_limits_is_the_limits_tilt_the_player_is_told(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "s", extra_args=firmware_args("trefle-90", "emulated", "vlt")).boot()
    try:
        assert cab.firmware.ready["game"] is None and cab.firmware.ready["state"] == "tilt"
        assert cab.console and cab.panel
        state = "\n".join(cab.console.command("state"))
        assert "tilt limits: no game within the vlt limits to offer (trefle-90: vlt maximum bet: $6.25" in state, state
        # the player's screen is told why play is stopped, with the profile's figures (docs/screen.md)
        s = cab.panel.wait_for(lambda s: s.get("state") == "tilt")
        assert s["say"] == ["tilt", "limits"] and s["limits"] == {"bet": 250, "prize": 100000}, s
    finally:
        cab.shutdown()


def test_the_casino_profile_is_the_default(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "s", extra_args=firmware_args("trefle-90", "emulated")).boot()
    try:
        assert cab.firmware.ready["jurisdiction"] == "casino" and cab.firmware.ready["game"] == "trefle-90"
    finally:
        cab.shutdown()
