# ccTalk CRC-16 (the "16-bit CRC checksum" variant of the ccTalk generic specification, part 1):
# CRC-CCITT, polynomial x^16 + x^12 + x^5 + 1 (0x1021), initial register 0x0000, no reflection,
# no final XOR, computed over every frame byte except the two CRC bytes. The CRC replaces two
# bytes of the simple-checksum frame: its LSB sits where the source address was, its MSB where
# the checksum was: [dest][len][crc lsb][header][data...][crc msb]. (No source address on the
# wire: a CRC-mode device knows its host by convention, address 1.)
from board.compat import const

POLY = const(0x1021)


def _table():
    # 256 x 16-bit entries in 512 bytes: built once so each byte costs one lookup, not 8 shifts
    t = bytearray(512)
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ POLY) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
        t[2 * i] = c >> 8
        t[2 * i + 1] = c & 0xFF
    return t


_T = _table()


def update(crc, b):
    i = ((crc >> 8) ^ b) & 0xFF
    return (((crc << 8) & 0xFFFF) ^ (_T[2 * i] << 8)) ^ _T[2 * i + 1]


def frame_crc(buf, start, total):
    """CRC of the frame buf[start:start+total], skipping the CRC's own two byte positions."""
    crc = 0
    last = start + total - 1
    for i in range(start, last):
        if i != start + 2:
            crc = update(crc, buf[i])
    return crc


def crc16(data):
    """CRC-16/ccTalk of a plain byte string (dest, len, header, data... in that order)."""
    crc = 0
    for b in data:
        crc = update(crc, b)
    return crc
