# What the player's screen shows of the play besides the books (the display frame's `say`, `win`,
# `reels` and `outcome`: docs/screen.md). The cabinet composes the frame (firmware/cabinet.py show);
# the parts it is given set these as they play and pay: the game's play (firmware/play.py), money
# out (firmware/hopper_out.py, firmware/coupon_out.py).


class Screen:
    def __init__(self):
        self.message = None  # (id, args...): the player's message, translated by the screen; or a plain line
        self.win = 0  # the last win shown (0 while the reels turn: shown when they stop)
        self.reels = None  # the window drawn, a dealt hand's cards, or keno's card
        self.played = None  # firmware/play.py played(): the outcome on the screen, None when none is

    def clear(self):
        """Nothing of a game on the screen (a RAM clear)."""
        self.win = 0
        self.reels = None
        self.played = None
