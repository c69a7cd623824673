"""A MicroPython heap in pieces, as a board's is after hours of play: many KB free, none of it in a
piece much larger than HOLE bytes (on the 128K board heap the fuzz found 20-29 KB free and no piece
of 770 bytes). For the device tests of code that must not need one large piece."""
import gc

HOLE = 640  # bytes: the largest piece left free
_KEEP = []
_SPARE = []


def room_for(pairs):
    """The lists that hold the blocks, sized for `pairs` holes: called before the heap fills with
    other things (a module's import), as in_pieces does on its first call. Filling the heap
    allocates nothing else."""
    if len(_SPARE) != pairs:
        _SPARE[:] = [None] * pairs
        _KEEP[:] = [None] * (2 * pairs)


def in_pieces(hole=HOLE, pairs=600):
    """Fill the heap with `hole`-byte blocks and smaller ones, then free every other hole-byte block
    (at most `pairs` of them). Returns the number of holes. pieces_back() gives the heap back."""
    room_for(pairs)
    gc.collect()
    i = j = 0
    try:
        while i < len(_SPARE):
            _SPARE[i] = bytearray(hole)
            i += 1
            _KEEP[j] = bytearray(hole)
            j += 1
    except MemoryError:
        pass
    for size in (256, 64, 16):
        if size >= hole:
            continue
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
