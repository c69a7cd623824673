# Ledger: credits, meters, recall and events in critical memory; audited before play and payout.
# mp-heap: 480K  (the firmware's 256K, plus the 68 KB NVRAM image the test keeps in RAM)
import gc

from devtest import raises
from fakes_firmware import FixedOutcome, PowerCut, RamNvram, memory

from firmware.audit_error import AuditError
from firmware.game_books import RECALL
from firmware.ledger import EVENT_CHUNKS, EVENTS_PER_CHUNK, Ledger


def fresh():
    gc.collect()  # the fixed heap holds one 64 KB NVRAM image at a time
    nv = RamNvram(69632)
    led = Ledger(memory(nv))
    assert led.open() == ["blank memory formatted"]
    return nv, led


def reload(nv):
    gc.collect()  # the previous ledger's buffers go first: one journal buffer at a time
    led = Ledger(memory(nv))
    led.open()
    return led


def identity(led):
    m = led.meters
    return led.credits == m["acceptor_in"] + m["coin_out"] + m["refunds"] - m["coin_in"] - m["cashout"]


def play(led, bet, award):
    led.wager(bet)
    led.settle(FixedOutcome(bet, award), "test-game")


def test_session_meters_survive_restart():
    nv, led = fresh()
    led.accept(4)
    led.accept(4)
    play(led, 1, 8)
    play(led, 1, 0)
    again = reload(nv)
    assert again.credits == 14
    assert again.meters["acceptor_in"] == 8
    assert again.meters["coin_in"] == 2
    assert again.meters["coin_out"] == 8
    assert again.meters["games_played"] == 2
    assert again.meters["games_won"] == 1
    assert identity(again)


def test_hand_pay_cashout_locks_until_attendant():
    nv, led = fresh()
    led.accept(20)
    assert led.cashout(hand_pay=True) == 20
    assert led.lock == {"kind": "handpay", "amount": 20}
    assert reload(nv).lock == {"kind": "handpay", "amount": 20}  # a restart does not forget it
    led.clear_lock()
    again = reload(nv)
    assert again.credits == 0 and again.lock is None
    assert again.meters["cancelled"] == 20 and again.meters["cashout"] == 20
    again.audit()


def test_hopper_payout_is_booked_once():
    nv, led = fresh()
    led.accept(10)
    ref = led.start_payout(2, 4)  # two tokens of 4 credits
    led.save_hopper_record({"ref": ref, "n": 2, "st": "armed"})  # the driver's first save
    again = reload(nv)  # a cut here: the payout is open, with its record, in one transaction
    assert again.paying == {"ref": ref, "coins": 2, "cpc": 4}
    assert again.hopper_record()["ref"] == ref
    assert again.credits == 10
    assert again.book_payout(ref, 2, 0)
    assert not again.book_payout(ref, 2, 0)  # the driver repeats its final event: no second booking
    after = reload(nv)
    assert after.credits == 2 and after.meters["hopper_out"] == 8 and after.meters["cashout"] == 8
    assert after.paying is None and after.hopper_record() is None
    after.audit()


def test_a_paying_mark_without_the_hopper_record_is_dropped_at_power_up():
    # the driver saves its record once the hopper's counters are read, passes after the cash-out
    # (board/hopper_cctalk.py); a commit in between (a coin here) took the mark to NVRAM alone
    nv, led = fresh()
    led.accept(10)
    ref = led.start_payout(2, 4)
    led.accept(4)
    again = reload(nv)
    assert again.paying == {"ref": ref, "coins": 2, "cpc": 4} and again.hopper_record() is None
    again.power_up()  # no record: no 167 went out, no coin left
    after = reload(nv)
    assert after.paying is None and after.credits == 14 and after.meters["hopper_out"] == 0
    assert after.events()[-1][2:] == ["power", "power up; cash-out cut before its hopper record: no coin out, credits kept"]
    after.audit()


def test_a_paying_mark_with_its_record_stays_at_power_up():
    nv, led = fresh()
    led.accept(10)
    ref = led.start_payout(2, 4)
    led.save_hopper_record({"ref": ref, "n": 2, "st": "armed"})
    again = reload(nv)
    again.power_up()
    assert reload(nv).paying == {"ref": ref, "coins": 2, "cpc": 4}  # the driver finishes or proves it


def test_uncertain_payout_locks_for_hand_pay():
    nv, led = fresh()
    led.accept(12)
    ref = led.start_payout(3, 4)
    led.save_hopper_record({"ref": ref, "n": 3, "st": "armed"})
    led.book_payout(ref, 1, 2, uncertain=True)  # one coin proven, two unknown
    again = reload(nv)
    assert again.meters["hopper_out"] == 4 and again.credits == 8
    assert again.lock == {"kind": "handpay", "amount": 8}
    again.clear_lock()
    assert reload(nv).credits == 0
    reload(nv).audit()


def test_jackpot_at_limit_is_hand_paid_not_credited():
    nv, led = fresh()
    led.accept(4)
    led.wager(1)
    led.settle(FixedOutcome(1, 1500), "g", jackpot_limit=1200)
    assert led.credits == 3 and led.lock == {"kind": "jackpot", "amount": 1500}
    led.clear_lock()
    again = reload(nv)
    assert again.meters["jackpot"] == 1500 and again.meters["coin_out"] == 0
    again.audit()


def test_no_credit_extended():
    nv, led = fresh()
    led.accept(1)
    with raises(ValueError):
        led.wager(2)
    assert reload(nv).credits == 1


def test_wager_without_outcome_survives_a_cut():
    nv, led = fresh()
    led.accept(4)
    led.wager(3)
    nv.tear_after = 0
    with raises(PowerCut):
        led.settle(FixedOutcome(3, 30), "g")
    again = reload(nv)
    assert again.game["phase"] == "wager" and again.game["bet"] == 3
    assert again.credits == 1 and again.meters["coin_in"] == 3
    again.settle(FixedOutcome(3, 30), "g")  # the cabinet completes the same game after restart
    assert reload(nv).credits == 31


def test_void_refunds_the_wager_s95():
    nv, led = fresh()
    led.accept(4)
    led.wager(2)
    assert led.void("rng failure") == 2
    again = reload(nv)
    assert again.credits == 4 and again.meters["refunds"] == 2
    again.audit()
    assert again.events()[-1][2] == "void"


def test_settle_needs_matching_wager():
    nv, led = fresh()
    led.accept(4)
    with raises(AuditError):
        led.settle(FixedOutcome(1, 5), "g")
    led.wager(1)
    with raises(AuditError):
        led.settle(FixedOutcome(2, 5), "g")


def test_self_audit_catches_tampered_credits():
    nv, led = fresh()
    led.accept(4)
    led.st["credits"] += 100  # a fault that did not go through the meters
    with raises(AuditError):
        led.wager(1)
    with raises(AuditError):
        led.cashout(hand_pay=True)


def test_meters_roll_over_at_ten_digits():
    nv, led = fresh()
    led.meters["acceptor_in"] = 10 ** 10 - 2
    led.st["credits"] = 10 ** 10 - 2
    led.accept(4)
    assert led.meters["acceptor_in"] == 2
    led.audit()  # the identity holds modulo the rollover


def test_recall_keeps_last_ten_games_with_draws():
    nv, led = fresh()
    led.accept(100)
    for i in range(13):
        o = FixedOutcome(1, i % 3)
        o.draws = [i, i + 1, i + 2]
        led.wager(1)
        led.settle(o, "g")
    games = reload(nv).recall()
    assert len(games) == RECALL
    assert [g["n"] for g in games] == list(range(4, 14))
    last = games[-1]
    assert last["draws"] == [12, 13, 14] and last["bet"] == 1 and last["win"] == 0
    assert last["after"] == last["before"] - 1 + last["win"]


def test_event_log_keeps_the_last_hundred():
    for total in (EVENT_CHUNKS * EVENTS_PER_CHUNK + 1, EVENT_CHUNKS * EVENTS_PER_CHUNK + 7):
        nv, led = fresh()
        for i in range(total):
            led.event("test", "event %d" % i)
        evs = reload(nv).events()
        assert len(evs) >= 100
        assert [e[3] for e in evs[-100:]] == ["event %d" % i for i in range(total - 100, total)]
        assert all(isinstance(e[1], int) for e in evs)  # timestamped
        nv = led = evs = None  # let the next round's image have the heap


def test_bytes_written_per_game():
    nv, led = fresh()
    led.accept(40)
    before = led.mem.bytes_written
    play(led, 1, 2)
    per_game = led.mem.bytes_written - before
    # journal + two copies of the state and of the recall record: a few kB, not the whole memory
    assert 0 < per_game < 6000, per_game


def test_a_ram_clear_keeps_the_devices_event_counters():
    # The counters are positions of the acceptor and validator, which the clear does not reach.
    # Without them the next power-up baselines the acceptor: a coin taken between the enable and
    # the commit of the first poll after a clear, with the power cut between, would never be
    # credited (make test's power-cut test with RAM clears: `acceptor_in 0 < 4 accepted`, under load).
    nv, led = fresh()
    led.accept(4, 17)
    led.bill_seen(9)
    led.format(("ramclear", "by technician"))
    assert led.credits == 0 and led.meters["acceptor_in"] == 0
    again = reload(nv)
    assert again.acceptor_counter == 17
    assert again.bill_counter == 9


def test_ram_clear_and_its_record_are_one_transaction():
    def books():
        nv, led = fresh()
        led.accept(8, 2)
        play(led, 1, 0)
        return nv, led

    nv, led = books()
    before = nv.writes
    led.format(("ramclear", "by technician"))
    n_writes = nv.writes - before
    assert n_writes >= 3  # journal, then copies A and B
    seen, after, write, real = set(), None, None, None
    for k in range(n_writes):  # a cut half-way into each write of the clear in turn
        nv = led = after = write = real = None  # one 64 KB image at a time in the fixed heap
        gc.collect()
        nv, led = books()
        real, calls = nv.write, [0]

        def write(off, data, real=real, calls=calls, k=k, nv=nv):  # noqa: F811 (the last one let go above)
            if calls[0] == k:
                nv.tear_after = len(data) // 2
            calls[0] += 1
            real(off, data)

        nv.write = write
        with raises(PowerCut):
            led.format(("ramclear", "by technician"))
        del nv.write
        after = reload(nv)
        evs = after.events()
        if after.credits == 0:  # cleared, and the record of it is the first event of the new log
            assert len(evs) == 1 and tuple(evs[0][2:]) == ("ramclear", "by technician")
            assert after.meters["acceptor_in"] == 0 and after.meters["coin_in"] == 0
            seen.add("cleared")
        else:  # not begun: the old books untouched
            assert after.credits == 7 and after.meters["coin_in"] == 1
            assert not [e for e in evs if e[2] == "ramclear"]
            seen.add("old")
    assert seen == {"cleared", "old"}


def test_events_and_commits_need_no_large_piece_of_the_heap():
    # On the 128K board heap in pieces (20-29 KB free, no piece of 770 bytes) a door's event ran out
    # of memory: the state's JSON built whole then copied (json.dumps().encode(), about 2 KB twice),
    # the event chunk read back and copied with its new record (768 bytes twice); the supervisor then
    # restarted the cabinet ("out of memory: restarting the cabinet from critical memory"). The
    # state is written into the journal and the chunk filled in place (Ledger._as_json, Ledger.event).
    import sys

    nv, led = fresh()
    for i in range(EVENTS_PER_CHUNK + 3):  # into the second chunk: its first records in place
        led.event("door", "door_logic open %d" % i)
    led.accept(7)
    tilts = led.st["tilts"]
    for i in range(20):  # a state of more than 2 KB, as a cabinet's with tilts and a tournament
        tilts["t%d" % i] = "x" * 76
    led._commit()
    big = len(__import__("json").dumps(led.st))
    assert big > 2000, big
    if sys.implementation.name == "micropython":
        from heap_pieces import in_pieces, pieces_back

        try:
            assert in_pieces() >= 20
            whole = None
            try:  # the heap really is in pieces: the old way finds no room
                whole = __import__("json").dumps(led.st).encode()
            except MemoryError:
                pass
            assert whole is None, "the heap was not in pieces"
            for i in range(EVENTS_PER_CHUNK):  # across a chunk's end: the next chunk starts in place
                led.event("door", "door_logic closed %d" % i)
            led.wager(1)
        finally:
            pieces_back()
    else:
        for i in range(EVENTS_PER_CHUNK):
            led.event("door", "door_logic closed %d" % i)
        led.wager(1)
    led = reload(nv)
    texts = [e[3] for e in led.events()]
    n = 2 * EVENTS_PER_CHUNK + 3
    assert texts[-n:] == ["door_logic open %d" % i for i in range(EVENTS_PER_CHUNK + 3)] + [
        "door_logic closed %d" % i for i in range(EVENTS_PER_CHUNK)], texts
    assert led.credits == 6 and len(led.st["tilts"]) == 20


def test_an_event_joins_its_chunk_as_committed_and_the_ledger_keeps_no_chunk_of_its_own():
    # the heap's budget (docs/sas.md "Memory"): the chunk an event joins is read from NVRAM into the
    # journal, the copy committed (copy A spoilt: its twin), not kept in a 768-byte buffer of the
    # ledger's; both copies spoilt: a RAM error, nothing committed and the event's number not used up
    from firmware.critmem import RamError
    from firmware.ledger import CHUNK_SIZE

    nv, led = fresh()
    assert not [k for k, v in led.__dict__.items() if isinstance(v, bytearray) and len(v) >= CHUNK_SIZE]
    for i in range(3):
        led.event("door", "open %d" % i)
    mem = led.mem
    name = led.event_chunks()[-1]
    nv.mem[mem._copy_off(name, 0) + 9 + 20] ^= 1  # copy A's payload: the twin is read
    led.event("door", "open 3")
    assert [e[3] for e in led.events()][-4:] == ["open 0", "open 1", "open 2", "open 3"]
    for bank in (0, 1):
        nv.mem[mem._copy_off(name, bank) + 9 + 20] ^= 1
    journals, ev = mem.journals, led.st["ev"]
    with raises(RamError):
        led.event("door", "open 4")
    assert mem.journals == journals and led.st["ev"] == ev


def test_a_game_is_recorded_in_a_heap_in_pieces():
    # make test, test_stateful's aurore-93 walk on the 128K board heap (2 fresh-clone runs in 12):
    # "MemoryError: memory allocation failed, allocating 584 bytes" in GameBooks.settle, the recall
    # record built whole by json.dumps and copied by encode(); the restart that followed found no
    # 536 bytes for the game's boot check and disabled it. The records are written into the journal.
    import sys

    nv, led = fresh()
    led.accept(9)
    draws = list(range(1000, 1200))  # a record of about 1.3 KB: more than twice a hole
    won, lost = FixedOutcome(3, 5, draws), FixedOutcome(2, 0)
    if sys.implementation.name == "micropython":
        from heap_pieces import in_pieces, pieces_back

        try:
            assert in_pieces() >= 20
            whole = None
            try:  # the heap really is in pieces: the old way finds no room
                whole = __import__("json").dumps({"draws": draws}).encode()
            except MemoryError:
                pass
            assert whole is None, "the heap was not in pieces"
            led.wager(3)
            led.settle(won, "test-game", spin=True)  # the reels turning: recorded first
            led.conclude()
            led.wager(2)
            led.settle(lost, "test-game")
        finally:
            pieces_back()
    else:
        led.wager(3)
        led.settle(won, "test-game", spin=True)
        led.conclude()
        led.wager(2)
        led.settle(lost, "test-game")
    led = reload(nv)
    games = led.recall()
    assert [(g["bet"], g["win"], g["before"], g["after"]) for g in games] == [(3, 5, 9, 11), (2, 0, 11, 9)]
    assert games[0]["draws"] == draws and led.credits == 9 and identity(led)


def test_the_log_is_read_and_appended_after_power_up_in_a_heap_in_pieces():
    # make test (test_board_heap_posture, 1 run in 3 on the 128K board heap): after power-up,
    # 'events json' answered "out of memory for 'events' (24960 bytes free)": each chunk was read as
    # two new pieces of ~780 bytes (the copy, then its payload), and so was the first event's chunk
    # after power-up. A chunk is read into the memory's own record buffer (CriticalMemory.read_view).
    import sys

    nv, led = fresh()
    for i in range(2 * EVENTS_PER_CHUNK + 3):
        led.event("door", "door_logic open %d" % i)
    led = reload(nv)  # power-up: nothing of the log in the heap
    names = led.event_chunks()
    if sys.implementation.name == "micropython":
        from heap_pieces import in_pieces, pieces_back

        try:
            assert in_pieces() >= 20
            whole = None
            try:  # the heap really is in pieces: the old read finds no room
                whole = led.mem.read(names[-2])  # a full chunk: 768 bytes
            except MemoryError:
                pass
            assert whole is None, "the heap was not in pieces"
            texts = []
            for name in names:
                texts.extend(e[3] for e in led.chunk_events(name))
            led.event("door", "door_logic closed")  # the first event after power-up reads its chunk
        finally:
            pieces_back()
    else:
        texts = [e[3] for name in names for e in led.chunk_events(name)]
        led.event("door", "door_logic closed")
    assert texts[-(2 * EVENTS_PER_CHUNK + 3):] == ["door_logic open %d" % i for i in range(2 * EVENTS_PER_CHUNK + 3)]
    assert [e[3] for e in reload(nv).events()][-2:] == ["door_logic open %d" % (2 * EVENTS_PER_CHUNK + 2),
                                                       "door_logic closed"]


def test_a_ram_clear_needs_no_large_piece_of_the_heap():
    # make powercut CUTS=2000 JURIS=vlt: 'out of memory for ramclear (30864 bytes free)' 13 times in 27:
    # the clear looked for the highest sequence number by reading every copy of every block (the
    # 3 KB state, 1.5 KB recall blocks) as new pieces. It reads them into the record buffers now.
    import sys

    nv, led = fresh()
    tilts = led.st["tilts"]
    for i in range(20):  # a state of more than 2 KB
        tilts["t%d" % i] = "x" * 76
    for i in range(EVENTS_PER_CHUNK + 3):
        led.event("door", "door_logic open %d" % i)
    if sys.implementation.name == "micropython":
        from heap_pieces import in_pieces, pieces_back

        try:
            assert in_pieces() >= 20
            whole = None
            try:  # the heap really is in pieces: the old read of the state finds no room
                whole = led.mem.read("state")
            except MemoryError:
                pass
            assert whole is None, "the heap was not in pieces"
            led.format(("ramclear", "cleared in pieces"))
        finally:
            pieces_back()
    else:
        led.format(("ramclear", "cleared in pieces"))
    led = reload(nv)
    assert led.st["tilts"] == {} and [e[3] for e in led.events()] == ["cleared in pieces"]
