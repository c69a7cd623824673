# A touch screen's presses for the cabinet to take, oldest first, as (word, number):
# ("spot", n) a number touched on a keno card, ("quick", n) a quick pick of n spots, ("clear", 0);
# ("hold", n) the hold key under video poker's card n (1-5), ("auto", 0) auto-hold; ("wager", n) a
# table game's wager n of its layout (games/table_game.py layout()), ("clear", 0) the layout emptied.
# The emulated board fills it from the panel link's `touch WORD [N]` lines; a board without a touch
# screen has none (hal.Board.touch is None). Bounded: presses beyond SIZE are dropped and counted,
# as a real controller's FIFO drops them, so a flood never grows the heap.
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


SIZE = const(8)
WORDS = ("spot", "quick", "clear", "hold", "auto", "wager")  # hold N: video poker's hold key under card N


class TouchQueue:
    def __init__(self):
        self._q = []
        self.lost = 0

    def put(self, word, n=0):
        if word not in WORDS or not 0 <= n <= 255:
            raise ValueError("touch: %r %r" % (word, n))
        if len(self._q) >= SIZE:
            self.lost += 1
            return
        self._q.append((word, n))

    def take(self):
        return self._q.pop(0) if self._q else None
