# The long polls that name the game and the meters they want: 2D (hand paid cancelled credits for
# game N), 2F (selected meters, 1-byte codes, 4 BCD each) and 6F/AF (extended meters, 2-byte codes,
# each with its size): layouts as Monaco's public `Aristocrat.Sas.Client` LPParsers give them;
# meters by SAS Table C-7 code (firmware/sas/meter_codes.py). The fixed meter polls (1C, 20, 2A,
# 2B, 46 ...) are firmware/sas/polls.py's. The books keep no count of notes by value (the state
# block has no room for one: docs/sas.md), so 1E, 31-45 and 48 are not answered (ignored, as SAS
# has a machine do with a poll it does not support).
from board.sas_link import NACK
from firmware.sas import bcd

GAME = 1  # the one game a Jeton cabinet offers (0: the machine)


def _game(rx, off):
    """The game number asked for, if it is the machine (0) or its game (1), else None."""
    try:
        n = bcd.get(rx, off, 2)
    except ValueError:
        return None
    return n if n in (0, GAME) else None


def handpaid(m, rx, k, out):
    """2D: game number (2 BCD) in; game number, total hand paid cancelled credits (4 BCD) out."""
    if m.cab.ram_error or _game(rx, 2) is None:
        return NACK
    out[2], out[3] = rx[2], rx[3]
    bcd.put(out, 4, m.ledger.meters["cancelled"], 4)
    return 6


def selected(m, rx, k, out):
    """2F: length, game number (2 BCD), meter codes (1 byte each) in; length, game number, then
    each code Jeton keeps with its meter (4 BCD) out. A code it does not keep is left out."""
    if m.cab.ram_error or _game(rx, 3) is None:
        return NACK
    from firmware.sas.meter_codes import value

    out[3], out[4] = rx[3], rx[4]
    i = 5
    for j in range(5, k - 2):
        v = value(m, rx[j])
        if v is not None and i + 5 <= 2 + 92:
            out[i] = rx[j]
            i = bcd.put(out, i + 1, v, 4)
    out[2] = i - 3
    return i - 2


def extended(m, rx, k, out):
    """6F / AF: length, game number (2 BCD), meter codes (2 bytes each, LSB first) in; length,
    game number, then per code: the code, its size (5: 10 BCD digits, Jeton's whole meter; 0: not
    kept) and the meter."""
    if m.cab.ram_error or _game(rx, 3) is None:
        return NACK
    from firmware.sas.meter_codes import value

    out[3], out[4] = rx[3], rx[4]
    i = 5
    for j in range(5, k - 3, 2):
        if i + 8 > 2 + 92:
            break
        code = rx[j] | rx[j + 1] << 8
        out[i], out[i + 1] = rx[j], rx[j + 1]
        v = value(m, code) if code < 0x100 else None
        if v is None:
            out[i + 2] = 0
            i += 3
        else:
            out[i + 2] = 5
            i = bcd.put(out, i + 3, v, 5)
    out[2] = i - 3
    return i - 2


def handle(m, rx, k, out):
    cmd = rx[1]
    if cmd == 0x2D:
        return handpaid(m, rx, k, out)
    if cmd == 0x2F:
        return selected(m, rx, k, out)
    return extended(m, rx, k, out)
