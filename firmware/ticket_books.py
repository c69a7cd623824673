# A coupon (ticket) redeemed through the SAS system, in the books: the ledger's "tin" block, a fixed
# binary record committed in the same transaction as the credits, the event and the exception it
# raises (firmware/ledger.py _commit). Only a casino cabinet with a ticket reader writes it
# (config.TICKET_IN, firmware/bill_in.py); the system's side is firmware/sas/ticket_in.py.
#
# The ticket's stages, each one commit:
#   HELD      in escrow, its validation number read (ccTalk header 129): exception 67, waiting for
#             the system (70 read, then 71)
#   STACKING  the system's 71 said redeem, the amount checked: committed BEFORE the validator is
#             told to stack it; the stack's ACK credits it (ticket_stacked) in one commit with 68
#   RETURNING the ticket goes back to the player (the system refused, the amount was refused, no
#             71 in time, money in refused): nothing is credited; 68 once it is back
#   UNKNOWN   a power cut or a validator reset while STACKING: nothing proves where the ticket went
#             (the validator may have stacked it, or cleared it out of its front at power-up); the
#             "ticket" tilt until the attendant counts the cash box ('ticket stacked|returned')
# IDLE with the last outcome (the status 71's status query reports).
# Meters (in this block, not the state's: its worst case leaves no room): credits and cents in by
# ticket and their count (SAS Table C-7 0x0D/0x11/0x28/0x35/0x80/0x81: docs/sas.md). Self-audit:
# the ticket_in credits are in the credit meter's sum (firmware/ledger.py audit).
from board.compat import const

IDLE = const(0)
HELD = const(1)
STACKING = const(2)
RETURNING = const(3)
UNKNOWN = const(4)
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

SIZE = const(40)  # the block (firmware/ledger.py TICKET_SIZE)
_VERSION = const(1)
# layout: version, stage, status, transfer code, cents (5 binary LSB first), validation number (9
# BCD, 18 digits), credits (5 binary), then the meters: ticket credits (5), ticket cents (6), count
# (4), then whether 70 was read for the ticket held (1)
_CENTS = const(4)
_NUMBER = const(9)
_CREDITS = const(18)
_M_CREDITS = const(23)
_M_CENTS = const(28)
_M_COUNT = const(34)


def _get(b, at, n):
    v = 0
    for i in range(n - 1, -1, -1):
        v = v << 8 | b[at + i]
    return v


def _put(b, at, n, v):
    for i in range(n):
        b[at + i] = v & 0xFF
        v >>= 8


class TicketRecord:
    def __init__(self):
        self.b = bytearray(SIZE)
        self.dirty = False
        self.load(b"")

    def load(self, raw):
        """The block as committed; b"" (a fresh or cleared memory) or a later version: none."""
        b = self.b
        for i in range(SIZE):
            b[i] = 0
        if raw and raw[0] == _VERSION and len(raw) >= SIZE:
            b[:] = raw[:SIZE]
        else:
            b[0] = _VERSION
            b[2] = NONE
        self.dirty = False

    def block(self):
        return bytes(self.b)

    @property
    def stage(self):
        return self.b[1]

    @property
    def status(self):
        return self.b[2]

    @property
    def code(self):
        return self.b[3]

    @property
    def cents(self):
        return _get(self.b, _CENTS, 5)

    @property
    def credits(self):
        return _get(self.b, _CREDITS, 5)

    def number(self):
        """The validation number: 9 bytes of BCD (18 digits)."""
        return self.b[_NUMBER:_NUMBER + 9]

    def digits(self):
        out = ""
        for x in self.number():
            out += "%02x" % x
        return out

    @property
    def credits_in(self):
        return _get(self.b, _M_CREDITS, 5)

    @property
    def cents_in(self):
        return _get(self.b, _M_CENTS, 6)

    @property
    def count_in(self):
        return _get(self.b, _M_COUNT, 4)

    def set(self, stage, status=None, code=None, cents=None, credits=None, digits=None):
        b = self.b
        b[1] = stage
        if stage == HELD:
            b[38] = 0  # 70 not read yet for this ticket (firmware/sas/ticket_in.py)
        if status is not None:
            b[2] = status
        if code is not None:
            b[3] = code
        if cents is not None:
            _put(b, _CENTS, 5, cents)
        if credits is not None:
            _put(b, _CREDITS, 5, credits)
        if digits is not None:
            for i in range(9):
                b[_NUMBER + i] = int(digits[2 * i:2 * i + 2], 16)  # two decimal digits: one BCD byte
        self.dirty = True

    def count(self, credits, cents):
        """A ticket redeemed: its credits, cents and one more in the meters (rolling over)."""
        _put(self.b, _M_CREDITS, 5, (self.credits_in + credits) % 10 ** 10)
        _put(self.b, _M_CENTS, 6, (self.cents_in + cents) % 10 ** 12)
        _put(self.b, _M_COUNT, 4, (self.count_in + 1) % 10 ** 8)
        self.dirty = True


def valid_digits(s):
    return isinstance(s, str) and len(s) == 18 and s.isdigit()


class TicketBooks:
    """Mixed into firmware.ledger.Ledger (self.tin: the TicketRecord; self._commit writes it when dirty)."""

    def ticket_held(self, digits, counter):
        """A ticket is in escrow with its validation number: committed (67) before the system is asked."""
        self.tin.set(HELD, WAITING, 0, 0, 0, digits)
        if counter is not None:
            self.st["bill_ev"] = counter
        self.exception("ticket in")  # SAS 67
        self.event("ticket", "ticket %s in escrow, asking the system" % digits)

    def ticket_decided(self, stage, status, code=None, cents=None, credits=None):
        """The system's answer (71), checked: STACKING (credits still owed until the stack) or RETURNING."""
        self.tin.set(stage, status, code, cents, credits)
        self.event("ticket-71", "ticket %s: %s (status %02X, %d cents)" % (
            self.tin.digits(), "stacking" if stage == STACKING else "returning", status, self.tin.cents))

    def ticket_stacked(self):
        """The ticket is in the stacker: its credits, once, with the meters, 68 and the event."""
        t = self.tin
        k = t.credits
        self.st["credits"] += k
        self.money_in(k)
        t.count(k, t.cents)
        t.set(IDLE, REDEEMED)
        self.exception("ticket done")  # SAS 68
        self.event("ticket-in", "ticket %s stacked: +%d credits" % (t.digits(), k))
        return k

    def ticket_returned(self, status, why):
        """The ticket is back with the player (or was never taken): nothing credited; 68."""
        t = self.tin
        t.set(IDLE, status)
        self.exception("ticket done")
        self.event("ticket-back", "ticket %s returned: %s" % (t.digits(), why))

    def ticket_unproven(self, why):
        """Its fate cannot be proved while it was being stacked: the attendant's ('ticket' tilt)."""
        t = self.tin
        t.set(UNKNOWN)
        self.event("ticket-unknown", "ticket %s (%d credits) fate unknown: %s" % (t.digits(), t.credits, why))

    def settle_ticket(self, stacked, who):
        """The attendant's word on the ticket of unknown fate, from the cash box."""
        t = self.tin
        if t.stage != UNKNOWN:
            raise ValueError("no ticket of unknown fate to settle")
        if stacked:
            k = t.credits
            self.st["credits"] += k
            self.money_in(k)
            t.count(k, t.cents)
            t.set(IDLE, REDEEMED)
            self.exception("ticket done")
            self.event("ticket-in", "ticket %s of unknown fate: stacked, says %s: +%d credits" % (t.digits(), who, k))
        else:
            t.set(IDLE, VALIDATOR)
            self.exception("ticket done")
            self.event("ticket-back", "ticket %s of unknown fate: returned, says %s" % (t.digits(), who))
