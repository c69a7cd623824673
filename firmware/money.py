# Money as a person reads it: cents to dollars, integers only (no float anywhere near money). The
# coupon prints it (firmware/coupon.py) and the console shows it (firmware/console_read.py).


def dollars(cents):
    """1234567 -> "$12,345.67"."""
    whole = str(cents // 100)
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    return "$%s.%02d" % (",".join(groups), cents % 100)
