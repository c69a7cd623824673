"""End to end: critical memory that proves it is its own (issue 11). The real firmware image under
the emulated board, whose state directory holds nvram.bin and, apart from it, the machine's secret
(STATE/secret) and its anti-rollback counter (STATE/counter). Each tamper case is done to the files
while the power is off, as someone with the part in hand would, and the next power-up must refuse
it with a RAM error that names why: no money moves until a technician's RAM clear."""
from __future__ import annotations

import json
import struct
import time
from pathlib import Path

import pytest

from board.counter_file import CounterFile
from board.emulated import FileNvram
from firmware.critmem import CriticalMemory
from firmware.ledger import JOURNAL, LAYOUT
from sim.harness import EmulatedCabinet

TOKEN_CREDITS = 4  # firmware/config.py: $1 token, 25-cent credit
NVRAM_SIZE = 131072  # the emulated board's part (firmware/main.py)


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


def boot(state: Path, hopper=None) -> EmulatedCabinet:
    return EmulatedCabinet(state).boot(hopper=hopper)


def ram_error(cab: EmulatedCabinet) -> str:
    """The RAM error the cabinet is in (asserts it is in one), as the console reports it."""
    assert cab.firmware.ready["state"] == "ramerror", cab.firmware.ready
    assert cab.panel.screen["msg"] == "RAM ERROR"
    line = cab.console.command("state")[0]
    assert line.startswith("state ramerror: "), line
    return line


def ram_clear(cab: EmulatedCabinet, timeout: float = 10.0) -> list[str]:
    """'ramclear' from the administrator's session (the harness logs in at boot) once the firmware
    has seen the audit key turned (its switch is debounced)."""
    deadline = time.monotonic() + timeout
    while True:
        out = cab.console.command("ramclear")
        if out[0] != "error: turn the audit key first" or time.monotonic() > deadline:
            return out
        time.sleep(0.05)


def refused_at_boot(state: Path, reason: str) -> None:
    """The cabinet boots into a RAM error naming `reason`, and takes and pays no money."""
    cab = boot(state)
    try:
        assert reason in ram_error(cab)
        refuses_money(cab)
    finally:
        cab.shutdown()


def refuses_money(cab: EmulatedCabinet) -> None:
    paid = cab.hopper.coins_out
    cab.panel.press("cashout")
    assert cab.console.command("meters")[0].startswith("error: critical memory unusable")
    assert cab.hopper.coins_out == paid
    assert not cab.acceptor.accepting(EmulatedCabinet.TOKEN_POSITION)


def test_a_new_machine_formats_and_makes_its_secret_and_counter(state: Path) -> None:
    cab = boot(state)
    try:
        assert cab.firmware.ready["state"] == "idle"
        cab.insert_token()
    finally:
        cab.shutdown()
    assert len((state / "secret").read_bytes()) == 32
    assert (state / "counter").stat().st_size == 16
    assert CounterFile(str(state / "counter")).read() >= 2  # the format and the coin at least
    again = boot(state)
    try:
        assert again.firmware.ready["state"] == "credit" and again.firmware.ready["credits"] == TOKEN_CREDITS
    finally:
        again.shutdown()


def copied_then_cashed_out(state: Path, tokens: int) -> tuple[bytes, object]:
    """`tokens` tokens in, a copy of nvram.bin taken with the power off, then a cash-out paid by the
    hopper: (the copy, the hopper peer, which keeps what it paid across boots)."""
    cab = boot(state)
    try:
        for _ in range(tokens):
            cab.insert_token()
        assert cab.meters()["credits"] == tokens * TOKEN_CREDITS
    finally:
        cab.power_cut()
    old = (state / "nvram.bin").read_bytes()
    cab = boot(state)
    hopper = cab.hopper
    try:
        cab.cash_out()
        assert hopper.coins_out == tokens
    finally:
        cab.power_cut()
    return old, hopper


def test_an_older_nvram_put_back_after_a_cash_out_is_refused(state: Path) -> None:
    # the trial: 10 tokens in, a copy of nvram.bin, a cash-out of 10 coins, the copy put back
    old, hopper = copied_then_cashed_out(state, 10)
    (state / "nvram.bin").write_bytes(old)
    cab = boot(state, hopper)
    try:
        line = ram_error(cab)
        assert "rolled back" in line
        refuses_money(cab)
        assert hopper.coins_out == 10  # 10 tokens in, 10 coins out: never 20
    finally:
        cab.shutdown()


def test_only_the_state_block_of_an_older_nvram_put_back_is_refused(state: Path) -> None:
    # the finer attack: of the old copy, only the block that holds the credits (both its copies,
    # validly sealed by this machine), the journal spoilt so that nothing rebuilds it; every other
    # block, the newest commit and the counter agree
    old, hopper = copied_then_cashed_out(state, 3)
    data = bytearray((state / "nvram.bin").read_bytes())
    nv = FileNvram(str(state / "nvram.bin"), NVRAM_SIZE)
    try:
        mem = CriticalMemory(nv, LAYOUT, JOURNAL, b"offsets only", _NoCounter())
        for bank in (0, 1):
            off = mem._copy_off("state", bank)
            n = 9 + mem.capacity_of("state") + 16
            data[off:off + n] = old[off:off + n]
    finally:
        nv.close()
    data[0:2] = b"\0\0"  # the journal's magic
    (state / "nvram.bin").write_bytes(bytes(data))
    cab = boot(state, hopper)
    try:
        line = ram_error(cab)
        assert "state at commit" in line and "a block put back from an older copy" in line, line
        refuses_money(cab)
        assert hopper.coins_out == 3
    finally:
        cab.shutdown()


def _read_copy_a(nv: FileNvram, mem: CriticalMemory, name: str) -> tuple[int, bytes]:
    off = mem._copy_off(name, 0)
    _, _, seq, n = struct.unpack("<2sBIH", nv.read(off, 9))
    return seq, nv.read(off + 9, n)


def test_credits_raised_and_resealed_without_the_key_are_refused(state: Path) -> None:
    cab = boot(state)
    try:
        cab.insert_token()
    finally:
        cab.shutdown()
    # the attacker has the part, the firmware's source and its commit routine, but not the secret
    nv = FileNvram(str(state / "nvram.bin"), NVRAM_SIZE)
    try:
        forger = CriticalMemory(nv, LAYOUT, JOURNAL, b"not this machine's secret", _NoCounter())
        seq, payload = _read_copy_a(nv, forger, "state")
        st = json.loads(payload)
        st["credits"] += 3960
        st["m"]["acceptor_in"] += 3960  # and the meters to match, so the self-audit agrees
        forger.seq = seq
        forger.commit({"state": json.dumps(st).encode()})
    finally:
        nv.close()
    refused_at_boot(state, "both copies of state are bad")


class _NoCounter:
    """The forger's stand-in: it cannot reach the machine's counter, and does not need to."""

    def read(self):
        return None

    def write(self, n):
        pass


@pytest.mark.parametrize("how", ["deleted", "empty", "zeroed"])
def test_a_blank_nvram_on_a_machine_that_was_initialised_is_a_ram_error(state: Path, how: str) -> None:
    cab = boot(state)
    try:
        for _ in range(2):
            cab.insert_token()
    finally:
        cab.shutdown()
    path = state / "nvram.bin"
    if how == "deleted":
        path.unlink()
    elif how == "empty":
        path.write_bytes(b"")
    else:
        path.write_bytes(bytes(NVRAM_SIZE))
    cab = boot(state)
    try:
        line = ram_error(cab)
        assert "blank critical memory on a machine initialised before" in line
        refuses_money(cab)
        # only the technician's RAM clear ends it, and it says so in the new log
        cab.panel.set_pin("key_audit", 1)
        assert ram_clear(cab)[0].startswith("critical memory cleared")
        cab.panel.set_pin("key_audit", 0)
        cab.panel.wait_for(lambda s: s.get("state") == "idle")
        events = json.loads(cab.console.command("events json")[-1])["events"]
        assert any(e[2] == "ramclear" and "blank critical memory" in e[3] for e in events), events
        cab.insert_token()
        assert cab.meters()["credits"] == TOKEN_CREDITS
    finally:
        cab.shutdown()
    again = boot(state)  # and the cleared memory is the machine's own from then on
    try:
        assert again.firmware.ready["state"] == "credit"
    finally:
        again.shutdown()


def test_another_machines_nvram_is_refused(state: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    for d in (state, other):
        cab = boot(d)
        try:
            cab.insert_token()
        finally:
            cab.shutdown()
    # the other machine's part with its counter: the same history, so only the key differs (how
    # many commits a session makes depends on timing: the counters of two sessions may not agree)
    for name in ("nvram.bin", "counter"):
        (state / name).write_bytes((other / name).read_bytes())
    assert CounterFile(str(state / "counter")).read() == CounterFile(str(other / "counter")).read()
    refused_at_boot(state, "no record is sealed with this machine's key")


@pytest.mark.parametrize("lost, reason", [
    ("secret", "no record is sealed with this machine's key"),  # a new secret is made: nothing passes
    ("counter", "anti-rollback counter was never set"),
])
def test_losing_the_key_or_the_counter_is_a_ram_error(state: Path, lost: str, reason: str) -> None:
    cab = boot(state)
    try:
        cab.insert_token()
    finally:
        cab.shutdown()
    (state / lost).unlink()
    refused_at_boot(state, reason)
