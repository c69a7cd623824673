# mp-heap: 384K  (the 55 KB security memory image the fakes keep in RAM, and room to break the rest up)
# The security log in a heap in pieces, as the 128K board's is after hours of play (tests/device/heap_pieces.py).
# make test (test_stateful, the 2611 sequence and test_random_sequences): a console command's record,
# appended to a chunk read back as two new pieces of ~780 bytes, ran out of memory; the console never
# wrote its prompt. A record is written into the log's own chunk buffer (firmware/audit.py _append).
import sys

from devtest import raises
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


def test_a_record_joins_its_chunk_as_committed_and_the_log_keeps_no_chunk_of_its_own():
    # the heap's budget (docs/sas.md "Memory"): the chunk a record joins is read from NVRAM into the
    # journal, the copy committed (copy A spoilt: its twin), not kept in a 768-byte buffer of the
    # log's; both copies spoilt: a RAM error, nothing committed and the record's number not used up
    from fakes_access import blank

    from firmware.critmem import RamError

    audit = security(blank())
    assert not [k for k, v in audit.__dict__.items() if isinstance(v, (bytes, bytearray)) and len(v) >= 96]
    for i in range(3):
        audit.record("admin1", "ok", "r %d" % i)
    mem = audit.mem
    name = audit.chunks()[-1]
    mem.nvram.mem[mem._copy_off(name, 0) + 9 + 20] ^= 1  # copy A's payload: the twin is read
    assert audit.record("admin1", "ok", "r 3")
    assert [r[4] for r in audit.records()][-4:] == ["r 0", "r 1", "r 2", "r 3"]
    for bank in (0, 1):
        mem.nvram.mem[mem._copy_off(name, bank) + 9 + 20] ^= 1
    journals, n = mem.journals, audit.n
    with raises(RamError):
        audit.record("admin1", "ok", "r 4")
    assert mem.journals == journals and audit.n == n
