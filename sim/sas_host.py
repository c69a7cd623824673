"""A SAS host of the project's own (pyserial), for what the independent host libraries lack: the
general poll's exceptions, ACKs, repeated polls, bad CRCs, partial frames, floods. Written from
SAS 6.02 (docs/sas.md), not from the firmware: its CRC is crccheck's CrcKermit, its BCD decoding
its own. On the emulated board a message ends with a silence (board/emulated.py SAS_GAP_MS), so
`gap` seconds separate what must not run together."""
from __future__ import annotations

import threading
import time

import serial
from crccheck.crc import CrcKermit

from sim.sas_pty import accept_parity


def crc(data: bytes) -> bytes:
    """CRC-16/KERMIT, least significant byte first."""
    return CrcKermit.calc(data).to_bytes(2, "little")


def bcd(data: bytes) -> int:
    digits = data.hex()
    if not digits.isdigit():
        raise ValueError(f"not BCD: {digits}")
    return int(digits)


class SasHost:
    def __init__(self, path: str, address: int = 1, timeout: float = 1.0, gap: float = 0.15) -> None:
        accept_parity()
        self.address = address
        self.gap = gap
        self.port = serial.Serial(path, 19200, timeout=timeout)
        self.lock = threading.RLock()  # one poll at a time: a keep-alive thread may share the line

    def close(self) -> None:
        self.port.close()

    def send(self, data: bytes) -> None:
        self.port.write(data)

    def read(self, n: int) -> bytes:
        return self.port.read(n)

    def flush(self) -> None:
        self.port.reset_input_buffer()

    def settle(self) -> None:
        """A silence: what was sent before is a message of its own."""
        time.sleep(self.gap)

    def sync(self) -> None:
        """Silence, then drop what the machine sent unasked (its chirps while the link was down)."""
        self.settle()
        self.flush()

    # --- polls -------------------------------------------------------------------------------------
    def general_poll(self) -> int | None:
        with self.lock:
            self.flush()
            self.send(bytes([0x80 | self.address]))
            b = self.read(1)
            return b[0] if b else None

    def general_poll_reply(self, n: int) -> bytes:
        """A general poll that may be answered by a long reply the machine owes (21's signature,
        which starts with the address: no exception code is 01): the n bytes of it, or the one
        byte of an exception code."""
        with self.lock:
            self.flush()
            self.send(bytes([0x80 | self.address]))
            b = self.read(1)
            return b + self.read(n - 1) if b == bytes([self.address]) else b

    def exceptions(self, limit: int = 64) -> list[int]:
        """General polls until 00: every exception pending, in the order reported."""
        out: list[int] = []
        for _ in range(limit):
            code = self.general_poll()
            if code is None:
                raise TimeoutError("no answer to a general poll")
            if code == 0:
                return out
            out.append(code)
        raise RuntimeError(f"more than {limit} exceptions: {out}")

    def long_poll(self, cmd: int, data: bytes = b"", with_crc: bool = False, reply: int = 0) -> bytes:
        """Send a long poll (type R without data, else with its CRC) and read `reply` bytes."""
        msg = bytes([self.address, cmd]) + data
        if data or with_crc:
            msg += crc(msg)
        with self.lock:
            self.flush()
            self.send(msg)
            return self.read(reply) if reply else b""

    def variable(self, cmd: int, data: bytes = b"", multi: bool = False) -> bytes:
        """A long poll whose reply carries its length in its third byte (2F, 56, 6F ...); with
        `multi` the poll is type M (a length byte before `data`). Returns the reply's data after
        the length byte, its echo and CRC checked."""
        body = bytes([len(data)]) + data if multi else data
        msg = bytes([self.address, cmd]) + body
        if body:
            msg += crc(msg)
        with self.lock:
            self.flush()
            self.send(msg)
            head = self.read(3)
            if len(head) != 3:
                raise TimeoutError(f"long poll {cmd:02X}: {head.hex()}")
            rest = self.read(head[2] + 2)
        r = head + rest
        if r[0] != self.address or r[1] != cmd or len(rest) != head[2] + 2 or crc(r[:-2]) != r[-2:]:
            raise ValueError(f"long poll {cmd:02X}: bad reply {r.hex()}")
        return r[3:-2]

    def checked(self, cmd: int, reply: int, data: bytes = b"", with_crc: bool = False) -> bytes:
        """A long poll whose reply echoes address and command and passes its CRC: the data."""
        r = self.long_poll(cmd, data, with_crc, reply)
        if len(r) != reply:
            raise TimeoutError(f"long poll {cmd:02X}: {len(r)} of {reply} bytes: {r.hex()}")
        if r[0] != self.address or r[1] != cmd:
            raise ValueError(f"long poll {cmd:02X}: reply {r.hex()} does not echo it")
        if crc(r[:-2]) != r[-2:]:
            raise ValueError(f"long poll {cmd:02X}: bad CRC in {r.hex()}")
        return r[2:-2]

    def meter(self, cmd: int) -> int:
        return bcd(self.checked(cmd, 8))

    def command(self, cmd: int, data: bytes = b"") -> int | None:
        """01/02 and the like (type S): the answer byte (the address: taken; 0x80|address: refused)."""
        r = self.long_poll(cmd, data, with_crc=True, reply=1)
        return r[0] if r else None

    def progressive(self, group: int, levels: list[tuple[int, int]], to_all: bool = True) -> int | None:
        """The progressive controller's broadcast: 80 for one level, 86 for several; `levels` are
        (level 1-32, amount in cents), the amount as 5 BCD. To address 0 (`to_all`, every machine:
        no answer, None) or to this machine (its answer: the address for ACK, 0x80|address NACK)."""
        body = b""
        for level, cents in levels:
            body += bytes([level]) + bytes.fromhex(f"{cents:010d}")
        cmd = 0x80 if len(levels) == 1 else 0x86
        data = bytes([group]) + body if cmd == 0x80 else bytes([1 + len(body), group]) + body
        msg = bytes([0 if to_all else self.address, cmd]) + data
        msg += crc(msg)
        with self.lock:
            self.flush()
            self.send(msg)
            if to_all:
                self.settle()  # no answer comes: a silence ends it
                return None
            r = self.read(1)
            return r[0] if r else None

    def ack(self) -> None:
        self.send(bytes([self.address]))
        self.settle()
