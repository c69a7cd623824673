# Progressive jackpot (by-law s. 91-92): an amount that grows at a pre-set rate with every credit
# wagered, won by one named pay at the required bet, shown continuously, persisted with the ledger.
#
# The game's certified model declares it (games/model.py "progressive": pay, bet, rate p/q); the pay
# table's value for that pay at that bet is the reset, so the certified return counts the
# progressive at its reset and is a floor: contributions only ever add to it (s. 93 cannot be
# undercut). Exact arithmetic: the amount is kept in units of 1/q credit, so the rate p/q of every
# credit accumulates without rounding.
# Linked machines (s. 92): a link is enabled only when this machine requires the link's number of
# coins and plays the same certified math (same math hash): the same chances on every machine.


class ProgressiveError(Exception):
    pass


class Progressive:
    def __init__(self, spec, math_hash, link=None):
        """spec: the model's progressive (games.model.Model.progressive); link: None or
        {"id", "bet", "math_hash"} as the link controller announces it."""
        self.pay = spec["pay"]
        self.bet = spec["bet"]
        self.num = spec["num"]
        self.den = spec["den"]
        self.reset = spec["reset"]
        if link:
            if link.get("bet") != self.bet:
                raise ProgressiveError("link %s needs %s coins, this machine %d (s. 92)" % (link.get("id"), link.get("bet"), self.bet))
            if link.get("math_hash") != math_hash:
                raise ProgressiveError("link %s plays other math: not the same chances (s. 92)" % link.get("id"))
        self.link = link

    def amount(self, st):
        return st.get("prog_n", self.reset * self.den) // self.den

    def contribute(self, st, bet):
        st["prog_n"] = st.get("prog_n", self.reset * self.den) + bet * self.num

    def hit(self, outcome):
        """The fixed credits the progressive replaces in this outcome, or 0 when it is not won."""
        if outcome.bet != self.bet:
            return 0
        for win in outcome.wins:
            if win[1] == self.pay:
                return win[2]
        return 0

    def won(self, st):
        """Pay out: returns the amount and resets the meter."""
        amount = self.amount(st)
        st["prog_n"] = self.reset * self.den
        return amount
