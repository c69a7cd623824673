# The calendar clock: whole seconds since 1970-01-01 UTC, what every record the firmware keeps is
# stamped with (firmware/eventlog.py now()) and SAS 7E reads.
#
# - A board's RTC is what the port's time.time() reads; its profile sets the RTC itself
#   (board/machine_board.py set_clock). A port built with MicroPython's default epoch (2000-01-01,
#   py/mpconfig.h MICROPY_EPOCH_IS_2000) counts from there: EPOCH adds the 946,684,800 seconds of
#   1970-1999, so records and firmware/localtime.py keep one epoch on every board.
# - The emulated board's process cannot set its host's clock: it keeps how far the time it was told
#   is from the host's (STATE/clock, board/emulated.py) and gives it here at power-up and at each
#   setting (shift).
import time

Y2K = 946684800  # 1970-01-01 to 2000-01-01: 10,957 days


def epoch_of(gmtime):
    """Seconds from 1970 to the port's epoch: what gmtime(0) says it is."""
    return Y2K if gmtime(0)[0] == 2000 else 0


EPOCH = epoch_of(time.gmtime) if hasattr(time, "gmtime") else 0  # qemu's port has no gmtime
_offset = 0


def now():
    return int(time.time()) + EPOCH + _offset


def shift(s):
    """The calendar clock runs s seconds from the port's own (the emulated board's setting)."""
    global _offset
    _offset = s


def offset_for(utc):
    """How far from the port's own clock the calendar clock runs when it reads utc now."""
    return utc - int(time.time()) - EPOCH
