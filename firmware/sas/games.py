# What the system reads of the games (SAS 6.02 as saspy's sas.py and Monaco's public
# `Aristocrat.Sas.Client` LPParsers lay them out): 51 games implemented (2 BCD), 55 the selected
# game (2 BCD), 56 the enabled games (length, count, 2 BCD each), 53 game N's configuration (game
# number, then 1F's fields), A0 game N's enabled features (game number, 3 feature bytes), B5 game
# N's extended information (Monaco's LPB5 parser: length, game number, max bet (2 BCD),
# progressive group, progressive levels (4 binary, least significant byte first, bit 0 level 1,
# as its Utilities.ToBinary writes them and its LPB5 handler sets bit level-1), game name and
# paytable name (a length, then up to 20 ASCII each), wager categories (2 BCD), player
# denominations (a count, then SAS Table C-4 codes)). A Jeton cabinet offers one game: game 1
# (game 0 is the machine, and answers as 1F does).
from board.sas_link import NACK
from firmware.sas import bcd

GAME = 1


def _offered(m):
    return 1 if m.cab.game is not None else 0


def count(m, rx, k, out):
    """51: the number of games implemented."""
    bcd.put(out, 2, _offered(m), 2)
    return 2


def chosen(m, rx, k, out):
    """55: the game selected (0: none, no game offered)."""
    bcd.put(out, 2, _offered(m), 2)
    return 2


def enabled(m, rx, k, out):
    """56: length, how many games are enabled, their numbers."""
    from firmware.sas.exceptions import GAME_OFF

    on = _offered(m) and not m.queue.flags & GAME_OFF
    out[3] = 1 if on else 0
    if on:
        bcd.put(out, 4, GAME, 2)
    out[2] = 1 + 2 * out[3]
    return 1 + out[2]


def configuration(m, rx, k, out):
    """53: game number (2 BCD) in; the game number and 1F's 20 bytes out (game 0: the machine)."""
    from firmware.sas.polls import machine_info

    try:
        n = bcd.get(rx, 2, 2)
    except ValueError:
        return NACK
    if n not in (0, _offered(m)):
        return NACK
    out[2], out[3] = rx[2], rx[3]
    info = bytearray(24)
    w = machine_info(m, rx, k, info)
    for i in range(w):
        out[4 + i] = info[2 + i]
    return 2 + w


def features(m, rx, k, out):
    """A0: game number in; game number and features 1-3 out. Feature 1 bits 5-6 are the validation
    style: 10 (secure enhanced) on a cabinet with a coupon memory (firmware/coupon_store.py), 01
    (system) once the system validates its coupons (7B, firmware/sas/ticket_data.py), 00
    otherwise; bit 3 (tournament, as saspy's enabled_features reads it) where the configuration has
    the rules of a tournament the system may start (SAS_TOURNAMENT: 8C, firmware/sas/tournament.py);
    no jackpot multiplier, no AFT or legacy bonus, no ticket in."""
    try:
        n = bcd.get(rx, 2, 2)
    except ValueError:
        return NACK
    if n not in (0, _offered(m)):
        return NACK
    out[2], out[3] = rx[2], rx[3]
    store = m.cab.coupons
    out[4] = 0 if store is None else 0x20 if store.system() else 0x40  # bits 5-6: 01 system, 10 secure enhanced
    if getattr(m.cab.config, "SAS_TOURNAMENT", None):
        out[4] |= 0x08  # bit 3: tournament
    out[5] = 0
    out[6] = 0
    return 5


def extended(m, rx, k, out):
    """B5: game number in; its extended information out: its English name, its model id as the
    paytable's name, the linked progressive's group and level 1 (else none), no wager
    categories, the one denomination."""
    from firmware.sas.polls import DENOMINATIONS

    game = m.cab.game
    try:
        n = bcd.get(rx, 2, 2)
    except ValueError:
        return NACK
    if n not in (0, _offered(m)) or game is None:
        return NACK
    out[3], out[4] = rx[2], rx[3]
    bcd.put(out, 5, max(game.bets), 2)
    lk = m.linked
    for i in range(7, 12):
        out[i] = 0  # progressive group, levels (4 binary, LSB first: bit 0 is level 1)
    if lk is not None:
        out[7] = lk.group
        out[8] = 1  # the cabinet's one level: the group's level 1 (firmware/sas/progressive.py LEVEL)
    i = 12
    for text in (game.name.get("en", "") if isinstance(game.name, dict) else str(game.name), game.id):
        text = text[:20]
        out[i] = len(text)
        i = bcd.ascii(out, i + 1, text, len(text))
    i = bcd.put(out, i, 0, 2)  # wager categories: none (long poll B4 is not answered)
    out[i] = 1
    out[i + 1] = 0
    for cents, code in DENOMINATIONS:
        if cents == m.cab.config.DENOM_CENTS:
            out[i + 1] = code
    i += 2
    out[2] = i - 3
    return i - 2


def handle(m, rx, k, out):
    cmd = rx[1]
    if cmd == 0xB5:
        return extended(m, rx, k, out)
    if cmd == 0x51:
        return count(m, rx, k, out)
    if cmd == 0x53:
        return configuration(m, rx, k, out)
    if cmd == 0x55:
        return chosen(m, rx, k, out)
    if cmd == 0x56:
        return enabled(m, rx, k, out)
    return features(m, rx, k, out)
