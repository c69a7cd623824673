# Local time in Québec (the zone America/Montreal) from the board's UTC clock, in integer code: a
# coupon states when it was printed and until when it may be claimed (S-13.1, r. 7, s. 9 and 14) as
# a Québec ticket would, in local time.
#
# Standard time is UTC-5 (HNE / EST); daylight time UTC-4 (HAE / EDT) from the second Sunday of
# March at 2:00 standard time to the first Sunday of November at 2:00 daylight time (Canada's rule
# since 2007; Québec's Loi sur le temps légal, chapter T-5.1, follows it).
import time

_HOUR = 3600
_STD = -5 * _HOUR


def _dst(y, mo, d, h, wd):
    """Whether daylight time is in force at standard (UTC-5) time y-mo-d h:.. whose weekday is wd
    (0 Monday .. 6 Sunday)."""
    if 3 < mo < 11:
        return True
    if mo not in (3, 11):
        return False
    first = 1 + (6 - (wd - (d - 1))) % 7  # the month's first Sunday (weekday of the 1st: wd - (d - 1))
    if mo == 3:
        return (d, h) >= (first + 7, 2)  # from 2:00 standard time on the second Sunday
    return (d, h) < (first, 1)  # until 2:00 daylight time (1:00 standard) on the first Sunday


def local(t):
    """(year, month, day, hour, minute, second, daylight) in Québec at t seconds since the epoch."""
    s = t + _STD
    g = time.gmtime(s)
    dst = _dst(g[0], g[1], g[2], g[3], g[6])
    if dst:
        g = time.gmtime(s + _HOUR)
    return g[0], g[1], g[2], g[3], g[4], g[5], dst


def stamp(t):
    """1795415529 -> "2026-11-23 01:32:09 HNE/EST" (French zone name, then English)."""
    y, mo, d, h, mi, s, dst = local(t)
    return "%04d-%02d-%02d %02d:%02d:%02d %s" % (y, mo, d, h, mi, s, "HAE/EDT" if dst else "HNE/EST")
