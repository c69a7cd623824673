"""What the emulated ccTalk devices that report through an event buffer share (the coin acceptor's
229 and the bill validator's 159 polls: sim/cctalk_acceptor.py, sim/cctalk_bills.py): the event
counter (0 after a power-up or a reset, then 1..255 wrapping to 1), the buffer of the last 5 events
newest first, the master inhibit (228) and the inhibit mask (231), and the faults of the counter a
test injects (replay(k), jump(k)). Each device adds its own events and commands."""
from __future__ import annotations

from sim.cctalk_bus import CcTalkDevice

BUFFER = 5  # events a 229 / 159 reply carries


class EventDevice(CcTalkDevice):
    def __init__(self, addr: int, crc: bool = False):
        super().__init__(addr, crc)
        self.counter = 0  # 0 after power-up, then 1..255, wrapping to 1
        self.events: list[tuple[int, int]] = []  # newest first, (A, B)
        self.master_enabled = False
        self.inhibit_mask = 0
        self.polls = 0
        self._replay = 0

    def _event(self, a: int, b: int) -> None:
        self.counter = self.counter % 255 + 1
        self.events.insert(0, (a, b))
        del self.events[BUFFER:]

    def _forget_events(self) -> None:
        """A power-up or a reset (header 1): counter 0, buffer empty, master inhibit on."""
        self.counter = 0
        self.events.clear()
        self.master_enabled = False

    def power_cycle(self) -> None:
        with self.lock:
            self._forget_events()

    def error(self, code: int) -> None:
        """Any event code of the device's table (A = 0), with nothing else happening."""
        with self.lock:
            self._event(0, code)

    def replay(self, k: int) -> None:
        """The next poll's reply carries the counter k steps back (1..255 ring) and the current buffer."""
        with self.lock:
            self._replay = k

    def jump(self, k: int) -> None:
        """The counter moves k steps forward with no new event in the buffer."""
        with self.lock:
            self.counter = (self.counter - 1 + k) % 255 + 1

    def _buffer_reply(self) -> bytes:
        """The reply to the device's read-buffered-events poll: the counter, then 5 (A, B) pairs."""
        self.polls += 1
        ev = self.events + [(0, 0)] * (BUFFER - len(self.events))
        counter = self.counter
        if self._replay:
            counter = (counter - 1 - self._replay) % 255 + 1
            self._replay = 0
        return bytes([counter]) + bytes(x for pair in ev for x in pair)

    def _inhibits(self, header: int, data: bytes) -> bytes | None:
        """231 (modify inhibit status: the mask, LSB first) and 228 (master inhibit); None: not one of them."""
        if header == 231 and len(data) == 2:
            self.inhibit_mask = data[0] | data[1] << 8
            return b""
        if header == 228 and len(data) == 1:
            self.master_enabled = bool(data[0] & 1)
            return b""
        return None
