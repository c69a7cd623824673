"""Québec's local time on the device (firmware/localtime.py) against Python's zoneinfo, an
independent implementation reading the IANA time-zone database (America/Montreal), over 1987-2040;
and the fixture the device test reads on both runtimes (tests/fixtures/localtime/) is zoneinfo's."""
from __future__ import annotations

import datetime
import json
from pathlib import Path
from zoneinfo import ZoneInfo

from firmware import coupon, localtime
from tools.console import security_table

ZONE = ZoneInfo("America/Montreal")
FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "localtime" / "montreal-transitions.json"
FIRST, LAST = 1987, 2040
UTC = datetime.timezone.utc


def _epoch(y: int, m: int = 1, d: int = 1) -> int:
    return int(datetime.datetime(y, m, d, tzinfo=UTC).timestamp())


def _offset(t: int) -> int:
    off = datetime.datetime.fromtimestamp(t, ZONE).utcoffset()
    assert off is not None
    return int(off.total_seconds())


def transitions() -> list[list[int]]:
    """[t, offset before, offset after] of every change of America/Montreal's offset, FIRST to LAST,
    to the second: zoneinfo's, found by an hourly scan then bisection."""
    out = []
    t, end = _epoch(FIRST), _epoch(LAST + 1)
    before = _offset(t)
    while t < end:
        nxt = t + 3600
        after = _offset(nxt)
        if after != before:
            lo, hi = t, nxt  # offset(lo) == before, offset(hi) == after
            while hi - lo > 1:
                mid = (lo + hi) // 2
                lo, hi = (mid, hi) if _offset(mid) == before else (lo, mid)
            out.append([hi, before, after])
            before = after
        t = nxt
    return out


def _expected(t: int) -> tuple:
    d = datetime.datetime.fromtimestamp(t, ZONE)
    return (d.year, d.month, d.day, d.hour, d.minute, d.second, bool(d.dst()))


def test_local_time_agrees_with_zoneinfo_over_fifty_years() -> None:
    # every 61 minutes and 7 seconds: every minute and hour of the day comes round, in every season
    bad = [t for t in range(_epoch(FIRST), _epoch(LAST + 1), 3667) if localtime.local(t) != _expected(t)]
    assert not bad, [(t, localtime.local(t), _expected(t)) for t in bad[:5]]


def test_each_change_to_the_second() -> None:
    changes = transitions()
    assert len(changes) == 2 * (LAST - FIRST + 1)  # a spring and an autumn change every year
    for t, before, after in changes:
        for at in (t - 3601, t - 1, t, t + 1, t + 3600):
            assert localtime.local(at) == _expected(at), (at, localtime.local(at), _expected(at))
        assert {before, after} == {-5 * 3600, -4 * 3600}


def test_the_fixture_is_zoneinfos() -> None:
    doc = json.loads(FIXTURE.read_text())
    assert doc["zone"] == "America/Montreal" and doc["transitions"] == transitions()


def test_weekday_and_sundays_against_the_calendar() -> None:
    day = datetime.date(1900, 1, 1)
    while day.year < 2101:
        assert localtime.weekday(day.year, day.month, day.day) == day.weekday(), day
        day += datetime.timedelta(days=1)
    # the Canadian rule's Sundays (Time Act practice since 2007): 2026-03-08 and 2026-11-01
    assert localtime.sunday(2026, 3, 2) == 8 and localtime.sunday(2026, 11, 1) == 1
    assert localtime.sunday(2006, 4, 1) == 2 and localtime.sunday(2006, 10, -1) == 29


def test_stamps_for_the_console_and_the_ticket() -> None:
    t = 1795415529  # calendar.timegm((2026, 11, 23, 6, 32, 9))
    assert localtime.stamp(t) == "2026-11-23 01:32:09 EST"
    assert localtime.stamp(t - 150 * 86400) == "2026-06-26 02:32:09 EDT"
    assert localtime.stamp(t, localtime.BILINGUAL) == "2026-11-23 01:32:09 HNE/EST"
    assert coupon.stamp(t) == "2026-11-23 01:32:09 HNE/EST"  # the coupon prints local time
    assert len(coupon.stamp(t - 150 * 86400)) <= 40  # one ticket line


def test_the_console_clients_security_table_in_local_time() -> None:
    records = [[1, 1795415529, "admin1", "login", "administrator"], [2, 1782455529, "admin1", "ok", "state"]]
    table = security_table(records)
    for (n, t, who, code, text), line in zip(records, table[1:]):
        d = datetime.datetime.fromtimestamp(t, ZONE)
        assert line == f"{n:>5}  {d:%Y-%m-%d %H:%M:%S} {d.tzname()}  {who:8}  {code:8}  {text}"
    assert "time (local)" in table[0]


def write_fixture() -> None:  # pragma: no cover - run by hand when the range changes
    FIXTURE.write_text(json.dumps({
        "source": "Python's zoneinfo (the IANA tz database: the host's, else the pinned tzdata package), "
                  f"America/Montreal, {FIRST}-{LAST}: tests/host/test_localtime.py transitions()",
        "zone": "America/Montreal",
        "transitions": transitions()}) + "\n")


if __name__ == "__main__":  # .venv/bin/python tests/host/test_localtime.py writes the fixture again
    write_fixture()
