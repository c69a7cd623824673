"""The drivers on the real MicroPython unix port (256K heap) with the emulated board, against the
host peers over real sockets: tokens in through ccTalk, a payout through the hopper on the same
bus, meters pulsed through the panel."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from sim.cctalk_acceptor import CoinAcceptorPeer
from sim.cctalk_hopper import HopperPeer
from sim.meter_monitor import MeterMonitor

ROOT = Path(__file__).resolve().parent.parent.parent
MICROPYTHON = ROOT / ".venv" / "bin" / "micropython"

SCRIPT = r"""
import sys, json
from board import emulated
from board.cctalk import Master, CcTalkError
from board.coin_cctalk import CoinAcceptor
from board.hopper_cctalk import Hopper
from board.meters_em import EmMeters

class Store:
    def __init__(self): self.v = None
    def load(self): return self.v
    def save(self, v, then=None):
        self.v = v
        if then is not None: then()

state, console, cctalk, panel = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
b = emulated.Board(state, console, cctalk, panel)
print("listening " + " ".join("%s=%d" % rp for rp in b.ports)); sys.stdout.flush()
t0 = b.ticks_ms()
while b.uarts["cctalk"].conn is None or not b.panel.conns:
    b.idle(20)
bus = Master(b.uart("cctalk"), b.idle, timeout_ms=200)
ca = CoinAcceptor(bus)
ca.begin(); ca.enable(True)
print("enabled"); sys.stdout.flush()
events = []
while len([e for e in events if e[0] == "coin"]) < 3 and b.ticks_ms() - t0 < 15000:
    try: ca.poll(events)
    except CcTalkError: pass
    b.idle(20)
h = Hopper(bus, Store())
h.begin([])
h.payout(7, 1)
result = None
while result is None and b.ticks_ms() - t0 < 20000:
    out = []
    try: h.service(out)
    except CcTalkError: pass
    for e in out:
        if e[0] == "payout": result = e
    b.idle(10)
m = EmMeters({"meter_out": b.meter("meter_out")}, Store(), on_ms=40, off_ms=40)
m.target("meter_out", 3)
while m.busy() and b.ticks_ms() - t0 < 25000:
    b.idle(m.service())
print("RESULT " + json.dumps({"events": [list(e) for e in events], "payout": list(result or []),
                              "stats": bus.stats}))
sys.stdout.flush()
"""


def test_drivers_on_micropython_against_peers():
    state = tempfile.mkdtemp(prefix="jeton-mp-")
    script = Path(state) / "drive.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, MICROPYPATH=".frozen:" + str(ROOT))
    # ports 0: the board binds ports it chooses and names them (no port picked here and bound there)
    proc = subprocess.Popen([str(MICROPYTHON), "-X", "heapsize=256K", str(script), state + "/board", "0", "0", "0"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    ports: dict[str, int] = {}
    listening = threading.Event()
    enabled = threading.Event()

    def pump():
        for line in proc.stdout:
            lines.append(line.rstrip())
            if line.startswith("listening "):
                ports.update((r, int(p)) for r, _, p in (w.partition("=") for w in line.split()[1:]))
                listening.set()
            if line.startswith("enabled"):
                enabled.set()

    threading.Thread(target=pump, daemon=True).start()
    assert listening.wait(15), lines
    cctalk, panel = ports["cctalk"], ports["panel"]
    acc = CoinAcceptorPeer(cctalk)
    hop = acc.attach(HopperPeer(coin_ms=5))
    mon = None
    try:
        acc.start()
        mon = MeterMonitor(panel, min_on_ms=30, min_off_ms=30)
        assert enabled.wait(15), lines
        acc.inject("garbage")
        for _ in range(3):
            assert acc.insert(1)
            time.sleep(0.05)
        proc.wait(60)
        result = [ln for ln in lines if ln.startswith("RESULT ")]
        assert result, "\n".join(lines[-20:])
        r = json.loads(result[0][7:])
        assert [e for e in r["events"] if e[0] == "coin"] == [["coin", 1, 1]] * 3
        assert r["payout"] == ["payout", 7, 0] and hop.coins_out == 7
        assert mon.wait_for("meter_out", 3, timeout=5) == 3
    finally:
        if proc.poll() is None:
            proc.kill()
        acc.stop()
        if mon:
            mon.stop()
        shutil.rmtree(state, ignore_errors=True)
