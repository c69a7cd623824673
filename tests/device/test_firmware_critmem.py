# Journaled critical memory: torn writes at every byte, bit flips, double faults.
from devtest import raises
from fakes_firmware import TEST_SECRET, PowerCut, RamNvram, counter_of
from firmware.critmem import CriticalMemory, RamError

LAYOUT = (("state", 96), ("g0", 64), ("g1", 64), ("log", 48))


def mem(nv=None):
    nv = nv or RamNvram(4096)
    return nv, CriticalMemory(nv, LAYOUT, 96 + 64 + 48, TEST_SECRET, counter_of(nv))


def fresh():
    nv, cm = mem()
    assert cm.open() is False
    cm.format({"state": b"s0", "g0": b"", "g1": b"", "log": b""})
    return nv, cm


def save(nv):
    """The machine's whole critical state: its NVRAM and its counter."""
    return bytes(nv.mem), counter_of(nv).value


def restore(nv, snap):
    nv.mem[:] = snap[0]
    counter_of(nv).value = snap[1]


def reopen(nv):
    cm = mem(nv)[1]
    assert cm.open() is True
    return cm


def _cut_after(nv, cut):
    """Make nv lose power after `cut` more bytes; returns the undo."""
    budget = [cut]
    real_write = nv.write

    def write(off, data):
        if budget[0] < len(data):
            nv.mem[off:off + budget[0]] = data[:budget[0]]
            raise PowerCut()
        budget[0] -= len(data)
        real_write(off, data)

    nv.write = write

    def undo():
        del nv.write

    return undo


def test_commit_and_reopen():
    nv, cm = fresh()
    cm.commit({"state": b"s1", "g0": b"game one"})
    cm.commit({"state": b"s2", "log": b"door open"})
    cm2 = reopen(nv)
    assert cm2.read("state") == b"s2"
    assert cm2.read("g0") == b"game one"
    assert cm2.read("log") == b"door open"
    assert cm2.findings == []
    assert cm2.seq == cm.seq


def test_power_cut_at_every_byte_of_a_transaction_is_atomic():
    nv, cm = fresh()
    cm.commit({"state": b"old-state", "g0": b"old-game"})
    # measure how many bytes one transaction writes, then cut after each of them in turn
    probe_nv = RamNvram(4096)
    restore(probe_nv, save(nv))
    probe = reopen(probe_nv)
    probe.commit({"state": b"new-state!", "g0": b"new-game!!"})
    assert probe.bytes_written > 0
    snapshot = save(nv)
    for cut in range(0, probe.bytes_written + 1):
        restore(nv, snapshot)
        live = reopen(nv)
        undo = _cut_after(nv, cut)
        try:
            live.commit({"state": b"new-state!", "g0": b"new-game!!"})
        except PowerCut:
            pass
        undo()
        after = reopen(nv)
        got = (after.read("state"), after.read("g0"))
        assert got in ((b"old-state", b"old-game"), (b"new-state!", b"new-game!!")), (cut, got)
        # and once reopened, both copies agree again
        after.verify()


def test_single_bit_flip_anywhere_live_is_detected_and_repaired():
    nv, cm = fresh()
    cm.commit({"state": b"credits=40", "g0": b"last game"})
    snapshot = save(nv)
    positions = []
    for off, n in cm.live_ranges():
        for i in range(n):  # every live byte, one bit each
            positions.append(off + i)
    for pos in positions:
        restore(nv, snapshot)
        bit = 1 << (pos % 8)
        nv.mem[pos] ^= bit
        after = mem(nv)[1]
        after.open()
        assert after.findings, "flip at %d went unnoticed" % pos
        assert after.read("state") == b"credits=40"
        assert after.read("g0") == b"last game"
        reopen(nv).verify()


def test_both_copies_bad_is_a_ram_error():
    nv, cm = fresh()
    cm.commit({"state": b"A"})
    cm.commit({"g1": b"B"})  # the journal no longer holds "state"
    a = cm._copy_off("state", 0)
    b = cm._copy_off("state", 1)
    nv.mem[a + 10] ^= 1
    nv.mem[b + 10] ^= 1
    with raises(RamError):
        mem(nv)[1].open()


def test_verify_notices_a_copy_changed_after_commit():
    nv, cm = fresh()
    cm.commit({"state": b"fine"})
    nv.mem[cm._copy_off("state", 1) + 9] ^= 0x80
    with raises(RamError):
        cm.verify()


def test_oversized_payload_refused():
    nv, cm = fresh()
    with raises(RamError):
        cm.commit({"g0": b"x" * 65})


def test_layout_that_does_not_fit_is_refused():
    with raises(RamError):
        CriticalMemory(RamNvram(256), LAYOUT, 208, TEST_SECRET, counter_of(RamNvram(256)))


def test_verify_reads_long_blocks_piece_by_piece_and_catches_every_kind_of_change():
    nv = RamNvram(4096)
    cm = CriticalMemory(nv, (("big", 400), ("small", 16)), 416, TEST_SECRET, counter_of(nv))
    cm.open()
    payload = bytes(range(256)) + bytes(range(100))  # 356 bytes: three pieces of 128 and a tail
    cm.format({"big": payload, "small": b"x"})
    cm.verify()
    last = cm._copy_off("big", 0) + 9 + 355
    # the last payload byte, the stored CRC, copy B's seq (the header is under the CRC too)
    for off in (last, last + 1, cm._copy_off("big", 1) + 3):
        nv.mem[off] ^= 0x01
        with raises(RamError):
            cm.verify()
        nv.mem[off] ^= 0x01
        cm.verify()
    # a valid record, but not what was committed (an older copy written back): caught by content
    old = cm._copy_off("big", 1)
    saved = bytes(nv.mem[old:old + 9 + 356 + 4])
    cm.commit({"big": payload[:-1] + b"\xff"})
    nv.mem[old:old + len(saved)] = saved
    with raises(RamError):
        cm.verify()


INITIAL = {"state": b"s0", "g0": b"", "g1": b"", "log": b""}


def test_a_ram_clear_cut_at_any_byte_is_either_done_or_not_begun():
    nv, cm = fresh()
    for i in range(5):  # sequence numbers well above the clear's first one
        cm.commit({"state": b"state %d" % i, "g0": b"game %d" % i, "log": b"event %d" % i})
    snapshot = save(nv)
    probe_nv = RamNvram(4096)
    restore(probe_nv, snapshot)
    probe = reopen(probe_nv)
    probe.bytes_written = 0
    probe.format(INITIAL)
    outcomes = set()
    for cut in range(probe.bytes_written + 1):
        restore(nv, snapshot)
        live = reopen(nv)
        undo = _cut_after(nv, cut)
        try:
            live.format(INITIAL)
        except PowerCut:
            pass
        undo()
        after = reopen(nv)  # never a RAM error: a technician's clear is journaled like any commit
        got = (after.read("state"), after.read("g0"), after.read("log"))
        assert got in ((b"state 4", b"game 4", b"event 4"), (b"s0", b"", b"")), (cut, got)
        outcomes.add(got[0])
        after.verify()
    assert outcomes == {b"state 4", b"s0"}


def test_a_ram_clear_of_corrupt_memory_cut_at_any_byte_never_passes_for_a_good_one():
    nv, cm = fresh()
    for i in range(3):
        cm.commit({"state": b"state %d" % i, "g0": b"game %d" % i})
    for bank in (0, 1):  # both copies of state gone, and the journal that could rebuild it
        nv.mem[cm._copy_off("state", bank) + 12] ^= 0x10
    nv.mem[10] ^= 0x10
    snapshot = save(nv)
    with raises(RamError):
        mem(nv)[1].open()
    cleared = 0
    for cut in range(0, 900, 7):
        restore(nv, snapshot)
        live = mem(nv)[1]  # the firmware formats without opening what it cannot read
        undo = _cut_after(nv, cut)
        try:
            live.format(INITIAL)
        except PowerCut:
            pass
        undo()
        try:
            after = reopen(nv)
        except RamError:
            continue  # the clear did not happen: still a RAM error, the technician clears again
        assert (after.read("state"), after.read("g0")) == (b"s0", b"")  # all cleared, nothing old
        cleared += 1
    assert cleared > 0


def test_payloads_are_read_back_from_nvram_and_a_bad_copy_is_never_returned():
    # the heap keeps (seq, length, crc) per block, not the payloads: a full log and recall are ~26 KB
    nv, cm = fresh()
    cm.commit({"state": b"s1", "g0": b"game one"})
    nv.mem[cm._copy_off("g0", 0) + 9] ^= 0x01  # copy A's payload: 'game one' -> 'fame one'
    assert cm.read("g0") == b"game one"  # its twin, whose sequence and CRC are the committed ones
    nv.mem[cm._copy_off("g0", 1) + 9] ^= 0x01
    with raises(RamError):
        cm.read("g0")  # both changed under us: never a payload that was not committed
    # a copy rewritten whole and consistent, but not by us (an older seq), is not taken either
    nv2, cm2 = fresh()
    cm2.commit({"log": b"old"})
    old = bytes(nv2.mem[cm2._copy_off("log", 0):cm2._copy_off("log", 0) + 9 + 3 + 4])
    cm2.commit({"log": b"new"})
    for bank in (0, 1):
        off = cm2._copy_off("log", bank)
        nv2.mem[off:off + len(old)] = old
    with raises(RamError):
        cm2.read("log")


def test_then_runs_at_the_commit_point_and_a_failing_one_never_loses_the_copies():
    nv, cm = fresh()
    seen = []
    cm.commit({"state": b"s1"}, lambda: seen.append(cm._read_journal()[1]["state"]))
    assert seen == [b"s1"]  # the journal was on record when it ran

    def boom():
        raise OSError("output failed")

    with raises(OSError):
        cm.commit({"g0": b"game"}, boom)
    cm.commit({"state": b"s3"})  # overwrites the journal: g0 must already be in its copies
    again = reopen(nv)
    assert again.read("g0") == b"game" and again.read("state") == b"s3"
