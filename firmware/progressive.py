# Progressive jackpot (by-law s. 91-92): an amount that grows at a pre-set rate with every credit
# wagered at its bet, won by one named pay at that bet, shown continuously, persisted with the ledger.
#
# The game's certified model declares it (games/model.py "progressive": pay, bet, rate p/q, ceiling);
# the pay table's value for that pay at that bet is the reset, so the certified return counts the
# progressive at its reset and is a floor: contributions only ever add to it (s. 93 cannot be
# undercut). Exact arithmetic: the amount is kept in units of 1/q credit, so the rate p/q of every
# credit accumulates without rounding.
# s. 92: only a bet that can win it feeds it (every machine on a link requires the same coins).
# Ceiling (needed under a prize limit, vlt): the meter never goes above it; what is wagered past it,
# and the part of a credit a win cannot pay, roll over (st["prog_r"], in 1/q units) into the next
# reset: never lost, never paid above the ceiling. Without a ceiling only the fraction rolls over.
# Linked machines (s. 92): a link is enabled only when this machine requires the link's number of
# coins and plays the same certified math (same math hash): the same chances on every machine.
# Linked through SAS (firmware/sas/progressive.py sets `feed`, and bounds the level there): a hit
# pays the controller's level amount in force when the game started, committed with its wager
# (firmware/game_books.py "lp"), never under the reset (s. 93) nor over the ceiling (held to the
# prize limit at boot); the meter here keeps its contributions, the certified amount of a cabinet
# not linked, and a linked hit leaves it as it is (it paid nothing of it).


class ProgressiveError(Exception):
    pass


class Progressive:
    # the SAS controller's level (firmware/sas/progressive.py Linked), set on a linked cabinet only:
    # a class default, and what reads it lives there, so a cabinet not linked carries nothing more
    feed = None

    def __init__(self, spec, math_hash, link=None, hand=True):
        """spec: the model's progressive (games.model.Model.progressive); link: None or
        {"id", "bet", "math_hash"} as the link controller announces it; hand: a hit locks for a hand
        pay (casino), else it is credited like any win (vlt: only a coupon pays, L-6, r. 3, s. 7)."""
        self.pay = spec["pay"]
        self.bet = spec["bet"]
        self.num = spec["num"]
        self.den = spec["den"]
        self.reset = spec["reset"]
        self.ceiling = spec.get("ceiling")  # None: no ceiling
        self.hand = hand
        if link:
            if link.get("bet") != self.bet:
                raise ProgressiveError("link %s needs %s coins, this machine %d (s. 92)"
                                       % (link.get("id"), link.get("bet"), self.bet))
            if link.get("math_hash") != math_hash:
                raise ProgressiveError("link %s plays other math: not the same chances (s. 92)" % link.get("id"))
        self.link = link

    def _fill(self, st, n):
        # the meter at n units, capped: what passes the ceiling goes to the roll-over
        if self.ceiling is not None and n > self.ceiling * self.den:
            st["prog_r"] = st.get("prog_r", 0) + n - self.ceiling * self.den
            n = self.ceiling * self.den
        st["prog_n"] = n

    def amount(self, st):
        n = st.get("prog_n", self.reset * self.den)
        if self.ceiling is not None and n > self.ceiling * self.den:
            n = self.ceiling * self.den  # a meter of an older model without this ceiling
        return n // self.den

    def rollover(self, st):
        """The credits waiting for the next reset (1/q units), beyond the meter."""
        return st.get("prog_r", 0)

    def contribute(self, st, bet):
        """s. 92: only a bet that can win the progressive feeds it."""
        if bet == self.bet:
            self._fill(st, st.get("prog_n", self.reset * self.den) + bet * self.num)

    def hit(self, outcome):
        """The fixed credits the progressive replaces in this outcome, or 0 when it is not won."""
        if outcome.bet != self.bet:
            return 0
        for win in outcome.wins:
            if win[1] == self.pay:
                return win[2]
        return 0

    def won(self, st):
        """Pay out: returns the whole credits on the meter (at most the ceiling) and starts the next
        meter at the reset plus everything that rolled over (the fraction of a credit included)."""
        amount = self.amount(st)
        left = st.get("prog_n", self.reset * self.den) - amount * self.den + st.get("prog_r", 0)
        st["prog_r"] = 0
        self._fill(st, self.reset * self.den + left)
        if not st["prog_r"]:
            del st["prog_r"]
        return amount
