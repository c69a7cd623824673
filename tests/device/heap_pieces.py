"""A MicroPython heap in pieces, as a board's is after hours of play: many KB free, none of it in a
piece much larger than HOLE bytes (on the 128K board heap the fuzz found 20-29 KB free and no piece
of 770 bytes). For the device tests of code that must not need one large piece."""
import gc

HOLE = 640  # bytes: the largest piece left free
_KEEP = [None] * 1200  # allocated when imported: filling the heap allocates nothing else
_SPARE = [None] * 600


def in_pieces():
    """Fill the heap with HOLE-byte blocks and smaller ones, then free every other HOLE-byte block.
    Returns the number of holes. pieces_back() gives the heap back."""
    gc.collect()
    i = j = 0
    try:
        while i < len(_SPARE):
            _SPARE[i] = bytearray(HOLE)
            i += 1
            _KEEP[j] = bytearray(HOLE)
            j += 1
    except MemoryError:
        pass
    for size in (256, 64, 16):
        try:
            while j < len(_KEEP):
                _KEEP[j] = bytearray(size)
                j += 1
        except MemoryError:
            pass
    for h in range(i):
        _SPARE[h] = None
    gc.collect()
    return i


def pieces_back():
    for j in range(len(_KEEP)):
        _KEEP[j] = None
    gc.collect()
