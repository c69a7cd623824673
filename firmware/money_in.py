# What money in by coin (firmware/coin_in.py CoinIn) and by note (firmware/bill_in.py BillIn) share:
# a ccTalk device on the cabinet's bus, polled every ACCEPTOR_POLL_MS; set up again (inhibited first,
# its event counter baselined, its identities read) after any error on the bus; enabled only while
# the cabinet wants money and inhibited at once when it must not take it; a latched counter fault
# acknowledged by the attendant's key.
#
# The cabinet calls service(now, cab) every loop; cab provides want_money(), set_tilt(kind, why),
# disrupted(why) and show().
from board.cctalk import CcTalkError
from board.compat import ticks_add, ticks_diff


class MoneyIn:
    def __init__(self, device, ledger, config, log, counter):
        """device: the ccTalk driver (board/coin_cctalk.py, board/bill_cctalk.py); counter: its event
        counter as the books committed it last (None on a fresh machine: baselined at set-up)."""
        self.device = device
        self.ledger = ledger
        self.config = config
        self.log = log
        # set at each set-up (setup(), inhibited first): position or bill type -> identity, as the device
        # reported them, and -> cents for the ones accepted only, and their header 231 bits
        self.ids = {}
        self.values = {}
        self.mask = 0
        self.ok = False  # set up (inhibited, counter baselined, identities read)
        self.accepting = None
        self._events = []
        self._next_poll = None
        if ledger.st is not None:
            device.last = counter

    def _due(self, now):
        """True once a poll period, from the first call on."""
        if self._next_poll is not None and ticks_diff(now, self._next_poll) < 0:
            return False
        self._next_poll = ticks_add(now, self.config.ACCEPTOR_POLL_MS)
        return True

    def _enable(self, cab):
        """Acceptance as the cabinet wants it now; returns what it wants."""
        want = cab.want_money()
        if want != self.accepting:
            self.device.enable(want, self.mask)
            self.accepting = want
        return want

    def _lost(self, what, e):
        """A bus error: logged once, and set up again (inhibited first) on the next good poll."""
        if self.ok:
            self.log("%s: %s" % (what, e.reason))
        self.ok = False

    def inhibit(self):
        try:
            self.device.enable(False, self.mask)
            self.accepting = False
        except CcTalkError:
            self.ok = False  # set up (inhibited first) again on the next good poll

    def clear_fault(self):
        """The attendant's key: a latched driver fault (counter out of sequence) is acknowledged."""
        if self.device.fault:
            try:
                self.device.clear_fault()
            except CcTalkError:
                self.ok = False
