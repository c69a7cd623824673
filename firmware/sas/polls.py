# The long polls the machine answers: command -> (type, data length, handler). The link frames by
# the first two (board/sas_link.py); a handler writes the reply's data at out[2:] and returns its
# length, or ACK / NACK. Meters are Jeton's own (firmware/ledger.py METERS), in credits, as 4-byte
# BCD (8 digits: they roll over there, SAS 6.02 s. 2.2.3); the mapping is docs/sas.md's table.
from board.sas_link import ACK, NACK, R, S
from firmware import states
from firmware.sas import bcd

SAS_VERSION = "602"  # the SAS version the machine implements (long poll 54)
GAME_ID = "JT"  # long poll 1F's game id (SAS Table C-1 lists manufacturers' codes: none is ours)
# SAS Table C-4 denomination codes, the credit's value in cents (cross-checked against saspy's
# models/Denomination.py, an independent list: tests/host/test_sas_hosts.py)
DENOMINATIONS = {1: 0x01, 5: 0x02, 10: 0x03, 25: 0x04, 50: 0x05, 100: 0x06, 500: 0x07, 1000: 0x08,
                 2000: 0x09, 10000: 0x0A}


def _meter(m, name):
    return m.ledger.meters[name]


def drop(m):
    """SAS "total drop": every credit the machine took in, coins and notes."""
    return _meter(m, "acceptor_in") + _meter(m, "bill_in")


def lost(m):
    return _meter(m, "games_played") - _meter(m, "games_won")


# meter functions, by the SAS meter each long poll names
CANCELLED = lambda m: _meter(m, "cashout")  # noqa: E731  total canceled credits: every cash-out
COIN_IN = lambda m: _meter(m, "coin_in")  # noqa: E731  total coin in: credits wagered
COIN_OUT = lambda m: _meter(m, "coin_out")  # noqa: E731  total coin out: credits won onto the meter
JACKPOT = lambda m: _meter(m, "jackpot")  # noqa: E731  total jackpot: wins paid by hand
PLAYED = lambda m: _meter(m, "games_played")  # noqa: E731
WON = lambda m: _meter(m, "games_won")  # noqa: E731
CREDITS = lambda m: m.ledger.credits  # noqa: E731

# long polls made of 4-byte BCD meters only, in their order on the wire
METER_POLLS = {
    0x0F: (CANCELLED, COIN_IN, COIN_OUT, drop, JACKPOT, PLAYED),  # meters 10 through 15
    0x10: (CANCELLED,), 0x11: (COIN_IN,), 0x12: (COIN_OUT,), 0x13: (drop,), 0x14: (JACKPOT,),
    0x15: (PLAYED,), 0x16: (WON,), 0x17: (lost,),
    0x19: (COIN_IN, COIN_OUT, drop, JACKPOT, PLAYED),  # meters 11 through 15
    0x1A: (CREDITS,),  # current credits
}


def meters(m, rx, k, out):
    if m.cab.ram_error:
        return NACK  # memory that cannot be trusted is not reported
    i = 2
    for f in METER_POLLS[rx[1]]:
        i = bcd.put(out, i, f(m), 4)
    return i - 2


def since(m, rx, k, out):
    """18: games since the last power-up, games since the slot door last closed (2 BCD each)."""
    if m.cab.ram_error:
        return NACK
    played = _meter(m, "games_played")
    bcd.put(out, 2, played - m.played_at_boot, 2)
    bcd.put(out, 4, played - m.played_at_door, 2)
    return 4


def machine_info(m, rx, k, out):
    """1F: game id, additional id, denomination, largest max bet, progressive group, game
    options, paytable id, base return % at max bet ("9412": 94.12, the decimal implied)."""
    game = m.cab.game
    i = bcd.ascii(out, 2, GAME_ID, 2)
    i = bcd.ascii(out, i, "", 3)
    out[i] = DENOMINATIONS.get(m.cab.config.DENOM_CENTS, 0)
    out[i + 1] = min(max(game.bets), 255) if game else 0
    out[i + 2] = 0  # progressive group: none
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


TABLE = {
    0x01: (S, 0, disable),  # shut down (lock out play)
    0x02: (S, 0, enable),  # start up
    0x18: (R, 0, since),
    0x1F: (R, 0, machine_info),
    0x54: (R, 0, version),
}
for _c in METER_POLLS:
    TABLE[_c] = (R, 0, meters)
