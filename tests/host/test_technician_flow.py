"""Issue 23.4: the README's technician flow. With `make run` (sim.cabinet: the firmware and its
terminal panel) up, a second program takes the console: the first administrator is made with the
panel's audit key (`a`), then `make console` (tools.console) logs in and runs a command. The panel
used to keep a console connection of its own, and every technician was told 'console busy'."""
from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

from sim.harness import ROOT
from tools.console import ConsoleClient

UID, PIN = "tech1", "4711-tech"


class Panel:
    """`python -m sim.cabinet` with its commands on a pipe (its line mode: 'audit', 'token', ...)."""

    def __init__(self, state: Path):
        self.proc = subprocess.Popen([sys.executable, "-m", "sim.cabinet", "--state", str(state), "--auto-ports"],
                                     cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_line(self, prefix: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                continue
            seen.append(line)
            if line.startswith(prefix):
                return line
        raise AssertionError(f"no line {prefix!r}; got {seen}")

    def send(self, command: str) -> str:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return self.wait_line(("audit key", "token", "pressed", "attendant"))

    def quit(self) -> None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write("quit\n")
                self.proc.stdin.close()
                self.proc.wait(20)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(5)


def test_make_console_beside_make_run(tmp_path: Path) -> None:
    panel = Panel(tmp_path / "state")
    try:
        line = panel.wait_line("technician console: ")
        url = line.split()[2]
        assert url.startswith("socket://127.0.0.1:")
        # a fresh cabinet: the audit key from the panel, then 'setup' from the technician's client
        assert panel.send("audit") == "audit key on"
        c = ConsoleClient(url, connect_for=5)  # was: ConsoleClosed('console busy: one session at a time')
        try:
            deadline = time.monotonic() + 10
            while (reply := c.setup(UID, PIN)) == ["error: turn the audit key first"] and time.monotonic() < deadline:
                time.sleep(0.05)  # the key is debounced by the firmware
            assert reply and "logged in" in reply[-1], reply
        finally:
            c.close()
        assert panel.send("audit") == "audit key off"
        # `make console USER_ID=tech1`: a new client logs in and runs a command, the panel still up
        r = subprocess.run([sys.executable, "-m", "tools.console", url, "--user", UID, "-c", "state"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60, env=dict(os.environ, JETON_PIN=PIN))
        assert r.returncode == 0, r.stderr
        out = r.stdout.splitlines()
        assert out[0].startswith(f"logged in as {UID}")
        assert any(ln.startswith("state ") for ln in out[1:]), out
        assert panel.send("token").startswith("token inserted")  # the panel never noticed
    finally:
        panel.quit()
