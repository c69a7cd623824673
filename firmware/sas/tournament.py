# The central system's tournament polls (SAS 6.02 s. 11): 8C enters or leaves tournament mode, 95-98
# read one of the tournament's meters and 99 all four. Jeton's tournament mode is the console's
# tournament (firmware/tournament.py, by-law s. 123-127): 8C's enter is the console's 'tournament
# start', its exit 'tournament end', carried out through the state table (the event
# `host_tournament`, firmware/states.py: not mid-game nor mid-payout, not under a lock, a tilt or a
# door) and the books' own refusals (a tournament already running, an entry still being played),
# so a refusal is a NACK and nothing changes; what is taken is committed as the console's is.
#
# Layouts (docs/sas.md "Tournament"): 8C, type S: game number (2 BCD), time MMSS (2 BCD), starting
# credits (4 BCD), pulses (1 binary); ACK / NACK. 95-98, type S: game number (2 BCD); the reply: game
# number (2 BCD), the meter (4 BCD). 99: game number, then the four meters (4 BCD each) in 95-98's order.
#
# The mapping: the starting credits are the tournament credits each entry plays with; the time the
# tournament's length (s. 125), in whole hours rounded up (Jeton's tournament runs by entries of a
# number of games; its end is the system's exit, as the administrator's 'tournament end' is); the
# fee, the games per entry, the prize pool's percentage and the name are the operator's published
# rules, the configuration's SAS_TOURNAMENT (firmware/config.py; none: the enter is refused).
# Credits 00000000 exit. Jeton has no tournament pulse output: pulses other than 00 are refused, as
# is a time of 0000 with credits (a length is one of the rules s. 125 requires).
from board.sas_link import ACK, NACK
from firmware import states, tournament
from firmware.sas import bcd

GAME = 1  # the one game a cabinet offers (0: the machine)


def _game(rx):
    """The poll's game number when it is the machine's or its game's, else -1."""
    try:
        n = bcd.get(rx, 2, 2)
    except ValueError:
        return -1
    return n if n in (0, GAME) else -1


def _today():
    from firmware import localtime
    from firmware.eventlog import now

    y, mo, d = localtime.local(now())[:3]
    return "%04d-%02d-%02d" % (y, mo, d)


def enter_exit(m, rx, k, out):
    """8C: enter tournament mode (credits not 0) or leave it (credits 0)."""
    cab = m.cab
    if cab.ram_error or m.ledger.st is None or _game(rx) < 0 or rx[10] != 0:
        return NACK
    try:
        t = bcd.get(rx, 4, 2)
        credits = bcd.get(rx, 6, 4)
    except ValueError:
        return NACK
    minutes, seconds = t // 100, t % 100
    if seconds > 59:
        return NACK
    if credits == 0:
        rules = None
        if m.ledger.tour is None:
            return NACK  # not in tournament mode: as the console's 'tournament end' refuses
    else:
        cfg = getattr(cab.config, "SAS_TOURNAMENT", None)
        if cfg is None or t == 0 or cab.game is None:
            return NACK
        hours = (minutes * 60 + seconds + 3599) // 3600
        rules = (cfg["fee"], credits, cfg["games"], cfg["pct"], _today(), hours, cfg.get("name", ""))
    try:
        return ACK if cab.handle(states.HOST_TOURNAMENT, rules) else NACK
    except (tournament.TournamentError, ValueError):
        return NACK  # the books refuse it (one running, an entry under way, a figure out of bounds)


def meters(m, rx, k, out):
    """95 games played, 96 games won, 97 credits wagered, 98 credits won (tournament credits) since
    tournament mode was last entered; 99 all four."""
    if m.cab.ram_error or m.ledger.st is None or _game(rx) < 0:
        return NACK
    out[2], out[3] = rx[2], rx[3]
    c = m.ledger.tour_meters.counts
    cmd = rx[1]
    if cmd == 0x99:
        i = 4
        for n in c:
            i = bcd.put(out, i, n, 4)
        return i - 2
    bcd.put(out, 4, c[cmd - 0x95], 4)
    return 6


def handle(m, rx, k, out):
    if rx[1] == 0x8C:
        return enter_exit(m, rx, k, out)
    return meters(m, rx, k, out)
