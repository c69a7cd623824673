# The image's HMAC, the console's `verify SEED`: the program as stored, read back through the board
# (board.image(): the firmware file on the emulated board, flash on a real one) in small pieces: an
# image of hundreds of KB never sits in a 112K heap. `verify SEED` answers an inspector's challenge
# with it: HMAC-SHA256 keyed by SEED over every byte of the image, which a copy of the program cannot
# precompute for a seed it never saw.
import binascii

from board.compat import const
from rng.crypto.hmac_sha256 import Hmac

PIECE = const(512)  # bytes read at a time
MAX_SEED = const(32)  # bytes: 64 hex digits fit a console line with room to spare


def parse_seed(text):
    """The seed's bytes from 2 to 64 hex digits (an even count); ValueError saying what is wrong."""
    if not 2 <= len(text) <= 2 * MAX_SEED or len(text) % 2:
        raise ValueError("SEED is 2 to %d hex digits, an even count" % (2 * MAX_SEED))
    try:
        return binascii.unhexlify(text)
    except ValueError:
        raise ValueError("SEED must be hex digits (0-9, a-f)")


def feed(reader, h):
    """Stream every byte `reader` (readinto/close) holds into `h` (update); returns the count."""
    buf = bytearray(PIECE)
    mv = memoryview(buf)
    total = 0
    try:
        while True:
            n = reader.readinto(buf)
            if not n:
                return total
            h.update(mv[:n])
            total += n
    finally:
        reader.close()


def mac(board, key):
    """(HMAC-SHA256 keyed by `key` over the image as stored, its length in bytes)."""
    h = Hmac(key)
    n = feed(board.image(), h)
    return h.digest(), n
