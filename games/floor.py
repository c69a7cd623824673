# By-law s. 93: the return rate of each game offered by a slot machine cannot be lower than 83 %.
# One constant, read by the host certifier and by the boot check alike. It is not a setting: no
# option, file or argument can lower it; raising it needs a code change and a new certification.
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


RTP_FLOOR_NUM = const(83)
RTP_FLOOR_DEN = const(100)


def meets_floor(num, den):
    """True when num/den >= 83/100 (exact, integers only)."""
    return den > 0 and num * RTP_FLOOR_DEN >= RTP_FLOOR_NUM * den
