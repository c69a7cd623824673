# Keno on the cabinet (issue 13), mixed into firmware.cabinet.Cabinet beside firmware/play.py: the
# player's card from the touch screen (a number touched marks or unmarks it, a quick pick asks the
# rng for n spots, clear empties the card), checked before anything is committed; the card lives in
# the books' state (st["picks"]), so the wager's commit holds it: a power cut after the wager
# completes the game on the very card that was paid for. The numbers drawn are committed with the
# outcome in the recall record (draws = the picks then the 20 numbers, games/keno.py).
from firmware import states
from rng import RngFailure


def is_keno(game):
    # games/keno.py KenoGame, by what it does: not imported here, so a reel or poker cabinet never
    # loads the keno engine (about 4 KB of heap: tools/bench/bench_heap.py)
    return hasattr(game, "check_picks")


class KenoPlay:
    def picks(self):
        return self.ledger.st.get("picks") or []

    # the card's events (firmware/states.py SPOT, QUICK, CLEAR: idle and credit only); a press in
    # any other state is refused by the table and lost
    def keno_touch(self, word, n):
        """A press on the card from the touch screen, as an event of the state table."""
        if word == "spot":
            self.handle(states.SPOT, n)
        elif word == "quick":
            self.handle(states.QUICK, n)
        elif word == "clear":
            self.handle(states.CLEAR)
        # a poker word (hold, auto): not a keno card's

    def keno_spot(self, n):
        game = self.game
        picks = list(self.picks())
        self.message = None
        if not 1 <= n <= game.m.numbers:
            self.message = ("no_number", n)
        elif n in picks:
            picks.remove(n)
        elif len(picks) >= game.spots[-1]:
            self.message = ("max_spots", game.spots[-1])
        else:
            picks.append(n)
            picks.sort()
        self._card(picks)

    def keno_quick(self, n):
        game = self.game
        picks = self.picks()
        self.message = None
        if n not in game.spots:
            self.message = ("spots_not_offered", n)
        elif self.gen is None:
            self.message = ("no_quick_pick",)
        else:
            try:
                picks = game.quick_pick(self.gen, n)  # the game's own unbiased draw
            except RngFailure as e:
                self.set_tilt("rng", str(e))
                return
        self._card(picks)

    def keno_clear(self):
        self.message = None
        self._card([])

    def _card(self, picks):
        self.ledger.st["picks"] = picks  # in RAM; the wager's commit writes it with the bet
        self.reels = {"picks": picks, "drawn": [], "hits": []}
        self.show()

    def keno_ready(self):
        """True when the card can be played; else the reason is on the screen and nothing is committed."""
        try:
            self.game.check_picks(self.picks())
        except ValueError as e:
            # the screen's words for what a touch can get wrong; anything else as the engine says it
            n = len(self.picks())
            if n == 0:
                self.message = ("no_spots",)
            elif n not in self.game.spots:
                self.message = ("spots_not_offered", n)
            else:
                self.message = str(e)
            self.show()
            return False
        return True

    def keno_outcome(self, bet):
        return self.game.play(self.gen, bet, self.picks())

    def keno_cannot_complete(self):
        try:
            self.game.check_picks(self.picks())
        except ValueError as e:
            return "card not playable on %s: %s" % (self.game.id, e)
        return None

    def keno_test_game(self, bet):
        """Audit mode: the card on the screen, or a quick pick of the most spots offered."""
        picks = self.picks()
        try:
            self.game.check_picks(picks)
        except ValueError:
            picks = self.game.quick_pick(self.gen, self.game.spots[-1])
        return self.game.play(self.gen, bet, picks)
