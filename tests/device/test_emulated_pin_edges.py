# The panel link's switch levels on the emulated board (board/emulated.py Board.edge): a line
# stamped with the host's CLOCK_MONOTONIC ms is an edge at that time, as a real pin's IRQ runs at the
# edge. Read by its arrival it was not: make test at load 10 (s43e, tests/host/test_e2e_progressive.py)
# had a bet_one press read 35 ms late and the next, sent 40 ms after it, read on time, 7 ms apart:
# bounce under the 30 ms debounce (board/switches.py), never taken, the display's bet stuck at 2.
import gc

from devtest import tmpdir

from board import emulated
from board.compat import ticks_add, ticks_diff, ticks_ms
from board.switches import Button


def board():
    gc.collect()
    return emulated.Board(tmpdir("edges"), 0, 0, 0, nvram_size=4096)  # port 0: any free one


def unplug(b):
    for link in b._links:
        link.srv.close()
    b.nvram.close()


def press(b, at=None, hold_ms=5):
    # what the host sends: the level, and its clock at the edge (str: the line's field)
    b.edge("bet_one", True, None if at is None else str(at))
    b.edge("bet_one", False, None if at is None else str(ticks_add(at, hold_ms)))


def settle(button, ms=80):
    while ticks_diff(ticks_ms(), button._last) < ms:  # well past the debounce of the last edge taken
        pass


def test_two_presses_read_close_together_count_as_two_when_their_stamps_are_apart():
    b = board()
    try:
        button = Button(b.pins["bet_one"], 30, clock=b.ticks_ms)
        settle(button)
        now = ticks_ms()
        press(b, ticks_add(now, -35))  # read 35 ms after it was pressed
        assert button.take() and button._last == ticks_add(now, -35)
        press(b, ticks_ms())  # the next press read on time: 35 ms after the first, not bounce
        assert button.take()
        # unstamped, the same two are read 0 ms apart: the second is contact bounce
        settle(button)
        press(b)
        press(b)
        assert button.take() is True and button.take() is False
    finally:
        unplug(b)


def test_a_stamp_from_another_clock_or_too_old_is_the_time_the_line_is_read():
    b = board()
    try:
        button = Button(b.pins["bet_one"], 30, clock=b.ticks_ms)
        for n, stamp in enumerate((ticks_add(ticks_ms(), 60000), ticks_add(ticks_ms(), -emulated.EDGE_LATE_MS - 1000),
                                   "12x4", "9" * 16)):
            settle(button)
            before = ticks_ms()
            b.edge("bet_one", True, str(stamp))
            b.edge("bet_one", False, str(stamp))
            assert button.take(), n
            assert 0 <= ticks_diff(button._last, before) <= ticks_diff(ticks_ms(), before), n
        assert b.ticks_ms() is not None and b._edge_at is None  # the board's clock is its own again
    finally:
        unplug(b)
