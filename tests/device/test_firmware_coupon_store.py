# The coupon memory (firmware/coupon_store.py) on both runtimes: the validation id the system sets,
# the lifetime sequence that never goes back, every record kept until it is acknowledged, the
# condition that stops money and play before the records could be full, and the rule when the
# memory is lost (no coupon until the system sets a validation id).
from devtest import raises
from fakes_firmware import TEST_SECRET, MemCounter, RamNvram, wiped

from firmware import coupon_number, coupon_store
from firmware.coupon_store import CAPACITY, RESERVE, CouponStore

NV = RamNvram(coupon_store.PART - coupon_store.CPN_BASE)  # the room the part gives it


def part():
    nv = wiped(NV)
    nv.counter = MemCounter()
    return nv


def store(nv, secret=TEST_SECRET):
    s = CouponStore(coupon_store.open_memory(nv, secret, nv.counter, base=0), secret)
    s.found = s.open()
    return s


def coupon(s, credits=4, why="cash-out"):
    """One coupon through its life as the cabinet makes it: drafted, kept owed, issued."""
    rec = s.draft(credits, credits * 25, 1795415529, why)
    assert s.add(rec)
    assert s.issued(rec["s"])
    return rec


def test_no_coupon_before_the_system_sets_a_validation_id():
    s = store(part())
    assert s.validation() == (0, 0) and s.found == []
    assert "no validation id" in s.refusal() and s.stop_reason() == s.refusal()
    assert s.set_validation_id(0) == (0, 0)  # as SAS 4C with a validation id of zero: only reads
    for bad in (-1, 1 << 24, "12"):
        with raises(ValueError):
            s.set_validation_id(bad)
    assert s.set_validation_id(4242) == (4242, 0)
    assert s.refusal() is None and s.stop_reason() is None


def test_the_sequence_never_goes_back():
    nv = part()
    s = store(nv)
    s.set_validation_id(4242, 10)
    a = coupon(s)
    assert a["s"] == 11 and s.validation() == (4242, 11)
    assert s.set_validation_id(4242, 5) == (4242, 11)  # lower: ignored, the one in force is answered
    assert s.set_validation_id(77) == (77, 11)  # a new id keeps counting on
    b = coupon(s)
    assert b["s"] == 12 and b["n"][:8] == "00000077" and a["n"][:8] == "00004242"
    s = store(nv)  # a power cycle: the same memory
    assert s.validation() == (77, 12) and coupon(s)["s"] == 13
    assert [r["s"] for r in s.records()] == [11, 12, 13]
    kp = coupon_number.keypads(TEST_SECRET)
    assert b["n"] == coupon_number.control_number(kp, 77, 12)[1]


def test_records_are_kept_until_acknowledged_and_money_stops_before_they_could_be_full():
    nv = part()
    s = store(nv)
    s.set_validation_id(9)
    seqs = []
    while s.stop_reason() is None:
        seqs.append(coupon(s)["s"])
    assert len(seqs) == CAPACITY - RESERVE
    assert s.stop_reason() == "coupon records awaiting the system: %d" % (CAPACITY - RESERVE)
    assert s.refusal() is None  # the credits already on the meter still become a coupon
    last = coupon(s)
    assert s.waiting() == CAPACITY and "coupon records full" in s.refusal()
    with raises(ValueError):  # nothing is ever overwritten before it is acknowledged
        s.add(s.draft(1, 25, 1795415529, "cash-out"))
    recs = s.records()
    assert len(recs) == CAPACITY and [r["s"] for r in recs] == seqs + [last["s"]]
    assert all(r["st"] == "issued" for r in recs)
    with raises(ValueError):
        s.acknowledge(10 ** 6)  # no such record
    rec = s.acknowledge(seqs[5])
    assert rec["st"] == "acked" and s.waiting() == CAPACITY - 1 and s.acknowledge(seqs[5])["st"] == "acked"
    assert s.refusal() is None and s.stop_reason() is not None  # one slot: the reserve, not play
    s.acknowledge(seqs[0])
    assert s.stop_reason() is None
    new = coupon(s)  # takes the oldest acknowledged slot; the other acknowledged record stays readable
    assert s.coupon_record(seqs[0]) is None and s.coupon_record(seqs[5])["st"] == "acked"
    assert s.coupon_record(new["s"])["st"] == "issued"
    s = store(nv)
    assert s.waiting() == CAPACITY - 1 and len(s.records()) == CAPACITY


def test_an_owed_coupon_is_not_acknowledged_and_is_found_again_at_power_up():
    nv = part()
    s = store(nv)
    s.set_validation_id(9)
    rec = s.draft(8, 200, 1795415529, "automatic coupon")
    s.add(rec)
    assert s.owed()["s"] == rec["s"] and s.owed()["why"] == "automatic coupon"
    with raises(ValueError):
        s.acknowledge(rec["s"])
    s = store(nv)
    assert s.owed_seq() == rec["s"] and s.owed()["n"] == rec["n"] and s.waiting() == 1
    assert s.issued(rec["s"]) and not s.issued(rec["s"]) and s.owed() is None


def test_a_lost_memory_prints_nothing_until_a_validation_id_is_set():
    for how in ("both copies", "rolled back", "blank", "another key"):
        nv = part()
        s = store(nv)
        s.set_validation_id(9)
        before = bytes(nv.mem)
        first = coupon(s)
        first["st"] = "issued"  # as the books hold it (firmware/coupon_books.py)
        if how == "both copies":
            for bank in (0, 1):
                nv.mem[s.mem._copy_off("cv", bank) + 12] ^= 1
        elif how == "rolled back":
            nv.mem[:] = before  # an older copy of the part put back: behind its counter
        elif how == "blank":
            nv.mem[:] = bytes(len(nv.mem))
        s = store(nv, bytes(32) if how == "another key" else TEST_SECRET)
        assert s.lost and s.found and s.found[0].startswith("coupon memory lost"), (how, s.found)
        assert s.validation() == (0, 0) and s.records() == []
        assert "coupon memory lost" in s.refusal() and s.stop_reason() == s.refusal()
        # the books still hold the latest coupon: kept again, and the sequence counts on above it
        assert s.adopt(first) and s.coupon_record(first["s"])["st"] == "issued"
        assert not s.adopt(first)
        s.set_validation_id(10)
        assert s.refusal() is None and coupon(s)["s"] == first["s"] + 1
