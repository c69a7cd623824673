# Money in: the coin acceptor service the cabinet owns (polling, set-up, enable/inhibit, events to
# credits) and the coin valuation by ccTalk identity.
#
# s. 4: only Canadian currency or the Company's tokens. The configuration lists the accepted coins
# by their ccTalk identity ("CCvvvI": country, value, issue) with their value in cents
# (config.COINS). At set-up the acceptor's identities (header 184) are read and only the positions
# whose identity is listed are enabled (header 231 mask). A credit the acceptor still reports from
# any other position is never credited: the coin was taken against the inhibit we set, so the
# acceptor is misconfigured, failing or tampered with. It is the acceptor tilt (logged with its
# position and identity), acceptance stops until the attendant's key, and the attendant settles
# the player's coin by hand. A coin the acceptor returns (a reject code) is only logged.
#
# The cabinet calls service(now, cab) every loop (what it shares with BillIn: firmware/money_in.py).
# One commit per batch: the credits with the event counter that ends it.
from board.cctalk import CcTalkError
from firmware.money_in import MoneyIn


class CoinIn(MoneyIn):
    def __init__(self, acceptor, ledger, config, log):
        MoneyIn.__init__(self, acceptor, ledger, config, log, ledger.acceptor_counter if ledger.st is not None else None)
        self.refused = 0  # credits refused since power-up (an unlisted or unknown position)

    def setup(self):
        """Inhibit and baseline first (no coin slips in), then read the identities and the mask."""
        a = self.device
        a.begin()
        self.accepting = False
        ids = a.coin_ids()
        values = {}
        mask = 0
        for pos in sorted(ids):
            cents = self.config.COINS.get(ids[pos])
            if cents is None:
                self.log("coin position %d: %s is not an accepted coin: inhibited" % (pos, ids[pos]))
            else:
                values[pos] = cents
                mask |= 1 << (pos - 1)
        self.ids = ids
        self.values = values
        self.mask = mask
        self.ok = True
        self.log("acceptor: online, accepting %s" % ", ".join(ids[p] for p in sorted(values)))

    def service(self, now, cab):
        if not self._due(now):
            return
        try:
            if not self._ready():
                return
            self._enable(cab.want_money())
            n = self.device.service(self._events)  # never waits: None until its replies are in
        except CcTalkError as e:
            self._lost("acceptor", e)
            return
        self._asking = n is None
        if n is None:
            return
        credits = 0
        while self._events:
            kind, a, b = self._events.pop(0)
            if kind == "coin":
                cents = self.values.get(a)
                if cents is None:
                    self.refused += 1
                    cab.set_tilt("acceptor", "coin refused: position %d (%s) is not an accepted coin" %
                                 (a, self.ids.get(a, "unknown")))
                    continue
                credits += cents // self.config.DENOM_CENTS
                self.log("coin %d (%s): +%d credits" % (a, self.ids[a], cents // self.config.DENOM_CENTS))
            elif kind == "counter":
                cab.set_tilt("acceptor", "event counter out of sequence: was %d, now %d" % (a, b))
            elif kind in ("fraud", "fault"):
                # a fraud attempt (s. 94: no prize for the game it disrupted) or a jam: an attendant looks
                why = "%s %d/%d" % (kind, a, b)
                if kind == "fraud":
                    cab.disrupted("coin fraud code %d" % b)
                cab.set_tilt("fraud" if kind == "fraud" else "acceptor", why)
            else:
                self.log("acceptor %s %d/%d" % (kind, a, b))
                if kind == "reset":
                    self.ledger.event("acceptor", "acceptor reset (counter was %d)" % a)
                    self.ok = False  # read its identities again: it may not be the same acceptor
        last = self.device.last
        if credits or (last is not None and last != self.ledger.acceptor_counter):
            # one commit for the batch and the counter that ends it: no coin twice, none lost
            self.ledger.accept(credits, last)
            if credits:
                cab.show()
