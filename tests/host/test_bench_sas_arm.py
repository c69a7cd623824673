"""tools/bench/bench_sas_arm.py measures real work: its device script, run on the emulated board's
image (the unix port, frozen firmware), makes the real cabinet answer every poll it times with the
bytes SAS 6.02 lays out, and a short run on the Cortex-M3 image (qemu) gets the very same replies.

Known answers: CRC-16/KERMIT from crccheck's CrcKermit (an independent implementation), the reply
sizes saspy's sas.py reads (1A and the 4-byte meters 8, 1C 36, 1F 24), 2F's layout as Monaco's
public LP2F parser reads it (length, game number, then each code with its 4 BCD bytes), 54's as
saspy's get_sas_version_and_serial reads it (length, 3 ASCII digits of the version, the serial),
SAS Table A-1's 11/12 (slot door opened / closed), Table C-4's denomination code 04 (25 cents), 94's
reset code 00 (docs/sas.md); the meters against the bench's own counts of what it did.
"""
from __future__ import annotations

import pytest
from crccheck.crc import CrcKermit

from tools.bench import bench_sas_arm as bench

POLLS = 3  # of each kind: the exception row raises the slot door open, closed, open


def _reply(res: dict, name: str) -> bytes:
    return bytes.fromhex(next(r["first"] for r in res["rows"] if r["name"] == name))


def _digits(b: bytes) -> int:
    return int(b.hex())  # BCD, read by its hex digits


@pytest.fixture(scope="module")
def unix() -> dict:
    return bench.run_unix(POLLS)


def test_every_figure_is_a_poll_the_firmware_answered(unix: dict) -> None:
    names = [r["name"] for r in unix["rows"]]
    assert names[:6] == ["ref timer", "ref UART round trip", "ref poll to another address", "ref books commit (event)",
                         "ref state JSON text", "ref state block commit"]
    assert names[6:] == [k[0] for k in bench.POLL_KINDS]
    assert all(r["polls"] == POLLS for r in unix["rows"])
    link = unix["link"]
    # 8 long polls timed, and the 02 / 01 sent before each 01 / 02: never a repeat, a CRC error, a
    # broken or unknown frame (what the host side of the bench sends is well formed)
    assert link == {"repeats": 0, "polls": 10 * POLLS, "crc_errors": 0, "broken": 0, "unknown": 0}


def test_the_long_replies_carry_a_kermit_crc_and_echo_address_and_command(unix: dict) -> None:
    for name, msg, _what, size, _firsts in bench.POLL_KINDS:
        got = _reply(unix, name)
        assert len(got) == size, name
        if size > 1:
            assert got[:2] == msg[:2], name
            assert int.from_bytes(got[-2:], "little") == CrcKermit.calc(got[:-2]), name


def test_the_replies_are_the_ones_sas_lays_out(unix: dict) -> None:
    assert _reply(unix, "general poll, exception") == b"\x11"  # the bench's first raise: slot door opened
    assert _reply(unix, "general poll, 00") == b"\x00"
    assert _digits(_reply(unix, "1A credits (R)")[2:6]) == 0
    d = _reply(unix, "1C meters (R)")[2:-2]
    meters = [_digits(d[i:i + 4]) for i in range(0, 32, 4)]
    # coin in, coin out, drop, jackpot, games played, games won: nothing played; the slot door opened
    # twice (open, closed, open); one power-up
    assert meters == [0, 0, 0, 0, 0, 0, 2, 1]
    info = _reply(unix, "1F game config (R)")
    assert info[2 + 5] == 0x04  # 25 cents a credit
    v = _reply(unix, "54 version (R)")
    assert v[2] == len(v) - 5 and v[3:6] == b"602"
    m = _reply(unix, "2F 8 meters (M)")
    assert m[2] == len(m) - 5 and m[3:5] == b"\x00\x00"
    codes = [m[i] for i in range(5, len(m) - 2, 5)]
    assert codes == [code for _, code in bench.SNAPSHOT_CODES]
    assert [_digits(m[i + 1:i + 5]) for i in range(5, len(m) - 2, 5)] == [0] * len(codes)  # no money in yet
    assert _reply(unix, "01 shut down (S)") == _reply(unix, "02 start up (S)") == bytes((bench.ADDRESS,))  # ACK
    assert _reply(unix, "94 hand-pay reset (S)")[2] == 0x00  # reset


def test_the_cortex_m3_answers_the_same_bytes(unix: dict) -> None:
    arm = bench.run_qemu(POLLS)  # make test builds the Cortex-M3 image first (make firmware-arm), as test_qemu_device
    assert [(r["name"], r["first"]) for r in arm["rows"]] == [(r["name"], r["first"]) for r in unix["rows"]]
    assert arm["link"] == unix["link"]
    # the real cabinet fits the board's heap with room to spare (its critical memory outside it)
    assert arm["heap_free"] > 32 * 1024
    # icount: every figure is a count of instructions, the poll's above the timer's alone
    timer = next(r for r in arm["rows"] if r["name"] == "ref timer")
    assert all(bench.instructions(r) > bench.instructions(timer) for r in arm["rows"] if not r["name"].startswith("ref "))
