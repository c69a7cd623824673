"""The seal of critical memory records, recomputed with the host's own hmac/hashlib from the bytes
in NVRAM: HMAC-SHA256 (RFC 2104) keyed by HMAC-SHA256(secret, "jeton critical memory v1"), over a
record's header and payload, cut to its first 16 bytes (RFC 2104 s. 5)."""
from __future__ import annotations

import hashlib
import hmac
import struct

from firmware.critmem import CriticalMemory

SECRET = bytes(range(7, 39))
LAYOUT = (("state", 64), ("log", 32))


class Nvram:
    def __init__(self, size: int) -> None:
        self.size = size
        self.mem = bytearray(size)

    def read(self, off: int, n: int) -> bytes:
        return bytes(self.mem[off:off + n])

    def write(self, off: int, data: bytes) -> None:
        self.mem[off:off + len(data)] = data


class Counter:
    def __init__(self) -> None:
        self.value: int | None = None

    def read(self) -> int | None:
        return self.value

    def write(self, n: int) -> None:
        self.value = n


def host_tag(data: bytes) -> bytes:
    key = hmac.new(SECRET, b"jeton critical memory v1", hashlib.sha256).digest()
    return hmac.new(key, data, hashlib.sha256).digest()[:16]


def test_block_copies_and_the_journal_carry_the_hosts_hmac() -> None:
    nv = Nvram(2048)
    counter = Counter()
    cm = CriticalMemory(nv, LAYOUT, 96, SECRET, counter)
    assert cm.open() is False
    cm.format({"state": b"", "log": b""})
    cm.commit({"state": b'{"credits": 40}', "log": b"door open"})
    assert counter.value == cm.seq == 2
    for name, payload in (("state", b'{"credits": 40}'), ("log", b"door open")):
        for bank in (0, 1):
            off = cm._copy_off(name, bank)
            head = bytes(nv.mem[off:off + 9])
            assert struct.unpack("<2sBIH", head) == (b"JB", cm.block_id(name), 2, len(payload))
            assert nv.mem[off + 9:off + 9 + len(payload)] == payload
            assert nv.mem[off + 9 + len(payload):off + 9 + len(payload) + 16] == host_tag(head + payload)
    # journal: [JJ][seq][count] then {id, len, payload} per block, the directory last (block id 2:
    # each block's commit number, both 2), then the tag over all of that
    body = b"JJ" + struct.pack("<IB", 2, 3)
    body += struct.pack("<BH", 0, 15) + b'{"credits": 40}' + struct.pack("<BH", 1, 9) + b"door open"
    body += struct.pack("<BH", 2, 8) + struct.pack("<II", 2, 2)
    assert nv.mem[:len(body)] == body
    assert nv.mem[len(body):len(body) + 16] == host_tag(body)


def test_a_crc_or_another_key_is_not_the_seal() -> None:
    nv = Nvram(2048)
    cm = CriticalMemory(nv, LAYOUT, 96, SECRET, Counter())
    cm.open()
    cm.format({"state": b"s", "log": b""})
    off = cm._copy_off("state", 0)
    head = bytes(nv.mem[off:off + 9])
    stored = bytes(nv.mem[off + 10:off + 26])
    other = hmac.new(hmac.new(bytes(32), b"jeton critical memory v1", hashlib.sha256).digest(),
                     head + b"s", hashlib.sha256).digest()[:16]
    assert stored == host_tag(head + b"s") != other
