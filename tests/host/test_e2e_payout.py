"""End to end with the peripherals: tokens in through the ccTalk acceptor, cash-out through the
ccTalk hopper on the same bus, electromechanical meters pulsed; hard meters end equal to soft."""
from __future__ import annotations

import time
from pathlib import Path

from firmware.cabinet import HARD_METERS
from sim.harness import EmulatedCabinet

TOKEN_CREDITS = 4
HARD = HARD_METERS  # which soft meters each coil counts: the firmware's own table, never a copy


def hard_equals_soft(cab: EmulatedCabinet, timeout: float = 30.0) -> tuple[dict, dict]:
    assert cab.meter_monitor is not None
    soft = cab.meters()
    want = {coil: sum(soft[m] for m in names) for coil, names in HARD.items()}
    deadline = time.monotonic() + timeout
    for coil, n in want.items():
        cab.meter_monitor.wait_for(coil, n, max(0.1, deadline - time.monotonic()))
    time.sleep(0.3)  # and nothing more arrives: never ahead
    got = {coil: cab.meter_monitor.counts.get(coil, 0) for coil in HARD}
    return want, got


def test_hopper_pays_whole_tokens_and_meters_follow(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "state").boot()
    try:
        for _ in range(3):
            cab.insert_token()
        screens = [cab.play() for _ in range(3)]
        before = cab.meters()["credits"]
        cab.cash_out()
        m = cab.meters()
        assert cab.hopper is not None
        assert cab.hopper.coins_out == before // TOKEN_CREDITS  # whole tokens through the hopper
        assert m["hopper_out"] == cab.hopper.coins_out * TOKEN_CREDITS
        assert m["cancelled"] == before % TOKEN_CREDITS  # the part smaller than a token, by hand
        assert m["credits"] == 0 and m["cashout"] == before
        want, got = hard_equals_soft(cab)
        assert got == want
        # and what the coils counted, from what this test did, not from the soft meters
        assert got["meter_drop"] == 3 * TOKEN_CREDITS and got["meter_games"] == 3
        assert got["meter_in"] == sum(s["bet"] for s in screens)
        assert got["meter_out"] == sum(s["win"] for s in screens)
        assert got["meter_jackpot"] == before % TOKEN_CREDITS  # the hand-paid part (no jackpot won)
        assert cab.meter_monitor is not None and not cab.meter_monitor.violations
    finally:
        cab.shutdown()


def test_cash_out_above_the_hopper_limit_is_a_hand_pay(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "state").boot()
    try:
        for _ in range(101):  # 404 credits, above the 400-credit hopper limit
            cab.insert_token()
        assert cab.panel is not None
        cab.panel.press("cashout")
        s = cab.panel.wait_for(lambda s: s.get("state") == "handpay")
        assert s["msg"] == "HANDPAY 404"
        assert cab.hopper is not None and cab.hopper.coins_out == 0
        cab.attendant_key()
        cab.panel.wait_for(lambda s: s.get("credits") == 0 and s.get("state") == "idle")
        m = cab.meters()
        assert m["cancelled"] == 404 and m["hopper_out"] == 0
    finally:
        cab.shutdown()


def test_hopper_jam_leaves_the_rest_as_credits_and_tilts(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "state").boot()
    try:
        for _ in range(5):
            cab.insert_token()
        assert cab.hopper is not None and cab.panel is not None
        cab.hopper.jam_after(2)
        cab.panel.press("cashout")
        s = cab.panel.wait_for(lambda s: s.get("state") == "tilt", 15)
        assert "hopper" in s["msg"]
        m = cab.meters()
        assert cab.hopper.coins_out == 2
        assert m["hopper_out"] == 2 * TOKEN_CREDITS and m["credits"] == 3 * TOKEN_CREDITS
        # no play and no money while tilted; the attendant clears the jam and the key resets it
        cab.panel.press("play")
        time.sleep(0.3)
        assert cab.meters()["games_played"] == 0
        cab.attendant_key()
        cab.panel.wait_for(lambda s: s.get("state") == "credit")
    finally:
        cab.shutdown()
