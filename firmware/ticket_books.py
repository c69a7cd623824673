# A coupon (ticket) redeemed through the SAS system, in the books: `Ledger.tin`, a fixed binary
# record kept after the exception queue's codes in the ledger's "sas" block (firmware/sas/exceptions.py:
# a block of its own cost a game 8 KB of boot heap, bench_heap's aurore-93), the bytes as committed,
# a bytearray here once changed, which the ledger's next commit writes (firmware/ledger.py); a fixed binary
# record committed in the same transaction as the credits, the event and the exception it raises.
# Only a casino cabinet with a ticket reader writes it (config.TICKET_IN, firmware/bill_in.py); the
# system's side is firmware/sas/ticket_in.py. Imported by those only: the ledger keeps the bytes
# and its audit reads the tickets' credits through credits_in below only once a ticket was seen, so a
# cabinet without a ticket reader holds none of this in its heap.
#
# The ticket's stages, each one commit:
#   HELD      in escrow, its validation number read (ccTalk header 129): exception 67, waiting for
#             the system (70 read, then 71)
#   STACKING  the system's 71 said redeem, the amount checked: committed BEFORE the validator is
#             told to stack it; the stack's ACK credits it (stacked) in one commit with 68
#   RETURNING the ticket goes back to the player (the system refused, the amount was refused, no
#             71 in time, money in refused): nothing is credited; 68 once it is back
#   UNKNOWN   a power cut or a validator reset while STACKING: nothing proves where the ticket went
#             (the validator may have stacked it, or cleared it out of its front at power-up); the
#             "ticket" tilt until the attendant counts the cash box ('ticket stacked|returned')
# IDLE with the last outcome (the status 71's status query reports).
# Meters (in this block, not the state's: its worst case leaves no room): credits and cents in by
# ticket and their count (SAS Table C-7 0x0D/0x11/0x15/0x28/0x29/0x35/0x80/0x81: docs/sas.md).
# Self-audit: the tickets' credits are in the credit meter's sum (firmware/ledger.py audit).
from board.compat import const

IDLE = const(0)
HELD = const(1)
STACKING = const(2)
RETURNING = const(3)
UNKNOWN = const(4)  # firmware/ledger.py ticket_stage's 4 (cabinet.py, owed)
# 71's machine status (SAS 6.02 Table 15.12d, as Monaco's public RedemptionStatusCode names it)
REDEEMED = const(0x00)  # cashable ticket redeemed
WAITING = const(0x20)  # waiting for long poll 71
PENDING = const(0x40)  # ticket redemption pending (not complete)
REJECTED_BY_HOST = const(0x80)
NO_MATCH = const(0x81)  # validation numbers do not match
BAD_FUNCTION = const(0x82)  # not a valid transfer function
BAD_AMOUNT = const(0x83)  # not a valid transfer amount
OVER_LIMIT = const(0x84)  # transfer amount exceeded the gaming machine's credit limit
NOT_MULTIPLE = const(0x85)  # transfer amount not an even multiple of the gaming machine's denomination
UNABLE = const(0x87)  # gaming machine unable to accept transfer (the state table refuses money in)
TIMEOUT = const(0x88)  # ticket rejected due to timeout
VALIDATOR = const(0x8B)  # ticket rejected due to validator failure
NONE = const(0xFF)  # no validation information available

# layout (firmware/sas/exceptions.py TICKET bytes): version 1, stage, status, transfer code, cents (5
# binary LSB first), validation number (9 BCD, 18 digits), credits (5 binary), then the meters:
# ticket credits (5: credits_in), ticket cents (6), count (4), then whether
# 70 was read for the ticket held (1: firmware/sas/ticket_in.py)
_CENTS = const(4)
_NUMBER = const(9)
_CREDITS = const(18)
_M_CREDITS = const(23)
_M_CENTS = const(28)
_M_COUNT = const(34)
READ = const(38)


def _ok(t):
    return len(t) >= 40 and t[0] == 1  # version 1, whole (b"": none yet, a fresh or cleared memory)


def _get(b, at, n):
    v = 0
    if _ok(b):
        for i in range(n - 1, -1, -1):
            v = v << 8 | b[at + i]
    return v


def _put(b, at, n, v):
    for i in range(n):
        b[at + i] = v & 0xFF
        v >>= 8


def stage(led):
    """0 none (or a block of another version), HELD ... UNKNOWN."""
    return led.ticket_stage()


def credits_in(led):
    """Credits in by ticket: the meter (firmware/ledger.py audit and meters json read it)."""
    return _get(led.tin, _M_CREDITS, 5)


def status(led):
    t = led.tin
    return t[2] if _ok(t) else NONE


def code(led):
    t = led.tin
    return t[3] if _ok(t) else 0


def read_70(led):
    """Whether 70 was read for the ticket held."""
    t = led.tin
    return _ok(t) and t[READ]


def mark_70(led):
    """70 read for the ticket held (written with the next commit, if any: at a cut the ticket is
    handed back anyway)."""
    _rw(led)[READ] = 1


def cents(led):
    return _get(led.tin, _CENTS, 5)


def credits(led):
    return _get(led.tin, _CREDITS, 5)


def number(led):
    """The validation number: 9 bytes of BCD (18 digits)."""
    t = led.tin
    return t[_NUMBER:_NUMBER + 9] if _ok(t) else bytes(9)


def digits(led):
    out = ""
    for x in number(led):
        out += "%02x" % x
    return out


def cents_in(led):
    return _get(led.tin, _M_CENTS, 6)


def count_in(led):
    return _get(led.tin, _M_COUNT, 4)


def _rw(led):
    """The record as a bytearray the next commit writes (firmware/ledger.py _commit)."""
    t = led.tin
    if not isinstance(t, bytearray):
        b = bytearray(40)
        if _ok(t):
            b[:] = t[:40]
        else:
            b[0] = 1  # version
            b[2] = NONE  # 71's status: no information yet
        led.tin = t = b
    return t


def _set(led, st, stat=None, code=None, cents=None, credits=None, digits=None):
    b = _rw(led)
    b[1] = st
    if st == HELD:
        b[READ] = 0  # 70 not read yet for this ticket
    if stat is not None:
        b[2] = stat
    if code is not None:
        b[3] = code
    if cents is not None:
        _put(b, _CENTS, 5, cents)
    if credits is not None:
        _put(b, _CREDITS, 5, credits)
    if digits is not None:
        for i in range(9):
            b[_NUMBER + i] = int(digits[2 * i:2 * i + 2], 16)  # two decimal digits: one BCD byte


def _count(led, k, c):
    """A ticket redeemed: its credits, cents and one more in the meters (rolling over)."""
    b = _rw(led)
    _put(b, _M_CREDITS, 5, (credits_in(led) + k) % 10 ** 10)
    _put(b, _M_CENTS, 6, (cents_in(led) + c) % 10 ** 12)
    _put(b, _M_COUNT, 4, (count_in(led) + 1) % 10 ** 8)


# --- the books' steps: each ends in one commit (the ledger's event) ----------------------------------------
def held(led, digits, counter):
    """A ticket is in escrow with its validation number: committed (67) before the system is asked."""
    _set(led, HELD, WAITING, 0, 0, 0, digits)
    if counter is not None:
        led.st["bill_ev"] = counter
    led.exception("ticket in")  # SAS 67
    led.event("ticket", "ticket %s in escrow, asking the system" % digits)


def decided(led, st, stat, code=None, cents=None, credits=None):
    """The system's answer (71), checked: STACKING (credits owed until the stack) or RETURNING."""
    _set(led, st, stat, code, cents, credits)
    led.event("ticket-71", "ticket %s: %s (status %02X, %d cents)" % (
        digits(led), "stacking" if st == STACKING else "returning", stat, cents or 0))


def _credit(led):
    k = credits(led)
    led.st["credits"] += k
    led.money_in(k)
    _count(led, k, cents(led))
    _set(led, IDLE, REDEEMED)
    led.exception("ticket done")  # SAS 68
    return k


def stacked(led):
    """The ticket is in the stacker: its credits, once, with the meters, 68 and the event."""
    k = _credit(led)
    led.event("ticket-in", "ticket %s stacked: +%d credits" % (digits(led), k))
    return k


def returned(led, stat, why):
    """The ticket is back with the player (or was never taken): nothing credited; 68."""
    _set(led, IDLE, stat)
    led.exception("ticket done")
    led.event("ticket-back", "ticket %s returned: %s" % (digits(led), why))


def unproven(led, why):
    """Its fate cannot be proved while it was being stacked: the attendant's ('ticket' tilt)."""
    _set(led, UNKNOWN)
    led.event("ticket-unknown", "ticket %s (%d credits) fate unknown: %s" % (digits(led), credits(led), why))


def settle(led, stack, who):
    """The attendant's word on the ticket of unknown fate, from the cash box: stacked credits it."""
    if stage(led) != UNKNOWN:
        raise ValueError("no ticket of unknown fate to settle")
    if stack:
        k = _credit(led)
        led.event("ticket-in", "ticket %s settled stacked by %s: +%d credits" % (digits(led), who, k))
    else:
        returned(led, VALIDATOR, "settled by %s" % who)
