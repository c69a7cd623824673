"""Interleaved 2 of 5 (ITF, ISO/IEC 16390), the bar code of casino and VLT tickets, drawn on the host.

Each digit is five elements, two of them wide; digits go in pairs, the first drawn by the bars and
the second by the spaces between them. Start: narrow bar, narrow space, narrow bar, narrow space;
stop: wide bar, narrow space, narrow bar. The printer draws its own bars from the digits it is sent
(board/printer_epic.py, GS k 7); the emulated printer draws them with this to render a ticket.
"""
from __future__ import annotations

# N = narrow, W = wide, per digit (ISO/IEC 16390 table 1)
PATTERNS = {
    "0": "NNWWN", "1": "WNNNW", "2": "NWNNW", "3": "WWNNN", "4": "NNWNW",
    "5": "WNWNN", "6": "NWWNN", "7": "NNNWW", "8": "WNNWN", "9": "NWNWN",
}
START = "NNNN"
STOP = "WNN"


def elements(digits: str) -> str:
    """The element widths, bar first and alternating bar/space: "NNNN" + pairs + "WNN"."""
    if not digits.isdigit() or len(digits) % 2:
        raise ValueError("Interleaved 2 of 5 takes an even count of digits, got %r" % digits)
    out = [START]
    for i in range(0, len(digits), 2):
        bars, spaces = PATTERNS[digits[i]], PATTERNS[digits[i + 1]]
        out.append("".join(b + s for b, s in zip(bars, spaces)))
    out.append(STOP)
    return "".join(out)


def modules(digits: str, narrow: int = 2, wide: int = 5, quiet: int = 20) -> list[int]:
    """One row of pixels, 1 = black, with a quiet zone of `quiet` pixels on each side."""
    row = [0] * quiet
    black = 1
    for e in elements(digits):
        row += [black] * (wide if e == "W" else narrow)
        black ^= 1
    return row + [0] * quiet
