# The event log's write pointer (st["ev"], in the state block) and the chunks it points into: no
# power cut, and no failure half-way through a command, leaves a log that cannot be appended to.
# make powercut CUTS=2000 JURIS=vlt once ended a session in `RAM ERROR: e0: 864 bytes exceed its
# 768` at boot: the state block's pointer said fewer events than e0 held (books changed in RAM by
# a command that failed half-way, out of memory, then written by the next commit of the state).
# mp-heap: 480K  (the firmware's 256K, plus the 68 KB NVRAM image the test keeps in RAM)
import gc
import json

from devtest import raises
from fakes_firmware import PowerCut, RamNvram, memory, wiped

from firmware.ledger import EVENT_CHUNKS, EVENTS_PER_CHUNK, Ledger

LAP = EVENT_CHUNKS * EVENTS_PER_CHUNK  # the ring's events: the next one goes into e0 again


_NV = []  # one 68 KB image for the whole module, wiped for each run: a fixed heap fragments


def fresh(events=0):
    gc.collect()
    if not _NV:
        _NV.append(RamNvram(69632))
    nv = wiped(_NV[0])  # a new machine's part (and counter)
    led = Ledger(memory(nv))
    led.open()
    for i in range(events):
        led.event("t", "%d" % (i + 1))
    return nv, led


def reboot(nv):
    """A power-up as firmware.startup does it: open, log what was repaired, then the power event."""
    gc.collect()
    led = Ledger(memory(nv))
    found = led.open()
    for finding in found:
        led.event("nvram", finding)
    led.power_up()
    return led, found


def numbers(led):
    return [e[0] for e in led.events()]


def contiguous(led):
    ns = numbers(led)
    return ns == list(range(ns[0], ns[0] + len(ns))) and ns[-1] == led.st["ev"]


def texts(led):
    return [e[3] for e in led.events() if e[2] == "t"]


def test_a_cut_at_every_write_of_an_append_leaves_a_log_that_takes_more():
    # the write order: the journal (state + chunk + directory) is the commit point, then copy A of
    # each block, then copy B. A cut anywhere (a torn page) gives the old log or the new one, never
    # a pointer apart from its chunk. Across a chunk's first, middle and last record and the ring's wrap
    for before in (7, 8, 9, 15, LAP - 1, LAP, LAP + 1):
        nv, led = fresh(before)
        start = nv.writes
        led.event("t", "cut")
        per_append = nv.writes - start
        assert per_append >= 3  # journal, then copies A and B
        for k in range(per_append):
            nv = led = None  # the last run's ledger let go
            nv, led = fresh(before)
            nv.cut(k + 1)
            with raises(PowerCut):
                led.event("t", "cut")
            led, found = reboot(nv)
            for i in range(EVENTS_PER_CHUNK + 1):  # on through the next chunk
                led.event("t", "after %d" % i)
            t = texts(led)
            cut = "cut" in t
            assert led.st["ev"] == before + cut + 1 + len(found) + EVENTS_PER_CHUNK + 1, (before, k)
            assert contiguous(led), (before, k, numbers(led))
            assert t[-EVENTS_PER_CHUNK - 1:] == ["after %d" % i for i in range(EVENTS_PER_CHUNK + 1)]
            assert t.count("cut") == int(cut)
        nv = led = None


def test_a_ram_clear_that_fails_half_way_leaves_the_books_as_they_were():
    # the clear ran out of memory after the fresh books were made in RAM, before they were written:
    # the console says so and the cabinet goes on with the books NVRAM holds; a later commit must
    # not write the fresh ones beside the old log (the campaign's `e0: 864 bytes exceed its 768`)
    nv, led = fresh(20)
    led.accept(4)
    real = led.mem.format

    def out_of_memory(blocks):
        raise MemoryError()

    led.mem.format = out_of_memory
    with raises(MemoryError):
        led.format(("ramclear", "by admin"))
    led.mem.format = real
    assert led.st["ev"] == 20 and led.credits == 4 and led.meters["acceptor_in"] == 4
    led.accept(2)  # a commit of the state alone, then the power goes
    led, found = reboot(nv)
    assert found == []
    assert led.credits == 6 and led.meters["acceptor_in"] == 6
    assert led.st["ev"] == 21 and contiguous(led)
    assert texts(led)[-1] == "20"


def test_a_failed_append_gives_its_number_back():
    # an append that fails before its commit (out of memory building it) leaves the pointer where the
    # log is: the next event, after a state-only commit and a power cut, takes that number. At the
    # ring's wrap the failed one was to start e0 afresh: with the pointer moved on, the next append
    # read e0 from the last lap, full, and overflowed it
    for before in (LAP, EVENTS_PER_CHUNK, 3):
        nv, led = fresh(before)
        real = led._commit

        def out_of_memory(extra=None):
            raise MemoryError()

        led._commit = out_of_memory
        with raises(MemoryError):
            led.event("t", "lost")
        led._commit = real
        assert led.st["ev"] == before
        led.accept(1)
        led, found = reboot(nv)
        assert found == [] and led.st["ev"] == before + 1 and contiguous(led)
        assert "lost" not in texts(led)
        nv = led = None


def state_with(led, **fields):
    """Commit the state block alone with these fields changed: what a command that changed the
    books in RAM and failed half-way left for the next commit to write."""
    st = json.loads(json.dumps(led.st))
    st.update(fields)
    led.mem.commit({"state": json.dumps(st).encode()})


def test_a_pointer_behind_its_chunk_is_repaired_at_power_up():
    # (events on record, the pointer the state block was left with)
    for logged, pointer in ((13, 10), (16, 11), (16, 8), (20, 3), (LAP + 3, LAP - 2)):
        nv, led = fresh(logged)
        state_with(led, ev=pointer)
        led, found = reboot(nv)
        assert found == ["event log: %d events past the pointer (%d) adopted" % (logged - pointer, pointer)], found
        # nothing lost, nothing twice: every event on record, then the repair's and the power-up's
        assert led.st["ev"] == logged + 2 and contiguous(led), (logged, pointer, numbers(led))
        t = texts(led)
        assert t == ["%d" % i for i in range(int(t[0]), logged + 1)], (logged, pointer)
        assert [e[2] for e in led.events()[-2:]] == ["nvram", "power"]
        nv = led = None


def test_an_append_to_a_full_chunk_rolls_to_the_next():
    # the pointer behind at run time (no power-up between): the append adopts the records past it
    # and goes after them, in the next chunk when that one is full
    nv, led = fresh(16)
    led.st["ev"] = 12
    led.event("t", "17")
    assert led.st["ev"] == 17 and contiguous(led)
    assert led.event_chunks()[-1] == "e2" and led.chunk_events("e2")[0][0] == 17
    assert texts(led) == ["%d" % i for i in range(1, 18)]


def test_a_pointer_ahead_of_its_chunk_starts_it_afresh():
    # the pointer moved on while its event never reached the chunk (a failed append whose number a
    # state-only commit kept): the chunk it points into still holds the last lap's records. They are
    # recycled, never appended to
    nv, led = fresh(LAP)
    state_with(led, ev=LAP + 1)
    led, found = reboot(nv)
    assert found == []
    e0 = led.chunk_events("e0")
    assert [e[0] for e in e0] == [LAP + 2], e0  # the power-up's event; number LAP + 1 never written
    assert led.st["ev"] == LAP + 2


def test_an_append_whose_copies_fail_after_its_journal_is_finished_by_the_next_commit():
    # out of memory sealing a copy, the power still on: the journal is on record, so the append
    # happened. The next commit replays it first (as a power-up would), never writes its own journal
    # over it with the same number beside copies of the failed one (copies that disagree: a RAM error)
    nv, led = fresh(10)
    copies = [0]
    real = led.mem._write_copy

    def count(*args):
        copies[0] += 1
        return real(*args)

    led.mem._write_copy = count
    led.event("t", "x")
    per_append = copies[0]
    assert per_append >= 6  # state, chunk and directory, twice
    for k in range(per_append):
        nv = led = real = None
        nv, led = fresh(10)
        real, calls = led.mem._write_copy, [0]

        def failing(*args, real=real, calls=calls, k=k):
            calls[0] += 1
            if calls[0] == k + 1:
                raise MemoryError()
            return real(*args)

        led.mem._write_copy = failing
        with raises(MemoryError):
            led.event("t", "x")
        del led.mem._write_copy
        led.accept(1)
        led.event("t", "y")
        led, found = reboot(nv)
        assert led.credits == 1, k
        assert contiguous(led), (k, numbers(led))
        assert texts(led)[-2:] == ["x", "y"], (k, texts(led))  # on record once, nothing lost
        nv = led = None


def test_an_append_that_fails_replaying_an_earlier_torn_commit_gives_its_number_back():
    # a credit's commit out of memory after its journal (on record, pending); the next append, its
    # chunk known from its own last commit (no read, so nothing replayed the pending one yet), out
    # of memory replaying it before its own journal: that append never happened, so its number is
    # given back (a commit still pending once counted as "on record" for it: the log skipped one)
    nv, led = fresh(10)

    def hungry(*args):
        raise MemoryError()

    led.mem._write_copy = hungry
    with raises(MemoryError):
        led.accept(1)
    del led.mem._write_copy
    led.mem._open = hungry
    with raises(MemoryError):
        led.event("t", "lost")
    del led.mem._open
    assert led.st["ev"] == 10
    led.event("t", "after")  # replays the credit's commit, then takes number 11
    led, found = reboot(nv)
    assert found == [] and led.credits == 1 and contiguous(led), numbers(led)
    assert texts(led)[-2:] == ["10", "after"], texts(led)
    nv = led = None


def test_a_ram_clear_whose_copies_fail_after_its_journal_is_taken():
    for k in (0, 5):
        nv, led = fresh(20)
        led.accept(4)
        real, calls = led.mem._write_copy, [0]

        def failing(*args, real=real, calls=calls, k=k):
            calls[0] += 1
            if calls[0] == k + 1:
                raise MemoryError()
            return real(*args)

        led.mem._write_copy = failing
        with raises(MemoryError):
            led.format(("ramclear", "by admin"), unlogged="admin")
        del led.mem._write_copy
        # the clear's journal is on record: it happened (the console answers so:
        # test_firmware_ramclear_answer.py); the next commit finishes it and writes on the fresh
        # books, not the old ones beside its log
        assert led.credits == 0 and led.st["cl"] == "admin"
        led.accept(2)
        led, found = reboot(nv)
        assert led.credits == 2 and led.meters["acceptor_in"] == 2, k
        assert contiguous(led) and led.events()[0][2:] == ["ramclear", "by admin"], (k, led.events())
        assert led.unlogged_clear()[0] == "admin"  # the security log is told at power-up (startup)
        nv = led = real = None



def test_an_event_s_text_is_printable_ascii_one_column_a_character_cut_at_its_limit():
    # what the log holds (firmware/eventlog.py clean): each character outside printable ASCII is one
    # "?", whatever its UTF-8 length (the text is walked as bytes, not as one-character strs: each
    # of those became a qstr, kept in the heap)
    from firmware import eventlog

    assert eventlog.clean("caf\u00e9 \u20ac5 \U0001F600\x07~", 76) == "caf? ?5 ??~"
    assert eventlog.clean("\u00e9" * 20 + "x", 8) == "?" * 8
    assert eventlog.clean("abc", 2) == "ab" and eventlog.clean(42, 76) == "42" and eventlog.clean("", 5) == ""
    assert eventlog.clean("tab\there", 76) == "tab?here"
