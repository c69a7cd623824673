"""Issue 25 on the real firmware image: a progressive linked through SAS pays the level the
controller broadcast (80 to address 0 from the project's host, every 0.5 s), not the cabinet's own
meter, and 84 then reports that amount.

3 SEVEN on sept-royal comes once in some 340,000 games, so the image plays a test model built here
from it: every reel's strip SEVEN, SEVEN, SEVEN, BLANK with equal weights (3 SEVEN on the one line
in 27 of 64 games), SEVEN the only pay (2, 4, 6 credits at bets 1-3: 84.375 % at every bet),
its progressive on 3 SEVEN at bet 3 with a ceiling of 400 credits. tools.certify certifies it and
the image's release record is signed again with the build's development key to include it, as
tests/host/test_e2e_software.py re-signs its tampered ones. The controller's $25.10 is 100 credits
at 25 cents (rounded down), between the model's reset (6) and ceiling (400): a hit pays 100."""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sim.harness import ROOT, EmulatedCabinet
from sim.sas_host import SasHost, bcd
from tools import firmware as fwbuild
from tools import sign

GAME = "sept-link-84"
GROUP = 12
CENTS = 2510  # the controller's level 1: $25.10
LEVEL = 100  # what a hit pays: 2510 // 25, within 6 .. 400
RESET = 6


def write_model(path: Path) -> None:
    m = json.loads((ROOT / "games/models/sept-royal-87.json").read_text())
    m.update(id=GAME, family="sept-link", version="84", name={"fr": "Sept relié", "en": "Linked Sevens"})
    for reel in m["reels"]:
        reel["strip"], reel["weights"] = ["SEVEN", "SEVEN", "SEVEN", "BLANK"], [1, 1, 1, 1]
    m["pays"] = [{"name": "SEVEN", "symbols": ["SEVEN"], "pays": {"3": [2, 4, RESET]}}]
    m["progressive"] = {"pay": "3 SEVEN", "bet": 3, "rate": "1/1000", "ceiling": 400}
    path.write_text(json.dumps(m, indent=1))


@pytest.fixture
def linked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    data = tmp_path / "games"
    (data / "models").mkdir(parents=True)
    write_model(data / "models" / f"{GAME}.json")
    subprocess.run([sys.executable, "-m", "tools.certify", str(data / "models" / f"{GAME}.json"),
                    "--write-cert", str(data / "certs")], cwd=ROOT, check=True, capture_output=True)
    cert = json.loads((data / "certs" / f"{GAME}.json").read_text())
    # the image and its release record, the test model's files added and signed again
    image = fwbuild.ensure_built()
    fw = tmp_path / "fw"
    fw.mkdir()
    shutil.copy2(image, fw / "micropython")
    shutil.copytree(image.parent / fwbuild.BOOT_RELEASE, fw / "release")
    sums = (fw / "release" / "SHA256SUMS").read_text()
    for kind in ("models", "certs"):
        digest = hashlib.sha256((data / kind / f"{GAME}.json").read_bytes()).hexdigest()
        sums += f"{digest}  {kind}/{GAME}.json\n"
    (fw / "release" / "SHA256SUMS").write_text(sums)
    (fw / "release" / "SHA256SUMS.sig").write_bytes(sign.sign_bytes(sign.load_private(fwbuild.DEV_KEY), sums.encode()))
    monkeypatch.setattr(fwbuild, "FIRMWARE", fw / "micropython")
    monkeypatch.setattr(fwbuild, "ensure_built", lambda *a, **k: fw / "micropython")
    state = tmp_path / "state"
    state.mkdir()
    link = {"id": "floor-12", "bet": 3, "math_hash": cert["math_hash"], "group": GROUP}
    (state / "settings.json").write_text(json.dumps({"PROGRESSIVE_LINK": link}))
    cab = EmulatedCabinet(state, sas=True, extra_args=["--games", GAME, "--models", str(data / "models"),
                                                       "--certs", str(data / "certs")])
    cab.boot()
    host = SasHost(cab.sas_path)
    stop = threading.Event()
    t = None
    try:
        assert cab.firmware.ready["game"] == GAME, cab.firmware.lines[-20:]
        host.sync()
        host.exceptions()

        def controller() -> None:  # the controller's level, to every machine, every 500 ms
            while not stop.wait(0.5):
                host.progressive(GROUP, [(1, CENTS)])

        host.progressive(GROUP, [(1, CENTS)])
        t = threading.Thread(target=controller, daemon=True)
        t.start()
        yield cab, host
    finally:
        stop.set()
        if t is not None:
            t.join()
        host.close()
        cab.shutdown()
        cab.close_sas()


def test_a_hit_pays_the_controllers_level_and_84_reports_it(linked) -> None:
    cab, host = linked
    s = cab.panel.wait_for(lambda s: s.get("state") in ("idle", "credit"))
    assert s.get("jackpot") == LEVEL  # the display shows the controller's amount
    while cab.panel.screen.get("bet") != 3:
        before = cab.panel.screen.get("bet")
        cab.panel.press("bet_one")
        cab.panel.wait_for(lambda s: s.get("bet") != before)
    rec = None
    for _ in range(40):  # 3 SEVEN in 27 of 64 games: none in 40 is some 3 in 10 ** 10
        if cab.panel.screen.get("credits", 0) < 3:
            cab.insert_token()
        shown = cab.play()
        rec = json.loads(cab.console.command("recall json")[-1])["games"][-1]
        if rec.get("prog"):
            break
    assert rec is not None and rec.get("prog") == [LEVEL, RESET], rec  # the level paid, in place of the 6
    assert shown.get("state") == "jackpot" and rec["win"] == LEVEL and rec["hand"]  # casino: a hand pay
    assert cab.meters()["progressive_paid"] == LEVEL
    got = host.exceptions()
    assert 0x54 in got and 0x51 in got, got  # progressive win; hand pay pending, as before
    d = host.checked(0x84, 11)
    assert d[:2] == bytes([GROUP, 1]) and bcd(d[2:7]) == LEVEL * 25  # the amount paid, in cents
    assert cab.pay_jackpot(shown) == LEVEL
