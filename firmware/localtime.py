# Québec's local time from the board's clock, which keeps UTC (the console's events, security log
# and recall, the coupon's date and time). The zone is the IANA database's America/Montreal: EST,
# UTC-5, and EDT, UTC-4, by the Canadian rule in a few integer lines, since a board has no time-zone
# database:
# - from 2007: daylight time from the second Sunday of March to the first Sunday of November;
# - 1987 to 2006 (and, here, any earlier instant: a clock never set): from the first Sunday of April
#   to the last Sunday of October;
# each change at 2:00 local time: 07:00 UTC in the spring, 06:00 UTC in the autumn.
# Checked against Python's zoneinfo (an independent implementation, IANA data) over 1987-2040 in
# tests/host/test_localtime.py, and on both runtimes from its transitions in tests/fixtures.
import time

from board.calendar_clock import EPOCH

EST = ("EST", "EDT")  # the console's names (English)
BILINGUAL = ("HNE/EST", "HAE/EDT")  # a ticket's, French first: heure normale / avancée de l'Est
_CUM = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334)  # days before each month, common year


def _leap(y):
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def weekday(y, m, d):
    """0 Monday ... 6 Sunday, proleptic Gregorian (0001-01-01 was a Monday)."""
    p = y - 1
    days = 365 * p + p // 4 - p // 100 + p // 400 + _CUM[m - 1] + d - 1
    if m > 2 and _leap(y):
        days += 1
    return days % 7


def sunday(y, m, nth):
    """The day of the month of the nth Sunday of month m (nth = -1: the last, of a 31-day month)."""
    first = 1 + (6 - weekday(y, m, 1)) % 7
    if nth > 0:
        return first + 7 * (nth - 1)
    return first + 28 if first + 28 <= 31 else first + 21


def is_dst(y, mo, d, h):
    """Whether daylight time is in force at this UTC hour (the fields of time.gmtime)."""
    if y >= 2007:
        start = 300 + sunday(y, 3, 2)
        end = 1100 + sunday(y, 11, 1)
    else:
        start = 400 + sunday(y, 4, 1)
        end = 1000 + sunday(y, 10, -1)
    at = (mo * 100 + d) * 100 + h  # mmddhh as one integer
    return start * 100 + 7 <= at < end * 100 + 6


def local(t):
    """Seconds since 1970 (UTC, board/calendar_clock.py) -> (year, month, day, hour, minute,
    second, dst). The port's gmtime counts from its own epoch."""
    t -= EPOCH
    f = time.gmtime(t)
    dst = is_dst(f[0], f[1], f[2], f[3])
    g = time.gmtime(t - (4 if dst else 5) * 3600)
    return g[0], g[1], g[2], g[3], g[4], g[5], dst


def stamp(t, names=EST):
    """'2026-11-23 01:32:09 EST': the local date and time, ISO 8601's order, and the zone's name."""
    y, mo, d, h, mi, s, dst = local(t)
    return "%04d-%02d-%02d %02d:%02d:%02d %s" % (y, mo, d, h, mi, s, names[1] if dst else names[0])
