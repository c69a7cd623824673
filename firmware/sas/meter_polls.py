# The meter long polls past part 1's (firmware/sas/polls.py): each maps to Jeton's own meters
# (firmware/ledger.py METERS, credits) as docs/sas.md's table writes down. The books keep no count
# of notes by value (the state block has no room for one: docs/sas.md), so 1E, 31-45 and 48 are
# not answered (ignored, as SAS has a machine do with a poll it does not support). Layouts: SAS 6.02 as
# saspy's sas.py reads them (1C 32 bytes, 1E 24, 20 and 2A/2B and 31-46 4 each) and as Monaco's
# `Aristocrat.Sas.Client` LPParsers give them (2D, 2F, 6F/AF); meter codes: SAS Table C-7 (Monaco's
# `SasMeterId`, an independent list).
from board.sas_link import NACK
from firmware import config
from firmware.sas import bcd

GAME = 1  # the one game a Jeton cabinet offers (0: the machine)


def _m(m, name):
    return m.ledger.meters[name]


def bill_dollars(m):
    return _m(m, "bill_in") * config.DENOM_CENTS // 100


def since_power(m):
    return _m(m, "games_played") - m.played_at_boot


def since_door(m):
    return _m(m, "games_played") - m.played_at_door


# SAS Table C-7 meter codes -> Jeton (credits unless named a count); docs/sas.md has the table
CODES = {
    0x00: lambda m: _m(m, "coin_in"),  # total coin in
    0x01: lambda m: _m(m, "coin_out"),  # total coin out
    0x02: lambda m: _m(m, "jackpot"),  # total jackpot
    0x03: lambda m: _m(m, "cancelled"),  # total hand paid cancelled credits
    0x04: lambda m: _m(m, "cashout"),  # total cancelled credits
    0x05: lambda m: _m(m, "games_played"),
    0x06: lambda m: _m(m, "games_won"),
    0x07: lambda m: _m(m, "games_played") - _m(m, "games_won"),
    0x08: lambda m: _m(m, "acceptor_in"),  # total credits from the coin acceptor
    0x09: lambda m: _m(m, "hopper_out"),  # total credits paid from the hopper
    0x0B: lambda m: _m(m, "bill_in"),  # total credits from bills accepted
    0x0C: lambda m: m.ledger.credits,  # current credits
    0x16: lambda m: _m(m, "coupon_out"),  # total ticket out (credits)
    0x22: lambda m: _m(m, "coin_out") + _m(m, "jackpot"),  # total won credits
    0x23: lambda m: _m(m, "cancelled") + _m(m, "jackpot"),  # total hand paid credits
    0x24: lambda m: _m(m, "acceptor_in") + _m(m, "bill_in"),  # total drop
    0x25: since_power,  # games since the last power reset
    0x26: since_door,  # games since the slot door closed
}

# long polls of 4-byte BCD meters only (added to firmware/sas/polls.py METER_POLLS)
METER_POLLS = {
    # 1C: coin in, coin out, drop, jackpot, games played, games won, slot door opened, power reset
    0x1C: (CODES[0x00], CODES[0x01], CODES[0x24], CODES[0x02], CODES[0x05], CODES[0x06],
           lambda m: _m(m, "door_main"), lambda m: _m(m, "power_resets")),
    0x20: (bill_dollars,),  # total dollar value of bills
    0x2A: (CODES[0x08],),  # true coin in: credits from coins (a coin of one credit: the coin count)
    0x2B: (CODES[0x09],),  # true coin out: credits paid by the hopper
    0x46: (CODES[0x0B],),  # credit amount of all bills accepted
}
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
    bcd.put(out, 4, _m(m, "cancelled"), 4)
    return 6


def selected(m, rx, k, out):
    """2F: length, game number (2 BCD), meter codes (1 byte each) in; length, game number, then
    each code Jeton keeps with its meter (4 BCD) out. A code it does not keep is left out."""
    if m.cab.ram_error or _game(rx, 3) is None:
        return NACK
    out[3], out[4] = rx[3], rx[4]
    i = 5
    for j in range(5, k - 2):
        f = CODES.get(rx[j])
        if f is not None and i + 5 <= 2 + 92:
            out[i] = rx[j]
            i = bcd.put(out, i + 1, f(m), 4)
    out[2] = i - 3
    return i - 2


def extended(m, rx, k, out):
    """6F / AF: length, game number (2 BCD), meter codes (2 bytes each, LSB first) in; length,
    game number, then per code: the code, its size (5: 10 BCD digits, Jeton's whole meter; 0: not
    kept) and the meter."""
    if m.cab.ram_error or _game(rx, 3) is None:
        return NACK
    out[3], out[4] = rx[3], rx[4]
    i = 5
    for j in range(5, k - 3, 2):
        if i + 8 > 2 + 92:
            break
        code = rx[j] | rx[j + 1] << 8
        out[i], out[i + 1] = rx[j], rx[j + 1]
        f = CODES.get(code) if code < 0x100 else None
        if f is None:
            out[i + 2] = 0
            i += 3
        else:
            out[i + 2] = 5
            i = bcd.put(out, i + 3, f(m), 5)
    out[2] = i - 3
    return i - 2
