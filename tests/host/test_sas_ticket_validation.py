"""The ticket data and system validation over SAS on a vlt cabinet (the real firmware image on the
emulated board, the project's own host sim/sas_host.py as the central system): 7D and 7C set what
the coupon carries (the emulated printer's tickets show it), 7B reports the validation in force and
puts the machine into system validation, then a cash-out raises 57, the host reads 57 and answers
58, and the coupon prints with the host's number; a refusal, and no answer in 10 s, keep the
credits; a power cut between each step asks the same request again and never prints a second number
for one coupon. Expected bytes written from the layouts (SAS 6.02 Tables 15.2-15.4, 15.7, 15.9 as
docs/sas.md cites them), what is printed read from the printer peer, what is kept from the console's
`validation json` and `coupons json`, never from the SAS code. A keep-alive thread polls 1A every
second: a vlt plays only with its central system's link up (L-6, r. 3, s. 2)."""
from __future__ import annotations

import datetime
import json
import threading
import time
import zoneinfo

import pytest

from sim.harness import EmulatedCabinet
from sim.sas_host import SasHost, bcd, crc

VID = 0x0A0B0C  # the validation id this test's system gives (4C)
LOCATION = b"BAR LE TREFLE"
ADDRESS1 = b"12 RUE SAINT-JEAN"
ADDRESS2 = b"QUEBEC QC G1R 1N8"
NUMBER = 9876543210123456  # the system's validation numbers start here (16 digits)


def quebec(t: int) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(t, zoneinfo.ZoneInfo("America/Montreal")).replace(tzinfo=None)


def bcd_bytes(value: int, n: int) -> bytes:
    return bytes.fromhex(f"{value:0{2 * n}d}")


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    cab = EmulatedCabinet(tmp_path_factory.mktemp("sas-validation"), jurisdiction="vlt", sas=True)
    cab.boot(system=False)  # no validation id: this test's system sets it over SAS
    host = SasHost(cab.sas_path)
    host.sync()
    stop = threading.Event()

    def keep_alive() -> None:
        while not stop.wait(1.0):
            try:
                host.meter(0x1A)
            except (TimeoutError, ValueError, OSError):
                pass  # the power is off, or the test's own polls say what is wrong

    t = threading.Thread(target=keep_alive, daemon=True)
    t.start()
    cab.panel.wait_for(lambda s: s.get("link") == "up")
    assert host.checked(0x4C, 10, VID.to_bytes(3, "little") + bytes(3))[:3] == VID.to_bytes(3, "little")
    host.exceptions()
    yield cab, host
    stop.set()
    t.join()
    host.close()
    cab.shutdown()
    cab.close_sas()


def validation(cab) -> dict:
    return json.loads(cab.console.command("validation json")[-1])


def records(cab) -> list[dict]:
    return json.loads(cab.console.command("coupons json")[-1])


def flag(host: SasHost, cmd: int, data: bytes) -> bytes:
    """7C/7D (type M): length, data, CRC; the reply: address, command, a status flag, CRC (or busy)."""
    r = host.long_poll(cmd, bytes([len(data)]) + data, reply=5)
    if r[:2] == bytes([host.address, 0]):
        return b"busy"
    assert r[:2] == bytes([host.address, cmd]) and crc(r[:-2]) == r[-2:], r.hex()
    return r[2:3]


def status(host: SasHost, mask: int = 0, bits: int = 0, days: int = 0, rdays: int = 0) -> bytes:
    """7B: length 08, mask, status bits, two expirations; the reply's data after its length (0A)."""
    data = mask.to_bytes(2, "little") + bits.to_bytes(2, "little") + bcd_bytes(days, 2) + bcd_bytes(rdays, 2)
    return host.variable(0x7B, data, multi=True)


def tickets(cab) -> list:
    return cab.printer.issued()


def wait_tickets(cab, n: int, timeout: float = 15.0) -> list:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = tickets(cab)
        if len(got) >= n:
            return got
        time.sleep(0.1)
    raise TimeoutError(f"{len(tickets(cab))} tickets, {n} awaited")


def until(pred, timeout: float = 15.0, what: str = ""):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.1)
    raise TimeoutError(what)


def wait_57(host: SasHost, timeout: float = 5.0) -> list[int]:
    """General polls until exception 57 comes (it is told again every 800 ms until 57 is read)."""
    seen: list[int] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        code = host.general_poll()
        if code == 0x57:
            return seen
        if code:
            seen.append(code)
        else:
            time.sleep(0.1)
    raise TimeoutError(f"no 57: {seen}")


def note(cab: EmulatedCabinet) -> None:
    """A $5 note in. A printer that missed a status request while the host was loaded is in its
    tilt (firmware/coupon_out.py: the coupon outlives it), which takes money no more until the
    attendant's key: turned first, as the attendant would."""
    if "printer" in (cab.panel.screen.get("say") or []):
        cab.attendant_key()
        cab.panel.wait_for(lambda s: "printer" not in (s.get("say") or []))
    cab.insert_bill(1)


def issued(cab: EmulatedCabinet, pred) -> list[dict]:
    """The records issued that pred takes, once there are any; a printer tilt on the way (a status
    request missed on a loaded host, or a printer still starting at power-up) is seen to with the
    attendant's key, as the attendant would."""
    def done() -> list[dict]:
        if "printer" in (cab.panel.screen.get("say") or []):
            cab.attendant_key()
        return [r for r in records(cab) if pred(r) and r["st"] == "issued"]
    return until(done, timeout=30, what="a coupon issued")


def reboot(cab: EmulatedCabinet) -> None:
    cab.power_cut()
    cab.boot(system=False)
    cab.panel.wait_for(lambda s: s.get("link") == "up")


def test_7d_7c_set_what_the_coupon_carries_and_7b_reports_it(rig) -> None:
    cab, host = rig
    # 7B, nothing changed: asset number 0, bits 0 (printer) and 15 (secure enhanced: 4C set), 1 day
    # in force (the vlt's 24 hours, S-13.1, r. 7, s. 14), no restricted expiration
    assert status(host) == bytes(4) + b"\x01\x80" + b"\x00\x01" + b"\x00\x00"
    data = (0x1234).to_bytes(2, "little") + b"\x1e" + bytes([len(LOCATION)]) + LOCATION + bytes([len(ADDRESS1)]) + ADDRESS1
    assert flag(host, 0x7D, data) == b"\x01"  # host 1234, 30 days, location, address 1
    assert flag(host, 0x7C, b"\x02" + bytes([len(ADDRESS2)]) + ADDRESS2) == b"\x01"  # address 2 by its code
    assert flag(host, 0x7C, b"\x00\x29" + b"X" * 41) == b"\x00"  # 41 characters: not valid, nothing kept
    assert status(host) == bytes(4) + b"\x01\x80" + b"\x00\x01" + b"\x00\x00"  # 30 days asked, 24 h in force
    t = validation(cab)["ticket"]
    assert t == {"host": 0x1234, "days": 30, "rdays": 0, "loc": LOCATION.decode(), "a1": ADDRESS1.decode(),
                 "a2": ADDRESS2.decode()}
    note(cab)
    n = len(tickets(cab))
    cab.panel.press("cashout")
    [*_, ticket] = wait_tickets(cab, n + 1)
    lines = ticket.lines
    i = lines.index("Titulaire/Licence: EXPL-QC-000001")
    assert lines[i + 1:i + 4] == [LOCATION.decode(), ADDRESS1.decode(), ADDRESS2.decode()]
    rec = until(lambda: [r for r in records(cab) if r["n"] == ticket.number and r["st"] == "issued"], what="issued")[0]
    claim = lines[lines.index("A reclamer avant/Claim by:") + 1]
    assert claim.startswith(quebec(rec["t"] + 86400).strftime("%Y-%m-%d %H:%M:%S"))  # 24 hours, not 30 days
    host.exceptions()


def test_system_validation_57_then_58_then_the_coupon_with_the_hosts_number(rig) -> None:
    cab, host = rig
    assert status(host, mask=0x8000) == bytes(4) + b"\x01\x00" + b"\x00\x01" + b"\x00\x00"  # bit 15 now 0
    assert validation(cab)["mode"] == "system"
    assert host.checked(0xA0, 9, b"\x00\x01", with_crc=True) == b"\x00\x01\x20\x00\x00"  # A0: 01, system
    host.exceptions()
    note(cab)
    n = len(tickets(cab))
    cab.panel.press("cashout")
    wait_57(host)
    assert validation(cab)["asked"]["c"] == 500 and cab.panel.screen.get("credits") == 20  # the credits wait
    assert host.checked(0x57, 10) == b"\x00" + bcd_bytes(500, 5)  # a cashable ticket of $5.00
    assert host.checked(0x58, 5, b"\x07" + bcd_bytes(NUMBER, 8)) == b"\x00"  # id 07 and the number: taken
    [*_, ticket] = wait_tickets(cab, n + 1)
    assert ticket.number == ticket.barcode == "07%016d" % NUMBER
    rec = until(lambda: [r for r in records(cab) if r["n"] == ticket.number and r["st"] == "issued"], what="issued")[0]
    assert rec["c"] == 500 and rec["v"] == 1 and validation(cab)["asked"] is None
    got = host.exceptions()
    assert got.count(0x3D) == 1 and 0x57 not in got, got
    d = host.checked(0x4D, 35, bytes([rec["s"]]))  # its record (by its index: the first kept is 1): 16 digits, id 07
    assert d[9:17] == bcd_bytes(NUMBER, 8) and d[24] == 0x07 and bcd(d[17:22]) == 500
    assert host.checked(0x57, 10) == b"\x80" + bytes(5)  # nothing waits
    assert host.checked(0x58, 5, b"\x07" + bcd_bytes(NUMBER + 1, 8)) == b"\x80"  # not in a cash-out


def test_a_refusal_and_no_answer_keep_the_credits(rig) -> None:
    cab, host = rig
    assert status(host, mask=0x8000)[4:6] == b"\x01\x00" and validation(cab)["mode"] == "system"
    host.exceptions()
    note(cab)
    n = len(tickets(cab))
    cab.panel.press("cashout")
    wait_57(host)
    assert host.checked(0x57, 10) == b"\x00" + bcd_bytes(500, 5)
    assert host.checked(0x58, 5, b"\x00" + bytes(8)) == b"\x00"  # id 00: refused
    until(lambda: validation(cab)["asked"] is None, what="the request dropped")
    assert cab.panel.wait_for(lambda s: s.get("state") == "credit")["credits"] == 20
    # again, and this time no answer: after 10 s the cash-out is given up, the credits stay
    t0 = time.monotonic()  # before the press: the request, and its 10 s, come after it
    cab.panel.press("cashout")
    wait_57(host)
    until(lambda: validation(cab)["asked"] is None, timeout=40, what="given up")
    assert time.monotonic() - t0 >= 10.0
    assert cab.panel.wait_for(lambda s: s.get("state") == "credit")["credits"] == 20
    assert len(tickets(cab)) == n
    # and once more, answered: the credits leave by the coupon
    cab.panel.press("cashout")
    wait_57(host)
    host.checked(0x57, 10)
    assert host.checked(0x58, 5, b"\x07" + bcd_bytes(NUMBER + 2, 8)) == b"\x00"
    assert wait_tickets(cab, n + 1)[-1].number == "07%016d" % (NUMBER + 2)
    cab.panel.wait_for(lambda s: s.get("credits") == 0)
    host.exceptions()


def test_a_power_cut_between_each_step_asks_the_same_again_one_coupon_one_number(rig) -> None:
    cab, host = rig
    assert status(host, mask=0x8000)[4:6] == b"\x01\x00"  # system validation
    note(cab)
    before = {r["n"] for r in records(cab)}
    n = len(tickets(cab))
    cab.panel.press("cashout")
    wait_57(host)
    reboot(cab)  # after the request
    wait_57(host, 8.0)
    assert validation(cab)["asked"]["c"] == 500 and cab.panel.screen.get("credits") == 20
    assert host.checked(0x57, 10) == b"\x00" + bcd_bytes(500, 5)
    reboot(cab)  # after the host read it: asked again, the same amount
    wait_57(host, 8.0)
    assert host.checked(0x57, 10) == b"\x00" + bcd_bytes(500, 5)
    assert host.checked(0x58, 5, b"\x07" + bcd_bytes(NUMBER + 3, 8)) == b"\x00"
    reboot(cab)  # after the number: the coupon committed, printed (again) with that number only
    new = issued(cab, lambda r: r["n"] not in before)
    assert [r["n"] for r in new] == ["07%016d" % (NUMBER + 3)]
    numbers = {t.number for t in cab.printer.tickets[n:] if t.number}
    assert numbers == {"07%016d" % (NUMBER + 3)}, numbers
    assert validation(cab)["asked"] is None and cab.panel.wait_for(lambda s: s.get("credits") == 0)
    assert host.checked(0x57, 10) == b"\x80" + bytes(5)
    # and the system takes the machine back to its own numbers: 4C
    assert host.checked(0x4C, 10, VID.to_bytes(3, "little") + bytes(3))[:3] == VID.to_bytes(3, "little")
    assert validation(cab)["mode"] == "secure"
    assert status(host) == bytes(4) + b"\x01\x80" + b"\x00\x01" + b"\x00\x00"
    host.exceptions()


def test_saspy_frames_read_the_same_57_and_7b(rig) -> None:
    """saspy (the independent host): its pending_cashout_info() reads one byte (its size default)
    and gives None, its extended_validation_status() sends nested lists; its own framing, wakeup
    and CRC check with the replies' real sizes read 57 and 7B as the layouts give them."""
    cab, host = rig
    from sim.sas_pty import accept_parity

    assert status(host, mask=0x8000) == bytes(4) + b"\x01\x00" + b"\x00\x01" + b"\x00\x00"  # system validation
    accept_parity()
    import sas as saspy_module  # installed by `make saspy` (mk/sas.mk)

    sp = saspy_module.Sas(cab.sas_path, timeout=1, poll_address=0x82, denom=0.25, debug_level="CRITICAL")
    sp.address = 1
    with host.lock:  # the keep-alive waits: one host on the line at a time
        assert sp.pending_cashout_info() is None
        got57 = sp._send_command([0x57], crc_need=False, size=10)
        got7b = sp._send_command([0x7B, 0x08, 0, 0, 0, 0, 0, 0, 0, 0], crc_need=True, size=15)
    sp.close()
    assert got57 == b"\x57\x80" + bytes(5)  # not waiting for system validation, $0.00
    assert got7b == b"\x7b\x0a" + bytes(4) + b"\x01\x00" + b"\x00\x01" + b"\x00\x00"
    assert host.checked(0x4C, 10, VID.to_bytes(3, "little") + bytes(3))[:3] == VID.to_bytes(3, "little")
    assert validation(cab)["mode"] == "secure"


def test_the_fuzz_campaigns_know_where_the_coupon_memory_is() -> None:
    from firmware.coupon_store import CPN_BASE
    from sim.fuzz import rules_service, rules_vlt

    assert rules_service.CPN_BASE == rules_vlt.CPN_BASE == CPN_BASE
