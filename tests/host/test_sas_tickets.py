"""Coupons over SAS on a vlt cabinet (the real firmware image on the emulated board): the system
sets the secure enhanced validation id (4C), reads each coupon's record until it has it (4D) and
the last one printed (3D); the bill acceptor's orders (06/07) on a validator that takes notes; the
exceptions a note (47-4C) and a coupon (3D) raise, each reported once. What the host reads is
checked against the console's `coupons json` and `validation json`, the printer peer's tickets and
Python's zoneinfo (Québec time), never against the SAS code. A keep-alive thread polls 1A every
second: a vlt plays only with its central system's link up (L-6, r. 3, s. 2; docs/sas.md)."""
from __future__ import annotations

import datetime
import json
import threading
import zoneinfo

import pytest

from sim.harness import EmulatedCabinet
from sim.sas_host import SasHost, bcd

VID = 0x123456  # 1193046, the validation id this test's system gives


def quebec(t: int) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(t, zoneinfo.ZoneInfo("America/Montreal")).replace(tzinfo=None)


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    cab = EmulatedCabinet(tmp_path_factory.mktemp("sas-vlt"), jurisdiction="vlt", sas=True)
    cab.boot(system=False)  # no validation id: this test's system sets it over SAS
    host = SasHost(cab.sas_path)
    host.sync()
    stop = threading.Event()

    def keep_alive() -> None:
        while not stop.wait(1.0):
            try:
                host.meter(0x1A)
            except (TimeoutError, ValueError, OSError):
                pass  # the test's own polls say what is wrong

    t = threading.Thread(target=keep_alive, daemon=True)
    t.start()
    cab.panel.wait_for(lambda s: s.get("link") == "up")
    host.exceptions()
    yield cab, host
    stop.set()
    t.join()
    host.close()
    cab.shutdown()
    cab.close_sas()


def saspy_on(cab):
    """saspy on this line, at the address its start() reads from the machine's chirp (the link is
    up here, kept so by the keep-alive: tests/host/test_sas_hosts.py has its start())."""
    from sim.sas_pty import accept_parity

    accept_parity()
    import sas as saspy_module  # installed by `make saspy` (mk/sas.mk)

    s = saspy_module.Sas(cab.sas_path, timeout=1, poll_address=0x82, denom=0.25, debug_level="CRITICAL")
    s.address = 1
    return s


def validation(cab) -> dict:
    return json.loads(cab.console.command("validation json")[-1])


def records(cab) -> list[dict]:
    return json.loads(cab.console.command("coupons json")[-1])


def test_4c_reads_then_sets_the_validation_id(rig) -> None:
    cab, host = rig
    assert host.checked(0x4C, 10, bytes(6)) == bytes(6)  # id 0 only reads: none set yet
    d = host.checked(0x4C, 10, VID.to_bytes(3, "little") + (0).to_bytes(3, "little"))
    assert int.from_bytes(d[:3], "little") == VID and validation(cab)["vid"] == VID
    cab.panel.wait_for(lambda s: "coupons" not in s.get("msg", "") and s.get("state") in ("idle", "credit"))


def test_07_inhibits_the_validator_and_06_enables_it(rig) -> None:
    cab, host = rig
    cab.panel.wait_for(lambda s: s.get("state") in ("idle", "credit"))
    assert host.command(0x07) == 1
    wait = threading.Event()
    for _ in range(50):
        if not cab.bills.accepting(1):
            break
        wait.wait(0.1)
    assert not cab.bills.accepting(1)
    assert host.command(0x06) == 1
    for _ in range(50):
        if cab.bills.accepting(1):
            break
        wait.wait(0.1)
    assert cab.bills.accepting(1)


def test_a_note_then_a_coupon_each_reported_once_and_3d_4d_read_its_record(rig) -> None:
    cab, host = rig
    host.exceptions()
    cab.insert_bill(1)  # $5 (sim/cctalk_bills.py)
    got = host.exceptions()
    assert got.count(0x48) == 1, got  # $5.00 bill accepted (SAS Table A-1)
    cab.panel.press("cashout")
    cab.panel.wait_for(lambda s: s.get("credits") == 0)
    # issued: the printer peer said so (under load it can be slow enough to read as a printer tilt
    # for a moment, which the coupon outlives: firmware/coupon_out.py)
    for _ in range(100):
        [rec] = records(cab)
        if rec["st"] == "issued":
            break
        threading.Event().wait(0.1)
    got = host.exceptions()
    assert got.count(0x3D) == 1, got  # a cash out ticket has been printed
    assert host.exceptions() == []
    d = host.checked(0x3D, 13)
    assert bcd(d[:4]) == int(rec["n"][-8:]) and bcd(d[4:9]) == rec["c"] == 500
    # saspy: its cash_out_ticket_info() reads one byte (its size default) and gives None; its own
    # framing, wakeup and CRC check with the reply's real size read the same 3D and 4D (FF: no read)
    sp = saspy_on(cab)
    with host.lock:  # the keep-alive waits: one host on the line at a time
        assert sp.cash_out_ticket_info() is None
        assert sp._send_command([0x3D], crc_need=False, size=13) == b"\x3d" + d
        look = sp._send_command([0x4D, 0xFF], crc_need=True, size=35)
    sp.close()
    assert look[0] == 0x4D and look[10:18].hex() == rec["n"][2:]
    d = host.checked(0x4D, 35, b"\xff")  # look ahead: the record, not read yet
    assert d[0] == 0 and d[1] == 1  # cashable ticket; index 1
    when = datetime.datetime.strptime(d[2:9].hex(), "%m%d%Y%H%M%S")
    assert when == quebec(rec["t"])
    assert d[9:17].hex() == rec["n"][2:] and d[24:25].hex() == rec["n"][:2]  # 16 digits + system id
    assert bcd(d[17:22]) == rec["c"] and bcd(d[22:24]) == rec["s"]
    assert datetime.datetime.strptime(d[25:29].hex(), "%m%d%Y").date() == quebec(rec["t"] + 86400).date()
    assert d[29:31] == b"\x00\x00"
    assert rec["n"][:8] == "%08d" % VID  # the number the machine computed carries the system's id
    assert records(cab)[0]["st"] == "issued"
    with host.lock:  # no keep-alive poll between these two: the second is a repeat of the first
        assert host.checked(0x4D, 35, b"\x00") == d  # read: now the system has it
        assert host.checked(0x4D, 35, b"\x00") == d  # the same poll again: the same reply, not done twice
    assert records(cab)[0]["st"] == "acked"
    assert host.general_poll() is not None  # any other poll: the last reply was received
    assert host.checked(0x4D, 35, b"\x00") == bytes(31)  # nothing more to read
    assert host.checked(0x4D, 35, b"\x01")[9:17] == d[9:17]  # by its index, still kept
