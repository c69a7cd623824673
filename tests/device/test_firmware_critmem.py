# Journaled critical memory: torn writes at every byte, bit flips, double faults; records sealed
# with the machine's key, the anti-rollback counter, blank memory on an initialised machine.
import struct

from devtest import raises
from fakes_firmware import TEST_SECRET, MemCounter, PowerCut, RamNvram, counter_of

from firmware.critmem import CriticalMemory, RamError
from sim.critmem_live import live_ranges

try:
    from binascii import crc32
except ImportError:  # pragma: no cover
    from zlib import crc32

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


def _every_cut(nv, snapshot, total, commit):
    """commit(live) cut after each of its `total` bytes in turn, from the state `snapshot`: the old
    payloads or the new ones, never a mix, and both copies agree once reopened."""
    for cut in range(0, total + 1):
        restore(nv, snapshot)
        live = reopen(nv)
        undo = _cut_after(nv, cut)
        try:
            commit(live)
        except PowerCut:
            pass
        undo()
        after = reopen(nv)
        got = (after.read("state"), after.read("g0"))
        assert got in ((b"old-state", b"old-game"), (b"new-state!", b"new-game!!")), (cut, got)
        after.verify()


def test_power_cut_at_every_byte_of_a_transaction_is_atomic():
    nv, cm = fresh()
    cm.commit({"state": b"old-state", "g0": b"old-game"})
    # measure how many bytes one transaction writes, then cut after each of them in turn
    probe_nv = RamNvram(4096)
    restore(probe_nv, save(nv))
    probe = reopen(probe_nv)
    probe.commit({"state": b"new-state!", "g0": b"new-game!!"})
    assert probe.bytes_written > 0
    _every_cut(nv, save(nv), probe.bytes_written, lambda live: live.commit({"state": b"new-state!", "g0": b"new-game!!"}))


def test_single_bit_flip_anywhere_live_is_detected_and_repaired():
    nv, cm = fresh()
    cm.commit({"state": b"credits=40", "g0": b"last game"})
    snapshot = save(nv)
    positions = []
    for off, n in live_ranges(cm):
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


def writer(text):
    """A payload written into the journal by the caller, as the ledger's JSON is (Ledger._as_json):
    never past end; its whole length returned."""
    def write(buf, at, end):
        n = min(len(text), max(end - at, 0))
        buf[at:at + n] = text[:n]
        return len(text)
    return write


def test_a_payload_written_in_the_journal_is_the_same_record_as_its_bytes():
    nv, cm = fresh()
    cm.commit({"state": writer(b"s1 written"), "g0": b"game one", "log": writer(b"")})
    twin_nv, twin = fresh()
    twin.commit({"state": b"s1 written", "g0": b"game one", "log": b""})
    assert nv.mem == twin_nv.mem  # byte for byte: journal, copies and directory
    cm2 = reopen(nv)
    assert (cm2.read("state"), cm2.read("g0"), cm2.read("log")) == (b"s1 written", b"game one", b"")


def test_a_written_payload_too_long_for_its_block_or_the_journal_changes_nothing():
    nv, cm = fresh()
    cm.commit({"state": b"s1", "g0": b"game one"})
    before = save(nv)
    with raises(RamError) as e:
        cm.commit({"state": writer(b"s2"), "g0": writer(b"x" * 65)})
    assert str(e.value) == "g0: 65 bytes exceed its 64", e.value
    with raises(RamError) as e:  # each fits its block, not all in one journal
        cm.commit({"state": writer(b"s" * 96), "g0": b"y" * 64, "g1": writer(b"z" * 64), "log": b"l" * 48})
    assert "exceeds the journal" in str(e.value), e.value
    assert save(nv) == before
    cm.commit({"state": writer(b"s3")})  # the directory was not touched: the next commit is sound
    cm2 = reopen(nv)
    assert (cm2.read("state"), cm2.read("g0"), cm2.findings) == (b"s3", b"game one", [])


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


# --- sealed records, the anti-rollback counter, blank is not fresh (issue 11) -----------------------
OTHER_SECRET = bytes(range(100, 132))  # another machine's


def _ram_error(nv, *words, secret=TEST_SECRET):
    """open() refuses the memory with a reason naming all `words`; returns the reason."""
    with raises(RamError) as r:
        CriticalMemory(nv, LAYOUT, 96 + 64 + 48, secret, counter_of(nv)).open()
    why = str(r.value)
    for w in words:
        assert w in why, (w, why)
    return why


def test_an_older_copy_of_the_memory_put_back_is_a_rollback():
    nv, cm = fresh()
    cm.commit({"state": b"credits=40"})
    old = bytes(nv.mem)  # the attacker's copy, while the credits are on the meter
    cm.commit({"state": b"credits=0", "log": b"cash-out 40"})
    assert counter_of(nv).value == cm.seq
    nv.mem[:] = old  # copied back; the counter is in another part and stays where it is
    _ram_error(nv, "rolled back", "commit %d" % (cm.seq - 1), "counter at %d" % cm.seq)
    # older still: every earlier commit is refused too
    nv2, cm2 = fresh()
    images = []
    for i in range(4):
        images.append(bytes(nv2.mem))
        cm2.commit({"state": b"s%d" % i})
    for image in images:
        nv2.mem[:] = image
        _ram_error(nv2, "rolled back")


def _splice(nv, cm, old, names):
    """Both copies of each named block put back from the older image `old`, and the journal spoilt
    so that nothing can rebuild them: what someone with the part and an old copy of it can do."""
    for name in names:
        for bank in (0, 1):
            off = cm._copy_off(name, bank)
            n = 9 + cm.capacity_of(name) + 16
            nv.mem[off:off + n] = old[off:off + n]
    nv.mem[cm.base] = 0  # its magic


def test_one_block_put_back_from_an_older_copy_is_refused():
    # the counter dates the newest commit; the directory dates every block (firmware/critmem.py)
    nv, cm = fresh()
    cm.commit({"state": b"credits=40", "g0": b"game 1"})
    old = bytes(nv.mem)  # the attacker's copy, while the credits are on the meter
    cm.commit({"state": b"credits=0"})  # cashed out
    cm.commit({"log": b"cash-out 40"})  # and a later commit of another block
    _splice(nv, cm, old, ["state"])
    why = _ram_error(nv, "state at commit %d" % (cm.seq - 2), "directory says %d" % (cm.seq - 1), "older copy")
    # the directory put back with it (older than the newest block): refused as well
    _splice(nv, cm, old, ["_dir"])
    _ram_error(nv, "directory at commit %d" % (cm.seq - 2), "memory at commit %d" % cm.seq)
    assert why


def test_blocks_of_different_ages_are_not_mistaken_for_a_splice():
    nv, cm = fresh()
    for i in range(5):
        cm.commit({"state": b"s%d" % i} if i % 2 else {"g%d" % (i % 2): b"x%d" % i, "log": b"l%d" % i})
    again = reopen(nv)
    assert again.read("state") == b"s3" and again.read("g0") == b"x4" and again.read("log") == b"l4"
    assert again.read("g1") == b""


def test_a_cut_between_a_commit_and_its_counter_is_accepted_and_the_counter_caught_up():
    nv, cm = fresh()
    counter = counter_of(nv)
    real = counter.write

    def cut(n):
        raise PowerCut()

    counter.write = cut
    try:
        cm.commit({"state": b"paid"})
    except PowerCut:
        pass
    counter.write = real
    assert counter.value == cm.seq - 1  # NVRAM is one commit ahead
    again = reopen(nv)
    assert again.read("state") == b"paid" and counter.value == again.seq == cm.seq
    # a journal on record but its copies not written (cut right after the journal): replayed, and
    # the counter caught up to it as well
    nv2, cm2 = fresh()
    # the journal of this small commit: head 7, entry 3 + 8, the directory's entry 3 + 4 x 4, tag 16
    undo = _cut_after(nv2, 60)
    try:
        cm2.commit({"state": b"replayed"})
    except PowerCut:
        pass
    undo()
    after = reopen(nv2)
    assert after.read("state") == b"replayed" and counter_of(nv2).value == after.seq


def test_memory_more_than_one_commit_ahead_of_its_counter_is_refused():
    nv, cm = fresh()
    cm.commit({"state": b"a"})
    cm.commit({"state": b"b"})
    counter_of(nv).value -= 2  # what a cut never leaves: the counter two commits behind
    _ram_error(nv, "ahead of its counter")


def test_a_record_resealed_without_the_key_is_refused():
    # the attack: credits raised and the records resealed with the firmware's own commit
    # routine, by someone who has the part but not the machine's secret
    nv, cm = fresh()
    cm.commit({"state": b'{"credits": 40}', "g0": b"game"})
    forger = CriticalMemory(nv, LAYOUT, 96 + 64 + 48, OTHER_SECRET, MemCounter())
    forger.seq = cm.seq  # everything the part shows: the next commit's number is the right one
    forger.commit({"state": b'{"credits": 4000}'})
    _ram_error(nv, "both copies of state are bad")
    # the same forgery sealed with a CRC-32, as records were before they had a key
    nv2, cm2 = fresh()
    cm2.commit({"state": b'{"credits": 40}'})
    for bank in (0, 1):
        off = cm2._copy_off("state", bank)
        head = bytes(nv2.mem[off:off + 9])
        body = b'{"credits": 4000}'
        nv2.mem[off + 7:off + 9] = struct.pack("<H", len(body))
        head = bytes(nv2.mem[off:off + 9])
        nv2.mem[off + 9:off + 9 + len(body) + 4] = body + struct.pack("<I", crc32(head + body) & 0xFFFFFFFF)
    nv2.mem[0:2] = b"XX"  # and the journal that would rebuild it out of the way
    _ram_error(nv2, "both copies of state are bad")


def test_a_single_changed_byte_of_any_record_fails_its_seal():
    nv, cm = fresh()
    cm.commit({"state": b"credits=40", "g0": b"last game"})
    off = cm._copy_off("state", 0) + 9  # copy A's first payload byte: 'c' -> 'b', tag left alone
    nv.mem[off] ^= 0x01
    assert cm._read_copy("state", 0) is None and cm._read_copy("state", 1) is not None
    nv.mem[off] ^= 0x01
    assert cm._read_copy("state", 0)[1] == b"credits=40"


def test_another_machines_memory_or_record_is_refused():
    nv, cm = fresh()
    cm.commit({"state": b"machine A"})
    nvb = RamNvram(4096)
    cmb = CriticalMemory(nvb, LAYOUT, 96 + 64 + 48, OTHER_SECRET, counter_of(nvb))
    assert cmb.open() is False
    cmb.format(INITIAL)
    cmb.commit({"state": b"machine B, 4000 credits"})
    counter_of(nvb).value = counter_of(nv).value = cmb.seq  # the counters agree: only the key tells
    whole = bytes(nvb.mem)
    # B's whole part in A
    nv.mem[:] = whole
    _ram_error(nv, "no record is sealed with this machine's key")
    # only B's state copies in A's memory (same layout, same sequence number)
    nv2, cm2 = fresh()
    cm2.commit({"state": b"machine A"})
    cm2.commit({"g0": b"x"})  # the journal no longer holds state
    counter_of(nv2).value = cm2.seq
    for bank in (0, 1):
        a = cm2._copy_off("state", bank)
        b = cmb._copy_off("state", bank)
        nv2.mem[a:a + 9 + 96 + 16] = whole[b:b + 9 + 96 + 16]
    _ram_error(nv2, "both copies of state are bad")
    # and B's memory opens on B, with its own key
    nvb.mem[:] = whole
    assert CriticalMemory(nvb, LAYOUT, 96 + 64 + 48, OTHER_SECRET, counter_of(nvb)).open() is True


def test_blank_memory_on_a_machine_initialised_before_is_a_ram_error_not_a_format():
    for how in ("zeroed", "zeroed except one byte of garbage"):
        nv, cm = fresh()
        cm.commit({"state": b"credits=40"})
        for off in range(0, nv.size, 256):
            nv.mem[off:off + 256] = bytes(256)
        if how != "zeroed":
            nv.mem[cm._copy_off("g1", 0) + 3] = 0xA5  # not blank, and nothing sealed in it either
            _ram_error(nv, "no record is sealed")
        else:
            _ram_error(nv, "blank critical memory", "initialised before")
        # the technician's RAM clear formats it above the counter, and it opens again
        cleared = mem(nv)[1]
        cleared.format(INITIAL)
        assert cleared.seq > cm.seq
        assert reopen(nv).read("state") == b"s0"


def test_a_new_machine_formats_and_is_initialised_from_then_on():
    nv, cm = mem()
    assert counter_of(nv).value is None
    assert cm.open() is False  # blank, never initialised: the caller formats
    cm.format(INITIAL)
    assert counter_of(nv).value == cm.seq == 1
    for off in range(0, nv.size, 256):
        nv.mem[off:off + 256] = bytes(256)
    _ram_error(nv, "blank critical memory")


def test_records_with_no_counter_are_refused():
    nv, cm = fresh()
    cm.commit({"state": b"credits=40"})
    nv.counters = {"books": MemCounter()}  # the counter's part lost (or replaced): it reads as never set
    _ram_error(nv, "anti-rollback counter was never set")


def test_a_first_format_cut_at_any_byte_is_formatted_again_never_a_ram_error():
    probe_nv, probe = mem()
    probe.format(INITIAL)
    total = probe.bytes_written
    for cut in list(range(0, total + 1, 3)) + ["counter 0", "counter 1"]:
        nv = RamNvram(4096)
        counter = counter_of(nv)
        cm = CriticalMemory(nv, LAYOUT, 96 + 64 + 48, TEST_SECRET, counter)
        assert cm.open() is False
        undo = None
        real = counter.write
        if cut == "counter 0" or cut == "counter 1":
            def write(n, fail=int(cut[-1])):
                if n == fail:
                    raise PowerCut()
                real(n)
            counter.write = write
        else:
            undo = _cut_after(nv, cut)
        try:
            cm.format(INITIAL)
        except PowerCut:
            pass
        if undo:
            undo()
        counter.write = real
        again = CriticalMemory(nv, LAYOUT, 96 + 64 + 48, TEST_SECRET, counter)
        if not again.open():
            again.format(INITIAL)  # what Ledger.open does with a new machine's memory
        assert again.read("state") == b"s0", cut
        assert counter.value == again.seq, cut
        reopen(nv).verify()


def test_the_counter_never_goes_back_and_a_ram_clear_numbers_above_it():
    nv, cm = fresh()
    for i in range(3):
        cm.commit({"state": b"s%d" % i})
    old = bytes(nv.mem)
    cm.commit({"state": b"s3"})
    nv.mem[:] = old  # rolled back: a RAM error...
    _ram_error(nv, "rolled back")
    clear = mem(nv)[1]  # ...that the technician clears: numbered above the counter, so it opens
    clear.format(INITIAL)
    assert clear.seq == cm.seq + 1
    assert reopen(nv).read("state") == b"s0"
    with raises(ValueError):
        counter_of(nv).write(1)


def test_no_machine_secret_no_memory():
    for secret in (None, b""):
        with raises(RamError):
            CriticalMemory(RamNvram(4096), LAYOUT, 208, secret, MemCounter())


def test_the_heap_keeps_one_16_byte_tag_per_block_and_the_directory():
    # RFC 4868's HMAC-SHA-256-128 length, one per block, in one buffer (no bytes object per block)
    nv, cm = mem()
    assert len(cm._tags) == 16 * (len(LAYOUT) + 1) == 80
    from firmware.ledger import LAYOUT as BOOKS

    assert 16 * (len(BOOKS) + 1) == 512  # the books' figure docs/critical-memory.md gives


def test_a_commit_on_record_is_what_the_next_read_and_verify_see():
    # a commit's journal on record, its copies not written (out of memory, the power on): it
    # happened, so a read before the next commit returns it, not the block before it (the event
    # log read its chunk so, appended the next event to it, and the torn event was lost)
    nv, cm = fresh()
    cm.commit({"state": b"s1", "g0": b"game 1"})
    real = cm._write_copy

    def hungry(*args):
        raise MemoryError("memory allocation failed, allocating 96 bytes")

    cm._write_copy = hungry
    with raises(MemoryError):
        cm.commit({"state": b"s2", "g0": b"game 2"})
    cm._write_copy = real
    assert cm._torn is not None  # pending: the next read or commit finishes it
    assert bytes(cm.read("g0")) == b"game 2" and bytes(cm.read_view("state")) == b"s2"
    cm.verify()  # the copies follow their journal: nothing changed under us
    cm.commit({"g1": b"game 3"})
    again = mem(nv)[1]
    assert again.open() is True
    assert [bytes(again.read(n)) for n in ("state", "g0", "g1")] == [b"s2", b"game 2", b"game 3"]


def test_the_books_memory_keeps_one_record_buffer_the_journals():
    # the heap's budget (docs/sas.md "Memory"): each copy is built around its payload in the journal
    # buffer, so no second buffer as large as the largest block (the state, 3.2 KB) is kept beside it
    from fakes_firmware import memory

    from firmware.ledger import STATE_SIZE

    cm = memory(RamNvram(69632))
    others = [len(v) for k, v in cm.__dict__.items() if isinstance(v, bytearray) and v is not cm._jbuf]
    assert len(cm._jbuf) == cm.journal_size > STATE_SIZE
    assert sum(others) < 1024, others  # the tags (512), the directory, the bytes a copy is built over


def test_copies_built_in_the_journal_leave_it_as_it_was_written():
    # every block of a commit, the first (right after the journal's head), an empty one, one that fills
    # its capacity and the directory (right before the journal's tag): each copy is built over its
    # neighbours in the journal buffer, which are put back, so every later copy and the journal agree
    nv, cm = fresh()
    updates = {"state": b"S" * 96, "g0": b"", "g1": b"g" * 63, "log": b"l"}
    cm.commit(updates)
    journal = bytes(nv.mem[:cm.journal_size])
    assert bytes(cm._jbuf[:cm.journal_size]) == journal
    again = reopen(nv)
    assert again.findings == []  # no copy disagreed with the journal: nothing replayed nor repaired
    for name in updates:
        for bank in (0, 1):
            assert bytes(again._read_copy(name, bank)[1]) == updates[name], (name, bank)
    again.verify()


def test_the_blocks_maps_are_a_tuple_of_names_and_two_buffers_not_dicts():
    # the heap's budget (docs/critical-memory.md): the names in a tuple (an id is a place in it), the
    # capacities read from the layout, the offsets kept in a tuple, what was committed and its tag in
    # one buffer each; no dict by name (a dict of ids and one of (seq, length) tuples took 320 and
    # 816 bytes of heap in the books' memory)
    nv, cm = fresh()
    assert cm.names == ("state", "g0", "g1", "log", "_dir")
    assert [cm.capacity_of(n) for n in cm.names] == [96, 64, 64, 48, 4 * len(LAYOUT)]
    assert [cm.block_id(n) for n in cm.names] == [0, 1, 2, 3, 4]
    with raises(KeyError):
        cm.block_id("g2")
    assert not [k for k, v in cm.__dict__.items() if isinstance(v, (dict, list)) and len(v) == len(cm.names)]
    assert len(cm._meta) == 6 * len(cm.names)
    # and no buffer for the directory: each commit builds it in the journal from _meta
    assert sorted(k for k, v in cm.__dict__.items() if isinstance(v, bytearray)) == ["_jbuf", "_meta", "_saved", "_tags"]
    offsets = [cm._copy_off(n, 0) - cm._copy_off(cm.names[0], 0) for n in cm.names]
    assert offsets == [0, 9 + 96 + 16, 2 * 25 + 96 + 64, 3 * 25 + 96 + 128, 4 * 25 + 96 + 128 + 48]


def test_what_was_committed_is_kept_per_block_and_told_by_committed():
    # (seq, length) of each block's last commit: none before the memory is opened or formatted, the
    # format's then each commit's, the same once reopened, and a format that fails before its journal
    # gives back the figures it had
    nv, cm = mem()
    assert [cm.committed(n) for n in cm.names] == [None] * 5
    with raises(KeyError):
        cm.read("state")
    assert cm.open() is False
    cm.format({"state": b"s0", "g0": b"", "g1": b"", "log": b""})
    assert [cm.committed(n) for n in cm.names] == [(1, 2), (1, 0), (1, 0), (1, 0), (1, 16)]
    cm.commit({"g1": b"game 1", "log": b"l"})
    want = [(1, 2), (1, 0), (2, 6), (2, 1), (2, 16)]
    assert [cm.committed(n) for n in cm.names] == want
    again = reopen(nv)
    assert [again.committed(n) for n in again.names] == want
    real = again.commit

    def hungry(updates, then=None):
        raise MemoryError("memory allocation failed, allocating 96 bytes")

    again.commit = hungry
    with raises(MemoryError):
        again.format({"state": b"s9", "g0": b"", "g1": b"", "log": b""})
    again.commit = real
    assert [again.committed(n) for n in again.names] == want and again.seq == 2
    again.verify()


def test_a_block_read_into_a_buffer_is_the_one_committed():
    # read_into: the committed payload into a window of the caller's buffer (the security log's
    # record is built so, in the journal); copy A, else its twin; both changed: a RAM error; a window
    # too small for it is refused before a byte is written
    nv, cm = fresh()
    cm.commit({"g0": b"game zero"})
    buf = bytearray(b"." * 40)
    assert cm.read_into("g0", buf, 5, 40) == 9 and bytes(buf) == b"....." + b"game zero" + b"." * 26
    a = cm._copy_off("g0", 0) + 9
    nv.mem[a] ^= 1  # copy A's first payload byte: its twin is read
    buf = bytearray(20)
    assert cm.read_into("g0", buf, 0, 20) == 9 and bytes(buf[:9]) == b"game zero"
    with raises(RamError):
        cm.read_into("g0", bytearray(20), 12, 20)
    nv.mem[cm._copy_off("g0", 1) + 9] ^= 1
    with raises(RamError):
        cm.read_into("g0", bytearray(20), 0, 20)


def _deferred(cm, updates):
    cm.defer = True
    try:
        cm.commit(updates)
    finally:
        cm.defer = False


def test_a_deferred_commit_is_on_record_at_its_journal_and_its_copies_follow_at_settle():
    # defer: a SAS order answered before its copies are written (firmware/sas/machine.py). commit()
    # returns once the journal is written, its commit point: a power cut then gives the new payloads
    # (replayed, as after a cut between a journal and its copies); settle() writes the copies and
    # the counter, and nothing is left to replay
    nv, cm = fresh()
    cm.commit({"state": b"s1", "g0": b"game 1"})
    seq, writes = cm.seq, nv.writes
    _deferred(cm, {"state": b"s2", "g0": b"game 2"})
    assert nv.writes == writes + 1 and counter_of(nv).value == seq  # the journal only
    cut = RamNvram(4096)
    restore(cut, save(nv))
    after = reopen(cut)
    assert (after.read("state"), after.read("g0")) == (b"s2", b"game 2")
    assert "replayed state from journal" in after.findings and "replayed g0 from journal" in after.findings
    cm.settle()
    assert nv.writes == writes + 1 + 6  # copies A and B of state, g0 and the directory
    assert counter_of(nv).value == cm.seq == seq + 1
    again = reopen(nv)
    assert again.findings == [] and (again.read("state"), again.read("g0")) == (b"s2", b"game 2")
    cm.settle()  # nothing pending: nothing written
    assert nv.writes == writes + 7


def test_power_cut_at_every_byte_of_a_deferred_commit_and_its_settle_is_atomic():
    nv, cm = fresh()
    cm.commit({"state": b"old-state", "g0": b"old-game"})
    snapshot = save(nv)
    written = nv.bytes_written

    def deferred(live):
        _deferred(live, {"state": b"new-state!", "g0": b"new-game!!"})
        live.settle()

    deferred(cm)
    _every_cut(nv, snapshot, nv.bytes_written - written, deferred)


def test_every_use_of_the_memory_after_a_deferred_commit_settles_it_first():
    for use in ("read", "read_view", "verify", "committed", "commit"):
        nv, cm = fresh()
        _deferred(cm, {"state": b"s1", "g0": b"game 1"})
        if use == "commit":
            cm.commit({"g1": b"game 2"})
        elif use == "verify":
            cm.verify()
        else:
            got = getattr(cm, use)("g0")
            assert (bytes(got) if use != "committed" else got[0]) == (b"game 1" if use != "committed" else cm.seq), use
        again = reopen(nv)
        assert again.findings == [] and again.read("g0") == b"game 1", (use, again.findings)


def test_a_memory_sharing_the_record_buffer_settles_a_deferred_commit_before_using_it():
    # the security and coupon memories build their records in the books' buffer (buffers=): one of
    # theirs built over a deferred commit's journal would leave the books' copies sealed over its
    # bytes, copies that open() takes as they are (their number is the journal's)
    nv, books = fresh()
    other = CriticalMemory(nv, (("log", 64),), 64, TEST_SECRET, counter_of(nv, "other"), base=books.size,
                           buffers=books)
    assert other._jbuf is books._jbuf
    assert other.open() is False
    other.format({"log": b""})
    _deferred(books, {"state": b"s1" * 40, "g0": b"game 1"})
    other.commit({"log": b"x" * 60})
    books.settle()
    again = reopen(nv)
    assert again.findings == [] and (again.read("state"), again.read("g0")) == (b"s1" * 40, b"game 1")
    assert other.read("log") == b"x" * 60


def test_a_deferred_commit_whose_copies_fail_is_finished_by_the_next_use():
    # out of memory sealing a copy at settle, the power on: the journal is on record, so the next
    # read replays it from NVRAM, as a power-up would
    nv, cm = fresh()
    _deferred(cm, {"state": b"s1", "g0": b"game 1"})

    def hungry(*args):
        raise MemoryError()

    cm._write_copy = hungry
    with raises(MemoryError):
        cm.settle()
    del cm._write_copy
    assert cm.read("state") == b"s1" and cm.read("g0") == b"game 1"
    cm.verify()
    assert reopen(nv).findings == []


def test_copy_b_is_copy_a_byte_for_byte_and_a_flip_in_either_is_found():
    # copy B carries A's seal, computed once: the header names no bank, so both are the same bytes
    nv, cm = fresh()
    cm.commit({"state": b"s1", "g0": b"game 1"})
    i = cm.block_id("g0")
    size = 9 + len(b"game 1") + 16
    a, b = cm._off(i, 0), cm._off(i, 1)
    assert nv.mem[a:a + size] == nv.mem[b:b + size]
    for off in (a, b):
        for at in (0, 9, size - 1):
            nv.mem[off + at] ^= 0x10
            with raises(RamError):
                cm.verify()
            nv.mem[off + at] ^= 0x10
    cm.verify()
