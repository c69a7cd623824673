# The clock that stamps every record the firmware keeps (events, recall, notes, coupons, the
# security log): whole seconds of the port's time.time(); firmware/localtime.py shows them.
import time


def now():
    return int(time.time())
