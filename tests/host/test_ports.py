"""Issue 23.2: port selection cannot race another process. The harness and the campaigns give the
firmware port 0; the emulated board binds ports it chooses (board/emulated.py `_listen`) and names
them before its ready line, so no port is ever picked free by one process and bound by another."""
from __future__ import annotations

import shutil
import socket
import threading
from pathlib import Path

import pytest

from board import emulated
from sim import fuzz_rig, harness
from sim.fuzz_rig import Rig
from sim.harness import EmulatedCabinet, FirmwareProcess


def listeners(n: int) -> list[socket.socket]:
    """n ports held by another program (listening), as a racing process would hold them."""
    out = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        out.append(s)
    return out


def test_a_cabinet_boots_though_every_port_the_host_would_have_picked_is_taken(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the race, made certain: another process binds each port free_ports() hands out before the
    # firmware does (the harness used to pass them on, and the firmware exited 69: port busy)
    held = listeners(4)
    taken = [s.getsockname()[1] for s in held]
    monkeypatch.setattr(harness, "free_ports", lambda n: taken[:n])
    monkeypatch.setattr(fuzz_rig, "free_ports", lambda n: taken[:n], raising=False)
    cab = EmulatedCabinet(tmp_path / "a", jurisdiction="vlt")
    rig = Rig(tmp_path / "b", jurisdiction="vlt")
    try:
        cab.boot()
        assert set(cab.ports) == {"console", "cctalk", "panel", "printer"}
        assert not set(cab.ports.values()) & set(taken)
        assert cab.insert_token()["credits"] == 4  # its peers are plugged into the ports it bound
        rig.boot()
        assert not set(rig.ports.values()) & set(taken) and not set(rig.ports.values()) & set(cab.ports.values())
        rig.wait_polls(2, 5.0)
        assert rig.console_json("meters json")["credits"] == 0
        first = dict(rig.ports)
        rig.cut()
        rig.boot()  # every boot binds afresh: nothing kept a port across the cut for someone to take
        assert rig.screen.get("state") is not None and set(rig.ports) == set(first)
    finally:
        cab.shutdown()
        rig.shutdown()
        for s in held:
            s.close()


def test_the_board_takes_another_port_when_the_one_it_chose_is_in_use(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the board's choice is random above the ephemeral range; a choice in use is passed over
    held = socket.socket()
    for k in range(emulated.ANY_PORT_SPAN):  # a port of the board's range that this test can hold
        try:
            held.bind(("127.0.0.1", emulated.ANY_PORT_LO + k))
            break
        except OSError:
            continue
    held.listen(1)
    k = held.getsockname()[1] - emulated.ANY_PORT_LO
    picks = iter([k, k, k, (k + 1) % emulated.ANY_PORT_SPAN, (k + 2) % emulated.ANY_PORT_SPAN,
                  (k + 3) % emulated.ANY_PORT_SPAN, (k + 4) % emulated.ANY_PORT_SPAN])
    monkeypatch.setattr(emulated.os, "urandom", lambda n: next(picks).to_bytes(2, "big") if n == 2 else bytes(n))
    board = None
    try:
        board = emulated.Board(str(tmp_path / "s"), 0, 0, 0)
        got = dict(board.ports)
        assert set(got) == {"panel", "console", "cctalk"}
        assert held.getsockname()[1] not in got.values()
        assert all(emulated.ANY_PORT_LO <= p < emulated.ANY_PORT_LO + emulated.ANY_PORT_SPAN for p in got.values())
        assert len(set(got.values())) == 3
        # the lock file names the ports bound, not the 0 asked for
        lock = (tmp_path / "s" / "cabinet.lock").read_text().split()
        assert lock[2:] == ["ports", str(got["console"]), str(got["cctalk"]), str(got["panel"])]
    finally:
        if board is not None:
            board.nvram.close()
            for link in board._links:
                link.srv.close()
        held.close()
        shutil.rmtree(tmp_path / "s", ignore_errors=True)


def test_firmwares_started_at_once_never_share_a_port(tmp_path: Path) -> None:
    fws = [FirmwareProcess(tmp_path / f"s{i}", {"console": 0, "cctalk": 0, "panel": 0}) for i in range(4)]
    errors: list[BaseException] = []

    def start(fw: FirmwareProcess) -> None:
        try:
            fw.start(timeout=60)
        except BaseException as e:  # noqa: BLE001  reported below
            errors.append(e)

    threads = [threading.Thread(target=start, args=(fw,)) for fw in fws]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(90)
        assert not errors, errors
        bound = [p for fw in fws for p in fw.ports.values()]
        assert len(bound) == 12 and len(set(bound)) == 12 and 0 not in bound
        for fw in fws:  # each one answers on its own console port
            with socket.create_connection(("127.0.0.1", fw.ports["console"]), timeout=5) as c:
                c.sendall(b"\n")
                assert c.recv(64).endswith(b"jeton> ")
    finally:
        for fw in fws:
            fw.kill()
