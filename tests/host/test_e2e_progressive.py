"""The progressive near its ceiling on the real firmware image under vlt (issue 22.1): a test bench
presets the meter while the cabinet is off (sim/preset.py: the firmware's own Ledger, sealed with
the machine's secret), and the cabinet then stops the meter at sept-royal-87's ceiling of 4000
credits, rolls the rest over exactly, feeds it only from bet 3 (s. 92) and keeps both across a
power cut. The console's `state` gives the exact figures (1/q credit)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from board.state_lock import Busy
from sim.harness import EmulatedCabinet
from sim.preset import set_progressive

CEILING = 4000 * 1000  # games/models/sept-royal-87.json: "ceiling": 4000, "rate": "1/1000"


def meter(cab: EmulatedCabinet) -> tuple[int, int, int]:
    """(credits shown, meter, rolled over) from the console's state."""
    text = "\n".join(cab.console.command("state"))
    shown = re.search(r"^progressive: (\d+) credits \(\$[\d,.]+\) on 3 SEVEN at bet 3 .*ceiling 4000", text, re.M)
    exact = re.search(r"^progressive meter: (\d+)/1000, rolled over (\d+)/1000$", text, re.M)
    assert shown and exact, text
    return int(shown.group(1)), int(exact.group(1)), int(exact.group(2))


def last_game(cab: EmulatedCabinet) -> dict:
    return json.loads(cab.console.command("recall json")[-1])["games"][-1]


def after(units: int, rolled: int, rec: dict) -> tuple[int, int]:
    """The meter and roll-over after one recorded game, as docs/game-format.md states the rules: a
    game at bet 3 adds 3/1000 credit, the meter stops at the ceiling and the rest rolls over; a hit
    (`prog` in the record: 1 in 340,480) pays the whole credits and the next meter starts at the reset
    plus the rest (the fraction included) and what rolled over."""
    if rec["bet"] == 3:
        units += 3
        if units > CEILING:
            units, rolled = CEILING, rolled + units - CEILING
    if rec.get("prog"):
        paid = units // 1000
        assert rec["prog"][0] == paid
        units, rolled = 1500 * 1000 + units - paid * 1000 + rolled, 0
        if units > CEILING:
            units, rolled = CEILING, units - CEILING
    return units, rolled


def set_bet(cab: EmulatedCabinet, bet: int) -> None:
    while cab.panel.screen.get("bet") != bet:
        before = cab.panel.screen.get("bet")
        cab.panel.press("bet_one")
        cab.panel.wait_for(lambda s: s.get("bet") != before)


def test_the_meter_stops_at_its_ceiling_rolls_the_rest_over_and_only_bet_3_feeds_it(tmp_path: Path) -> None:
    state = tmp_path / "state"
    cab = EmulatedCabinet(state, jurisdiction="vlt").boot()
    try:
        assert meter(cab) == (1500, 1500 * 1000, 0)  # a new machine: the reset
        with pytest.raises(Busy):
            set_progressive(state, CEILING - 2)  # never under a running cabinet
    finally:
        cab.shutdown()
    set_progressive(state, CEILING - 2)  # two thousandths short: one game at bet 3 passes it
    cab = EmulatedCabinet(state, jurisdiction="vlt").boot()
    try:
        assert meter(cab) == (3999, CEILING - 2, 0)
        assert cab.panel.screen["jackpot"] == 3999  # shown continuously (s. 91)
        for _ in range(3):  # 12 credits: the four games' 9 and more
            cab.insert_token()
        units, rolled = CEILING - 2, 0
        for bet, want in ((3, (4000, CEILING, 1)), (1, None), (2, None), (3, (4000, CEILING, 4))):
            set_bet(cab, bet)
            cab.play()
            units, rolled = after(units, rolled, last_game(cab))
            assert meter(cab) == (min(units, CEILING) // 1000, units, rolled)
            if want and not last_game(cab).get("prog"):  # no 3 SEVEN (1 in 340,480) on the way
                # 3/1000 in: two to the ceiling, one rolled over; bets 1 and 2 cannot win it (s. 92)
                assert (units // 1000, units, rolled) == want
        assert cab.panel.screen["jackpot"] == units // 1000
        cab.power_cut()
        cab.boot()
        assert meter(cab) == (units // 1000, units, rolled)  # kept in critical memory
        events = "\n".join(cab.console.command("events"))
        assert "preset" in events  # the bench's write is on the record
    finally:
        cab.shutdown()


def test_the_preset_needs_a_cabinet_that_ran(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no machine secret: boot the cabinet once first"):
        set_progressive(tmp_path, CEILING)
