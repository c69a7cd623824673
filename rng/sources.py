# Raw entropy sources, one per board kind, all with readinto(buf) -> fills buf completely.
# MicroPython's `random` module (Yasmarang, 32-bit state) is never an outcome source.
import os


class HostUrandom:
    """Emulated board: the host kernel's CSPRNG through os.urandom (both runtimes)."""

    def readinto(self, buf):
        n = len(buf)
        buf[:] = os.urandom(n)
        return n


def open_source(kind):
    if kind == "emulated":
        return HostUrandom()
    raise ValueError("no entropy source for board kind %r" % kind)
