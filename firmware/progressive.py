# Progressive jackpot (by-law s. 91-92): an amount that grows at a pre-set rate with every credit
# wagered, won by one named pay at the required bet, shown continuously, persisted with the ledger.
#
# Exact arithmetic: the amount is kept in milli-credits, so a rate such as 1 % of each credit
# (10 milli-credits) accumulates without rounding. The reset value is never below the fixed award it
# replaces, so the game's certified return (which counts that fixed award) stays a floor: the
# progressive only ever adds to it (s. 93 cannot be undercut).
# Linked machines (s. 92): a link is enabled only when this machine requires the link's number of
# coins and plays the same certified math (same math hash): the same chances on every machine.

MILLI = 1000


class ProgressiveError(Exception):
    pass


class Progressive:
    def __init__(self, cfg, game, math_hash):
        """cfg: {"pay": "3 SEVEN", "bet": 3, "reset": 1500, "rate_millis": 10, "link": None|{...}}"""
        self.pay = cfg["pay"]
        self.bet = cfg["bet"]
        self.reset = cfg["reset"]
        self.rate = cfg["rate_millis"]
        if self.rate <= 0:
            raise ProgressiveError("the rate must be positive")
        if self.bet not in game.bets:
            raise ProgressiveError("bet %d is not offered by %s" % (self.bet, game.id))
        fixed = fixed_award(game, self.pay, self.bet)
        if self.reset < fixed:
            raise ProgressiveError("reset %d below the certified fixed award %d (s. 93)" % (self.reset, fixed))
        self.fixed = fixed
        link = cfg.get("link")
        if link:
            if link.get("bet") != self.bet:
                raise ProgressiveError("link %s needs %s coins, this machine %d (s. 92)" % (link.get("id"), link.get("bet"), self.bet))
            if link.get("math_hash") != math_hash:
                raise ProgressiveError("link %s plays other math: not the same chances (s. 92)" % link.get("id"))
        self.link = link

    def amount(self, st):
        return st.get("prog_m", self.reset * MILLI) // MILLI

    def contribute(self, st, bet):
        st["prog_m"] = st.get("prog_m", self.reset * MILLI) + bet * self.rate

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
        st["prog_m"] = self.reset * MILLI
        return amount


def fixed_award(game, pay, bet):
    """The credits the model pays for `pay` at `bet` (the figure its certificate counts)."""
    for p in game.model["pays"]:
        for count, credits in p.get("pays", {}).items():
            if "%s %s" % (count, p["name"]) == pay:
                return credits[game.bets.index(bet)]
    raise ProgressiveError("%s has no pay %r" % (game.id, pay))
