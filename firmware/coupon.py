# Redemption coupon contents (S-13.1, r. 7, s. 9; L-6, r. 3, s. 6) and its control number.
#
# Control number: 14 digits = machine number (5) + coupon sequence (8) + a Luhn check digit (ISO/IEC
# 7812-1 annex B, the "mod 10" of payment cards): a validation system recomputes the last digit from
# the other 13 and refuses a number misread or mistyped (any single digit, and any swap of two
# adjacent digits but 0-9/9-0). The number identifies the coupon; what it is worth is the record the
# machine committed under that number before printing (s. 10: the control number proves the value).
# Even length: Interleaved 2 of 5 encodes digits in pairs.
from firmware import localtime
from firmware.money import dollars  # noqa: F401 (coupon.dollars: the ticket's amount)

SEQ_DIGITS = 8
MACHINE_DIGITS = 5
DIGITS = MACHINE_DIGITS + SEQ_DIGITS + 1


def luhn_digit(payload):
    """The Luhn check digit of a string of digits: doubling every second digit from the right."""
    total = 0
    double = True  # the rightmost payload digit is doubled (the check digit will sit right of it)
    for i in range(len(payload) - 1, -1, -1):
        d = ord(payload[i]) - 48
        if not 0 <= d <= 9:
            raise ValueError("not a digit: %r" % payload[i])
        if double:
            d *= 2
            if d > 9:
                d -= 9
        total += d
        double = not double
    return str((10 - total % 10) % 10)


def machine_number(machine_id):
    """The last MACHINE_DIGITS digits of the machine's serial ("JTN-EMU-0001" -> "00001")."""
    digits = ""
    for ch in machine_id:
        if "0" <= ch <= "9":
            digits += ch
    return ("0" * MACHINE_DIGITS + digits)[-MACHINE_DIGITS:]


def control_number(machine_id, seq):
    if not 0 < seq < 10 ** SEQ_DIGITS:
        raise ValueError("coupon sequence out of range: %d" % seq)
    body = machine_number(machine_id) + ("%08d" % seq)
    return body + luhn_digit(body)


def valid(number):
    """What a validation system checks first: 14 digits whose last is their Luhn digit."""
    if len(number) != DIGITS or not number.isdigit():
        return False
    return luhn_digit(number[:-1]) == number[-1]


def stamp(t):
    """The board's clock (UTC seconds) -> "2026-11-23 01:12:09 HNE/EST": the local date and time, as
    a Québec ticket prints it (firmware/localtime.py)."""
    return localtime.stamp(t, localtime.BILINGUAL)


def lines(rec, cfg, duplicate=False):
    """The coupon's text lines, French then English, every s. 9 field on a line of its own (the
    control number follows as text and bar code: board/printer_epic.py). rec: the committed coupon
    record (firmware/coupon_books.py): {"s" sequence, "c" cents, "k" credits, "t" time, ...}."""
    out = [cfg.COUPON_SCHEME,
           "COUPON DE REMBOURSEMENT",
           "REDEMPTION COUPON"]
    if duplicate:
        out.append("*** DUPLICATA / DUPLICATE ***")
        out.append("NON NEGOCIABLE / NOT NEGOTIABLE")
    out += ["Titulaire/Licence: " + cfg.LICENCE_HOLDER,
            "Appareil/Machine: " + cfg.MACHINE_ID,
            stamp(rec["t"]),
            "Valeur/Value: " + dollars(rec["c"]),
            "Credits: %d" % rec["k"],
            "Coupon no %d" % rec["s"],
            "No de controle/Control number:"]
    return out
