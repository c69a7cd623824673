# Power-cut-safe record store: two slots in NVRAM, each [magic][seq][len][crc32][payload].
# A commit writes the slot that does not hold the newest record, so a write torn by a power cut
# can only damage the older copy: at power-up the valid slot with the highest sequence wins.
import struct

try:
    from binascii import crc32
except ImportError:  # pragma: no cover
    from zlib import crc32

MAGIC = b"JTN1"
HEADER = "<4sIHI"  # magic, sequence, payload length, crc32(seq, len, payload)
HEADER_SIZE = 14


class StoreError(Exception):
    pass


class Store:
    def __init__(self, nvram, base=0, slot_size=4096):
        self.nvram = nvram
        self.base = base
        self.slot_size = slot_size
        self.seq = 0
        self.slot = 1  # the slot holding the newest record
        self.repaired = False

    def _crc(self, seq, payload):
        return crc32(struct.pack("<IH", seq, len(payload)) + payload) & 0xFFFFFFFF

    def _read_slot(self, i):
        off = self.base + i * self.slot_size
        head = self.nvram.read(off, HEADER_SIZE)
        magic, seq, n, crc = struct.unpack(HEADER, head)
        if magic != MAGIC or n > self.slot_size - HEADER_SIZE:
            return None
        payload = self.nvram.read(off + HEADER_SIZE, n)
        if self._crc(seq, payload) != crc:
            return None
        return seq, payload

    def blank(self):
        """True when NVRAM has never been written (both slots all zero)."""
        for i in (0, 1):
            off = self.base + i * self.slot_size
            if self.nvram.read(off, HEADER_SIZE) != bytes(HEADER_SIZE):
                return False
        return True

    def load(self):
        """The newest valid payload, or None when NVRAM is blank. StoreError when corrupt."""
        found = []
        for i in (0, 1):
            rec = self._read_slot(i)
            if rec:
                found.append((rec[0], i, rec[1]))
        if not found:
            if self.blank():
                return None
            raise StoreError("no valid copy of critical memory")
        found.sort()
        seq, slot, payload = found[-1]
        self.seq = seq
        self.slot = slot
        self.repaired = len(found) == 1
        return payload

    def save(self, payload):
        if len(payload) > self.slot_size - HEADER_SIZE:
            raise StoreError("record of %d bytes does not fit a slot" % len(payload))
        seq = (self.seq + 1) & 0xFFFFFFFF
        slot = 1 - self.slot
        head = struct.pack(HEADER, MAGIC, seq, len(payload), self._crc(seq, payload))
        # one write: header and payload land together or the CRC tells
        self.nvram.write(self.base + slot * self.slot_size, head + payload)
        self.seq = seq
        self.slot = slot
