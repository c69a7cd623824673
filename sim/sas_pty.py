"""The emulated cabinet's SAS line: a pseudo-terminal. A host opens `path` as its serial device;
the firmware reads and writes the master end, whose descriptor it inherits (`--sas FD`). The pty
outlives the firmware process, as a cable outlives a power cut: the harness keeps it, and a slave
descriptor of its own, so a host that closes and reopens the port (saspy does, to switch parity)
never hangs the line up."""
from __future__ import annotations

import errno
import fcntl
import os
import termios
import tty


class SasPty:
    def __init__(self) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no line discipline between the host's bytes and the firmware
        flags = fcntl.fcntl(self.master, fcntl.F_GETFL)
        fcntl.fcntl(self.master, fcntl.F_SETFL, flags | os.O_NONBLOCK)  # the firmware never blocks on it
        self.path = os.ttyname(self._slave)

    def close(self) -> None:
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass


_PARITY = termios.PARENB | termios.PARODD | 0o10000000000  # CMSPAR: mark/space parity


def accept_parity() -> None:
    """Let pyserial switch parity on a pseudo-terminal. A pty carries no parity bit, and this
    kernel refuses (EINVAL) a tcsetattr whose parity request leaves the pty's settings unchanged,
    which is every switch a SAS host makes (MARK for the address, SPACE for the rest, or EVEN once).
    The wrapper drops that refusal when the settings asked differ from the pty's only in parity
    bits; any other error is raised. The hosts' bytes are untouched."""
    import serial.serialposix as sp

    if getattr(sp.termios, "_jeton_parity", False):
        return
    real = termios

    class _Termios:
        _jeton_parity = True

        def __getattr__(self, name: str):
            return getattr(real, name)

        @staticmethod
        def tcsetattr(fd, when, attrs):  # type: ignore[no-untyped-def]
            try:
                real.tcsetattr(fd, when, attrs)
            except real.error as e:
                if e.args[0] != errno.EINVAL:
                    raise
                now = real.tcgetattr(fd)
                want = list(attrs)
                if (want[2] | _PARITY) != (now[2] | _PARITY) or want[:2] + want[3:6] != now[:2] + now[3:6]:
                    raise
                want[2] = (want[2] & ~_PARITY) | (now[2] & _PARITY)
                try:
                    real.tcsetattr(fd, when, want)  # the rest (timeouts: VMIN/VTIME) still applies
                except real.error as e2:
                    if e2.args[0] != errno.EINVAL:
                        raise

    sp.termios = _Termios()  # type: ignore[assignment]
