# Event log records, sized by construction: every event is one fixed RECORD-byte record, so a chunk
# of PER_CHUNK events always fits its critical-memory block, whatever the texts say. A text is cut
# to TEXT bytes of printable ASCII when the event is written (quotes and escapes cannot grow it at
# commit), so a long tournament name or a game's long refusal reason can never turn an ordinary
# commit into a RAM error.
#
#   record: <n u32><t u32><code CODE bytes, NUL-padded><text TEXT bytes, NUL-padded>
#
# now() is the clock every record the firmware keeps is stamped with (events, recall, notes,
# coupons, the security log): whole seconds since 1970 of the board's calendar clock
# (board/calendar_clock.py, set by SAS 7F where the profile lets it); firmware/localtime.py shows them.
import struct

from board import calendar_clock
from board.compat import const

CODE = const(12)
TEXT = const(76)
RECORD = const(96)  # 4 + 4 + CODE + TEXT
PER_CHUNK = const(8)
CHUNK_BYTES = const(768)  # PER_CHUNK * RECORD: the block capacity the layout gives a chunk
_FMT = "<II12s76s"


def now():
    return calendar_clock.now()


def ring(n, chunks, prefix):
    """Names of the chunks in use, oldest first, of a ring of `chunks` chunks (named prefix + index)
    that has taken n records: a chunk is recycled whole."""
    if not n:
        return []
    last = (n - 1) // PER_CHUNK
    out = []
    for k in range(max(0, last - chunks + 1), last + 1):
        out.append("%s%d" % (prefix, k % chunks))
    return out


def run(chunk, n):
    """(k, top) for the chunk that record n + 1 goes into: its first k records are the ones that
    belong there (numbered within that chunk's group of PER_CHUNK, rising) and top is the last of
    their numbers (the group's base when none). top > n: records past the pointer n, whose commit
    carried them (the pointer is behind: they are adopted). Anything after them (a last lap's
    records, never appended to) is recycled with the chunk."""
    base = n - n % PER_CHUNK
    top = base
    k = 0
    for pos in range(0, len(chunk) - RECORD + 1, RECORD):
        m = struct.unpack_from("<I", chunk, pos)[0]
        if m <= top or m > base + PER_CHUNK:
            break
        top = m
        k += 1
    return k, top


def clean(text, limit):
    """Printable ASCII only, at most `limit` characters: what the log can hold, decided on entry."""
    out = bytearray()
    # walked as UTF-8 bytes: a str walked character by character makes each one a qstr, kept in
    # the heap for good, its pool grown (256 bytes) at whatever event comes when the heap is tightest
    for c in str(text)[:limit].encode():
        if not 0x80 <= c < 0xC0:  # a continuation byte: its character's lead byte was its "?"
            out.append(c if 32 <= c <= 126 else 63)
    return out.decode()


def pack(chunk, n, t, code, text):
    """chunk (bytes) with one more record appended; chunk must hold fewer than PER_CHUNK."""
    return chunk + struct.pack(_FMT, n & 0xFFFFFFFF, t & 0xFFFFFFFF, clean(code, CODE).encode(),
                               clean(text, TEXT).encode())


def unpack(chunk):
    """[[n, t, code, text], ...] of a chunk's records, oldest first."""
    out = []
    for pos in range(0, len(chunk) - RECORD + 1, RECORD):
        n, t, code, text = struct.unpack_from(_FMT, chunk, pos)
        out.append([n, t, _str(code), _str(text)])
    return out


def _str(raw):
    end = raw.find(b"\x00")
    return (raw if end < 0 else raw[:end]).decode()
