# Coupon contents (firmware/coupon.py), control numbers (firmware/coupon_number.py) and Québec local
# time (firmware/localtime.py) on both runtimes. The host test tests/host/test_coupon_numbers.py
# checks the numbers against an independent implementation (Python's hmac, python-stdnum's Luhn)
# and the local time against Python's zoneinfo.
from devtest import raises

from firmware import coupon, coupon_number

SECRET = bytes(range(32))  # tests/device/fakes_firmware.py TEST_SECRET
KP = coupon_number.keypads(SECRET)
# (validation id, sequence) -> control number, computed by the independent implementation in
# tests/host/test_coupon_numbers.py (Python's hmac and int arithmetic) with the key SECRET
KNOWN = ((1234, 1, "000012342975767189"), (1234, 2, "000012342007087051"),
         (16777215, 999999999, "167772159106753293"), (1, 1, "000000015757470289"))


class Cfg:
    COUPON_SCHEME = "LOTERIE VIDEO / VIDEO LOTTERY"
    LICENCE_HOLDER = "EXPL-QC-000001"
    MACHINE_ID = "JTN-EMU-0001"


def test_luhn_known_answer():
    # the worked example of the Luhn algorithm (ISO/IEC 7812-1 annex B): 7992739871 -> 3
    assert coupon_number.luhn_digit("7992739871") == "3"
    with raises(ValueError):
        coupon_number.luhn_digit("12a")


def test_control_numbers_known_answers_and_layout():
    for vid, seq, number in KNOWN:
        p, n = coupon_number.control_number(KP, vid, seq)
        assert n == number, (vid, seq, n)
        assert len(n) == 18 and n[:8] == "%08d" % vid and coupon_number.valid(n)
        assert coupon_number.split(n) == (vid, p) and coupon_number.unpermute(KP, vid, p) == seq
    for vid, seq in ((0, 1), (16777216, 1), (1, 0), (1, 10 ** 9)):
        with raises(ValueError):
            coupon_number.control_number(KP, vid, seq)
    with raises(ValueError):
        coupon_number.split("000012342975767188")  # check digit wrong


def test_the_permutation_is_a_bijection_no_sequence_repeats():
    # every sequence in a run gets its own digits, and the inverse gives the sequence back
    seen = {}
    for seq in range(1, 401):
        p = coupon_number.permute(KP, 77, seq)
        assert 0 <= p < 10 ** 9 and p not in seen, (seq, seen.get(p))
        seen[p] = seq
        assert coupon_number.unpermute(KP, 77, p) == seq
    for p in (0, 1, 10 ** 9 - 1, 123456789):  # the inverse is a permutation of the domain too
        assert coupon_number.permute(KP, 77, coupon_number.unpermute(KP, 77, p)) == p


def test_two_keys_give_unrelated_numbers():
    # another machine's secret (or none known): the digits of the same sequences share nothing but
    # chance (a 9-digit value agrees by chance in a digit place one time in ten)
    other = coupon_number.keypads(bytes(32))
    same = 0
    places = 0
    for seq in range(1, 201):
        a = "%09d" % coupon_number.permute(KP, 5, seq)
        b = "%09d" % coupon_number.permute(other, 5, seq)
        assert a != b
        for i in range(9):
            places += 1
            same += a[i] == b[i]
    assert 0.07 < same / places < 0.13, same / places
    # nor are consecutive sequences near each other under one key: the next number is not the last + 1
    steps = [coupon_number.permute(KP, 5, s + 1) - coupon_number.permute(KP, 5, s) for s in range(1, 101)]
    assert sum(1 for d in steps if -1000 < d < 1000) <= 2


def test_two_validation_ids_never_share_a_number():
    a = set(coupon_number.control_number(KP, 1000, s)[1] for s in range(1, 101))
    b = set(coupon_number.control_number(KP, 1001, s)[1] for s in range(1, 101))
    assert not a & b and len(a) == len(b) == 100


def test_local_time_in_quebec_across_the_changes():
    # Python's zoneinfo (America/Montreal), as tests/host/test_coupon_numbers.py checks at large
    cases = ((1772953199, "2026-03-08 01:59:59 HNE/EST"), (1772953200, "2026-03-08 03:00:00 HAE/EDT"),
             (1793512799, "2026-11-01 01:59:59 HAE/EDT"), (1793512800, "2026-11-01 01:00:00 HNE/EST"),
             (1795415529, "2026-11-23 01:32:09 HNE/EST"), (1798779599, "2026-12-31 23:59:59 HNE/EST"),
             (1709208000, "2024-02-29 07:00:00 HNE/EST"), (1899356400, "2030-03-10 03:00:00 HAE/EDT"))
    for t, text in cases:
        assert coupon.stamp(t) == text, (t, coupon.stamp(t), text)


def test_lines_hold_every_field_the_claim_deadline_and_fit():
    rec = {"s": 7, "c": 2550, "k": 102, "t": 1795415529}
    text = coupon.lines(rec, Cfg, claim_s=86400)
    joined = "\n".join(text)
    for field in ("LOTERIE VIDEO / VIDEO LOTTERY", "EXPL-QC-000001", "JTN-EMU-0001",
                  "Emis/Issued: 2026-11-23 01:32:09 HNE/EST", "$25.50", "Credits: 102",
                  "A reclamer avant/Claim by:\n2026-11-24 01:32:09 HNE/EST"):
        assert field in joined, field
    assert "DUPLICATE" not in joined
    assert "DUPLICATA / DUPLICATE" in "\n".join(coupon.lines(rec, Cfg, duplicate=True))
    assert "Claim by" not in "\n".join(coupon.lines(rec, Cfg))  # no deadline where the profile has none
    for line in text:
        assert len(line) <= 40, line  # board/printer_epic.py LINE: nothing is cut
