# The touch screen's press queue (board/touch.py): oldest first, bounded, refuses what is no press.
from devtest import raises

from board.touch import SIZE, TouchQueue


def test_presses_come_out_oldest_first_and_a_flood_is_dropped_and_counted():
    q = TouchQueue()
    assert q.take() is None
    for n in range(SIZE + 3):
        q.put("spot", n + 1)
    assert q.lost == 3
    assert [q.take() for _ in range(SIZE)] == [("spot", n + 1) for n in range(SIZE)]
    assert q.take() is None
    q.put("clear")
    assert q.take() == ("clear", 0)


def test_what_is_no_press_is_refused():
    q = TouchQueue()
    for word, n in (("press", 1), ("spot", -1), ("spot", 256), ("hold", 256)):  # hold: a poker hold key now
        with raises(ValueError):
            q.put(word, n)
    assert q.take() is None and q.lost == 0
