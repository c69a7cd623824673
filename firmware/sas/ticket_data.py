# What a ticket carries and how the machine validates, as the central system sets them (SAS 6.02
# s. 15.2-15.4): 7B extended validation status, 7C set extended ticket data, 7D set ticket data, on a
# cabinet with a coupon memory (firmware/coupon_store.py tk block: critical memory, not reached by a
# RAM clear); a cabinet without one is not configured for validation and ignores them (no answer).
# Imported at the first of them (firmware/sas/tickets.py).
#
# Layouts (SAS 6.02 Tables 15.2-15.4 as Monaco's public Aristocrat.Sas.Client LPParsers
# LP7BExtendedValidationStatusParser, LP7CSetExtendedTicketDataParser, LP7DSetTicketDataParser give
# them; saspy's sas.py extended_validation_status sends 7B alike, and the Table 15.2c bits are those
# of two further public implementations, docs/sas.md):
#   7B in:  length 08, control mask (2 binary), status bits (2 binary: 1 enables where the mask has
#           1), cashable ticket expiration (2 BCD days: 0000 no change, 9999 never), restricted
#           ticket expiration (2 BCD, the same)
#   7B out: length 0A, asset number (4 binary), status bits (2 binary), the two expirations in force
#   7C in:  length, then (data code, data length, ASCII) ...: code 00 location, 01 address 1, 02
#           address 2 (at most 40 characters; length 0: back to none), 10 restricted ticket title,
#           20 debit ticket title (at most 16: taken, not kept, Jeton prints neither ticket)
#   7D in:  length (00, 02-7E), host id (2 binary), expiration (1 binary: days, 00 never expires),
#           then location, address 1, address 2 as (length 00-28, ASCII): each field may be left out
#           from the end, a length of 00 leaves that text as it is
#   7C/7D out: a status flag, 00 or 01 (below)
# Table 15.2c's bits: 0 use the printer as cash-out device, 1 as hand-pay receipt device, 2 validate
# hand pays, 3 print restricted tickets, 4 tickets for foreign restricted amounts, 5 ticket
# redemption, 15 secure enhanced validation configuration (its 4C configuration).
#
# Decided here (no text of the spec at hand): bit 0 is 1 on a cabinet with a coupon printer and
# stays so (a VLT pays by coupon only, S-13.1, r. 7, s. 4); bits 1-5 are 0 (none of it is done);
# bit 15 cleared by the system (mask 1, status 0) ends secure enhanced validation and the machine is
# then validated by the system (SAS 57/58: firmware/sas/system_validation.py) until a 4C sets a
# validation id again; bit 15 reads 1 while the machine numbers its coupons with a validation id.
# The asset number is 0: Jeton's machine id is not a number. The expiration in force is the
# system's days within the jurisdiction profile's claim_s (vlt: 24 hours, S-13.1, r. 7, s. 14:
# 0001), 9999 when no deadline is printed. The 7C/7D flag is 01 when the poll's data was valid and
# is in force (a 7D of length 00 only asks: 01 when the system's texts are in force), 00 when it was
# not valid (nothing kept). A change that would make the coupon owed print differently when it
# prints again (after a cut or a printer fault), or that changes the validation while a cash-out
# waits for the system's number, is answered busy (SAS 6.02 s. 4.1: the system asks again later).
from board.sas_link import BUSY, NACK
from firmware.sas import bcd

PRINTER = 0x0001  # Table 15.2c bit 0: use the printer as cash-out device
SECURE = 0x8000  # bit 15: secure enhanced validation configuration
TITLE_MAX = 16  # 7C's ticket titles


def _printable(rx, i, n):
    for j in range(i, i + n):
        if not 0x20 <= rx[j] < 0x7F:
            return False
    return True


def _text(rx, i, n):
    return bytes(rx[i:i + n]).decode()


def _change(m, t, why):
    """Keep t; BUSY when it must wait (firmware/coupon_system.py set_ticket), else None."""
    from firmware import coupon_system

    try:
        coupon_system.set_ticket(m.cab, t, why)
    except coupon_system.Busy:
        return BUSY
    return None


def status(m, rx, k, out):
    """7B: the validation's control bits and the expirations; what is in force comes back."""
    store = m.cab.coupons
    if store is None:
        return None
    if rx[2] != 8:
        return NACK
    mask = rx[3] | rx[4] << 8
    bits = rx[5] | rx[6] << 8
    try:
        days = bcd.get(rx, 7, 2)
        rdays = bcd.get(rx, 9, 2)
    except ValueError:
        return NACK
    from firmware.coupon_store import SYSTEM, claim_s

    t = store.ticket()
    new = dict(t)
    if days:
        new["days"] = days
    if rdays:
        new["rdays"] = rdays
    if mask & SECURE and not bits & SECURE:
        new["flags"] |= SYSTEM  # the secure enhanced configuration cancelled: the system validates
    if new != t:
        if _change(m, new, "7B") is not None:
            return BUSY
        t = new
    out[2] = 10
    for i in range(3, 7):
        out[i] = 0  # asset number: none
    on = PRINTER if m.cab.money_out.printer is not None else 0
    if store.vid and not t["flags"] & SYSTEM:
        on |= SECURE
    out[7] = on & 0xFF
    out[8] = on >> 8
    claim = claim_s(m.cab.money_out.profile.get("claim_s"), t["days"])
    bcd.put(out, 9, 9999 if claim is None else min(9998, (claim + 86399) // 86400), 2)
    bcd.put(out, 11, t["rdays"], 2)
    return 11


def extended(m, rx, k, out):
    """7C: location, address lines and ticket titles, each by its data code."""
    store = m.cab.coupons
    if store is None:
        return None
    t = store.ticket()
    new = dict(t)
    end = 3 + rx[2]
    i = 3
    ok = True
    while i < end:
        if i + 2 > end:
            ok = False
            break
        code, n = rx[i], rx[i + 1]
        i += 2
        if i + n > end or not _printable(rx, i, n) or code not in (0, 1, 2, 0x10, 0x20) or \
                n > (40 if code < 3 else TITLE_MAX):
            ok = False
            break
        if code < 3:
            new[("loc", "a1", "a2")[code]] = _text(rx, i, n)
        i += n
    return _flagged(m, t, new, ok, "7C", out)


def ticket(m, rx, k, out):
    """7D: host id, expiration, location and address lines (the common data a system may send to
    every machine at once: address 0, no answer)."""
    store = m.cab.coupons
    if store is None:
        return None
    t = store.ticket()
    n = rx[2]
    if n == 0:
        from firmware.coupon_store import TEXT

        out[2] = 1 if t["flags"] & TEXT else 0
        return 1
    new = dict(t)
    end = 3 + n
    ok = n >= 2
    if ok:
        new["host"] = rx[3] | rx[4] << 8
        i = 5
        if i < end:
            new["days"] = rx[5] or 9999  # 00: never expires
            i = 6
        for key in ("loc", "a1", "a2"):
            if i >= end:
                break
            w = rx[i]
            i += 1
            if w > 40 or i + w > end or not _printable(rx, i, w):
                ok = False
                break
            if w:
                new[key] = _text(rx, i, w)
            i += w
        ok = ok and i == end
    return _flagged(m, t, new, ok, "7D", out)


def _flagged(m, t, new, ok, why, out):
    if ok:
        from firmware.coupon_store import TEXT

        new["flags"] |= TEXT  # the system's ticket data in force
        if new != t and _change(m, new, why) is not None:
            return BUSY
    out[2] = 1 if ok else 0
    return 1


def handle(m, rx, k, out):
    cmd = rx[1]
    if cmd == 0x7B:
        return status(m, rx, k, out)
    if cmd == 0x7C:
        return extended(m, rx, k, out)
    return ticket(m, rx, k, out)
