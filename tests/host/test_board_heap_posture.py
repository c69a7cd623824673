"""The firmware image on the board's heap (sim/harness.py BOARD_HEAP, 128K) in the worst posture the
fuzz reaches: three games offered, the first a reel game with a progressive, a tournament configured,
the event log full. On that heap in pieces a door's event once ran out of memory in the ledger's
commit (the state's JSON built as one string, then copied: "out of memory: restarting the cabinet
from critical memory"), and after the security memory was lost the operator's enrolment of the
first administrator ran out of memory in its RSA check with 20 to 29 KB free (pow() asking for 770
bytes in one piece). Here the whole posture is reached, the event log read in full over the console,
the security memory lost, and the first administrator enrolled, without a restart and without the
harness asking anything twice."""
from __future__ import annotations

import json
import time
from pathlib import Path

from firmware.audit import SEC_BASE
from firmware.coupon_store import CPN_BASE
from firmware.ledger import EVENT_CHUNKS, EVENTS_PER_CHUNK
from sim.fuzz_rig import Rig
from sim.harness import ADMIN_ID, BOARD_HEAP

GAMES = ("sept-royal-87", "trefle-90", "aurore-88")  # sept-royal-87: a progressive on 3 SEVEN at bet 3
DOOR_CYCLES = EVENT_CHUNKS * EVENTS_PER_CHUNK // 2 + 8  # two events a cycle: the ring wraps


def _door_seen(rig: Rig, level: int) -> None:
    rig.panel.set_pin("door_logic", level)
    rig.wait_screen(lambda s: (s.get("state") == "door") == bool(level), 10.0)


def _posture(rig: Rig) -> None:
    rig.panel.set_pin("key_audit", 1)
    rig.wait_screen(lambda s: s.get("state") in ("audit", "service"), 10.0)
    out = rig.command("tournament start 20 1000000 12 50 2026-11-23 200 " + "N" * 20)
    assert out and out[0].startswith("TOURNOI"), out
    rig.panel.set_pin("key_audit", 0)
    rig.wait_screen(lambda s: s.get("state") not in ("audit", "service"), 10.0)
    for _ in range(DOOR_CYCLES):
        _door_seen(rig, 1)
        _door_seen(rig, 0)


def test_the_worst_posture_reads_its_log_and_enrols_after_a_lost_security_memory(tmp_path: Path) -> None:
    state = tmp_path / "state"
    rig = Rig(state, GAMES, heap=BOARD_HEAP, printer=True)
    rig.boot()
    try:
        assert rig.fw is not None and rig.fw.heap == BOARD_HEAP == "128K"
        _posture(rig)
        assert rig.screen.get("tournament"), rig.screen
        # the whole event log in one answer, asked once (console_json would ask again)
        out = rig.command("events json")
        assert len(out) == 1 and not out[0].startswith("error"), out[:1]
        events = json.loads(out[0])["events"]
        assert events[0][0] > 1 and len(events) >= (EVENT_CHUNKS - 1) * EVENTS_PER_CHUNK, (events[0], len(events))
        assert rig.restarts() == [], rig.restarts()
    finally:
        rig.shutdown()
    data = bytearray((state / "nvram.bin").read_bytes())
    data[SEC_BASE:CPN_BASE] = bytes(CPN_BASE - SEC_BASE)  # the security memory lost while off
    (state / "nvram.bin").write_bytes(bytes(data))
    rig.boot()  # signs in: on a lost security memory, by the operator's enrolment (sim/harness.py sign_in)
    try:
        assert rig.fw is not None and any("security memory LOST" in ln for ln in rig.fw.lines), rig.fw.lines
        trail = json.loads(rig.command("events json")[0])["security"]
        enrolled = [r for r in trail if r[2:4] == [ADMIN_ID, "enrol"]]
        assert len(enrolled) == 1, trail  # enrolled once: never an "out of memory, try again"
        assert not [r for r in trail if "out of memory" in r[4]], trail
        assert rig.screen.get("tournament"), rig.screen  # the books were kept: only the accounts were lost
        time.sleep(0.2)
        assert rig.restarts() == [], rig.restarts()
    finally:
        rig.shutdown()
