# A linked progressive over SAS: the central system (the progressive controller) broadcasts the
# level amounts of a group with long polls 80 (one level) and 86 (several), to the machine's
# address or to address 0 (all machines, no answer); the machine answers 84/85 (its last
# progressive win) and 87 (SAS progressive wins waiting: Jeton has none, it never reports 56).
#
# Layouts (SAS 6.02 as Monaco's public `Aristocrat.Sas.Client` LP80, LP86, LP84, LP85, LP87
# parsers lay them out):
#   80 (type S): group (1 binary, 01-FF), level (1 binary, 01-20), amount (5 BCD, cents): ACK/NACK
#   86 (type M): length (07-C1), group, then level (1 binary) + amount (5 BCD) per level: ACK/NACK
#   84, 85 (type R): reply group (1 binary), level (1 binary), amount (5 BCD, cents)
#   87 (type R): reply length, group, number of levels (00: none waiting), level + amount each
# An amount that is not BCD, a level outside 01-20 or an 86 whose length is not 1 + 6n is NACKed
# and changes nothing.
#
# The cabinet's side: a progressive linked through SAS names its group in PROGRESSIVE_LINK
# ("group", 1-255; firmware/config.py). Its one level is the group's level 1. Exception 53 (no
# progressive information for 5 s, SAS Table A-1; saspy models/GPoll.py) is raised when that
# long passes without a broadcast for the group, and the cabinet stops play with the
# `progressive` tilt until the next one: "the linked game enters into an unplayable mode when it
# loses communication with the LAP controller" (N.J.A.C. 13:69E-1.39B(d)(3)). From power-up until
# the first broadcast it is in that tilt too (no level known yet); 53 comes once the 5 s have
# passed, once per silence.
from board.compat import const, ticks_diff
from board.sas_link import ACK, NACK
from firmware.sas import bcd

LEVELS = const(32)  # levels 01-20 (hex)
LEVEL = const(1)  # the cabinet's progressive is the group's level 1
LOST_MS = const(5000)  # exception 53's "5 seconds"
TILT = "progressive"  # firmware/cabinet.py BOOT_TILTS; quiet (firmware/sas/exceptions.py): 53 says it


def group_of(config):
    """The SAS group of the cabinet's linked progressive (PROGRESSIVE_LINK "group"), or 0."""
    link = getattr(config, "PROGRESSIVE_LINK", None)
    return (link.get("group") or 0) if isinstance(link, dict) else 0


class Linked:
    """The group's level amounts as last broadcast (cents; -1: not heard since power-up), in RAM:
    the controller sends them again and again. The cabinet's progressive reads its level here
    (firmware/progressive.py feed: pays, shown) to commit it with a wager."""

    def __init__(self, group, now, clock, denom):
        self.group = group
        self.cents = [-1] * (LEVELS + 1)  # by level number; [0] unused
        self.heard = now  # the last broadcast for the group (or power-up)
        self.lost = False  # 53 raised for this silence
        self.clock = clock
        self.denom = denom  # cents a credit (DENOM_CENTS)

    def level(self):
        """The cabinet's level amount in cents, or -1: none heard since power-up."""
        return self.cents[LEVEL]

    def credits(self):
        """The level in whole credits (rounded down: never more than the controller said), or -1:
        none heard, or none for 5 s (a game may start before watch() ran: it is refused too)."""
        c = self.cents[LEVEL]
        if c < 0 or self.lost or ticks_diff(self.clock(), self.heard) > LOST_MS:
            return -1
        return c // self.denom

    def pays(self, prog, bet):
        """The credits a hit of prog (firmware/progressive.py) pays in a game at `bet` starting
        now: the level in force, never under the reset (s. 93) nor over the ceiling (held to the
        prize limit at boot); -1: no fresh level (no play); None: a bet that cannot win it."""
        c = self.credits()
        if c < 0:
            return -1
        if bet != prog.bet:
            return None
        c = max(c, prog.reset)
        return c if prog.ceiling is None else min(c, prog.ceiling)

    def shown(self, prog, st):
        """The amount the display shows: the one a game open plays for, else the level in force
        (None: none fresh)."""
        g = st.get("game")
        if g and "lp" in g:
            return g["lp"]
        c = self.pays(prog, prog.bet)
        return c if c >= 0 else None


def start(m, now):
    """At power-up: the linked progressive, in its tilt until the first broadcast."""
    group = group_of(m.cab.config)
    if not group or m.cab.progressive is None:
        return None
    m.cab.set_tilt(TILT, "no progressive level from the central system yet")
    lk = Linked(group, now, m.link.clock, m.cab.config.DENOM_CENTS)
    m.cab.progressive.feed = lk  # a hit pays the level committed with the wager (firmware/game_books.py)
    return lk


def watch(m, now):
    """The cabinet's loop: 5 s without a broadcast for the group is exception 53 and the tilt."""
    lk = m.linked
    if lk is None or lk.lost or ticks_diff(now, lk.heard) <= LOST_MS:
        return
    lk.lost = True
    m.ledger.exception("progressive lost")  # committed with the queue (SasMachine.service)
    if TILT not in m.cab.tilts:
        m.cab.set_tilt(TILT, "no progressive level from the central system for 5 s")


def _levels(m, rx, at, n, apply):
    """n (level, amount) pairs at rx[at:]: all checked before any is kept (apply)."""
    lk = m.linked
    for j in range(n):
        i = at + 6 * j
        lv = rx[i]
        if not 1 <= lv <= LEVELS:
            return False
        try:
            cents = bcd.get(rx, i + 1, 5)
        except ValueError:
            return False
        if apply and lk is not None:
            lk.cents[lv] = cents
    return True


def broadcast(m, rx, k, out):
    """80 / 86: the group's level amounts. Kept when the group is the cabinet's; the broadcast for
    the cabinet's group ends a silence (the tilt cleared)."""
    if rx[1] == 0x80:
        at, n, group = 3, 1, rx[2]
    else:
        length = rx[2]
        if length < 7 or (length - 1) % 6:
            return NACK
        at, n, group = 4, (length - 1) // 6, rx[3]
    if group == 0 or not _levels(m, rx, at, n, False):
        return NACK
    lk = m.linked
    if lk is not None and group == lk.group:
        was = lk.credits()
        _levels(m, rx, at, n, True)
        if lk.cents[LEVEL] >= 0:
            lk.heard = m.link.clock()
            lk.lost = False
            if TILT in m.cab.tilts:
                m.cab.clear_boot_tilt(TILT)
                m.cab.show()
            elif lk.credits() != was:
                m.cab.show()  # the display shows the controller's amount (s. 91: continuously)
    return ACK


def last_win(m):
    """The credits of the newest progressive paid that recall still holds (its record's "prog"), or 0."""
    led = m.ledger
    names = led.recall_blocks()  # oldest first
    for i in range(len(names) - 1, -1, -1):
        raw = led.mem.read(names[i])
        if b'"prog"' in raw:
            import json

            p = json.loads(raw).get("prog")
            if p:
                return p[0]
    return 0


def win(m, rx, k, out):
    """84 / 85: group, level, the last progressive win in cents (0: none in recall)."""
    lk = m.linked
    out[2] = lk.group if lk is not None else 0
    out[3] = LEVEL
    bcd.put(out, 4, last_win(m) * m.cab.config.DENOM_CENTS, 5)
    return 7


def wins_waiting(m, rx, k, out):
    """87: length, group, no level waiting (Jeton pays its progressive itself: no 56 is raised)."""
    lk = m.linked
    out[2] = 2
    out[3] = lk.group if lk is not None else 0
    out[4] = 0
    return 3


def handle(m, rx, k, out):
    cmd = rx[1]
    if cmd == 0x80 or cmd == 0x86:
        return broadcast(m, rx, k, out)
    if cmd == 0x87:
        return wins_waiting(m, rx, k, out)
    return win(m, rx, k, out)
