# mp-heap: 384K  (the 55 KB security memory image the fakes keep in RAM, and room to break the rest up)
# The security log in a heap in pieces, as the 128K board's is after hours of play (tests/device/heap_pieces.py).
# make test (test_stateful, the 2611 sequence and test_random_sequences): a console command's record,
# appended to a chunk read back as two new pieces of ~780 bytes, ran out of memory; the console never
# wrote its prompt. A record is written into the log's own chunk buffer (firmware/audit.py _append).
import sys

from fakes_access import security

from firmware.audit import PER_CHUNK


def test_records_are_appended_and_read_back_in_a_heap_in_pieces():
    audit = security()
    for i in range(PER_CHUNK + 3):  # the second chunk part-filled: the next record reads it back
        audit.record("admin1", "ok", "before %d" % i)
    if sys.implementation.name == "micropython":
        from heap_pieces import in_pieces, pieces_back

        try:
            assert in_pieces() >= 20
            whole = None
            try:  # the heap really is in pieces: the old read of a full chunk finds no room
                whole = audit.mem.read(audit.chunks()[-2])
            except MemoryError:
                pass
            assert whole is None, "the heap was not in pieces"
            for i in range(PER_CHUNK):  # across the chunk's end: the next one starts in place
                assert audit.record("admin1", "ok", "after %d" % i)
            texts = [r[4] for name in audit.chunks() for r in audit.chunk_records(name)]
        finally:
            pieces_back()
    else:
        for i in range(PER_CHUNK):
            assert audit.record("admin1", "ok", "after %d" % i)
        texts = [r[4] for name in audit.chunks() for r in audit.chunk_records(name)]
    want = ["before %d" % i for i in range(PER_CHUNK + 3)] + ["after %d" % i for i in range(PER_CHUNK)]
    assert texts[-len(want):] == want, texts
    again = security(audit.mem.nvram)  # a power-up: the same log from NVRAM
    assert [r[4] for r in again.records()][-len(want):] == want
