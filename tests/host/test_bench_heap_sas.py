"""bench_heap's sessions with the SAS line (issue 25, Figures: "every shipped game's whole session
still fits 112 KB with it enabled; the goal is 96 KB") and its census of the heap by subsystem
(tools/bench/heap_census.py): the floor's polling, the flags, and the census's arithmetic on small
cases; the firmware's census marks on one real boot, and none without the census."""
from __future__ import annotations

import os
import threading
import tty

import pytest

from sim.harness import FROZEN_BOOT, EmulatedCabinet
from sim.sas_host import crc
from tools.bench import bench_heap, heap_census


def test_the_floor_polls_generally_every_tick_and_reads_each_meter_poll_once_a_round():
    ticks = bench_heap.FLOOR_LONG_EVERY * len(bench_heap.FLOOR_LONG)
    sent = [bench_heap.floor_poll(t) for t in range(2 * ticks)]
    first, second = sent[:ticks], sent[ticks:]
    longs = [cmd for cmd, _ in bench_heap.FLOOR_LONG]
    assert [p for p in first if p != bench_heap.GENERAL] == longs == [p for p in second if p != bench_heap.GENERAL]
    # the meters a floor's system reads (issue 25: 1C, 1A, 2F and the single meters 10-ish)
    assert {0x1C, 0x1A, 0x2F, 0x10} <= set(longs)
    assert first.count(bench_heap.GENERAL) == ticks - len(longs)
    assert bench_heap.FLOOR_TICK_S == pytest.approx(0.2)  # a general poll every ~200 ms, as a floor's system


class Machine:
    """A machine of the test's own on a pty: each poll answered at once with a reply of the right
    length (an exception code 00; a long poll's echo, zeros, its CRC), except `mute` commands."""

    def __init__(self, mute: tuple[int, ...] = ()) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.mute = mute
        self.lengths = dict(bench_heap.FLOOR_LONG)
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        buf = b""
        while True:
            try:
                buf += os.read(self.master, 256)
            except OSError:
                return
            while buf:
                if buf[0] & 0x80:  # a general poll
                    os.write(self.master, b"\x00")
                    buf = buf[1:]
                    continue
                if len(buf) < 2 or (buf[1] == 0x2F and len(buf) < 3):
                    break
                cmd = buf[1]
                need = 3 + buf[2] + 2 if cmd == 0x2F else 2  # type M: its length byte; R: address, command
                if len(buf) < need:
                    break
                if cmd not in self.mute:
                    if cmd == 0x2F:  # game, then each code and its 4 BCD bytes
                        codes = buf[5:need - 2]
                        body = bytes([buf[0], cmd, 2 + 5 * len(codes), 0, 0]) + b"".join(bytes([c]) + bytes(4) for c in codes)
                    else:
                        body = bytes([buf[0], cmd]) + bytes(self.lengths[cmd] - 4)
                    os.write(self.master, body + crc(body))
                buf = buf[need:]

    def close(self) -> None:
        for fd in (self.slave, self.master):
            os.close(fd)


def test_the_floor_counts_what_was_answered_and_names_a_poll_never_answered(monkeypatch):
    monkeypatch.setattr(bench_heap, "FLOOR_TICK_S", 0.005)
    m = Machine(mute=(0x19,))
    floor = bench_heap.FloorSystem(m.path)
    try:
        assert not floor.wait_round(timeout=0)  # 19 is never answered: no whole round
        while floor.ticks < 2 * bench_heap.FLOOR_LONG_EVERY * len(bench_heap.FLOOR_LONG):
            threading.Event().wait(0.05)  # no timing asserted: only until two rounds were sent
    finally:
        got = floor.stop()
        m.close()
    assert got["answered"][0x1C] >= 1 and got["answered"][0x2F] >= 1 and got["answered"][bench_heap.GENERAL] >= 1
    assert 0x19 not in got["answered"] and got["failed"][0x19] >= 1
    assert got["exceptions"] == 0  # the machine's 00: no exception
    assert bench_heap.unanswered(got) == ["19"]
    assert bench_heap.unanswered({"answered": {}}) == ["general"] + [f"{c:02X}" for c, _ in bench_heap.FLOOR_LONG]


def _row(session_k, sas_k=None, note="", sas_note="", top=136, sas=True) -> dict:
    row = {"code": "frozen", "game": "g", "top_k": top, "boot_k": 96, "session_k": session_k, "boot_used": 90000,
           "used": 90400, "note": note}
    if sas:
        row.update({"sas_boot_k": 104, "sas_session_k": sas_k, "sas_boot_used": 95000, "sas_used": 95400,
                    "sas_note": sas_note})
    return row


def test_each_game_is_flagged_by_its_session_with_sas_against_112k_and_96k():
    assert bench_heap.flag(_row(88, 96)) == ""
    assert bench_heap.flag(_row(96, 104)) == "over 96K goal"
    assert bench_heap.flag(_row(104, 112)) == "over 96K goal"
    assert bench_heap.flag(_row(112, 120)) == "OVER 112K"
    assert bench_heap.flag(_row(96, sas=False)) == ""  # not measured with SAS: the session without
    assert bench_heap.flag(dict(_row(296, sas=False), code="mpy")) == ""  # a board runs the frozen image
    # no figure: a session that did not fit the largest heap tried is over; a timeout is no size
    assert bench_heap.flag(_row(None, None, "did not fit: x", "did not fit: as without SAS")) == "OVER 112K"
    assert bench_heap.flag(_row(104, None, sas_note="timeout: SAS: no answer to 1C")) == "?"
    assert bench_heap.flag(_row(None, None, "did not fit: x", "did not fit: y", top=104)) == "?"
    line = bench_heap.row_line(_row(104, 120, sas_note=""))
    assert line.split()[:4] == ["frozen", "g", "96K", "104K"] and " 104K    120K " in line and line.endswith("OVER 112K")
    line = bench_heap.row_line(_row(104, None, sas_note="timeout: SAS: no answer to 1C"))
    assert line.endswith("?     with SAS: timeout: SAS: no answer to 1C")


def test_the_census_adds_up_what_each_subsystem_holds():
    lines = ["jeton: ports console=1", "jeton: heap start 1000", "jeton: heap code firmware.critmem 1500",
             "jeton: heap code firmware.ledger 4500", "jeton: heap code firmware.startup 5000",
             "jeton: heap code firmware.sas.polls 5600", "jeton: heap boot 9000", "jeton: boot on emulated",
             "jeton: heap configuration 9100", "jeton: heap critical memory 20100", "jeton: heap books 22100",
             "jeton: heap SAS 22300", "jeton: heap books 22400", "jeton: heap game 25000",
             "jeton: heap cabinet 26000", "jeton: heap modules firmware firmware.critmem games"]
    marks, modules = heap_census.parse(lines)
    assert modules == ["firmware", "firmware.critmem", "games"]
    assert marks[0] == ("start", 1000) and marks[-1] == ("cabinet", 26000) and len(marks) == 13
    r = heap_census.attribute(marks, 25200, boot_only=("firmware.startup",))
    assert r["code"]["critical memory"] == 500 and r["code"]["books"] == 3000 and r["code"]["SAS"] == 600
    assert r["boot_only"] == 500 and r["boot"] == 3400  # the board's objects, made before boot()
    assert r["objects"]["critical memory"] == 11000 and r["objects"]["books"] == 2100
    assert r["objects"]["SAS"] == 200 and r["objects"]["game"] == 2600
    assert r["objects"]["cabinet"] == 100 + 1000  # the configuration kept, then the cabinet's parts
    assert r["later"] == -800 and r["total"] == 25200
    assert r["start"] + sum(r["code"].values()) + sum(r["objects"].values()) + r["boot_only"] + r["boot"] \
        + r["later"] == r["total"]
    with pytest.raises(ValueError):
        heap_census.attribute([("start", 1), ("nowhere", 2)], 2)
    with pytest.raises(ValueError):
        heap_census.attribute([("boot", 1)], 2)  # no census without its first mark
    rows = heap_census.table({"g": r})
    assert rows[1].split()[:8] == ["g", "11500", "5100", "0", "2600", "800", "1100", "3400"]


def test_modules_are_assigned_to_subsystems_and_imported_after_their_own_imports(tmp_path):
    assert [heap_census.subsystem(m) for m in ("firmware.critmem", "board.nvram_file", "firmware.ledger",
            "firmware.game_books", "firmware.audit", "rng.crypto.rsa", "games.reels", "rng.generator",
            "firmware.play_poker", "firmware.sas.machine", "board.sas_link", "board.coin_cctalk",
            "firmware.cabinet")] == ["critical memory", "critical memory", "books", "books", "security",
                                     "security", "game", "game", "game", "SAS", "SAS", "board", "cabinet"]
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from pkg import b\nimport pkg.c\n\ndef f():\n    import pkg.d\n")
    (tmp_path / "pkg" / "b.py").write_text("from pkg.c import X\n")
    (tmp_path / "pkg" / "c.py").write_text("X = 1\n")
    (tmp_path / "pkg" / "d.py").write_text("import pkg.a\n")  # imported in a function only: no order
    order = heap_census.import_order(["pkg.d", "pkg.a", "pkg.c", "pkg.b", "pkg", "frozen_data"], tmp_path)
    assert sorted(order) == sorted(["pkg.d", "pkg.a", "pkg.c", "pkg.b", "pkg", "frozen_data"])
    pos = {m: i for i, m in enumerate(order)}
    assert pos["pkg"] < pos["pkg.c"] < pos["pkg.b"] < pos["pkg.a"] < pos["pkg.d"]
    # the SAS handlers of the floor's polls (firmware/sas/polls.py TABLE): the meters' module, 1F's own
    assert "firmware.sas.meter_polls" in heap_census.sas_handlers((0x1C, 0x2F, 0x1F))


def test_the_boot_marks_its_stages_only_when_the_census_asks(tmp_path):
    cab = EmulatedCabinet(tmp_path / "plain", heap="128K", extra_args=["--games", "sept-royal-87"])
    cab.boot(login=False)
    cab.shutdown()
    assert not [line for line in cab.firmware.lines if line.startswith("jeton: heap")]  # free when unused
    traced = EmulatedCabinet(tmp_path / "census", heap="128K", extra_args=["--games", "sept-royal-87"])
    traced.firmware.boot_line = FROZEN_BOOT.replace("main(", "__import__('firmware.startup').startup.TRACE = 1; main(")
    traced.boot(login=False)
    traced.shutdown()
    marks, modules = heap_census.parse(traced.firmware.lines)
    names = [n for n, _ in marks]
    assert names[0] == "boot" and names[-1] == "cabinet"
    assert {"configuration", "critical memory", "books", "security", "game", "cabinet"} <= set(names)
    assert "SAS" not in names  # no SAS line wired: no link, no queue
    assert "firmware.ledger" in modules and "firmware.sas.machine" not in modules
    assert all(0 < used < 128 * 1024 for _, used in marks)
