# Money out: the cash-out (hopper or hand pay) and the hopper's service and events. Mixed into
# firmware.cabinet.Cabinet; the hopper driver is board/hopper_cctalk.py, the books
# firmware/payout_books.py.
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
    def cashout(self, hopper=True):
        """Credits belong to the player. The state table (firmware/states.py) says where this runs:
        every state but a RAM error, and where a press is kept instead (keep_cashout). The hopper
        pays only where the table names this method (idle, credit, tilt) and when it is usable and
        within its limit; else it is a hand pay. Under the self-audit tilt, which says the books
        disagree, the credit meter is paid by hand as it stands (an attendant checks it; the tilt
        stays for the technician), so the RAM clear that ends the tilt never erases credits."""
        if self.hand_open():
            return self.keep_cashout()  # a dealt poker hand is drawn first, even under a door or a tilt
        self._cashout_asked = False
        if not self.ledger.credits:
            return
        if self.printer is not None:
            return self.coupon_cashout()  # a coupon jurisdiction pays by coupon only (S-13.1, r. 7, s. 4)
        if self.jurisdiction and self.jurisdiction.get("payout") == "coupon":
            self.log("cashout: no coupon printer: the credits stay")  # its config tilt says why
            return
        credits = self.ledger.credits
        cpc = payout_credits(self.config)
        coins = credits // cpc
        audited = "audit" not in self.tilts
        try:
            if hopper and audited and self.hopper_usable() and coins and credits <= self.config.HOPPER_LIMIT:
                ref = self.ledger.start_payout(coins, cpc)
                try:
                    self.hopper.payout(coins, ref)  # saves its record (and our mark) before any coin
                except (CcTalkError, HopperError) as e:
                    self.ledger.abandon_payout()
                    self.hopper_ok = False
                    self.log("hopper refused the payout (%s): hand pay" % e)
                    self.ledger.cashout(hand_pay=True)
                else:
                    self.log("cashout: hopper pays %d coins (ref %d)" % (coins, ref))
            else:
                self.ledger.cashout(hand_pay=True, audited=audited)
                self.log("cashout: %d credits by hand pay" % credits)
        except AuditError as e:
            self.set_tilt("audit", str(e))
            return
        self.win = 0
        self.show()

    def cashout_by_hand(self):
        """A cash-out where the hopper must not pay (a door open, the audit key on): a hand pay, or
        the coupon where only a coupon pays."""
        self.cashout(hopper=False)

    def keep_cashout(self):
        self._cashout_asked = True  # carried out by step() once the game, payout or lock has ended

    def hopper_usable(self):
        t = self.tilts  # a wrong configuration may price the hopper's coin wrong: hand pay then
        return self.hopper is not None and self.hopper_ok and "hopper" not in t and "fraud" not in t \
            and "config" not in t

    def service_hopper(self):
        h = self.hopper
        if h is None:
            return
        now = self.board.ticks_ms()
        out = []
        try:
            if not self.hopper_ok:
                if ticks_diff(now, self._hopper_retry) < 0:
                    return
                self._hopper_retry = ticks_add(now, HOPPER_RETRY_MS)
                h.begin(out)  # finishes or proves a payout left open by a restart
                self.hopper_ok = True
                self.log("hopper: online")
            elif h.busy() or ticks_diff(now, self._hopper_retry) >= 0:
                if not h.busy():
                    self._hopper_retry = ticks_add(now, HOPPER_RETRY_MS)
                h.service(out)
        except (CcTalkError, HopperError) as e:
            if self.hopper_ok:
                self.log("hopper: %s" % e)
            self.hopper_ok = False
            return
        for kind, a, b in out:
            self.hopper_event(kind, a, b)

    def hopper_event(self, kind, a, b):
        h = self.hopper
        if kind == "paying":
            self.message = ("paying", b)
            self.show()
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
                self.set_tilt("hopper", "partial payout: %d coins unpaid stay as credits" % unpaid)
            elif not self.ledger.lock and 0 < self.ledger.credits < payout_credits(self.config):
                self.ledger.cashout(hand_pay=True)  # less than one coin left: the attendant pays it
            self.message = ("paid", paid * payout_credits(self.config))
            self.show()
        elif kind == "extra":
            self.set_tilt("hopper", "runaway: %d coins paid unasked" % a)
        elif kind == "fraud":
            self.disrupted("hopper fraud flag %d: %s" % (a, hopper_codes.name(a)))
            self.set_tilt("fraud", "hopper flag %d: %s" % (a, hopper_codes.name(a)))
        elif kind == "fault":
            self.set_tilt("hopper", "hopper flag %d: %s" % (a, hopper_codes.name(a)))
        else:
            self.log("hopper %s flag %d: %s" % (kind, a, hopper_codes.name(a)))
