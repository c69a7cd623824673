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
        self._asking = False  # the device's poll is under way on the bus: served every pass until done
        if ledger.st is not None:
            device.last = counter

    def _due(self, now):
        """True once a poll period, from the first call on, and every pass while a poll is under way
        (the driver's service() sends its readings and takes their replies in later passes)."""
        if self._asking:
            return True
        if self._next_poll is not None and ticks_diff(now, self._next_poll) < 0:
            return False
        self._next_poll = ticks_add(now, self.config.ACCEPTOR_POLL_MS)
        return True

    def _ready(self):
        """Set up (it waits: some twenty requests) only once the device has answered a simple poll that
        does not: a silent or unplugged device never holds the cabinet's loop. False until then."""
        if self.ok:
            return True
        if self.device.answers() is None:
            self._asking = True
            return False
        self._asking = False
        self.setup()
        return True

    def _enable(self, want):
        """Acceptance as the cabinet wants it now (cab.want_money(), notes cab.want_notes()); returns it."""
        if want != self.accepting:
            self.device.want(want, self.mask)  # sent by the device's service(), never waiting
            self.accepting = want
        return want

    def _lost(self, what, e):
        """A bus error: logged once, and set up again (inhibited first) on the next good poll."""
        self._asking = False
        if self.ok:
            self.log("%s: %s" % (what, e.reason))
        self.ok = False

    def inhibit(self):
        """Acceptance off: sent by the device's service() in the next passes (before its next reading),
        never waiting."""
        self.device.want(False, self.mask)
        self.accepting = False
        self._asking = True  # served from the next pass on, not at the next poll period

    def clear_fault(self):
        """The attendant's key: a latched driver fault (counter out of sequence) is acknowledged."""
        if self.device.fault:
            try:
                self.device.clear_fault()
            except CcTalkError:
                self.ok = False
