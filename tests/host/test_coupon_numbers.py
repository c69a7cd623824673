"""Coupon control numbers (firmware/coupon_number.py) against a second implementation written here
from the construction's description alone: Python's `hmac` for the round function, the Feistel
network over digit strings as NIST SP 800-38G FF1 writes its own (NUM/STR of A and B), and
python-stdnum's `luhn` for the check digit. Also: no repeats over a long run. (Québec local time:
tests/host/test_localtime.py.)"""
from __future__ import annotations

import hashlib
import hmac
import random

from stdnum import luhn

from firmware import coupon_number

SECRET = bytes(range(32))  # tests/device/fakes_firmware.py TEST_SECRET


def independent(secret: bytes, vid: int, seq: int) -> str:
    """The 18-digit number as the docs describe it (docs/coupons.md "Redemption coupons")."""
    key = hmac.new(secret, b"jeton coupon numbers v1", hashlib.sha256).digest()
    x = f"{seq:09d}"
    u, v = 4, 5
    a, b = x[:u], x[u:]
    for i in range(10):
        m = u if i % 2 == 0 else v
        msg = vid.to_bytes(3, "big") + bytes([i]) + int(b).to_bytes(4, "big")
        y = int.from_bytes(hmac.new(key, msg, hashlib.sha256).digest()[:8], "big")
        c = (int(a) + y) % 10 ** m
        a, b = b, f"{c:0{m}d}"
    body = f"{vid:08d}" + a + b
    return body + luhn.calc_check_digit(body)


def test_numbers_match_the_independent_implementation() -> None:
    kp = coupon_number.keypads(SECRET)
    r = random.Random(22)
    cases = [(1234, 1), (1234, 2), (16777215, 999999999), (1, 1)]
    cases += [(r.randrange(1, 1 << 24), r.randrange(1, 10 ** 9)) for _ in range(300)]
    for vid, seq in cases:
        p, n = coupon_number.control_number(kp, vid, seq)
        assert n == independent(SECRET, vid, seq), (vid, seq)
        assert luhn.is_valid(n) and coupon_number.valid(n)
    other = bytes(range(1, 33))
    assert coupon_number.control_number(coupon_number.keypads(other), 9, 3)[1] == independent(other, 9, 3)


def test_luhn_matches_stdnum() -> None:
    r = random.Random(12)
    for _ in range(2000):
        body = "".join(r.choice("0123456789") for _ in range(r.randrange(1, 20)))
        assert coupon_number.luhn_digit(body) == luhn.calc_check_digit(body), body


def test_every_single_digit_misread_is_refused() -> None:
    n = coupon_number.control_number(coupon_number.keypads(SECRET), 4242, 17)[1]
    for i in range(len(n)):
        for d in "0123456789":
            if d != n[i]:
                bad = n[:i] + d + n[i + 1:]
                assert not coupon_number.valid(bad) and not luhn.is_valid(bad)
    assert not coupon_number.valid(n[:-1]) and not coupon_number.valid("x" * 18)


def test_no_repeat_over_a_long_run() -> None:
    # a bijection by construction (each round undone by unpermute); checked over 20 000 sequences
    kp = coupon_number.keypads(SECRET)
    seen = set()
    for seq in range(1, 20001):
        p = coupon_number.permute(kp, 31337, seq)
        assert p not in seen
        seen.add(p)
    # and the whole domain's structure on a smaller scale: the same network over 4 + 5 digits maps
    # the first 10 000 values of the domain onto 10 000 distinct values (the inverse recovers each)
    assert all(coupon_number.unpermute(kp, 31337, coupon_number.permute(kp, 31337, s)) == s for s in range(10000))
