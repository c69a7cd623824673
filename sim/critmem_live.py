"""The bytes of a critical memory (firmware/critmem.py) that carry data now: where a fault-injection
campaign flips a bit (sim/fuzz_rig.py flip_bit) and a test flips every one of them
(tests/device/test_firmware_critmem.py), so that each flip lands on something the memory must
notice. No firmware code needs it: it is read from the memory's layout (its offsets, capacities and
sizes, the record formats) and its journal as the memory reads it. Runs under CPython and
MicroPython (no annotations: the device test imports it on both runtimes)."""
import struct

from firmware import critmem


def live_ranges(mem):
    """(offset, length) of every byte of `mem` (an opened CriticalMemory) that carries data: the
    journal's record when it holds a valid one, and both copies of every block as last committed."""
    head = struct.calcsize(critmem._BLOCK_HEAD)
    frame = (mem.bank_size - sum(mem.capacity_of(n) for n in mem.names)) // len(mem.names)  # a copy's head and tag
    tag = frame - head
    out = []
    j = mem._read_journal()
    if j:
        n = struct.calcsize(critmem._JOURNAL_HEAD) + tag
        for payload in j[1].values():
            n += struct.calcsize(critmem._ENTRY_HEAD) + len(payload)
        out.append((mem.base, n))
    for name in mem.names:
        meta = mem.committed(name)
        n = frame + (meta[1] if meta else 0)
        for bank in (0, 1):
            out.append((mem._copy_off(name, bank), n))
    return out
