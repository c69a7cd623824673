# Coupons (tickets) over SAS, on a cabinet with a coupon memory (firmware/coupon_store.py, a vlt's
# or a coupon casino's): 4C sets the secure enhanced validation id, 4D reports the records kept
# until the system has them, 3D the last coupon printed. A cabinet without a coupon memory is not
# configured for validation and ignores them (no answer), as SAS 6.02 has such a machine do.
#
# Layouts (SAS 6.02 as saspy's sas.py and Monaco's `Aristocrat.Sas.Client` LPParsers read them):
#   4C in:  validation id (3 binary), starting sequence number (3 binary), LSB first
#   4C out: validation id, sequence number (3 binary each): what is in force (an id of 0 only reads)
#   4D in:  function code: 00 the oldest record not yet read (then it is read: acknowledged),
#           FF the same without reading it, 01-1F the record at that index of the buffer
#   4D out: validation type (00: cashable ticket from a cash-out or a win), index, date MMDDYYYY
#           (4 BCD), time HHMMSS (3 BCD), validation number (8 BCD), amount in cents (5 BCD),
#           ticket number (2 BCD), validation system id (1 BCD), expiration MMDDYYYY (4 BCD; 0: none),
#           pool id (2 binary): 31 bytes, all 0 when there is no such record
#   3D out: validation number (4 BCD), amount in cents (5 BCD) of the last coupon printed
# The 18 digits printed (firmware/coupon_number.py) are the system id (the first 2) and the
# validation number (the other 16), as SAS prints secure enhanced numbers; a number the system gave
# (system validation, 58) is its id and its 16 digits, read back alike.
# 7B-7D (firmware/sas/ticket_data.py) and 57/58 (firmware/sas/system_validation.py) are answered
# through this module's handle, each module imported at its first poll.
from board.sas_link import BUSY, NACK
from firmware.sas import bcd

VALIDATION_BYTES = 31


def set_id(m, rx, k, out):
    """4C: the system sets the validation id (firmware/coupon_system.py, as `validation set`)."""
    if m.cab.coupons is None:
        return None
    from firmware import coupon_system

    vid = rx[2] | rx[3] << 8 | rx[4] << 16
    seq = rx[5] | rx[6] << 8 | rx[7] << 16
    try:
        vid, seq = coupon_system.set_validation_id(m.cab, vid, seq)
    except coupon_system.Busy:
        return BUSY  # it would end system validation while a cash-out waits for the system's number
    except ValueError:
        return NACK
    for i in range(3):
        out[2 + i] = vid >> (8 * i) & 0xFF
        out[5 + i] = seq >> (8 * i) & 0xFF
    return 6


def _issued(store):
    """(index, record) of every coupon on paper, oldest first; index 1 the oldest kept."""
    out = []
    i = 0
    for rec in store.iter_records():
        i += 1
        if rec["st"] != "owed":
            out.append((i, rec))
    return out


def info(m, rx, k, out):
    """4D: a coupon's record; function 00 reads (acknowledges) the oldest one the system lacks."""
    store = m.cab.coupons
    if store is None:
        return None
    code = rx[2]
    pick = None
    for i, rec in _issued(store):
        if code in (0x00, 0xFF) and rec["st"] == "issued" or i == code:
            pick = (i, rec)
            break
    if pick is None:
        for j in range(2, 2 + VALIDATION_BYTES):
            out[j] = 0
        return VALIDATION_BYTES
    if code == 0x00:
        from firmware import coupon_system

        coupon_system.acknowledge(m.cab, pick[1]["s"])  # read: its slot may go (`coupons ack`)
    _record(m, pick[0], pick[1], out)
    return VALIDATION_BYTES


def _record(m, index, rec, out):
    from firmware import jurisdiction, localtime

    out[2] = 0  # cashable ticket from a cash-out or a win, no hand pay lockup
    out[3] = index
    y, mo, d, h, mi, s, _ = localtime.local(rec["t"])
    bcd.put(out, 4, (mo * 100 + d) * 10000 + y, 4)
    bcd.put(out, 8, (h * 100 + mi) * 100 + s, 3)
    n = rec["n"]
    bcd.put(out, 11, int(n[2:]), 8)
    bcd.put(out, 19, rec["c"], 5)
    bcd.put(out, 24, rec["s"], 2)
    bcd.put(out, 26, int(n[:2]), 1)
    from firmware.coupon_store import claim_s

    claim = claim_s(jurisdiction.PROFILES.get(m.cab.config.JURISDICTION, {}).get("claim_s"),
                    m.cab.coupons.ticket()["days"])
    if claim:
        y, mo, d = localtime.local(rec["t"] + claim)[:3]
        bcd.put(out, 27, (mo * 100 + d) * 10000 + y, 4)
    else:
        bcd.put(out, 27, 0, 4)
    out[31] = 0
    out[32] = 0


def last(m, rx, k, out):
    """3D: the last coupon printed: the low 8 digits of its validation number, its amount."""
    store = m.cab.coupons
    if store is None:
        return None
    rec = store.last_issued()
    n = rec["n"] if rec else "0"
    bcd.put(out, 2, int(n), 4)
    bcd.put(out, 6, rec["c"] if rec else 0, 5)
    return 9


def handle(m, rx, k, out):
    cmd = rx[1]
    if cmd == 0x4C:
        return set_id(m, rx, k, out)
    if cmd == 0x4D:
        return info(m, rx, k, out)
    if cmd == 0x3D:
        return last(m, rx, k, out)
    if cmd in (0x57, 0x58):
        from firmware.sas import system_validation

        return system_validation.handle(m, rx, k, out)
    from firmware.sas import ticket_data

    return ticket_data.handle(m, rx, k, out)
