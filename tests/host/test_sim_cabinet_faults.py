"""`make run` (python -m sim.cabinet) when the cabinet cannot run as asked (issue 23, the docs' commands
run as written): one line naming the fault and an exit status, never a traceback.

- A firmware that does not boot (here: a heap too small for it, `make run HEAP=48K`; found with
  `make run HEAP=112K` on a vlt state) printed the harness's RuntimeError traceback.
- `make run` on a state directory an earlier `make run JURIS=vlt` left (its signed operator.json)
  booted as the VLT it is, without the coupon printer only `--jurisdiction vlt` plugs in, and sat
  in a tilt naming a UART ("coupon printer: board emulated has no UART 'printer'")."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from sim.cabinet import vlt_state
from sim.harness import FROZEN_BOOT, ROOT, EmulatedCabinet
from tools import firmware as fwbuild

# the board's reset for want of memory (firmware/main.py supervise): three failed boots, or (what the
# failed boot leaves in the heap moves with the machine secret's random bytes) no room to restart
BOARD_RESET = "jeton: out of memory(, 3 times in a row|, no room to restart the cabinet): board reset"


def cabinet(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sim.cabinet", "--auto-ports", "--no-sas", *args],
                          cwd=ROOT, input="quit\n", capture_output=True, text=True, timeout=120)


def test_a_firmware_that_does_not_boot_is_one_line_with_its_status(tmp_path: Path) -> None:
    r = cabinet("--state", str(tmp_path / "s"), "--heap", "48K")
    assert "Traceback" not in r.stdout + r.stderr
    assert r.returncode == 75  # the board reset after three out-of-memory restarts (firmware/main.py)
    (line,) = r.stderr.splitlines()
    assert re.fullmatch("cabinet: the firmware did not boot \\(exit status 75\\): " + BOARD_RESET, line), line


def test_a_boot_out_of_memory_resets_the_board_whatever_the_heap_holds_beside_it(tmp_path: Path) -> None:
    """What the failed boot leaves in a 48K heap moves with the length of the --state path (its
    argument string is on the heap): CI's /tmp/pytest-of-root/.../s ran out in the supervisor's own
    clean-up (128 bytes for a list of the run's modules, a traceback and exit status 1), where
    paths 9 to 24 characters long in /tmp/hq/ did too. Each length now ends in the board's reset."""
    fwbuild.ensure_built(32)
    for n in range(1, 41):
        state = tmp_path / ("x" * n)
        r = subprocess.run([str(fwbuild.FIRMWARE), "-X", "heapsize=48K", "-c", FROZEN_BOOT, "--state", str(state),
                            "--console", "0", "--cctalk", "0", "--panel", "0"],
                           cwd=ROOT, capture_output=True, text=True, timeout=60)
        last = (r.stdout + r.stderr).splitlines()[-1]
        assert r.returncode == 75 and re.fullmatch(BOARD_RESET, last), (n, last)


def test_a_vlt_state_run_as_a_casino_is_refused_in_one_line(tmp_path: Path) -> None:
    state = tmp_path / "s"
    vlt = EmulatedCabinet(state, extra_args=["--jurisdiction", "vlt"])  # `make run JURIS=vlt`
    try:
        vlt.boot(login=False, console=False)
    finally:
        vlt.shutdown()
    assert (state / "operator.json").exists()
    for asked in ((), ("--jurisdiction", "casino")):  # `make run`, and casino by name
        r = cabinet("--state", str(state), *asked)
        assert r.returncode == 2 and r.stdout == ""
        assert r.stderr.splitlines() == [
            f"cabinet: {state} is a video-lottery terminal (its operator.json, signed by an earlier "
            "`make run JURIS=vlt`): run it with JURIS=vlt (--jurisdiction vlt), give another --state, "
            "or start afresh (`make clean` removes var/)"]
    assert vlt_state(str(state), "vlt") is None  # as it was made: it boots (the e2e vlt tests)
    assert vlt_state(str(tmp_path / "fresh"), None) is None
    (tmp_path / "casino").mkdir()
    (tmp_path / "casino" / "operator.json").write_text('{"JURISDICTION": "casino"}')
    assert vlt_state(str(tmp_path / "casino"), None) is None  # the firmware checks that one itself
