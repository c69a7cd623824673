# System validation (SAS 6.02 s. 15.7-15.9): the central system gives each coupon its number. On a
# coupon cabinet the system put into system validation (7B: firmware/sas/ticket_data.py), a
# cash-out asks for it (firmware/coupon_out.py: the request committed in the books, exception 57
# reported, firmware/sas/machine.py); the system reads the cash-out (57) and answers with the
# number, or refuses (58). A cabinet not configured for system validation ignores both (no answer),
# as a machine ignores the polls of a validation it does not do. Imported at the first of them
# (firmware/sas/tickets.py).
#
# Layouts (SAS 6.02 Tables 15.7 and 15.9, as Monaco's public Aristocrat.Sas.Client LPParsers
# LP57SendPendingCashoutInformationParser and LP58ReceiveValidationNumberParser give them; saspy's
# sas.py pending_cashout_info and rcv_validation_number read and send alike):
#   57 out: cash-out type (1 binary: 00 cashable ticket, 01 restricted promotional ticket, 80 not
#           waiting for system validation), amount in cents (5 BCD)
#   58 in:  validation system id (1 BCD: 00 validation refused), validation number (8 BCD: 16 digits)
#   58 out: status (1 binary): 00 command acknowledged, 80 not in a cash-out, 81 improper validation
#           rejected
# The coupon carries the 18 digits id + number (firmware/coupon_store.py system_number), as 4D then
# reports them. Decided here (as Monaco does but for the last): a 58 that is not BCD is refused
# (NACK); a 58 with a number before the system read 57 is rejected (81) and the cash-out still
# waits; a number already on a coupon kept, or credits that moved since the request (a note that
# was on its way to the stacker), are rejected (81) and the cash-out is given up (the credits stay).
from board.sas_link import NACK
from firmware.sas import bcd

NOT_WAITING = 0x80  # 57's cash-out type: not waiting for system validation
ACKED = 0x00  # 58's status codes
NOT_IN_CASHOUT = 0x80
REJECTED = 0x81


def _system(m):
    store = m.cab.coupons
    return store is not None and store.system()


def pending(m, rx, k, out):
    """57: the cash-out waiting for its number: cashable ticket and its cents, or 80 and 0."""
    if not _system(m):
        return None
    req = m.cab.ledger.validation_request() if m.cab.ledger.st is not None else None
    out[2] = 0x00 if req is not None else NOT_WAITING
    bcd.put(out, 3, req["c"] if req is not None else 0, 5)
    if req is not None:
        m.cab.money_out.sv_read = True  # read: 57 is not reported again for it
    return 6


def number(m, rx, k, out):
    """58: the system's number for the cash-out waiting, or its refusal (validation system id 00)."""
    if not _system(m):
        return None
    try:
        sid = bcd.get(rx, 2, 1)
        n = bcd.get(rx, 3, 8)
    except ValueError:
        return NACK
    cab = m.cab
    mo = cab.money_out
    req = cab.ledger.validation_request() if cab.ledger.st is not None and not cab.ram_error else None
    if req is None:
        out[2] = NOT_IN_CASHOUT
    elif sid == 0:
        mo.refused(cab, "refused by the system (58)")
        out[2] = ACKED
    elif not mo.sv_read:
        out[2] = REJECTED  # 57 first: the system answers for the cash-out it has read
    else:
        from firmware.coupon_store import system_number

        why = mo.validated(cab, system_number(sid, n))
        out[2] = ACKED if why is None else NOT_IN_CASHOUT if why == "not in cashout" else REJECTED
    return 1


def handle(m, rx, k, out):
    if rx[1] == 0x57:
        return pending(m, rx, k, out)
    return number(m, rx, k, out)
