# The machine's secret as a file (the emulated board's STATE/secret): 32 bytes made once from the
# machine's entropy the first time they are asked for. It keys the MAC that seals critical memory,
# so it is kept neither in the firmware image nor in the NVRAM part: a copy of nvram.bin put on
# another machine, or records forged without it, do not pass.
import os

from board.compat import const

SIZE = const(32)


class SecretFile:
    def __init__(self, path, urandom):
        self.path = path
        self.urandom = urandom

    def read(self):
        """The secret, or None when there is none (or it is not whole)."""
        try:
            with open(self.path, "rb") as f:
                key = f.read(SIZE + 1)
        except OSError:
            return None
        return key if len(key) == SIZE else None

    def get(self):
        """The secret, made on first use (or when the one there is not whole: then no record passes
        and critical memory says so, a RAM error). Written beside and renamed into place: a power
        cut while it is made leaves no secret (made again next time), never a short one."""
        key = self.read()
        if key is not None:
            return key
        key = self.urandom(SIZE)
        tmp = self.path + ".new"
        with open(tmp, "wb") as f:
            f.write(key)
        os.rename(tmp, self.path)
        return key

