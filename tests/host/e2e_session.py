"""What the end-to-end game sessions on the emulated cabinet share (test_e2e_keno, test_e2e_table):
the books' balance, the console's recall export, and power cuts right after the play button."""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from sim.harness import EmulatedCabinet

# the instants of the cut after PLAY: before, during or after the round's commits
DELAYS = (0.0, 0.005, 0.02, 0.05, 0.1, 0.3)


def books(cab: EmulatedCabinet) -> dict:
    """The meters, once the credits are seen to balance against money in and out."""
    m = cab.meters()
    assert m["credits"] == m["acceptor_in"] + m["bill_in"] + m["coin_out"] + m["refunds"] - m["coin_in"] - m["cashout"], m
    return m


def recall(cab: EmulatedCabinet) -> dict:
    assert cab.console
    return json.loads(cab.console.command("recall json")[-1])


def cuts_after_play(state: Path, game: str, place: Callable[[EmulatedCabinet, dict, int], None],
                    check: Callable[[EmulatedCabinet, dict, dict], None]) -> None:
    """For each of DELAYS (the i-th): boot on `state`, place(cab, books before, i) the round, press
    play, cut the power after the delay; boot again and check(cab, books before, books after)."""
    for i, delay in enumerate(DELAYS):
        cab = EmulatedCabinet(state, extra_args=["--games", game]).boot()
        try:
            assert cab.panel
            before = books(cab)
            place(cab, before, i)
            cab.panel.press("play")
            time.sleep(delay)  # the instant of the cut is what the test varies, not a wait for an event
            cab.power_cut()
        except Exception:
            cab.shutdown()
            raise
        cab = EmulatedCabinet(state, extra_args=["--games", game]).boot()
        try:
            check(cab, before, books(cab))
        finally:
            cab.shutdown()
