# Coupon contents and control number (firmware/coupon.py) on both runtimes. The host test
# tests/host/test_printer_peer.py checks the Luhn digit against python-stdnum as well.
from devtest import raises
from firmware import coupon


class Cfg:
    COUPON_SCHEME = "LOTERIE VIDEO / VIDEO LOTTERY"
    LICENCE_HOLDER = "EXPL-QC-000001"
    MACHINE_ID = "JTN-EMU-0001"


def test_luhn_known_answer():
    # the worked example of the Luhn algorithm (ISO/IEC 7812-1 annex B): 7992739871 -> 3
    assert coupon.luhn_digit("7992739871") == "3"
    with raises(ValueError):
        coupon.luhn_digit("12a")


def test_control_number_layout():
    n = coupon.control_number("JTN-EMU-0001", 42)
    assert len(n) == 14 and n[:13] == "0000100000042" and coupon.valid(n)
    assert coupon.machine_number("A-123456") == "23456"
    with raises(ValueError):
        coupon.control_number("JTN-EMU-0001", 10 ** 8)


def test_stamp_is_quebec_local_time():
    # calendar.timegm((2026, 11, 23, 6, 32, 9)) == 1795415529: 01:32:09 EST (UTC-5, after the first
    # Sunday of November); firmware/localtime.py, checked against zoneinfo in tests/host/test_localtime.py
    assert coupon.stamp(1795415529) == "2026-11-23 01:32:09 HNE/EST"


def test_lines_hold_every_field_and_fit():
    rec = {"s": 7, "c": 2550, "k": 102, "t": 1795415529}
    text = coupon.lines(rec, Cfg)
    joined = "\n".join(text)
    for field in ("LOTERIE VIDEO / VIDEO LOTTERY", "EXPL-QC-000001", "JTN-EMU-0001", "2026-11-23 01:32:09 HNE/EST",
                  "$25.50", "Credits: 102"):
        assert field in joined, field
    assert "DUPLICATE" not in joined
    assert "DUPLICATA / DUPLICATE" in "\n".join(coupon.lines(rec, Cfg, duplicate=True))
    for line in text:
        assert len(line) <= 40, line  # board/printer_epic.py LINE: nothing is cut
