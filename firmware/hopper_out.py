# Money out on a cabinet that pays by hopper or by hand (every profile but a coupon one: casino): the
# cash-out and the hopper's service and events. The hopper driver is board/hopper_cctalk.py, the
# books firmware/payout_books.py; a coupon cabinet's money out is firmware/coupon_out.py, with the
# same interface (the cabinet asks its money out, never which kind it is).
#
# A part of the cabinet (firmware/cabinet.py), made at power-up (firmware/startup.py) with the hopper
# (or None: every cash-out a hand pay), the books, the configuration, the screen it sets, the board's
# clock and the log. The cabinet calls service(cab) every loop and cashout(cab, hopper) from the state
# table; cab provides tilts, set_tilt(kind, why), disrupted(why) and show().
from board import hopper_codes
from board.cctalk import CcTalkError
from board.compat import ticks_add, ticks_diff
from board.hopper_cctalk import HopperError
from firmware.audit_error import AuditError

HOPPER_RETRY_MS = 5000


def payout_credits(cfg):
    """Credits one coin from the hopper is worth (cfg.PAYOUT_COIN: (identity, cents))."""
    return cfg.PAYOUT_COIN[1] // cfg.DENOM_CENTS


class HopperOut:
    store = None  # no coupon memory, no printer: a coupon cabinet's money out has them
    printer = None

    def __init__(self, hopper, ledger, config, screen, clock, log):
        self.hopper = hopper  # board.hopper_cctalk.Hopper, or None: cash-out by hand pay
        self.ledger = ledger
        self.config = config
        self.screen = screen
        self.clock = clock
        self.log = log
        self.ok = False  # the hopper set up and answering
        self._retry = clock()
        self._probing = 0  # 1: a simple poll to the hopper under way, 2: its set-up (start), a step a pass

    def cashout(self, cab, hopper=True):
        """The credits on the meter, paid. The hopper pays only where the state table names the
        cash-out (idle, credit, tilt: hopper=True) and when it is usable and within its limit; else
        it is a hand pay. Under the self-audit tilt, which says the books disagree, the credit meter
        is paid by hand as it stands (an attendant checks it; the tilt stays for the technician), so
        the RAM clear that ends the tilt never erases credits."""
        credits = self.ledger.credits
        cpc = payout_credits(self.config)
        coins = credits // cpc
        tilts = cab.tilts
        audited = "audit" not in tilts
        try:
            if hopper and audited and self.usable(tilts) and coins and credits <= self.config.HOPPER_LIMIT:
                ref = self.ledger.start_payout(coins, cpc)
                try:
                    # never waits: its record (and our mark) saved once the hopper's counters are read,
                    # at once or in a later pass (service), before any coin
                    self.hopper.payout(coins, ref)
                except (CcTalkError, HopperError) as e:
                    self._refused(e)
                else:
                    self.log("cashout: hopper pays %d coins (ref %d)" % (coins, ref))
            else:
                self.ledger.cashout(hand_pay=True, audited=audited)
                self.log("cashout: %d credits by hand pay" % credits)
        except AuditError as e:
            cab.set_tilt("audit", str(e))
            return
        self.screen.win = 0
        cab.show()

    def _refused(self, e):
        """The hopper could not start the payout (no record saved, no coin out): a hand pay."""
        self.ledger.abandon_payout()
        self.ok = False
        self.log("hopper refused the payout (%s): hand pay" % e)
        self.ledger.cashout(hand_pay=True)

    def usable(self, tilts):
        # a wrong configuration may price the hopper's coin wrong: hand pay then
        return self.hopper is not None and self.ok and "hopper" not in tilts and "fraud" not in tilts \
            and "config" not in tilts

    def owed(self):
        """Nothing beyond the books: a hopper payout under way is theirs ("paying")."""
        return False

    def due(self):
        """No cash-out of its own accord (a coupon cabinet's automatic coupon)."""
        return False

    def ready(self):
        """No device tilt of its own to clear (a coupon cabinet's printer)."""
        return True

    def condition(self, cab):
        """No condition of its own that stops play (a coupon cabinet's coupon memory)."""

    def coupon_cashout(self, cab, why="cash-out"):
        """No coupon: a hopper cabinet prints none (and due() never asks for one)."""

    def reprint(self, cab):
        raise ValueError("no coupon printer on this cabinet")

    def clear_faults(self):
        """The attendant's key on a hopper or fraud tilt: the hopper's latched flags cleared."""
        if self.hopper is not None and self.ok:
            try:
                self.hopper.clear_faults()
            except CcTalkError:
                self.ok = False

    def service(self, cab):
        h = self.hopper
        if h is None:
            return
        now = self.clock()
        out = []
        try:
            if not self.ok:
                if not self._probing:
                    if ticks_diff(now, self._retry) < 0:
                        return
                    self._retry = ticks_add(now, HOPPER_RETRY_MS)
                    self._probing = 1
                if self._probing == 1:  # a simple poll first: an unplugged hopper costs only that
                    if h.answers() is None:
                        return
                    self._probing = 2
                # the set-up, one exchange a pass; it finishes or proves a payout left open by a restart
                if h.start(out):
                    self._probing = 0
                    self.ok = True
                    self.log("hopper: online")
            elif h.busy() or ticks_diff(now, self._retry) >= 0:
                if not h.busy():
                    self._retry = ticks_add(now, HOPPER_RETRY_MS)
                h.service(out)
        except (CcTalkError, HopperError) as e:
            self._probing = 0  # asked again after HOPPER_RETRY_MS
            if self.ok and self.ledger.paying and h.record is None:
                # the payout's first readings failed: the driver forgot its record unsaved, nothing paid
                # (set up, a record in NVRAM is the driver's until settled: not this)
                try:
                    self._refused(e)
                except AuditError as a:
                    cab.set_tilt("audit", str(a))
                    return
                self.screen.win = 0
                cab.show()
                return
            if self.ok:
                self.log("hopper: %s" % e)
            self.ok = False
            return
        for kind, a, b in out:
            self.event(cab, kind, a, b)

    def event(self, cab, kind, a, b):
        h = self.hopper
        sc = self.screen
        if kind == "paying":
            sc.message = ("paying", b)
            cab.show()
        elif kind in ("payout", "uncertain"):
            ref = h.record["ref"] if h.record else None
            if kind == "payout":
                paid, unpaid = a, b
            else:
                paid, unpaid = b, a - b
            if self.ledger.book_payout(ref, paid, unpaid, uncertain=(kind == "uncertain")):
                self.log("hopper %s: %d paid, %d unpaid" % (kind, paid, unpaid))
            h.settle()
            if kind == "payout" and unpaid:
                cab.set_tilt("hopper", "partial payout: %d coins unpaid stay as credits" % unpaid)
            elif not self.ledger.lock and 0 < self.ledger.credits < payout_credits(self.config):
                self.ledger.cashout(hand_pay=True)  # less than one coin left: the attendant pays it
            sc.message = ("paid", paid * payout_credits(self.config))
            cab.show()
        elif kind == "extra":
            cab.set_tilt("hopper", "runaway: %d coins paid unasked" % a)
        elif kind == "fraud":
            cab.disrupted("hopper fraud flag %d: %s" % (a, hopper_codes.name(a)))
            cab.set_tilt("fraud", "hopper flag %d: %s" % (a, hopper_codes.name(a)))
        elif kind == "fault":
            cab.set_tilt("hopper", "hopper flag %d: %s" % (a, hopper_codes.name(a)))
        else:
            self.log("hopper %s flag %d: %s" % (kind, a, hopper_codes.name(a)))
