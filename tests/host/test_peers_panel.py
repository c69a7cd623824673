"""Pulse acceptor and meter monitor peers against the drivers through the emulated panel link;
several taps on one panel at once."""
from __future__ import annotations

import os
import shutil
import socket
import tempfile
import threading
import time

import pytest

from board import emulated
from board.coin_pulse import PulseAcceptor
from board.counter_file import CounterFile
from board.meters_em import EmMeters
from board.secret_file import SecretFile
from firmware.ledger import Ledger, open_memory
from sim.fuzz_rig import NVRAM_SIZE, Rig
from sim.harness import PanelLink
from sim.meter_monitor import MeterMonitor
from sim.pulse_acceptor import PulseAcceptorPeer


class Store:
    def __init__(self):
        self.value = None

    def load(self):
        return self.value

    def save(self, v, then=None):
        self.value = {k: list(x) for k, x in v.items()}
        if then is not None:
            then()


@pytest.fixture
def board():
    state = tempfile.mkdtemp(prefix="jeton-panel-")
    b = emulated.Board(state, 0, 0, 0)  # 0: ports the board binds itself (never picked free, bound later)
    bound = dict(b.ports)
    b.ports = (bound["console"], bound["cctalk"], bound["panel"])
    stop = threading.Event()
    yield b
    stop.set()
    b.nvram.close()
    for link in b._links:
        link.drop()
        link.srv.close()
    shutil.rmtree(state, ignore_errors=True)


def _spin(b, cond, timeout=5.0, work=None):
    deadline = time.monotonic() + timeout
    while not cond() and time.monotonic() < deadline:
        if work:
            work()
        b.idle(5)
    return cond()


def test_pulse_acceptor_lines_and_glitches(board):
    pa = PulseAcceptor([board.pin(n) for n in ("coin_pulse_1", "coin_pulse_2")])
    peer = PulseAcceptorPeer(board.ports[2], width_ms=50)
    assert _spin(board, lambda: len(board.panel.conns) == 1)
    out = []
    t = threading.Thread(target=lambda: (peer.insert(1), peer.insert(2), peer.glitch(1, 2),
                                         peer.pulse(1, 250), time.sleep(0.05)))
    t.start()
    _spin(board, lambda: not t.is_alive(), work=lambda: pa.poll(out))
    _spin(board, lambda: False, timeout=0.2, work=lambda: pa.poll(out))
    coins = [e for e in out if e[0] == "coin"]
    assert coins == [("coin", 1, 0), ("coin", 2, 0)]
    assert any(e[0] == "fault" and e[1] == 1 for e in out)  # the 250 ms pulse
    peer.stop()


def test_pulse_count_mode(board):
    pa = PulseAcceptor([board.pin("coin_pulse_1")], mode="count", gap_ms=150)
    peer = PulseAcceptorPeer(board.ports[2], width_ms=40, gap_ms=40)
    assert _spin(board, lambda: len(board.panel.conns) == 1)
    out = []
    t = threading.Thread(target=lambda: peer.insert_count(4))
    t.start()
    _spin(board, lambda: not t.is_alive(), work=lambda: pa.poll(out))
    _spin(board, lambda: bool(out), timeout=1.0, work=lambda: pa.poll(out))
    assert out == [("coin", 4, 0)]
    peer.stop()


def test_meters_pulse_through_the_panel_with_several_taps(board):
    mon = MeterMonitor(board.ports[2], min_on_ms=40, min_off_ms=40)
    cabinet = PanelLink(board.ports[2])  # the cabinet panel on the same link
    assert _spin(board, lambda: len(board.panel.conns) == 2)
    store = Store()
    coils = {n: board.meter(n) for n in ("meter_in", "meter_games")}
    m = EmMeters(coils, store, on_ms=50, off_ms=50)
    m.target("meter_in", 4)
    m.target("meter_games", 2)
    board.lamp("lamp_tower").value(1)
    _spin(board, lambda: not m.busy(), timeout=5, work=m.service)
    _spin(board, lambda: mon.counts.get("meter_in") == 4, timeout=1)
    assert {k: v for k, v in mon.counts.items() if v} == {"meter_in": 4, "meter_games": 2}
    assert mon.violations == [] and mon.short == 0
    assert store.value["meter_in"] == [4, 0]
    assert _spin(board, lambda: cabinet.lamps.get("lamp_tower") == 1, timeout=1)
    mon.stop()
    cabinet.close()


def test_a_monitor_plugged_in_after_the_first_strokes_counts_them(board):
    # a power-up drives the strokes its books owe at once; a loaded host plugged the meter monitor
    # in after two of them and the campaigns read meter_drop 158 against the books' 160 (make fuzz)
    store = Store()
    m = EmMeters({"meter_drop": board.meter("meter_drop")}, store, on_ms=50, off_ms=50)
    m.target("meter_drop", 2)
    _spin(board, lambda: not m.busy(), timeout=5, work=m.service)
    mon = MeterMonitor(board.ports[2], min_on_ms=40, min_off_ms=40)
    assert _spin(board, lambda: len(board.panel.conns) == 1)
    _spin(board, lambda: mon.counts.get("meter_drop") == 2, timeout=1)
    m.target("meter_drop", 3)
    _spin(board, lambda: not m.busy(), timeout=5, work=m.service)
    _spin(board, lambda: mon.counts.get("meter_drop") == 3, timeout=1)
    assert mon.counts["meter_drop"] == 3 and store.value["meter_drop"] == [3, 0]
    mon.stop()


def test_a_monitor_plugged_in_mid_stroke_counts_the_stroke(board):
    # make powercut beside make test (s37): a loaded host's monitor connected while a coil was on;
    # its state line was stamped with the connection's ms, so the stroke measured shorter than it
    # was, counted short: meter_in 3 against the books' 4. The state line carries the edge's ms.
    coil = board.meter("meter_in")
    coil.value(1)
    time.sleep(0.06)  # 60 ms of the stroke gone before the monitor plugs in
    mon = MeterMonitor(board.ports[2], min_on_ms=50, min_off_ms=50)
    assert _spin(board, lambda: len(board.panel.conns) == 1)
    assert _spin(board, lambda: "meter_in" in mon.counts, timeout=10)  # its state line: the coil on
    coil.value(0)  # released 60 ms and a little after it was energised: one full stroke
    _spin(board, lambda: mon.counts.get("meter_in") == 1, timeout=10)
    assert mon.counts["meter_in"] == 1 and mon.short == 0, (mon.counts, mon.short)
    mon.stop()


def test_pin_lines_from_any_tap(board):
    a = PanelLink(board.ports[2])
    b = PanelLink(board.ports[2])
    assert _spin(board, lambda: len(board.panel.conns) == 2)
    b.set_pin("door_main", 1)
    assert _spin(board, lambda: board.pin("door_main").value() == 1)
    a.set_pin("door_main", 0)
    assert _spin(board, lambda: board.pin("door_main").value() == 0)
    a.close()
    assert _spin(board, lambda: len(board.panel.conns) == 1)
    b.close()


def test_door_latch_file(board):
    latch = board.door_latch
    assert latch.read() == []
    with open(latch.path, "w") as f:
        f.write("door_main\nbogus\n")
    assert latch.read() == ["door_main"]
    latch.clear()
    assert latch.read() == []


def test_noise_on_the_panel_wire_is_ignored(board):
    import socket

    s = socket.create_connection(("127.0.0.1", board.ports[2]))
    assert _spin(board, lambda: len(board.panel.conns) == 1)
    s.sendall(bytes([0xFF, 0xFE, 0xC3, 0x28]) + b"\n" + b"x" * 5000)  # bad UTF-8, then no line end at all
    s.sendall(b"\npin door_main 1\n")
    assert _spin(board, lambda: board.pin("door_main").value() == 1)
    assert all(len(buf) <= emulated.MAX_PANEL_LINE for buf in board.panel._lines.values())
    s.close()


def test_meter_monitor_judges_strokes_on_the_boards_clock_not_on_arrival():
    class Tap:  # every line delivered at once, as a busy host's loopback may do
        def lines(self):
            yield "meter meter_in 1 1000"
            yield "meter meter_in 0 1050"  # 50 ms: a stroke
            yield "meter meter_in 1 1100"
            yield "meter meter_in 0 1105"  # 5 ms: too short to move the counter
            yield "meter meter_out 1 2000"  # then the power is cut with this coil on

    mon = MeterMonitor()
    mon._pump(Tap())
    assert mon.counts == {"meter_in": 1, "meter_out": 0}
    assert mon.short == 1 and mon.cut == 1 and not mon.violations
    assert mon.cut_names == ["meter_out"]


def _one_link(lines: list[bytes]):
    """A listening socket that, once a tap connects, sends `lines` and waits for `cut` to close it
    (the board's power going); returns (port, cut, thread)."""
    srv = socket.create_server(("127.0.0.1", 0))
    cut = threading.Event()

    def serve():
        conn, _ = srv.accept()
        for line in lines:
            conn.sendall(line)
        cut.wait(10)
        conn.close()
        srv.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    return srv.getsockname()[1], cut, t


def test_meter_monitor_judges_a_dropped_link_before_the_next_power_up():
    """make powercut found hard meters one behind (meter_games N vs soft N+1): the reader of the link a
    cut dropped could still be running when the next power-up's link was read, and its 'coil lost
    power' cleared the new stroke under way, whose release then counted nothing. stop() (and so
    connect()) returns once the dropped link is judged: the stroke it cut is in cut_names at once."""
    port, cut, t = _one_link([b"meter meter_games 1 1000\n"])
    mon = MeterMonitor(port)
    deadline = time.monotonic() + 5
    while "meter_games" not in mon._on and time.monotonic() < deadline:
        time.sleep(0.01)
    cut.set()  # the power goes with the coil on
    t.join(5)
    port2, cut2, t2 = _one_link([b"meter meter_games 1 5000\n", b"meter meter_games 0 5050\n"])
    mon.connect(port2)  # the next power-up: the stroke cut is already judged
    assert mon.cut_names == ["meter_games"] and mon.cut == 1
    assert mon.wait_for("meter_games", 1, 5.0) == 1
    cut2.set()
    mon.stop()
    assert mon.counts == {"meter_games": 1} and mon.cut_names == ["meter_games"]


def test_rig_tells_a_stroke_recorded_done_from_one_in_flight(tmp_path):
    """Of the strokes a cut took, the rig names those critical memory records done ([done, 0]): the
    commit counted them and the release never came (board/meters_em.py's residual window). One in
    flight ([done, 1]) is driven again at power-up; a coil critical memory does not hold is neither."""
    nv = emulated.FileNvram(str(tmp_path / "nvram.bin"), NVRAM_SIZE)
    mem = open_memory(nv, SecretFile(str(tmp_path / "secret"), os.urandom).get(), CounterFile(str(tmp_path / "counter")))
    books = Ledger(mem)
    assert books.open() == ["blank memory formatted"]
    books.save_em_state({"meter_games": [5, 0], "meter_in": [3, 1]})
    nv.close()
    rig = Rig(tmp_path)
    assert rig.strokes_recorded(["meter_games", "meter_in", "meter_out"]) == ["meter_games"]
    assert rig.strokes_recorded([]) == []
    (tmp_path / "secret").write_bytes(b"x" * 3)  # memory the host cannot open: judged by the firmware, not here
    assert rig.strokes_recorded(["meter_games"]) == []
