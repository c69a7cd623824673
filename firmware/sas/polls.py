# The long polls the machine answers: command -> (type, data length, handler). The link frames by
# the first two (board/sas_link.py); a handler writes the reply's data at out[2:] and returns its
# length, or ACK / NACK. Meters are Jeton's own (firmware/ledger.py METERS), in credits, as 4-byte
# BCD (8 digits: they roll over there, SAS 6.02 s. 2.2.3); the mapping is docs/sas.md's table.
from board.compat import const
from board.sas_link import ACK, NACK
from firmware import states
from firmware.sas import bcd

_R = const(0)  # board/sas_link.py's R, S, M (const() here: the table below stays a constant)
_S = const(1)
_M = const(2)
_G = const(4)  # with the type: also taken from address 0, the broadcast to every machine (no answer)

SAS_VERSION = "602"  # the SAS version the machine implements (long poll 54)
GAME_ID = "JT"  # long poll 1F's game id (SAS Table C-1 lists manufacturers' codes: none is ours)
# SAS Table C-4 denomination codes: the credit's value in cents, its code (cross-checked against
# saspy's models/Denomination.py, an independent list: tests/host/test_sas_hosts.py)
DENOMINATIONS = ((1, 0x01), (5, 0x02), (10, 0x03), (25, 0x04), (50, 0x05), (100, 0x06), (500, 0x07), (1000, 0x08),
                 (2000, 0x09), (10000, 0x0A))


# long polls made of 4-byte BCD meters only: command, then its meters' codes in their order on the
# wire (firmware/sas/meter_codes.py); a constant tuple, kept in flash on a frozen image
METER_POLLS = (
    (0x0F, (0x04, 0x00, 0x01, 0x24, 0x02, 0x05)),  # meters 10 through 15
    (0x10, (0x04,)), (0x11, (0x00,)), (0x12, (0x01,)), (0x13, (0x24,)), (0x14, (0x02,)), (0x15, (0x05,)),
    (0x16, (0x06,)), (0x17, (0x07,)),
    (0x19, (0x00, 0x01, 0x24, 0x02, 0x05)),  # meters 11 through 15
    (0x1A, (0x0C,)),  # current credits
    # 1C: coin in, coin out, drop, jackpot, games played, games won, slot door opened, power resets
    (0x1C, (0x00, 0x01, 0x24, 0x02, 0x05, 0x06, 0x100, 0x101)),
    (0x20, (0x102,)),  # total dollar value of bills
    (0x2A, (0x08,)),  # true coin in: credits from coins (a coin of one credit: the coin count)
    (0x2B, (0x09,)),  # true coin out: credits paid by the hopper
    (0x46, (0x0B,)),  # credit amount of all bills accepted
)


def meters(m, rx, k, out):
    if m.cab.ram_error:
        return NACK  # memory that cannot be trusted is not reported
    from firmware.sas.meter_codes import value

    cmd = rx[1]
    for c, codes in METER_POLLS:
        if c == cmd:
            i = 2
            for code in codes:
                i = bcd.put(out, i, value(m, code), 4)
            return i - 2
    return None


def since(m, rx, k, out):
    """18: games since the last power-up, games since the slot door last closed (2 BCD each)."""
    if m.cab.ram_error:
        return NACK
    played = m.ledger.meters["games_played"]
    bcd.put(out, 2, played - m.played_at_boot, 2)
    bcd.put(out, 4, played - m.played_at_door, 2)
    return 4


def machine_info(m, rx, k, out):
    """1F: game id, additional id, denomination, largest max bet, progressive group, game
    options, paytable id, base return % at max bet ("9412": 94.12, the decimal implied)."""
    game = m.cab.game
    i = bcd.ascii(out, 2, GAME_ID, 2)
    i = bcd.ascii(out, i, "", 3)
    out[i] = 0
    for cents, code in DENOMINATIONS:
        if cents == m.cab.config.DENOM_CENTS:
            out[i] = code
    out[i + 1] = min(max(game.bets), 255) if game else 0
    lk = m.linked  # the progressive group (1 binary): the linked progressive's, else 0
    out[i + 2] = lk.group if lk is not None else 0
    out[i + 3] = 0  # game options (binary, LSB first)
    out[i + 4] = 0
    i += 5
    i = bcd.ascii(out, i, (game.id.upper().replace("-", "") if game else ""), 6)
    i = bcd.ascii(out, i, m.base_percent(), 4)
    return i - 2


def version(m, rx, k, out):
    """54: length, SAS version (3 ASCII), serial number (ASCII, 0-40)."""
    serial = m.cab.config.MACHINE_ID[:40]
    i = bcd.ascii(out, 3, SAS_VERSION, 3)
    i = bcd.ascii(out, i, serial, len(serial))
    out[2] = i - 3
    return i - 2


def disable(m, rx, k, out):
    """01: no play until 02, where the state table takes it (not mid-game nor mid-payout)."""
    return ACK if m.cab.handle(states.HOST_DISABLE) else NACK


def enable(m, rx, k, out):
    return ACK if m.cab.handle(states.HOST_ENABLE) else NACK


# Every long poll: command, type (R, S, M; | G: a broadcast also taken from address 0), data length
# (S: fixed; R, M: 0), the module that answers it (its `handle`): 0 this one, 1 control,
# 2 meter_polls, 3 games, 4 rom_signature, 5 tickets, 6 progressive, 7 bills. A constant tuple (flash
# on a frozen image); a module is imported at its first poll.
# 8 tournament (8C, 95-99: firmware/sas/tournament.py), 9 ticket in (70, 71: firmware/sas/ticket_in.py).
TABLE = (
    0x01, _S, 0, 0,  # shut down (lock out play)
    0x02, _S, 0, 0,  # start up
    0x06, _S, 0, 1,  # enable bill acceptor
    0x07, _S, 0, 1,  # disable bill acceptor
    0x09, _S, 3, 1,  # enable/disable game N: game (2 BCD), 00 enable / 01 disable
    0x0A, _S, 0, 1,  # enter maintenance mode
    0x0B, _S, 0, 1,  # exit maintenance mode
    0x0F, _R, 0, 0, 0x10, _R, 0, 0, 0x11, _R, 0, 0, 0x12, _R, 0, 0, 0x13, _R, 0, 0, 0x14, _R, 0, 0,
    0x15, _R, 0, 0, 0x16, _R, 0, 0, 0x17, _R, 0, 0,
    0x18, _R, 0, 0,  # games since power-up / slot door closed
    0x19, _R, 0, 0, 0x1A, _R, 0, 0, 0x1C, _R, 0, 0,
    0x1E, _R, 0, 7,  # bill meters: $1, $5, $10, $20, $50, $100 counts
    0x1F, _R, 0, 0,  # machine information
    0x20, _R, 0, 0,
    0x21, _S, 2, 4,  # ROM signature verification: seed (2 binary)
    0x2A, _R, 0, 0, 0x2B, _R, 0, 0,
    0x2D, _S, 2, 2,  # total hand paid cancelled credits: game (2 BCD)
    0x2F, _M, 0, 2,  # selected meters for game N
    0x31, _R, 0, 7, 0x32, _R, 0, 7, 0x33, _R, 0, 7, 0x34, _R, 0, 7, 0x35, _R, 0, 7,  # notes by value
    0x36, _R, 0, 7, 0x37, _R, 0, 7, 0x38, _R, 0, 7, 0x39, _R, 0, 7, 0x3A, _R, 0, 7, 0x3B, _R, 0, 7,
    0x3C, _R, 0, 7,
    0x3D, _R, 0, 5,  # cash out ticket information
    0x3E, _R, 0, 7, 0x3F, _R, 0, 7, 0x40, _R, 0, 7, 0x41, _R, 0, 7, 0x42, _R, 0, 7, 0x43, _R, 0, 7,
    0x44, _R, 0, 7, 0x45, _R, 0, 7,
    0x46, _R, 0, 0,
    0x48, _R, 0, 7,  # last accepted bill information
    0x4C, _S, 6, 5,  # set secure enhanced validation id
    0x4D, _S, 1, 5,  # enhanced validation information: function code
    0x51, _R, 0, 3,  # games implemented
    0x53, _S, 2, 3,  # game N configuration: game (2 BCD)
    0x54, _R, 0, 0,  # SAS version and serial
    0x55, _R, 0, 3,  # selected game
    0x56, _R, 0, 3,  # enabled games
    0x57, _R, 0, 5,  # send pending cash-out information (system validation)
    0x58, _S, 9, 5,  # receive validation number: system id (1 BCD), number (8 BCD)
    0x6F, _M, 0, 2,  # extended meters for game N
    0x70, _R, 0, 9,  # send ticket validation data (ticket in)
    0x71, _M, 0, 9,  # redeem ticket: length, transfer code, amount, parsing code, validation data ...
    0x7B, _M, 0, 5,  # extended validation status: length 08, control mask, status bits, expirations
    0x7C, _M, 0, 5,  # set extended ticket data: length, (code, length, ASCII) ...
    0x7D, _M | _G, 0, 5,  # set ticket data: length, host id, expiration, texts (also to every machine)
    0x7E, _R, 0, 1,  # current date and time
    0x7F, _S | _G, 7, 1,  # receive date and time (also to every machine: Monaco's LP7F parser takes address 00-7F)
    0x80, _S | _G, 7, 6,  # single level progressive broadcast: group, level, amount (5 BCD)
    0x84, _R, 0, 6,  # progressive win amount
    0x85, _R, 0, 6,  # SAS progressive win amount
    0x86, _M | _G, 0, 6,  # multiple level progressive broadcast
    0x87, _R, 0, 6,  # multiple SAS progressive win amounts
    0x8C, _S, 9, 8,  # enter/exit tournament mode: game (2 BCD), time MMSS (2 BCD), credits (4 BCD), pulses
    0x94, _S, 0, 1,  # remote hand-pay reset
    0x95, _S, 2, 8,  # tournament games played: game (2 BCD)
    0x96, _S, 2, 8,  # tournament games won
    0x97, _S, 2, 8,  # tournament credits wagered
    0x98, _S, 2, 8,  # tournament credits won
    0x99, _S, 2, 8,  # meters 95-98
    0xA0, _S, 2, 3,  # enabled features: game (2 BCD)
    0xAF, _M, 0, 2,  # extended meters for game N (alternate)
    0xB5, _S, 2, 3,  # extended game N information: game (2 BCD)
)
MODULES = (None, "control", "meter_polls", "games", "rom_signature", "tickets", "progressive", "bills",
           "tournament", "ticket_in")


def find(cmd):
    """The index of cmd's entry in TABLE, or -1: not a poll this machine answers."""
    for i in range(0, len(TABLE), 4):
        if TABLE[i] == cmd:
            return i
    return -1


def handle(m, rx, k, out):
    cmd = rx[1]
    if cmd == 0x01:
        return disable(m, rx, k, out)
    if cmd == 0x02:
        return enable(m, rx, k, out)
    if cmd == 0x18:
        return since(m, rx, k, out)
    if cmd == 0x1F:
        return machine_info(m, rx, k, out)
    if cmd == 0x54:
        return version(m, rx, k, out)
    return meters(m, rx, k, out)


def answer(m, i, rx, k, out):
    """Carry out the poll at TABLE[i] (find): its module's handle(m, rx, k, out)."""
    mod = TABLE[i + 3]
    if mod == 0:
        return handle(m, rx, k, out)
    return __import__("firmware.sas." + MODULES[mod], None, None, ("handle",)).handle(m, rx, k, out)
