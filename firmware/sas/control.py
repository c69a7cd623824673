# The central system's orders over SAS that change what the cabinet does: the bill acceptor (06
# enable, 07 disable), game N (09), maintenance mode (0A enter, 0B exit), the remote hand-pay reset
# (94) and the clock (7E read, 7F set). Each is refused (NACK) where the cabinet's own state table
# refuses the matching event: a disable where it refuses `host_disable` (mid-game, mid-payout, a
# lock), an enable where it refuses `host_enable`, the hand-pay reset where the attendant's key
# does not pay a lock. What a disable leaves is kept in critical memory (the queue block's flags),
# so a power cut never undoes the system's order.
#
# Layouts (SAS 6.02 as Aristocrat's public Monaco `Aristocrat.Sas.Client` LPParsers and saspy's
# sas.py send and read them): 06/07/0A/0B/94 type S without data; 09: game number (2 BCD), 00
# enable / 01 disable; 94's reply: a reset code (00 reset, 01 unable, 02 not in a hand pay);
# 7E's reply and 7F's data: date MMDDYYYY (4 BCD), time HHMMSS (3 BCD), local time.
from board.sas_link import ACK, NACK
from firmware import states
from firmware.sas import bcd, exceptions

GAME = 1  # Jeton offers one game per cabinet: game 1 (0 is the machine)
_DAYS = b"\x1f\x1c\x1f\x1e\x1f\x1e\x1f\x1f\x1e\x1f\x1e\x1f"  # days of each month, a common year


def _taken(m, event):
    """The state table takes `event` now (and memory can be trusted)."""
    return not m.cab.ram_error and m.ledger.st is not None and states.action(m.cab.state, event) is not None


def notes(m, rx, k, out):
    """06 enable / 07 disable the bill acceptor: the cabinet inhibits the validator (want_notes)."""
    on = rx[1] == 0x06
    if not _taken(m, states.HOST_ENABLE if on else states.HOST_DISABLE):
        return NACK
    if bool(m.queue.flags & exceptions.NOTES_OFF) == on:
        m.queue.set_flag(exceptions.NOTES_OFF, not on)
        m.ledger.event("sas", "bill acceptor %s by the central system" % ("enabled" if on else "disabled"))
        m.cab.show()
    return ACK


def _order(m, on, flag, kind, why):
    """Clear (on) or set the order `flag` (kept in the queue's block: the books' state block has no
    room for more tilts) and its tilt `kind` (firmware/cabinet.py BOOT_TILTS: set again at power-up
    from the flag, machine.py), as the state table takes host_enable / host_disable."""
    if not _taken(m, states.HOST_ENABLE if on else states.HOST_DISABLE):
        return NACK
    q = m.queue
    if bool(q.flags & flag) == on:
        q.set_flag(flag, not on)
        if on:
            m.cab.clear_boot_tilt(kind)  # its event commits the flag with it
        else:
            m.cab.set_tilt(kind, why)
    m.cab.show()
    return ACK


def game(m, rx, k, out):
    """09: enable (00) or disable (01) game N; game 1 is the one the cabinet offers."""
    try:
        n = bcd.get(rx, 2, 2)
    except ValueError:
        return NACK
    if n != GAME or m.cab.game is None or rx[4] > 1:
        return NACK
    return _order(m, rx[4] == 0, exceptions.GAME_OFF, "sas-game", "game %d disabled by the central system" % n)


def maintenance(m, rx, k, out):
    """0A enter / 0B exit maintenance mode: no play while in it (the `maintenance` tilt)."""
    return _order(m, rx[1] == 0x0B, exceptions.MAINTENANCE, "maintenance", "maintenance mode, by the central system")


def handpay_reset(m, rx, k, out):
    """94: the system pays the lock as the attendant's key would, where the key pays it."""
    st = m.cab.state
    if st != states.HANDPAY and st != states.JACKPOT:
        out[2] = 2  # not in a hand pay
    elif states.action(st, states.KEY) != "attendant_key" or not m.cab.handle(states.KEY):
        out[2] = 1  # unable to reset
    else:
        out[2] = 0
    return 1


def now(m, rx, k, out):
    """7E: the machine's date and time, local (firmware/localtime.py)."""
    from firmware import localtime
    from firmware.eventlog import now as clock

    y, mo, d, h, mi, s, _ = localtime.local(clock())
    bcd.put(out, 2, (mo * 100 + d) * 10000 + y, 4)
    bcd.put(out, 6, (h * 100 + mi) * 100 + s, 3)
    return 7


def set_clock(m, rx, k, out):
    """7F: set the clock, only where the jurisdiction profile lets the system set it and the board
    has a clock that can be set (board set_clock(utc seconds)); refused (NACK) otherwise, and for a
    date that does not exist. The event keeps the time it replaced, for the auditor."""
    from firmware import jurisdiction, localtime
    from firmware.eventlog import now as clock

    if not jurisdiction.PROFILES.get(m.cab.config.JURISDICTION, {}).get("host_clock"):
        return NACK
    setter = getattr(m.cab.board, "set_clock", None)
    try:
        date = bcd.get(rx, 2, 4)
        t = bcd.get(rx, 6, 3)
    except ValueError:
        return NACK
    mo, d, y = date // 1000000, date // 10000 % 100, date % 10000
    h, mi, s = t // 10000, t // 100 % 100, t % 100
    if setter is None or not (1 <= mo <= 12 and 2000 <= y <= 2099 and h < 24 and mi < 60 and s < 60):
        return NACK
    if not 1 <= d <= _DAYS[mo - 1] + (mo == 2 and localtime._leap(y)):
        return NACK  # 31 April, 29 February of a common year
    was = localtime.stamp(clock())
    try:
        setter(utc_of_local(y, mo, d, h, mi, s))
    except OSError:
        return NACK  # the board could not keep it: the clock is as it was
    m.ledger.event("sas", "clock set by the system to %04d-%02d-%02d %02d:%02d:%02d, was %s" % (
        y, mo, d, h, mi, s, was[:19]))
    return ACK


def utc_of_local(y, mo, d, h, mi, s):
    """Seconds since 1970 (UTC) of a local (Eastern) date and time: the inverse of localtime.local."""
    from firmware import localtime

    days = 0
    for yy in range(1970, y):
        days += 366 if localtime._leap(yy) else 365
    days += localtime._CUM[mo - 1] + (1 if mo > 2 and localtime._leap(y) else 0) + d - 1
    t = days * 86400 + h * 3600 + mi * 60 + s + 5 * 3600  # EST
    if localtime.local(t - 3600)[6]:
        t -= 3600  # EDT
    return t


def handle(m, rx, k, out):
    cmd = rx[1]
    if cmd == 0x06 or cmd == 0x07:
        return notes(m, rx, k, out)
    if cmd == 0x09:
        return game(m, rx, k, out)
    if cmd == 0x0A or cmd == 0x0B:
        return maintenance(m, rx, k, out)
    if cmd == 0x94:
        return handpay_reset(m, rx, k, out)
    if cmd == 0x7E:
        return now(m, rx, k, out)
    return set_clock(m, rx, k, out)
