"""Emulated ccTalk coin acceptor: answers real frames on the board's ccTalk UART (loopback TCP).

It plays a single-wire bus (sim/cctalk_bus.py): every byte the master sends comes back to it
first (the echo), then the acceptor's reply. Coins go into the acceptor's event buffer exactly as
a validator reports them to header 229. More devices (a hopper) can share its bus:
`peer.attach(HopperPeer())` after or before start().

Fault injection: inject("drop"|"bad_checksum"|"garbage"|"busy"|"nak", n) on the next replies;
error(code) buffers an error event (reject, fault or fraud codes of the ccTalk table);
lose_events(k) makes k events that the host will never see (counter jumps: "missed events");
replay(k) answers the next 229 poll with the counter k steps back and the current buffer (a stale
or replayed reply); jump(k) moves the counter k steps forward with no new event in the buffer;
ignore_inhibits = True makes a faulty (or tampered) acceptor credit every coin it knows, even
at an inhibited position; power_cycle() resets the counter to 0 and inhibits, as a power-up does.

The default coin table holds the house token at position 1 ("CA100T") and a foreign coin the
player can also insert at position 2 ("US025A", a US quarter): the firmware must never credit it.
"""
from __future__ import annotations

from sim.cctalk_bus import CcTalkBus, CcTalkDevice, checksum, frame  # noqa: F401 (re-exported)
from sim.cctalk_events import EventDevice

ACK = 0
NAK = 5


class CoinAcceptorPeer(EventDevice):
    """Coin positions map to ccTalk coin id strings (header 184), e.g. {1: "CA100T"}."""

    category = "Coin Acceptor"
    product = "SIM-CA1"
    serial = 0x003039

    COINS = {1: "CA100T", 2: "US025A"}

    def __init__(self, port: int | None = None, addr: int = 2, coins: dict[int, str] | None = None,
                 echo: bool = True, crc: bool = False, bus: CcTalkBus | None = None):
        super().__init__(addr, crc)
        self.port = port
        self.coins = coins or dict(self.COINS)
        self.echo = echo
        self.rejected = 0
        self.credited = 0
        self.bus = bus
        self._pending: list[CcTalkDevice] = []
        self.ignore_inhibits = False

    # --- the coin path -------------------------------------------------------------------------
    def accepting(self, position: int) -> bool:
        return self.master_enabled and bool(self.inhibit_mask >> (position - 1) & 1)

    def insert(self, position: int = 1, path: int = 1) -> bool:
        """A coin drops in; True when validated and credited, False when rejected (inhibited)."""
        with self.lock:
            if position not in self.coins:
                self.rejected += 1
                self._event(0, 1)  # error code 1: reject coin (unknown)
                return False
            if self.accepting(position) or (self.ignore_inhibits and self.master_enabled):
                self.credited += 1
                self._event(position, path)
                return True
            self.rejected += 1
            self._event(0, 2)  # error code 2: inhibited coin
            return False

    def lose_events(self, k: int, position: int = 1) -> None:
        """k coins credited by the acceptor that will have left its 5-event buffer unread."""
        with self.lock:
            for _ in range(k):
                self._event(position, 1)

    # --- the bus ----------------------------------------------------------------------------------
    def attach(self, device: CcTalkDevice) -> CcTalkDevice:
        if self.bus:
            return self.bus.attach(device)
        self._pending.append(device)
        return device

    def start(self, timeout: float = 10.0) -> "CoinAcceptorPeer":
        if self.bus is None:
            assert self.port is not None, "CoinAcceptorPeer needs a port or a bus"
            self.bus = CcTalkBus(self.port, echo=self.echo)
        self.bus.attach(self)
        for d in self._pending:
            self.bus.attach(d)
        self._pending = []
        self.bus.start(timeout)
        return self

    def stop(self) -> None:
        if self.bus:
            self.bus.stop()

    def command(self, header: int, data: bytes) -> bytes | None:
        ident = self.identity(header)
        if ident is not None:
            return ident
        if header == 184 and len(data) == 1:
            return self.coins.get(data[0], "......").encode()
        if header == 229:
            return self._buffer_reply()
        if header == 1:  # reset device
            self._forget_events()
            return b""
        return self._inhibits(header, data)
