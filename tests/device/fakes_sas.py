# A host's side of the SAS line for the device tests (CPython and MicroPython): frames with their
# CRC-16/KERMIT, least significant byte first (SAS 6.02), and one exchange with the machine.
from board.sas_crc import crc16


def with_crc(b):
    c = crc16(b)
    return bytes(b) + bytes((c & 0xFF, c >> 8))


def send(cab, board, uart, msg, after=50):
    """One message after a silence of `after` ms; the machine's answer (bytes)."""
    board.now += after
    cab.sas.service()
    uart.tx = bytearray()
    uart.rx.append(bytes(msg))
    cab.sas.service()
    out = bytes(uart.tx)
    uart.tx = bytearray()
    return out
