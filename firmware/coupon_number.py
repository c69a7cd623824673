# Control numbers of redemption coupons: unique across machines, unique on one machine for its
# whole life, and not to be guessed without the machine's key (issue 22.3).
#
#   number, 18 digits = validation id (8) + keyed permutation of the sequence (9) + Luhn digit (1)
#
# validation id: the machine's, set by the system: what SAS long poll 4C ("set secure enhanced
#   validation ID") carries, 3 bytes, 1..16 777 215 (0 there asks for the current one), printed as 8
#   decimal digits. The system gives each machine its own, so two machines' numbers differ in their
#   first 8 digits.
# sequence: the machine's coupon count, 1..SEQ_MAX, kept in the coupon memory
#   (firmware/coupon_store.py), which a RAM clear does not reach; it never goes back.
# permutation: a 10-round alternating Feistel network over 9 decimal digits, built as NIST SP 800-38G
#   FF1 builds its own (the digits split 4 + 5; round i adds a keyed function of one part to the
#   other, modulo 10^4 in even rounds and 10^5 in odd ones, then swaps them), with HMAC-SHA256 as the
#   round function instead of AES (MicroPython has hashlib's SHA-256 everywhere, AES not). Its key
#   K = HMAC-SHA256(machine secret, LABEL): the board's machine_secret(), kept neither in the image
#   nor in NVRAM. The validation id and the round number are the tweak. Each round can be undone
#   (subtract instead of add), so the whole is a bijection of [0, 10^9): under one validation id two
#   sequences never give the same 9 digits. Without K, numbers 1..k say nothing about number k+1:
#   telling its digits from random ones would tell HMAC-SHA256 from a random function.
# check digit: Luhn (ISO/IEC 7812-1 annex B) over the 17 digits: a validation system refuses any
#   number with one digit misread, and any swap of two adjacent digits but 0-9/9-0. It is a check on
#   typing, not a secret: the secret is in the 9 permuted digits.
# 18 digits is the length SAS gives a secure enhanced validation number on a ticket, and an even
# count, which Interleaved 2 of 5 needs (it encodes digits in pairs).
from rng.crypto.hmac_sha256 import Hmac, pads

VID_MAX = 0xFFFFFF  # SAS 4C: 3 bytes
SEQ_MAX = 999999999  # the permutation's domain, [0, 10^9)
DIGITS = 18
LABEL = b"jeton coupon numbers v1"  # the key is derived: the secret keys critical memory's seals too
ROUNDS = 10
_U = 10000  # 10^4: the first part's digits
_V = 100000  # 10^5: the second part's


def keypads(secret):
    """The permutation's key, from the machine's secret, as the HMAC pads (computed once)."""
    return pads(Hmac(secret, LABEL).digest())


def _f(kp, vid, i, b, mod):
    # the round function: HMAC-SHA256(K, vid 3 bytes | round 1 byte | part 4 bytes), first 8 bytes
    # as a number, modulo 10^4 or 10^5 (its bias, under 10^5 / 2^64, is nothing)
    h = Hmac(None, None, kp)
    h.update(bytes((vid >> 16, (vid >> 8) & 255, vid & 255, i, b >> 24, (b >> 16) & 255, (b >> 8) & 255, b & 255)))
    return int.from_bytes(h.digest()[:8], "big") % mod


def permute(kp, vid, seq):
    """The 9 digits (as a number below 10^9) that sequence `seq` gets under validation id `vid`."""
    a, b = divmod(seq, _V)  # 4 digits, 5 digits
    for i in range(ROUNDS):
        mod = _U if i % 2 == 0 else _V
        a, b = b, (a + _f(kp, vid, i, b, mod)) % mod
    return a * _V + b


def unpermute(kp, vid, p):
    """The sequence whose digits are p (the inverse of permute, for a validation system or a test)."""
    a, b = divmod(p, _V)
    for i in range(ROUNDS - 1, -1, -1):
        mod = _U if i % 2 == 0 else _V
        a, b = (b - _f(kp, vid, i, a, mod)) % mod, a
    return a * _V + b


def luhn_digit(payload):
    """The Luhn check digit of a string of digits: doubling every second digit from the right."""
    total = 0
    double = True  # the rightmost payload digit is doubled (the check digit will sit right of it)
    b = payload.encode()  # bytes: a str's payload[i] makes each digit a qstr, kept in the heap
    for i in range(len(b) - 1, -1, -1):
        d = b[i] - 48
        if not 0 <= d <= 9:
            raise ValueError("not a digit in %r" % payload)
        if double:
            d *= 2
            if d > 9:
                d -= 9
        total += d
        double = not double
    return str((10 - total % 10) % 10)


def check_vid(vid):
    if not isinstance(vid, int) or not 0 < vid <= VID_MAX:
        raise ValueError("validation id must be 1 to %d (SAS 4C: 3 bytes)" % VID_MAX)


def text(vid, p):
    """The control number of permuted digits p under validation id vid: 18 digits."""
    body = "%08d%09d" % (vid, p)
    return body + luhn_digit(body)


def control_number(kp, vid, seq):
    """(p, number): the permuted digits and the 18-digit control number of coupon `seq`."""
    check_vid(vid)
    if not 0 < seq <= SEQ_MAX:
        raise ValueError("coupon sequence out of range: %d" % seq)
    p = permute(kp, vid, seq)
    return p, text(vid, p)


def valid(number):
    """What a validation system checks first: 18 digits whose last is their Luhn digit."""
    if not isinstance(number, str) or len(number) != DIGITS or not number.isdigit():
        return False
    return luhn_digit(number[:-1]) == number[-1]


def split(number):
    """(validation id, permuted digits) of a valid number; ValueError otherwise."""
    if not valid(number):
        raise ValueError("not a control number: %r" % number)
    return int(number[:8]), int(number[8:17])
