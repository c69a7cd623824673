"""`make run` (python -m sim.cabinet) when the cabinet cannot run as asked (issue 23, the docs' commands
run as written): one line naming the fault and an exit status, never a traceback.

- A firmware that does not boot (here: a heap too small for it, `make run HEAP=48K`; found with
  `make run HEAP=112K` on a vlt state) printed the harness's RuntimeError traceback."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sim.harness import ROOT


def cabinet(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sim.cabinet", "--auto-ports", "--no-sas", *args],
                          cwd=ROOT, input="quit\n", capture_output=True, text=True, timeout=120)


def test_a_firmware_that_does_not_boot_is_one_line_with_its_status(tmp_path: Path) -> None:
    r = cabinet("--state", str(tmp_path / "s"), "--heap", "48K")
    assert "Traceback" not in r.stdout + r.stderr
    assert r.returncode == 75  # the board reset after three out-of-memory restarts (firmware/main.py)
    assert r.stderr.splitlines() == ["cabinet: the firmware did not boot (exit status 75): "
                                     "jeton: out of memory, 3 times in a row: board reset"]
