"""Reading a PNG's pixels with the standard library (zlib): the 8-bit, non-interlaced RGB and RGBA
images a browser's screenshot is. PNG specification (W3C, 2nd ed.), 11.2.2 IHDR, 9 filtering."""
from __future__ import annotations

import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {2: 3, 6: 4}  # colour type -> bytes per pixel at bit depth 8 (RGB, RGBA)


class Image:
    def __init__(self, width: int, height: int, channels: int, rows: list[bytes]):
        self.width = width
        self.height = height
        self.channels = channels
        self.rows = rows  # one bytes object per row, `channels` bytes a pixel

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        i = x * self.channels
        r, g, b = self.rows[y][i:i + 3]
        return r, g, b

    def crop(self, left: int, top: int, right: int, bottom: int) -> bytes:
        """The RGB(A) bytes of a box, row after row (clipped to the image)."""
        left, top = max(0, left), max(0, top)
        right, bottom = min(self.width, right), min(self.height, bottom)
        c = self.channels
        return b"".join(self.rows[y][left * c:right * c] for y in range(top, bottom))

    def colours(self, left: int = 0, top: int = 0, right: int | None = None, bottom: int | None = None) -> int:
        """How many distinct colours a box holds (the whole image by default)."""
        box = self.crop(left, top, self.width if right is None else right, self.height if bottom is None else bottom)
        c = self.channels
        return len({box[i:i + 3] for i in range(0, len(box), c)})


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read(data: bytes) -> Image:
    if data[:8] != SIGNATURE:
        raise ValueError("not a PNG")
    pos, idat, head = 8, [], None
    while pos < len(data):
        if pos + 8 > len(data):
            raise ValueError("PNG truncated in a chunk header")
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if len(body) != n:
            raise ValueError("PNG truncated in chunk %r" % kind)
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + n
    if head is None:
        raise ValueError("PNG without IHDR")
    width, height, depth, ctype, _, _, interlace = head
    if depth != 8 or ctype not in CHANNELS or interlace:
        raise ValueError("only 8-bit non-interlaced RGB/RGBA PNGs (depth %d, colour type %d, interlace %d)"
                         % (depth, ctype, interlace))
    bpp = CHANNELS[ctype]
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    if len(raw) != height * (stride + 1):
        raise ValueError("PNG image data of %d bytes, not %d" % (len(raw), height * (stride + 1)))
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        cur = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                cur[i] = (cur[i] + cur[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                cur[i] = (cur[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                cur[i] = (cur[i] + ((cur[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(stride):
                cur[i] = (cur[i] + _paeth(cur[i - bpp] if i >= bpp else 0, prev[i],
                                          prev[i - bpp] if i >= bpp else 0)) & 255
        elif f != 0:
            raise ValueError("PNG row %d: unknown filter %d" % (y, f))
        rows.append(bytes(cur))
        prev = cur
    return Image(width, height, bpp, rows)
