# mp-heap: 896K  (the fake board's 128 KB NVRAM image, a game model, the printer and the SAS modules)
# The central system sets a vlt's clock (SAS 6.02 long poll 7F, receive date and time: MMDDYYYY as
# 4 BCD then HHMMSS as 3 BCD, local time; ACK 0x01 is the address alone, NACK the address | 0x80:
# s. 5.2) on a vlt cabinet (fake board, both runtimes). The instants are written out by hand:
# 2026-01-15 12:00:00 EST is 17:00 UTC, 20,468 days after 1970-01-01; 2028-02-29 12:00:00 EST is
# 17:00 UTC, 21,243 days after it (2026: 365, 2027: 365, then 31 + 28 days into 2028).
from fakes_sas_vlt import bcd, fresh, poll

from board import calendar_clock

ACK = b"\x01"
NACK = b"\x81"


def clock(mmddyyyy, hhmmss):
    return bcd(mmddyyyy, 4) + bcd(hhmmss, 3)


class Settable:
    """The board's settable clock: what it was given, or an OSError (a part that cannot keep it)."""

    def __init__(self, fail=False):
        self.given = []
        self.fail = fail

    def __call__(self, utc):
        if self.fail:
            raise OSError(5)
        self.given.append(utc)


def test_7f_sets_the_board_s_clock_to_the_utc_of_the_quebec_time_sent_and_logs_the_time_replaced():
    cab = fresh()
    cab.board.set_clock = setter = Settable()
    n = len(cab.ledger.events())
    assert poll(cab, 0x7F, clock(1152026, 120000)) == ACK
    assert setter.given == [20468 * 86400 + 17 * 3600]
    ev = cab.ledger.events()
    assert len(ev) == n + 1 and ev[-1][2] == "sas", ev[-1]
    assert ev[-1][3].startswith("clock set by the system to 2026-01-15 12:00:00, was "), ev[-1][3]
    assert poll(cab, 0x7F, clock(2292028, 120000)) == ACK  # 2028 is a leap year
    assert setter.given[-1] == 21243 * 86400 + 17 * 3600


def test_7f_refuses_a_date_or_time_that_does_not_exist_and_changes_nothing():
    cab = fresh()
    cab.board.set_clock = setter = Settable()
    n = len(cab.ledger.events())
    for mmddyyyy, hhmmss in ((4312026, 120000),  # 31 April
                             (2292027, 120000),  # 29 February of a common year
                             (13012026, 120000),  # month 13
                             (1002026, 120000),  # day 0
                             (1151999, 120000),  # before 2000
                             (1152026, 240000),  # hour 24
                             (1152026, 126000)):  # minute 60
        assert poll(cab, 0x7F, clock(mmddyyyy, hhmmss)) == NACK, (mmddyyyy, hhmmss)
    assert poll(cab, 0x7F, b"\x01\x1a\x20\x26\x12\x00\x00") == NACK  # not BCD
    assert setter.given == [] and len(cab.ledger.events()) == n


def test_7f_is_refused_when_the_board_cannot_keep_the_time():
    cab = fresh()
    cab.board.set_clock = Settable(fail=True)
    n = len(cab.ledger.events())
    assert poll(cab, 0x7F, clock(1152026, 120000)) == NACK
    assert len(cab.ledger.events()) == n  # no event for a clock not set


def test_7f_is_refused_on_a_board_without_a_settable_clock():
    cab = fresh()
    assert getattr(cab.board, "set_clock", None) is None
    assert poll(cab, 0x7F, clock(1152026, 120000)) == NACK


def test_the_calendar_clock_counts_from_1970_on_a_port_whose_epoch_is_2000():
    # MicroPython's default epoch is 2000-01-01 (py/mpconfig.h MICROPY_EPOCH_IS_2000): a port built
    # so says gmtime(0) is 2000-01-01, and its seconds are 10,957 days short of 1970's
    assert calendar_clock.epoch_of(lambda t: (2000, 1, 1, 0, 0, 0, 5, 1)) == 10957 * 86400
    assert calendar_clock.epoch_of(lambda t: (1970, 1, 1, 0, 0, 0, 3, 1)) == 0


def test_7f_to_every_machine_at_once_sets_the_clock_unanswered():
    # address 0, the broadcast: Monaco's public LP7F parser takes 7F from addresses 00-7F (7E from 01-7F)
    cab = fresh()
    cab.board.set_clock = setter = Settable()
    assert poll(cab, 0x7F, clock(1152026, 120000), address=0) == b""  # never answered
    assert setter.given == [20468 * 86400 + 17 * 3600]
    assert poll(cab, 0x7E, address=0) == b""  # a read is not a broadcast: ignored
