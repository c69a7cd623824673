"""Fault 14: `make run` started twice waited 20 s, then printed an EADDRINUSE traceback. A second
cabinet on the same state directory or ports is refused at once, in one line naming the running
one, with an exit status of its own; the first cabinet is not disturbed. A cabinet killed by a
power cut leaves its lock behind, and the next one on that state boots."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from board.state_lock import BUSY_EXIT
from sim.harness import ROOT, EmulatedCabinet, FirmwareProcess


def ports_arg(ports: dict[str, int]) -> str:
    return ",".join(str(ports[r]) for r in ("console", "cctalk", "panel"))


def refused(state: Path, ports: dict[str, int]) -> tuple[int, float, str, str]:
    """Start `python -m sim.cabinet` as `make run` does; its exit status, seconds, stdout, stderr."""
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "sim.cabinet", "--state", str(state), "--ports", ports_arg(ports)],
                       cwd=ROOT, input="", capture_output=True, text=True, timeout=60)
    return r.returncode, time.monotonic() - t0, r.stdout, r.stderr


def test_a_second_cabinet_is_refused_at_once_in_one_line(tmp_path: Path) -> None:
    first = EmulatedCabinet(tmp_path / "a").boot()
    try:
        pid = first.firmware.proc.pid
        p = first.ports
        held = f"pid {pid} ports {p['console']} {p['cctalk']} {p['panel']}"
        # make run twice: same state, same ports
        status, took, out, err = refused(tmp_path / "a", p)
        assert status == BUSY_EXIT and out == ""
        assert err.splitlines() == [f"jeton: {tmp_path / 'a'} is in use by the running cabinet ({held}): stop it first"]
        assert took < 10  # it waited out a 20 s boot timeout before
        # another state directory, the same ports: the port is named
        other = FirmwareProcess(tmp_path / "b", dict(p))
        try:
            other.start(timeout=20)
            raise AssertionError("a second firmware booted on busy ports")
        except RuntimeError:
            pass
        assert other.proc.returncode == BUSY_EXIT
        assert other.lines == [f"jeton: panel port {p['panel']} is in use by another cabinet or program: "
                               "stop it first, or give other ports"]
        # the same state directory on free ports: its NVRAM file is not shared
        ports2 = {"console": 0, "cctalk": 0, "panel": 0}  # any: refused on the state before a port is bound
        status, took, out, err = refused(tmp_path / "a", ports2)
        assert status == BUSY_EXIT and err.splitlines() == [
            f"jeton: {tmp_path / 'a'} is in use by the running cabinet ({held}): stop it first"]
        # the first cabinet never noticed
        assert first.firmware.alive()
        assert first.insert_token()["credits"] == 4
        assert first.meters()["acceptor_in"] == 4
    finally:
        first.shutdown()


def test_the_lock_of_a_cabinet_killed_by_a_power_cut_is_taken_over(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "s").boot()
    try:
        cab.insert_token()
        cab.power_cut()  # SIGKILL: the lock file stays, naming a process that is gone
        assert "pid" in (tmp_path / "s" / "cabinet.lock").read_text()
        cab.boot()
        assert cab.panel.screen["credits"] == 4
        assert (tmp_path / "s" / "cabinet.lock").read_text().split()[1] == str(cab.firmware.proc.pid)
    finally:
        cab.shutdown()
