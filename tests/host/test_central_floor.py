"""`make floor` (python -m central.floor) on a floor of three (a vlt reel machine, a casino keno
machine, a vlt video poker machine: central/floor.py FLOOR's first three): every cabinet online,
offering its game (SAS 1F names it: a vlt whose game were outside its limits would name none), on the page
that headless Chromium renders (its rows built by the page's script from /api/floor), each vlt given
its own validation id, and a SIGTERM that stops the cabinets it started."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

from central.floor import FLOOR, paytable_id
from tools.par import browser

ROOT = Path(__file__).resolve().parents[2]


def test_the_floor_comes_up_on_its_page_and_stops(tmp_path: Path) -> None:
    if browser.find() is None:
        pytest.fail("no headless Chromium: run `make browser-tools`")
    state = tmp_path / "floor"
    p = subprocess.Popen([sys.executable, "-m", "central.floor", "--state", str(state), "--port", "0",
                          "--cabinets", "3"], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    try:
        assert p.stdout is not None
        for line in p.stdout:
            lines.append(line)
            if line.startswith("floor: http://"):
                break
        url = re.match(r"floor: (http://\S+/)", lines[-1])
        assert url, lines
        url = url.group(1)
        wait = threading.Event()
        for _ in range(100):
            with urllib.request.urlopen(url + "api/floor", timeout=10) as f:
                fl = json.loads(f.read())
            if len(fl) == 3 and all(c["status"] == "online" and c["meters"] for c in fl) and \
                    [c["paytable"] for c in fl] == [paytable_id(g) for g, _, _ in FLOOR[:3]]:
                break
            wait.wait(0.2)
        assert [(c["name"], c["status"]) for c in fl] == [("cab01", "online"), ("cab02", "online"), ("cab03", "online")]
        assert [c["paytable"] for c in fl] == [paytable_id(g) for g, _, _ in FLOOR[:3]]
        juris = [j for _, j, _ in FLOOR[:3]]
        vids = [c["validation_id"] for c in fl]
        assert [v is not None for v in vids] == [j == "vlt" for j in juris]  # a casino machine has no coupon memory
        assert len({v for v in vids if v}) == juris.count("vlt")  # each vlt its own
        assert [c["machine_id"] for c in fl] == ["JTN-FLOOR-0001", "JTN-FLOOR-0002", "JTN-FLOOR-0003"]
        dom = browser._run(["--virtual-time-budget=3000", "--dump-dom", url])
        for c in fl:
            assert f'class="online" data-cabinet="{c["name"]}"' in dom
            assert f'href="/cabinet/{c["name"]}"' in dom
        assert 'id="updated">updated ' in dom  # the script's refresh ran
        pids = [int((state / c["name"] / "cabinet.lock").read_text().split()[1]) for c in fl]  # board/state_lock.py
    finally:
        p.send_signal(signal.SIGTERM)
        out, _ = p.communicate(timeout=60)
    assert p.returncode == 0, "".join(lines) + out
    for pid in pids:  # every firmware process it started has ended
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()
