# The anti-rollback counter kept apart from the NVRAM part, as a file (the emulated board's
# STATE/counter). It stands for a board's battery-backed registers (an RTC backup domain): a second
# part that an NVRAM image copied back does not carry with it.
#
#   file: [slot 0: n u32, ~n u32][slot 1: n u32, ~n u32]      value n goes to slot n & 1
#
# Two slots written in turn: a power cut in the middle of one write leaves the other slot, one
# commit behind, which critical memory accepts (NVRAM ahead of the counter by one commit).
import struct

from board.compat import const

_SLOT = const(8)
_MASK = const(0xFFFFFFFF)


def _slot_value(raw):
    if len(raw) != _SLOT:
        return None
    n, inv = struct.unpack("<II", raw)
    return n if n ^ inv == _MASK else None


class CounterFile:
    """read() -> the highest value written, or None when none was (a new machine, or the part lost);
    write(n) -> stores n, never lower than what it holds (ValueError)."""

    def __init__(self, path):
        self.path = path
        self._f = None
        self._n = None
        self._buf = bytearray(_SLOT)

    def read(self):
        try:
            with open(self.path, "rb") as f:
                raw = f.read(2 * _SLOT)
        except OSError:
            return None
        best = None
        for i in (0, _SLOT):
            v = _slot_value(raw[i:i + _SLOT])
            if v is not None and (best is None or v > best):
                best = v
        self._n = best
        return best

    def write(self, n):
        if self._n is None:
            self.read()
        if self._n is not None and n < self._n:
            raise ValueError("counter at %d cannot go back to %d" % (self._n, n))
        struct.pack_into("<II", self._buf, 0, n, n ^ _MASK)
        if self._f is None:
            try:
                self._f = open(self.path, "r+b", buffering=0)
            except OSError:  # the first value: both slots at once
                with open(self.path, "wb") as f:
                    f.write(bytes(self._buf) + bytes(self._buf))
                self._n = n
                return
        self._f.seek((n & 1) * _SLOT)
        self._f.write(self._buf)  # one write of 8 bytes: a process killed mid-way writes it whole or not
        self._n = n

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None
