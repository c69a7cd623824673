"""make deploy, end to end: a stock MicroPython unix-port REPL behind a pseudo-terminal stands for a
board on a serial port; mpremote (tools.deploy) installs the .mpy image through it; the board is
then booted from its root main.py and answers on its console."""
from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

import pytest

from sim.harness import MICROPYTHON
from tools import deploy
from tools.console import ConsoleClient


class PtyBoard:
    """micropython's REPL on one pty, bridged to a second pty whose path mpremote opens, as it opens
    a board's USB serial port. `drop_after` bytes into the host's stream, the bridge loses
    `drop_len` bytes once: a flaky cable."""

    def __init__(self, root: Path, drop_after: int = -1, drop_len: int = 0):
        self.drop_after, self.drop_len, self.sent = drop_after, drop_len, 0
        dev_m, dev_s = pty.openpty()
        self.host_m, host_s = pty.openpty()
        tty.setraw(dev_s)
        tty.setraw(host_s)
        self.path = os.ttyname(host_s)
        self._host_s = host_s  # kept open so the host side never sees a hang-up between connections
        self.proc = subprocess.Popen([str(MICROPYTHON)], stdin=dev_s, stdout=dev_s, stderr=dev_s, cwd=root,
                                     env=dict(os.environ, MICROPYPATH=".frozen"), start_new_session=True)
        os.close(dev_s)
        self.dev_m = dev_m
        self._stop = False
        self._thread = threading.Thread(target=self._pump, daemon=True)
        self._thread.start()

    def _pump(self) -> None:
        fds = [self.dev_m, self.host_m]
        while not self._stop:
            r, _, _ = select.select(fds, [], [], 0.1)
            for fd in r:
                try:
                    data = os.read(fd, 4096)
                    if fd == self.host_m:
                        if self.sent <= self.drop_after < self.sent + len(data):
                            cut = self.drop_after - self.sent
                            data = data[:cut] + data[cut + self.drop_len:]
                            self.sent += self.drop_len
                        self.sent += len(data)
                        os.write(self.dev_m, data)
                    else:
                        os.write(self.host_m, data)
                except OSError:
                    return  # the REPL process ended (a reset): its side of the pty is gone

    def close(self) -> None:
        self._stop = True
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        self._thread.join(2)  # the pump stops before its descriptors close under it
        for fd in (self.dev_m, self.host_m, self._host_s):
            try:
                os.close(fd)
            except OSError:
                pass


def boot(root: Path, state: Path) -> tuple[subprocess.Popen, dict, dict[str, int]]:
    """Power the board on: stock micropython runs the root main.py, as a board does at reset."""
    # ports 0: the board binds ports it chooses and names them before its ready line
    ports: dict[str, int] = {}
    args = ["--state", str(state)] + [a for role in ("console", "cctalk", "panel") for a in (f"--{role}", "0")]
    # the heap a board needs is bench_heap's business (docs/build.md); here only the install is judged
    proc = subprocess.Popen([str(MICROPYTHON), "-X", "heapsize=512K", "main.py", *args], cwd=root,
                            env=dict(os.environ, MICROPYPATH=".frozen"), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 30
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("jeton: ports "):
            ports.update((r, int(p)) for r, _, p in (w.partition("=") for w in line.split()[2:]))
        if line.startswith("jeton: ready"):
            return proc, json.loads(line.split(" ", 2)[2]), ports
        assert time.monotonic() < deadline, "no ready line"
    raise AssertionError(f"the board did not boot (status {proc.wait()})")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "board").mkdir()
    return tmp_path / "board"


def test_deploy_installs_checks_switches_and_the_board_boots(root: Path, tmp_path: Path) -> None:
    files = deploy.payload()
    # a flaky cable: 40 bytes lost in the middle of the transfer; the deploy retries and completes
    board = PtyBoard(root, drop_after=60_000, drop_len=40)
    log: list[str] = []
    try:
        name = deploy.deploy(board.path, files, log=log.append)
        assert board.proc.wait(10) is not None  # reset: the unix REPL's soft reset ends the process
    finally:
        board.close()
    assert any("try 1/" in line for line in log), log  # the lost bytes were noticed and retried
    assert name == deploy.image_id(files)
    on_board = {p.relative_to(root / name).as_posix() for p in (root / name).rglob("*") if p.is_file()}
    assert on_board == set(files)
    assert all((root / name / rel).read_bytes() == data for rel, data in files.items())
    assert not (root / "main.py.new").exists()

    proc, ready, ports = boot(root, tmp_path / "state")
    try:
        assert ready["code"] == "mpy" and ready["game"] == "sept-royal-87" and ready["state"] == "idle"
        console = ConsoleClient(f"socket://127.0.0.1:{ports['console']}", connect_for=5)
        try:
            # the deployed console answers, and with no credential made on this board it runs nothing
            assert [line for line in console.command("help") if line.startswith("login ")]
            assert console.command("version")[0].startswith("refused: no account yet")
        finally:
            console.close()
    finally:
        proc.kill()
        proc.wait(5)


class CutAfter:
    """mpremote's transport whose link dies for good after `writes` file writes: a deploy cut."""

    def __init__(self, writes: int):
        self.left = writes

    def __call__(self, port: str):
        t = deploy.Board._serial(port)
        real = t.fs_writefile

        def fs_writefile(path, data, **kw):
            if self.left <= 0:
                raise OSError("link lost")
            self.left -= 1
            return real(path, data, **kw)

        t.fs_writefile = fs_writefile
        return t


def test_a_cut_deploy_leaves_the_previous_image_booting(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deploy, "TRIES", 2)
    monkeypatch.setattr(deploy.time, "sleep", lambda s: None)
    files = deploy.payload()
    board = PtyBoard(root)
    try:
        old = deploy.deploy(board.path, files, log=lambda s: None, reset=False)
        loader = (root / "main.py").read_text()
        new_files = dict(files, **{"games/models/zz-new.json": b"{}"})  # a new release: another id
        with pytest.raises(deploy.DeployError):
            deploy.deploy(board.path, new_files, log=lambda s: None, connect=CutAfter(3), reset=False)
    finally:
        board.close()
    new = deploy.image_id(new_files)
    assert new != old and (root / new).is_dir()  # the new image was being staged...
    assert (root / "main.py").read_text() == loader  # ...but the loader still names the old one
    assert f"IMAGE = {old!r}" in loader
    assert all((root / old / rel).read_bytes() == data for rel, data in files.items())


class ShortWrites:
    """mpremote's transport whose file writes of `victim` lose their last byte, silently (bytes lost
    inside a write's data, with nothing wrong on the link), `times` times."""

    def __init__(self, victim: str, times: int):
        self.victim, self.left = victim, times

    def __call__(self, port: str):
        t = deploy.Board._serial(port)
        real = t.fs_writefile

        def fs_writefile(path, data, **kw):
            if path.endswith("/" + self.victim) and self.left > 0:
                self.left -= 1
                data = data[:-1]
            return real(path, data, **kw)

        t.fs_writefile = fs_writefile
        return t


def test_a_file_short_after_writing_is_written_again_and_never_switched_to_while_short(
        root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deploy, "TRIES", 3)
    files = deploy.payload()
    victim = "board/hal.mpy"
    board = PtyBoard(root)
    log: list[str] = []
    try:
        name = deploy.deploy(board.path, files, log=log.append, connect=ShortWrites(victim, 2), reset=False)
        assert (root / name / victim).read_bytes() == files[victim]  # the third write was whole
        assert sum("differs on the board after writing" in line for line in log) == 2, log
        before = (root / "main.py").read_text()
        new_files = dict(files, **{"games/models/zz-new.json": b"{}"})  # another release, always short
        with pytest.raises(deploy.DeployError, match="differs? on the board after writing"):
            deploy.deploy(board.path, new_files, log=lambda s: None, connect=ShortWrites(victim, 99), reset=False)
        assert (root / "main.py").read_text() == before  # still the whole image
    finally:
        board.close()


def test_no_board_on_the_port_is_one_line_at_once(tmp_path: Path) -> None:
    # issue 23.9: `make deploy` with nothing plugged in retried five times before giving up
    port = str(tmp_path / "ttyACM0")  # a device path that is not there
    t = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "tools.deploy", port], capture_output=True, text=True, timeout=60,
                       cwd=Path(deploy.__file__).resolve().parent.parent)
    assert r.returncode == 1
    assert r.stdout == ""
    assert r.stderr == f"deploy: no board answers on {port}: no such device (is the board plugged in and powered?" \
                       " PORT= names another port)\n"
    assert time.monotonic() - t < 15  # no tries with pauses (and no image built first)


def test_a_port_where_nothing_answers_is_not_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    # a serial device that exists but where no MicroPython REPL answers (nothing behind the pty)
    monkeypatch.setattr(deploy, "FIRST_ANSWER_S", 1)
    built: list[int] = []
    monkeypatch.setattr(deploy, "payload", lambda: built.append(1) or {})
    master, slave = pty.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    log: list[str] = []
    try:
        with pytest.raises(deploy.DeployError) as e:
            deploy.deploy(path, log=log.append)
    finally:
        os.close(master)
        os.close(slave)
    assert str(e.value) == f"no board answers on {path}: could not enter raw repl"
    assert log == [] and built == []  # no retries, and the image was not built for nothing
