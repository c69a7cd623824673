"""Ticket in (SAS 70/71, exceptions 67/68) on the real firmware image: a casino cabinet on the
emulated board with a ticket reader (settings.json TICKET_IN), its emulated bill validator
(sim/cctalk_bills.py) presenting a barcoded ticket, driven by the project's own host
(sim/sas_host.py). The messages are built here from SAS 6.02's layouts (Tables 15.11 and
15.12a-d as Monaco's public LP70/LP71 parsers give them: docs/sas.md "Ticket in"); what the host
reads back is held to the validator peer's cash box, the panel's credits and the test's own count,
never to the SAS code. saspy's calls for these polls (ticket_validation_data, redeem_ticket) are
marked FIXME in its sas.py and send 8 BCD where the layout has 9: the project's host sends them."""
from __future__ import annotations

import time

import pytest
from sas_rig import sas_cabinet, sas_host

from sim.sas_host import SasHost, bcd

NUMBER = "009876543210123456"
NUMBER_BCD = bytes.fromhex(NUMBER)  # 18 digits: 9 BCD bytes, most significant first
CENTS = 1250  # $12.50: 50 credits of 25 cents


def redeem(code: int = 0x00, cents: int = CENTS, number: bytes = NUMBER_BCD) -> bytes:
    """71's data after its length: transfer code, amount (5 BCD), parsing code 00, validation data."""
    return bytes((code,)) + bytes.fromhex("%010d" % cents) + b"\x00" + number


@pytest.fixture(scope="module")
def cab(tmp_path_factory):
    yield from sas_cabinet(tmp_path_factory.mktemp("sas-ticket-in"), {"TICKET_IN": True})


@pytest.fixture(scope="module")
def host(cab):
    yield from sas_host(cab)


def wait(what, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while not what():
        if time.monotonic() > deadline:
            raise TimeoutError("not in time")
        time.sleep(0.05)


def present(cab, host: SasHost) -> list[int]:
    """The ticket into the reader once the firmware enables it; the exceptions until 67 comes."""
    wait(lambda: cab.bills.master_enabled)
    assert cab.bills.insert_ticket(NUMBER)
    got: list[int] = []
    deadline = time.monotonic() + 10
    while 0x67 not in got:
        assert time.monotonic() < deadline, got
        got += host.exceptions()
        time.sleep(0.05)
    return got


def test_a_ticket_from_67_to_credits_and_meters_read_back_over_1a_and_2f(cab, host) -> None:
    cab.panel.wait_for(lambda s: s.get("state") in ("idle", "credit"))
    before = cab.panel.screen.get("credits", 0)
    assert present(cab, host)[-1] == 0x67
    d = host.variable(0x70)
    assert d == b"\x00" + bytes(5) + b"\x00" + NUMBER_BCD  # in escrow, amount unknown, parsing 00, the number
    d = host.variable(0x71, redeem(), multi=True)
    assert d == b"\x40" + bytes.fromhex("%010d" % CENTS) + b"\x00" + NUMBER_BCD  # redemption pending
    wait(lambda: cab.bills.tickets_stacked == [NUMBER])
    s = cab.panel.wait_for(lambda s: s.get("credits", 0) == before + 50)
    assert s["credits"] == before + 50
    got = []
    deadline = time.monotonic() + 10
    while 0x68 not in got:
        assert time.monotonic() < deadline, got
        got += host.exceptions()
    assert got.count(0x68) == 1 and 0x67 not in got  # each reported once
    assert host.variable(0x71, b"\xff", multi=True) == b"\x00" + bytes.fromhex("%010d" % CENTS) + b"\x00" + NUMBER_BCD
    assert host.meter(0x1A) == before + 50
    d = host.variable(0x2F, b"\x00\x00" + bytes((0x0D, 0x11, 0x28, 0x80, 0x81)), multi=True)
    assert d[:2] == b"\x00\x00"
    meters = {d[i]: bcd(d[i + 1:i + 5]) for i in range(2, len(d), 5)}
    assert meters == {0x0D: CENTS, 0x11: 1, 0x28: 50, 0x80: CENTS, 0x81: 1}, meters


def test_the_system_refusing_hands_the_ticket_back(cab, host) -> None:
    before = cab.panel.screen.get("credits", 0)
    present(cab, host)
    host.variable(0x70)
    assert host.variable(0x71, redeem(code=0x84), multi=True)[0] == 0x80  # already redeemed: rejected by the host
    wait(lambda: cab.bills.tickets_returned == [NUMBER])
    wait(lambda: host.variable(0x71, b"\xff", multi=True)[0] == 0x80)
    assert host.meter(0x1A) == before and cab.bills.tickets_stacked == [NUMBER]  # the first test's only


def test_a_power_cut_before_the_answer_hands_the_ticket_back(cab, host) -> None:
    present(cab, host)
    host.variable(0x70)
    bills = cab.bills
    cab.power_cut()
    bills.power_cycle(held="keep")  # the validator still holds it when the cabinet comes back
    cab.boot(bills=bills)
    wait(lambda: bills.tickets_returned == [NUMBER, NUMBER], timeout=20)
    host.sync()
    wait(lambda: host.variable(0x71, b"\xff", multi=True)[0] == 0x87)  # unable to accept: nothing credited
    assert host.variable(0x71, redeem(), multi=True) == b"\xc0"  # the answer comes too late: no cycle
    assert bills.tickets_stacked == [NUMBER]
