# CRC-16/KERMIT, the check value of every SAS long poll and reply (SAS 6.02 s. 5.1, figure 5.1:
# the nibble form with the octal constant 010201; reflected CCITT polynomial 0x1021, init 0, no
# final XOR). Sent least significant byte first. Check value of the ASCII "123456789": 0x2189
# (the CRC catalogue's CRC-16/KERMIT entry; crccheck's CrcKermit, tests/host/test_sas_crc.py).
#
# Table-free on purpose: two 4-bit steps per byte need no 512-byte table in RAM or flash, and a
# whole long poll is a few dozen bytes (docs/sas.md has the figures measured on both forms).
from board.compat import const

_NIBBLE = const(0o10201)  # 0x1081: the reflected polynomial's product for one nibble


def crc16(data, start=0, end=None, crc=0):
    """CRC-16/KERMIT of data[start:end] (no copy), continuing from crc."""
    if end is None:
        end = len(data)
    for i in range(start, end):
        c = data[i]
        q = (crc ^ c) & 15
        crc = (crc >> 4) ^ (q * _NIBBLE)
        q = (crc ^ (c >> 4)) & 15
        crc = (crc >> 4) ^ (q * _NIBBLE)
    return crc
