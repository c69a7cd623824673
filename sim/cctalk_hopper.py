"""Emulated ccTalk payout hopper (address 3 by default), for sim/cctalk_bus.py.

Coins leave one every `coin_ms` after an accepted dispense (167). The hopper keeps what a real
one keeps in NV memory across power loss (lifetime dispense count 168, last paid/unpaid, the
"power down during payout" flag); power_cycle() is a power loss: counter 0, power-up flag,
disabled, any payout stopped.

Fault injection: stock (coins in the hopper: empty -> payout timeout, unpaid remainder);
jam_after(k) (the next payout stops after k coins: over-current + motor reverse limit flags);
runaway(k) (k coins more than asked come out: a fraud a driver must see); set_flag(bit) (any
163 flag, e.g. an opto fraud); plus the bus faults of CcTalkDevice.inject (drop, bad checksum,
garbage, busy, nak). count_supported=False makes 168 answer NAK; nv=False loses paid/unpaid
and the flags at a power loss.
"""
from __future__ import annotations

import time

from sim.cctalk_bus import CcTalkDevice

ENABLE_CODE = 0xA5
POWER_UP = 1 << 6
DISABLED = 1 << 7
ABS_CURRENT = 1 << 0
PAYOUT_TIMEOUT = 1 << 1
MOTOR_REVERSE_LIMIT = 1 << 12
POWER_DOWN_DURING_PAYOUT = 1 << 16
# flags that block payouts until a software reset (the "(R)" flags of board/hopper_codes.py)
NEEDS_RESET = sum(1 << b for b in (0, 3, 4, 5, 8, 11, 12, 13, 16, 17, 18, 19))
RESET_CLEARS = NEEDS_RESET | POWER_UP | PAYOUT_TIMEOUT | (1 << 2)


class HopperPeer(CcTalkDevice):
    category = "Payout"
    product = "SIM-HOP1"

    def __init__(self, addr: int = 3, stock: int = 500, coin_ms: float = 20.0, serial: int = 0x123456,
                 security: str | None = None, count_supported: bool = True, nv: bool = True, crc: bool = False):
        super().__init__(addr, crc)
        self.stock = stock
        self.coin_ms = coin_ms
        self.serial = serial
        self.security = security  # None or "serial": what 167 must carry before N
        self.count_supported = count_supported
        self.nv = nv
        self.counter = 0
        self.flags = POWER_UP | DISABLED
        self.enabled = False
        self.dispense_count = 0  # lifetime (NV)
        self.paid = 0  # last payout
        self.unpaid = 0
        self.remaining = 0
        self.dispenses = 0  # accepted 167 commands, for tests
        self.coins_out = 0  # what physically left the hopper, for tests
        self._t0 = 0.0
        self._target = 0
        self._jam_after: int | None = None
        self._runaway = 0

    # --- fault injection ---------------------------------------------------------------------------
    def jam_after(self, k: int) -> None:
        with self.lock:
            self._jam_after = k

    def runaway(self, k: int) -> None:
        with self.lock:
            self._runaway = k

    def set_flag(self, bit: int) -> None:
        with self.lock:
            self.flags |= 1 << bit

    def power_cycle(self) -> None:
        with self.lock:
            self._advance()
            if self.remaining:
                self.flags |= POWER_DOWN_DURING_PAYOUT
                self.unpaid = self.remaining
            self.remaining = 0
            self.counter = 0
            self.enabled = False
            self.flags |= POWER_UP | DISABLED
            if not self.nv:
                self.paid = self.unpaid = 0
                self.flags = POWER_UP | DISABLED

    # --- the motor -----------------------------------------------------------------------------------
    def _advance(self) -> None:
        if not self.remaining:
            return
        due = int((time.monotonic() - self._t0) * 1000 / self.coin_ms)
        while self.remaining and self.paid < due:
            if self._jam_after is not None and self.paid >= self._jam_after:
                self.flags |= ABS_CURRENT | MOTOR_REVERSE_LIMIT
                self._jam_after = None
                self._stop_unpaid()
                return
            if self.stock <= 0:
                self.flags |= PAYOUT_TIMEOUT
                self._stop_unpaid()
                return
            self.stock -= 1
            self.paid += 1
            self.remaining -= 1
            self.dispense_count += 1
            self.coins_out += 1
        if not self.remaining and self._runaway:
            self.dispense_count += self._runaway  # coins nobody asked for
            self.coins_out += self._runaway
            self.stock -= self._runaway
            self._runaway = 0

    def _stop_unpaid(self) -> None:
        self.unpaid = self.remaining
        self.remaining = 0

    def snapshot(self) -> dict:
        with self.lock:
            self._advance()
            return {"counter": self.counter, "remaining": self.remaining, "paid": self.paid,
                    "unpaid": self.unpaid, "coins_out": self.coins_out, "flags": self.flags}

    # --- commands ------------------------------------------------------------------------------------
    def command(self, header: int, data: bytes) -> bytes | None:
        self._advance()
        ident = self.identity(header)
        if ident is not None:
            return ident
        if header == 1:  # reset: clears fault flags, disables, counter back to 0
            self.flags &= ~RESET_CLEARS
            self.flags |= DISABLED
            self.flags &= ~POWER_UP
            self.enabled = False
            self.counter = 0
            self.remaining = 0
            return b""
        if header == 164 and len(data) == 1:
            self.enabled = data[0] == ENABLE_CODE
            if self.enabled:
                self.flags &= ~DISABLED
            else:
                self.flags |= DISABLED
            return b""
        if header == 163:
            f = self.flags
            return bytes([f & 0xFF, f >> 8 & 0xFF, f >> 16 & 0xFF])
        if header == 166:
            return bytes([self.counter, self.remaining, self.paid & 0xFF, self.unpaid & 0xFF])
        if header == 168:
            if not self.count_supported:
                return None
            c = self.dispense_count & 0xFFFFFF
            return bytes([c & 0xFF, c >> 8 & 0xFF, c >> 16])
        if header == 172:  # emergency stop
            left = self.remaining
            self._stop_unpaid()
            return bytes([left])
        if header == 167:
            return self._dispense(data)
        return None

    def _dispense(self, data: bytes) -> bytes | None:
        if not data:
            return None
        sec, n = data[:-1], data[-1]
        if self.security == "serial" and sec != bytes([self.serial & 0xFF, self.serial >> 8 & 0xFF,
                                                       self.serial >> 16 & 0xFF]):
            return None
        if not self.enabled or self.remaining or self.flags & NEEDS_RESET:
            return None  # disabled, busy, or a fault flag still needs a reset
        self.counter = self.counter % 255 + 1
        self.dispenses += 1
        self.flags &= ~PAYOUT_TIMEOUT
        self.paid = 0
        self.unpaid = 0
        self.remaining = n
        self._t0 = time.monotonic()
        return bytes([self.counter])
