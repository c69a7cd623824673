"""The central system sets a vlt's clock (SAS 6.02 long poll 7F: MMDDYYYY as 4 BCD then HHMMSS as
3 BCD, local time) on the real firmware image on the emulated board, through the project's own host:
7E then reads it back, the console's event log stamps with it and says what it replaced, and a
power cut keeps it (the board's STATE/clock, as an RTC keeps its time). Times are compared with
Python's zoneinfo (America/Montreal), not with the firmware's conversion."""
from __future__ import annotations

import datetime
import json
import time
import zoneinfo

import pytest
from sas_rig import sas_cabinet

from sim.sas_host import SasHost

QUEBEC = zoneinfo.ZoneInfo("America/Montreal")
SET = datetime.datetime(2026, 1, 15, 12, 0, 0)  # local: 17:00 UTC (EST)


@pytest.fixture(scope="module")
def cab(tmp_path_factory):
    yield from sas_cabinet(tmp_path_factory.mktemp("sas-clock"), jurisdiction="vlt")


def read_clock(host: SasHost) -> datetime.datetime:
    return datetime.datetime.strptime(host.checked(0x7E, 11).hex(), "%m%d%Y%H%M%S")


def test_7f_sets_the_clock_7e_reads_it_and_a_power_cut_keeps_it(cab) -> None:
    host = SasHost(cab.sas_path)
    try:
        host.sync()
        now = datetime.datetime.now(QUEBEC).replace(tzinfo=None)
        assert abs((read_clock(host) - now).total_seconds()) < 5  # never set: the host's time
        t0 = time.monotonic()
        assert host.command(0x7F, bytes.fromhex(SET.strftime("%m%d%Y%H%M%S"))) == 0x01  # ACK
        assert 0 <= (read_clock(host) - SET).total_seconds() <= time.monotonic() - t0 + 2
        events = json.loads(cab.console.command("events json")[-1])["events"]
        n, t, code, text = events[-1]
        assert code == "sas" and text.startswith("clock set by the system to 2026-01-15 12:00:00, was "), text
        was = datetime.datetime.strptime(text[-19:], "%Y-%m-%d %H:%M:%S")
        assert abs((was - now).total_seconds()) < 10  # the time it replaced
        utc = SET.replace(tzinfo=QUEBEC).timestamp()
        assert 0 <= t - utc <= time.monotonic() - t0 + 2  # the event stamped by the new clock
        # 31 April does not exist: refused, nothing changed
        assert host.command(0x7F, bytes.fromhex("04312026120000")) == 0x81
    finally:
        host.close()
    cab.power_cut()
    cab.boot()
    host = SasHost(cab.sas_path)
    try:
        host.sync()
        assert 0 <= (read_clock(host) - SET).total_seconds() <= time.monotonic() - t0 + 2
    finally:
        host.close()
