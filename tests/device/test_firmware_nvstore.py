# Two-slot critical-memory store: newest valid copy wins; a torn write never loses the last commit.
from devtest import raises
from fakes_firmware import PowerCut, RamNvram
from firmware.nvstore import Store, StoreError


def test_blank_nvram_loads_nothing():
    assert Store(RamNvram()).load() is None


def test_round_trip_and_newest_wins():
    nv = RamNvram()
    s = Store(nv)
    for i in range(5):
        s.save(b"record %d" % i)
    s2 = Store(nv)
    assert s2.load() == b"record 4"
    assert s2.seq == 5


def test_torn_write_keeps_previous_commit():
    nv = RamNvram()
    s = Store(nv)
    s.save(b"A" * 100)
    s.save(b"B" * 100)
    for cut in (0, 1, 5, 13, 14, 50, 113):  # the cut falls inside header, payload, or just before the end
        t = Store(nv)
        assert t.load() == b"B" * 100
        nv.tear_after = cut
        with raises(PowerCut):
            t.save(b"C" * 100)
        # the write landed on the older copy: the newest commit is never the casualty
        assert Store(nv).load() == b"B" * 100, cut


def test_bit_flip_in_newest_falls_back_to_older_copy():
    nv = RamNvram()
    s = Store(nv)
    s.save(b"old")
    s.save(b"new")
    nv.mem[s.slot * s.slot_size + 16] ^= 0x04  # inside the newest payload
    t = Store(nv)
    assert t.load() == b"old"
    assert t.repaired


def test_both_copies_corrupt_is_an_error_not_a_blank_start():
    nv = RamNvram()
    s = Store(nv)
    s.save(b"one")
    s.save(b"two")
    nv.mem[16] ^= 1
    nv.mem[s.slot_size + 16] ^= 1
    with raises(StoreError):
        Store(nv).load()


def test_oversized_record_refused():
    s = Store(RamNvram(), slot_size=64)
    with raises(StoreError):
        s.save(b"x" * 60)
