"""The emulated ccTalk bus's reading thread when the board hangs up under it (a power cut)."""
from __future__ import annotations

import errno
import socket

from sim.cctalk_bus import CcTalkBus


class _CutCable:
    """A cable whose far end went away between a read and the bus's echo of it."""

    def __init__(self) -> None:
        self.reads = [b"\x02\x00\x01\xfe\xff"]

    def recv(self, n: int) -> bytes:
        if self.reads:
            return self.reads.pop()
        raise socket.timeout

    def sendall(self, data: bytes) -> None:
        raise OSError(errno.EBADF, "Bad file descriptor")


def test_an_echo_onto_a_cable_cut_by_a_power_cut_ends_the_thread_quietly() -> None:
    # The power-cut campaign closes the board's end at any instant; the bus thread used to die with an
    # uncaught OSError printed in the middle of the campaign's output.
    bus = CcTalkBus(port=0, echo=True)
    bus._sock = _CutCable()  # type: ignore[assignment]
    bus._run()  # returns: no OSError escapes
    assert bus.frames == 0
