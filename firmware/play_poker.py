# Video poker on the cabinet (issue 13): firmware/play.py's play of a poker game, deal -> hold ->
# draw. PLAY deals: the wager is committed, then the whole shuffled deck (the five cards shown and
# every replacement card, in the order the draw takes them) in a second commit (GameBooks.deal)
# before the hand is shown. The cabinet then waits in the HOLD state (firmware/states.py): hold keys
# toggle holds, auto-hold applies the built-in strategy, PLAY (DRAW) evaluates the committed deck
# with the holds and settles: that commit holds the deck, the holds and the result in the recall
# record, as the one-step hand's did (sim.replay replays it).
# The holds live in RAM until DRAW: a power cut brings back the same hand with no card held; the
# holds can only choose which of the committed cards are shown, never the odds (games/poker.py).
import binascii

from board.compat import const
from firmware import states
from firmware.play import GamePlay

HAND_SIZE = const(5)  # games/poker_model.py HAND_SIZE


def toggle(holds, key):
    """Hold key 1..5 flips that card's bit (bit i: card i+1); ValueError for another key."""
    if not 1 <= key <= HAND_SIZE:
        raise ValueError("hold key %d: 1 to %d" % (key, HAND_SIZE))
    return holds ^ (1 << (key - 1))


def held_list(holds):
    """The five hold flags, left to right, as the display shows them."""
    return [holds >> i & 1 for i in range(HAND_SIZE)]


def pack_deck(deck):
    return binascii.hexlify(deck).decode()  # 104 characters: the state block stays small


def unpack_deck(text):
    return binascii.unhexlify(text)


class PokerPlay(GamePlay):
    holds = 0  # the open hand's holds, in RAM until DRAW commits them with the outcome
    _shown_holds = None  # the holds of the hand on the screen (open or drawn), None: no hand

    def hand_deck(self):
        """The committed deck of the open hand (dealt, not yet drawn), or None."""
        g = self.ledger.game if self.ledger.st else None
        if g and g["phase"] == "wager" and g.get("deck"):
            return unpack_deck(g["deck"])
        return None

    def hand_open(self):
        g = self.ledger.game if self.ledger.st else None
        return bool(g and g["phase"] == "wager" and g.get("deck"))

    def outcome(self, bet):
        """After the wager's commit: shuffle (RngFailure to the caller, which voids the wager),
        commit the deck, then show the five cards. Nothing is shown before the commit; the hand
        settles at the draw."""
        deck = self.game.shuffle(self.gen)
        self.ledger.deal(pack_deck(deck))
        self._show_hand(deck, 0)
        return None

    def _show_hand(self, deck, holds):
        self.holds = holds
        self._shown_holds = holds
        from games.poker import card_name  # loaded already: the game played is poker

        sc = self.screen
        sc.reels = [[card_name(deck[i]) for i in range(HAND_SIZE)]]
        sc.win = 0
        sc.played = None  # a hand on the screen: no game's outcome until the draw

    def toggle_hold(self, cab, key):
        self.holds = toggle(self.holds, key)
        self._shown_holds = self.holds
        cab.show()

    def auto_hold(self, cab):
        deck = self.hand_deck()
        self.holds = self.game.suggest(deck[:HAND_SIZE])
        self._shown_holds = self.holds
        cab.show()

    def draw(self, cab):
        """DRAW: the held cards stay, each discarded position takes the next unseen card of the
        committed deck; the outcome (deck, holds, result) is committed before it is shown."""
        g = self.ledger.game
        deck = self.hand_deck()
        outcome = self.game.evaluate(g["bet"], list(deck) + [self.holds])
        self._settle(outcome)
        self._shown_holds = outcome.holds
        self.screen.message = None
        cab.show()

    def touch(self, cab, word, n):
        """The player's screen: 'hold N' under a card, 'auto' (auto-hold); a keno word is lost."""
        if word == "hold":
            if 1 <= n <= HAND_SIZE:
                cab.handle(states.HOLD_KEY, n)
        elif word == "auto":
            cab.handle(states.AUTO)

    def resume_hand(self):
        """Power-up with a dealt hand: the same five cards wait, no card held."""
        self._show_hand(self.hand_deck(), 0)
        self.log("resume: hand dealt, waiting for the draw (bet %d)" % self.ledger.game["bet"])

    def deck_cannot_complete(self, g):
        """Why a dealt hand's committed deck cannot be drawn by this boot's game, or None."""
        try:
            self.game.check_deck(unpack_deck(g["deck"]))
        except (ValueError, TypeError) as e:
            return "hand not playable on %s: %s" % (self.game.id, e)
        return None

    def hand_screen(self):
        """The display's hand: each card's hold flag, and whether it waits for the draw."""
        if self._shown_holds is None or not self.screen.reels:
            return None
        return {"held": held_list(self._shown_holds), "open": self.hand_open()}

    def shown_last(self, rec):
        """A poker hand rebuilt from its recall record at power-up: its holds on the screen too."""
        self._shown_holds = rec["draws"][-1]
