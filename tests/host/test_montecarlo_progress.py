"""Progress bars (tools/progress.py): on stderr when it is a terminal, never under CI=true or into
a pipe, and stdout (the lines and JSON that scripts parse) the same either way."""
from __future__ import annotations

import os
import pty
import subprocess
import sys

import pytest

from tools import progress

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_wanted_only_on_a_terminal_without_ci(monkeypatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    monkeypatch.setenv("CI", "true")
    assert not progress.wanted()
    monkeypatch.setenv("CI", "TRUE")
    assert not progress.wanted()
    monkeypatch.delenv("CI")
    assert progress.wanted()
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert not progress.wanted()
    assert progress.wanted(True) and not progress.wanted(False)


def _run_with_tty_stderr(args: list[str], ci: bool) -> tuple[str, str]:
    """stdout through a pipe, stderr on a pseudo-terminal: (stdout, what the terminal showed)."""
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci:
        env["CI"] = "true"
    p = subprocess.Popen([sys.executable, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=slave, env=env, text=True)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    out = p.stdout.read()
    assert p.wait(timeout=300) in (0, 1), shown  # 1: rngtest's small sample may fail a test: not ours
    os.close(master)
    return out, shown.decode("utf-8", "replace")


@pytest.mark.parametrize("args,unit", [
    (["-m", "sim.montecarlo", "games/models/skeleton-88.json", "--spins", "300000", "--workers", "1"], "game"),
    (["-m", "tools.rngtest", "--only", "scaled", "--draws", "20000"], "test"),
])
def test_bar_on_a_terminal_and_none_under_ci_stdout_unchanged(args: list[str], unit: str) -> None:
    out_tty, shown = _run_with_tty_stderr(args, ci=False)
    out_ci, shown_ci = _run_with_tty_stderr(args, ci=True)
    assert "100%" in shown and unit in shown  # tqdm (a terminal of no width: no bar graphics)
    assert "100%" not in shown_ci and unit not in shown_ci
    # the same lines (rngtest draws a fresh stream each run: its figures and verdicts may differ, not
    # its rows; the closing "total Ns" is a timing)
    shape = lambda s: [ln.split()[1:2] for ln in s.splitlines() if not ln.startswith("total ")]  # noqa: E731
    assert shape(out_tty) == shape(out_ci) and len(out_tty.splitlines()) >= 5
