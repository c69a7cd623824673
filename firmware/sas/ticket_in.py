# Ticket in (SAS 6.02 s. 15.11-15.12, ticket redemption): a coupon presented to the cabinet's ticket
# reader (firmware/bill_in.py, config.TICKET_IN, casino only: firmware/jurisdiction.py tickets_in)
# is held in escrow and reported (exception 67); the system reads it (70) and answers (71); the
# machine credits and stacks it, or hands it back, and reports 68; 71's status query (transfer code
# FF) gives the outcome. Where the cabinet has no ticket reader (a vlt: no coupon in) both are
# NACKed. Imported at the first of them.
#
# Layouts (SAS 6.02 Tables 15.11 and 15.12a-d, as Monaco's public Aristocrat.Sas.Client LPParsers
# LP70SendTicketValidationDataParser / LP71RedeemTicketParser give them; saspy's sas.py
# ticket_validation_data and redeem_ticket read and send the same fields):
#   70 in:  type R
#   70 out: length, ticket status (00 in escrow, data follows; FF none), amount (5 BCD cents: 0, the
#           machine does not know it), parsing code (00: 9 BCD, the 18-digit number), validation
#           data (9 BCD)
#   71 in:  type M: length, transfer code (Table 15.12c: 00 valid cashable, 01/02 promotional,
#           80-93 the system's refusals, FF status query alone: length 01), amount (5 BCD cents),
#           parsing code, validation data (9 BCD), then optionally restricted expiration (4 BCD),
#           pool id (2 binary), target id (length, ASCII)
#   71 out: length, machine status (Table 15.12d: 00 redeemed, 20 waiting for 71, 40 pending, 80-8B
#           refused, C0 not compatible with the current redemption cycle, FF no information),
#           then (not after C0 / FF) amount (5 BCD), parsing code, validation data (9 BCD)
# Decided here and marked so: Jeton has no promotional credits, so 01/02 are refused (87, unable to
# accept); a parsing code other than 00 is 83 (as Monaco answers it); a 71 when no ticket waits,
# or before 70 was read, is C0 unless it repeats the 71 that decided the ticket in escrow or last
# (then the status, not carried out again: a host that lost the reply asks again).
from board.sas_link import NACK
from firmware.sas import bcd

STATUS_QUERY = 0xFF
NOT_COMPATIBLE = 0xC0


def _reader(m):
    b = m.cab.bills
    return b is not None and b.tickets and not m.cab.ram_error and m.ledger.st is not None


def validation_data(tk, m, rx, k, out):
    """70: the ticket in escrow's number for the system, or FF (none)."""
    if not _reader(m):
        return NACK
    led = m.ledger
    if tk.stage(led) != tk.HELD:
        out[2] = 1
        out[3] = 0xFF
        return 2
    out[2] = 16
    out[3] = 0x00
    bcd.put(out, 4, 0, 5)  # the machine does not know the amount
    out[9] = 0x00  # parsing code: 18 digits, 9 BCD
    out[10:19] = tk.number(led)
    tk.mark_70(led)
    return 17


def _status(tk, led, out, status=None):
    s = tk.status(led) if status is None else status
    out[3] = s
    if s in (NOT_COMPATIBLE, tk.NONE):
        out[2] = 1
        return 2
    out[2] = 16
    bcd.put(out, 4, tk.cents(led), 5)
    out[9] = 0x00
    out[10:19] = tk.number(led)
    return 17


def _repeat(tk, led, rx):
    """The 71 that decided the ticket held or last (its code, amount and number): answered by its status."""
    return tk.status(led) not in (tk.NONE, tk.WAITING) and rx[3] == tk.code(led) and bcd.get(rx, 4, 5) == tk.cents(led) \
        and rx[10:19] == tk.number(led)


def redeem(tk, m, rx, k, out):
    """71: the system's answer for the ticket in escrow (checked, committed, then carried out by
    firmware/bill_in.py), or its status query (FF)."""
    if not _reader(m):
        return NACK
    cab = m.cab
    led = m.ledger
    n = rx[2]
    code = rx[3]
    if code == STATUS_QUERY and n == 1:
        return _status(tk, led, out)
    if n < 16:
        return NACK
    try:
        cents = bcd.get(rx, 4, 5)
        bcd.get(rx, 10, 9)
        if n >= 20:
            bcd.get(rx, 19, 4)
    except ValueError:
        return NACK
    held = tk.stage(led) == tk.HELD
    if not held or not tk.read_70(led):
        return _status(tk, led, out) if not held and _repeat(tk, led, rx) else _status(tk, led, out, NOT_COMPATIBLE)
    denom = cab.config.DENOM_CENTS
    status = tk.PENDING
    if rx[10:19] != tk.number(led):
        status = tk.NO_MATCH
    elif 0x80 <= code <= 0x93:
        status = tk.REJECTED_BY_HOST
    elif code in (0x01, 0x02):
        status = tk.UNABLE  # no promotional credits here
    elif code != 0x00:
        status = tk.BAD_FUNCTION
    elif rx[9] != 0x00 or cents == 0:
        status = tk.BAD_AMOUNT
    elif cents % denom:
        status = tk.NOT_MULTIPLE
    elif cents > cab.bills._cap_cents() - led.credits * denom:
        status = tk.OVER_LIMIT
    elif not cab.want_notes():
        status = tk.UNABLE  # the state table refuses money in now (doors, tilts, a game's, ...)
    if status == tk.PENDING:
        tk.decided(led, tk.STACKING, status, code, cents, cents // denom)
    else:
        tk.decided(led, tk.RETURNING, status, code, cents, 0)
    return _status(tk, led, out)


def handle(m, rx, k, out):
    from firmware import ticket_books as tk  # the books' ticket (given to the handlers: one import)

    if rx[1] == 0x70:
        return validation_data(tk, m, rx, k, out)
    return redeem(tk, m, rx, k, out)
