"""tools/png.py, the screenshot reader of the browser tests: each filter of the PNG specification
(W3C PNG 2nd ed., 9.2: the filter byte before each row, predictors None, Sub, Up, Average, Paeth)
undone, and what it does not read refused with a clear error."""
from __future__ import annotations

import random
import struct
import zlib

import pytest

from tools import png


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def encode(rows: list[bytes], bpp: int, filters: list[int], depth: int = 8) -> bytes:
    """A PNG whose rows are filtered as the specification says an encoder does (9.2)."""
    ctype = {3: 2, 4: 6}[bpp]
    out, prev = b"", bytes(len(rows[0]))
    for raw, f in zip(rows, filters):
        enc = bytearray()
        for i, x in enumerate(raw):
            a = raw[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            paeth = a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else (b if abs(p - b) <= abs(p - c) else c)
            pred = [0, a, b, (a + b) // 2, paeth][f]
            enc.append((x - pred) & 255)
        out += bytes([f]) + bytes(enc)
        prev = raw
    head = struct.pack(">IIBBBBB", len(rows[0]) // bpp, len(rows), depth, ctype, 0, 0, 0)
    return png.SIGNATURE + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(out)) + chunk(b"IEND", b"")


@pytest.mark.parametrize("bpp", [3, 4])
def test_every_filter_is_undone(bpp: int) -> None:
    rnd = random.Random(7)
    rows = [bytes(rnd.randrange(256) for _ in range(5 * bpp)) for _ in range(10)]
    img = png.read(encode(rows, bpp, [0, 1, 2, 3, 4, 4, 3, 2, 1, 0]))
    assert (img.width, img.height, img.channels) == (5, 10, bpp)
    assert img.rows == rows
    assert img.pixel(4, 9) == tuple(rows[9][4 * bpp:4 * bpp + 3])
    assert img.crop(1, 1, 3, 2) == rows[1][bpp:3 * bpp]
    assert img.colours() == len({r[i:i + 3] for r in rows for i in range(0, len(r), bpp)})


def test_what_it_does_not_read_is_refused() -> None:
    rows = [bytes(6)] * 2
    good = encode(rows, 3, [0, 0])
    with pytest.raises(ValueError, match="not a PNG"):
        png.read(b"GIF89a" + good[6:])
    with pytest.raises(ValueError, match="only 8-bit"):
        png.read(encode(rows, 3, [0, 0], depth=16))
    with pytest.raises(ValueError, match="truncated"):
        png.read(good[:40])
    with pytest.raises(ValueError, match="truncated"):
        png.read(good[:len(png.SIGNATURE) + 5])
    bad = png.SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)) + \
        chunk(b"IDAT", zlib.compress(b"\x07" + bytes(6) + b"\x00" + bytes(6))) + chunk(b"IEND", b"")
    with pytest.raises(ValueError, match="unknown filter 7"):
        png.read(bad)
    with pytest.raises(ValueError, match="without IHDR"):
        png.read(png.SIGNATURE + chunk(b"IEND", b""))
