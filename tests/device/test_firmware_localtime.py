# Québec's local time on the device (firmware/localtime.py), on both runtimes: at every change of
# America/Montreal's offset from 1987 to 2040, to the second, as the IANA database gives them
# (tests/fixtures/localtime/montreal-transitions.json: written from Python's zoneinfo, and checked
# against it, by tests/host/test_localtime.py).
import json
import time

from firmware import localtime

FIXTURE = "tests/fixtures/localtime/montreal-transitions.json"


def fields(t, offset):
    """What a clock `offset` seconds from UTC shows at t."""
    g = time.gmtime(t + offset)
    return (g[0], g[1], g[2], g[3], g[4], g[5], offset == -4 * 3600)


def test_every_change_of_offset_to_the_second():
    with open(FIXTURE) as f:
        doc = json.load(f)
    changes = doc["transitions"]
    assert doc["zone"] == "America/Montreal" and len(changes) == 2 * (2040 - 1987 + 1)
    for t, before, after in changes:
        assert localtime.local(t - 1) == fields(t - 1, before), t
        assert localtime.local(t) == fields(t, after), t
        assert localtime.local(t + 1800) == fields(t + 1800, after), t
    # between two changes the offset holds: the middle of each stretch
    for i in range(len(changes) - 1):
        mid = (changes[i][0] + changes[i + 1][0]) // 2
        assert localtime.local(mid) == fields(mid, changes[i][2]), mid


def test_weekdays_and_the_rules_sundays():
    assert localtime.weekday(2000, 1, 1) == 5  # a Saturday
    assert localtime.weekday(2024, 2, 29) == 3  # a Thursday, in a leap year
    assert localtime.weekday(1900, 3, 1) == 3  # 1900 is no leap year
    assert localtime.sunday(2026, 3, 2) == 8 and localtime.sunday(2026, 11, 1) == 1
    assert localtime.sunday(1999, 10, -1) == 31 and localtime.sunday(2006, 10, -1) == 29


def test_stamp():
    t = 1795415529  # 2026-11-23 06:32:09 UTC
    assert localtime.stamp(t) == "2026-11-23 01:32:09 EST"
    assert localtime.stamp(t, localtime.BILINGUAL) == "2026-11-23 01:32:09 HNE/EST"
    assert localtime.stamp(1782459129) == "2026-06-26 03:32:09 EDT"  # 07:32:09 UTC
