# ccTalk hopper driver: the payout record makes every restart end with each coin paid once.
from devtest import raises
from fakes_board import Hopper as FakeHopper
from fakes_board import Store, Wire, no_idle
from fakes_slow_bus import passes

from board.cctalk import CcTalkError, Master
from board.hopper_cctalk import Hopper, HopperError


def _rig(stock=100, per_poll=2, count=True, store=None):
    w = Wire()
    dev = FakeHopper(stock=stock, per_poll=per_poll, count=count)
    w.devices[3] = dev
    store = store or Store()
    return w, dev, store


def _driver(w, store, out=None):
    h = Hopper(Master(w, no_idle, timeout_ms=20), store)
    h.begin(out if out is not None else [])
    return h


def _run(h, limit=400, between=None):
    """service() until a final event (between() after each pass that has none); returns (final
    event, all events)."""
    events = []
    for _ in range(limit):
        out = []
        h.service(out)
        events += out
        for e in out:
            if e[0] in ("payout", "uncertain"):
                return e, events
        if between is not None:
            between()
    raise AssertionError("no final event: %r" % events[-5:])


def test_normal_payout_and_settle():
    w, dev, store = _rig()
    h = _driver(w, store)
    h.payout(10, ref=7)
    assert store.value["st"] == "armed" and store.value["ref"] == 7
    final, events = _run(h)
    assert final == ("payout", 10, 0)
    assert dev.out == 10 and w.headers(3).count(167) == 1
    assert ("paying", 0, 10) in events or events[0][0] == "paying"
    assert store.value["st"] == "done"
    out = []
    h.service(out)
    assert out == [("payout", 10, 0)]  # repeated until the firmware has committed it
    h.settle()
    assert store.value is None and not h.busy()


def test_record_saved_before_dispense_goes_out():
    w, dev, store = _rig()
    h = _driver(w, store)
    h.payout(3)
    armed = [r for r in store.history if r and r["st"] == "armed"]
    assert armed and armed[-1]["ctr"] == 0  # counter before the 167 is on record


def _clocked(w, store):
    """A driver on a Master whose clock moves only by the test (a timeout is then a pass away)."""
    from fakes_slow_bus import master

    m = master(w, timeout_ms=20)
    h = Hopper(m, store)
    h.begin([])
    return h, m


def test_dispense_lost_on_the_wire_is_sent_again_once():
    w, dev, store = _rig()
    h, m = _clocked(w, store)
    w.faults = [None, None, "drop"]  # 166 and 168 answered; the 167 never reaches the hopper
    h.payout(5)
    assert w.headers(3)[-3:] == [166, 168, 167] and dev.counter == 0  # the drop hit the dispense
    final, _ = _run(h, between=lambda: m.now.advance(10))
    assert final == ("payout", 5, 0) and dev.out == 5
    assert w.headers(3).count(167) == 2 and dev.counter == 1  # sent again, accepted exactly once


def test_dispense_reply_lost_is_not_repeated():
    w, dev, store = _rig()
    h, m = _clocked(w, store)
    w.faults = [None, None, "lost_reply"]  # 166, 168 answered; the hopper acted on the 167, its ACK lost
    h.payout(6)
    assert w.headers(3)[-3:] == [166, 168, 167] and dev.counter == 1 and dev.remaining == 6
    final, _ = _run(h, between=lambda: m.now.advance(10))
    assert final == ("payout", 6, 0) and dev.out == 6
    assert w.headers(3).count(167) == 1 and dev.counter == 1  # never sent again


def test_firmware_restart_mid_payout_never_pays_twice():
    for cut in range(0, 6):
        w, dev, store = _rig(per_poll=1)
        h = _driver(w, store)
        h.payout(5)
        for _ in range(cut):
            h.service([])
        # power cut of the logic board only: the hopper keeps its state; a new driver boots
        h2 = _driver(w, store)
        final, _ = _run(h2)
        assert final == ("payout", 5, 0), (cut, final)
        assert dev.out == 5 and dev.counter in (1,), (cut, dev.out)


def test_restart_between_record_and_dispense_sends_it():
    w, dev, store = _rig()
    h = _driver(w, store)
    w.faults = [None, None, "drop"]  # 166 and 168 answered, then the 167 is lost
    h.payout(4)  # record armed, 167 lost
    h2 = _driver(w, Store(store.load()))
    final, _ = _run(h2)
    assert final == ("payout", 4, 0) and dev.out == 4


def test_hopper_power_loss_resolved_by_dispense_count():
    w, dev, store = _rig(per_poll=1)
    h = _driver(w, store)
    h.payout(8)
    for _ in range(4):
        h.service([])
    dev.power_cycle()
    paid_before = dev.out
    final, events = _run(h)
    assert final == ("payout", paid_before, 8 - paid_before)
    assert dev.out == paid_before  # nothing re-sent
    assert w.headers(3).count(167) == 1


def test_hopper_power_loss_without_count_uses_power_down_flag():
    w, dev, store = _rig(per_poll=1, count=False)
    h = _driver(w, store)
    h.payout(8)
    for _ in range(4):
        h.service([])
    dev.power_cycle(nv=True)
    final, _ = _run(h)
    assert final == ("payout", dev.out, 8 - dev.out)


def test_hopper_power_loss_without_evidence_is_uncertain():
    w, dev, store = _rig(per_poll=1, count=False)
    h = _driver(w, store)
    h.payout(8)
    for _ in range(3):
        h.service([])
    dev.power_cycle(nv=False)
    final, _ = _run(h)
    assert final[0] == "uncertain" and final[1] == 8
    assert w.headers(3).count(167) == 1  # never re-paid on a guess
    assert store.value["st"] == "uncertain"


def test_jam_gives_partial_payout_and_latches():
    w, dev, store = _rig()
    h = _driver(w, store)
    dev.jam_at = 3
    h.payout(10)
    final, events = _run(h)
    assert final == ("payout", 3, 7)
    assert ("fault", 0, 0) in events and ("fault", 12, 0) in events
    h.settle()
    with raises(HopperError):
        h.payout(1)
    h.clear_faults()
    h.payout(2)
    assert _run(h)[0] == ("payout", 2, 0)


def test_empty_hopper_partial_with_timeout_flag():
    w, dev, store = _rig(stock=3)
    h = _driver(w, store)
    h.payout(10)
    final, events = _run(h)
    assert final == ("payout", 3, 7)
    assert ("fault", 1, 0) in events  # payout timeout: empty


def test_runaway_coins_are_reported():
    w, dev, store = _rig()
    h = _driver(w, store)
    dev.extra = 2
    h.payout(4)
    final, events = _run(h)
    assert ("extra", 2, 0) in events
    assert final == ("payout", 4, 0)
    h.settle()
    dev.total += 1  # a coin out while idle
    out = []
    h.service(out)
    assert ("extra", 1, 0) in out


def test_large_payout_in_chunks():
    w, dev, store = _rig(stock=400, per_poll=50)
    h = _driver(w, store)
    h.payout(300)
    final, _ = _run(h)
    assert final == ("payout", 300, 0) and dev.out == 300
    assert w.headers(3).count(167) == 2


def test_done_record_survives_restart_until_settled():
    w, dev, store = _rig()
    h = _driver(w, store)
    h.payout(2, ref=42)
    _run(h)
    h2 = _driver(w, Store(store.load()))
    out = []
    h2.service(out)
    assert out == [("payout", 2, 0)] and h2.record["ref"] == 42
    assert dev.out == 2


def test_serial_security_field():
    w, dev, store = _rig()
    h = Hopper(Master(w, no_idle, timeout_ms=20), store, security="serial")
    h.begin([])
    h.payout(1)
    sent = [d for dest, hd, d in w.sent if hd == 167]
    assert bytes(sent[0]) == b"\x56\x34\x12\x01"


def test_wrong_device_category_refused():
    w, dev, store = _rig()
    w.devices[3] = None
    from fakes_board import Acceptor

    w.devices[3] = Acceptor()
    with raises(HopperError):
        Hopper(Master(w, no_idle, timeout_ms=20), store).begin([])


def test_emergency_stop_mid_payout_ends_as_a_partial_payout():
    w, dev, store = _rig(per_poll=2)
    h = _driver(w, store)
    h.payout(10, ref=9)
    h.service([])  # the motor has started: a few coins are out
    left = h.emergency_stop()  # header 172: stop now, reply = coins still to pay
    assert 0 < left < 10
    final, _ = _run(h)
    assert final[0] == "payout" and final[2] == left and final[1] + final[2] == 10
    assert dev.out == final[1]  # nothing more came out after the stop


# --- service() never waits: each reading sent in one call and taken in a later one ------------------


def _slow_driver(per_poll=1, store=None):
    from fakes_slow_bus import Slow, master

    w = Slow()
    dev = FakeHopper(per_poll=per_poll)
    w.devices[3] = dev
    store = store or Store()
    m = master(w, timeout_ms=100)
    h = Hopper(m, store)
    h.begin([])  # waits (power-up)
    del m.waits[:]
    return w, dev, store, h, m


def _slow_run(w, h, m, limit=200):
    def between():
        m.now.advance(10)
        w.release()

    return _run(h, limit, between)


def _until_error(h, m, limit=60):
    """service() once a pass, the clock moved 10 ms between, until it raises; that CcTalkError."""
    for _ in range(limit):
        m.now.advance(10)
        try:
            h.service([])
        except CcTalkError as e:
            return e
    raise AssertionError("no error in %d passes" % limit)


def test_service_pays_over_passes_without_waiting_and_sends_167_once():
    w, dev, store, h, m = _slow_driver()
    h.payout(4, ref=3)  # only its 166 goes out: nothing saved yet, no wait
    assert w.headers(3)[-1] == 166 and store.value is None and h.record["st"] == "arming"
    w.release()
    h.service([])  # 166 taken, 168 out
    assert w.headers(3)[-1] == 168 and store.value is None
    w.release()
    h.service([])  # 168 taken: the record saved armed, then the 167 sent
    assert store.value["st"] == "armed" and store.value["ctr"] == 0 and store.value["cnt"] == 0
    assert w.headers(3)[-1] == 167 and m.waits == []
    final, events = _slow_run(w, h, m)
    assert final == ("payout", 4, 0) and dev.out == 4 and w.headers(3).count(167) == 1
    assert m.waits == []  # never waited in service()
    h.settle()
    assert m.waits == [] and h.idle_count == dev.total  # the chunk end's 168: no wait to settle


def test_service_a_lost_dispense_reply_is_read_back_from_the_counters_not_sent_again():
    w, dev, store, h, m = _slow_driver()
    w.faults = [None, None, "lost_reply"]  # 166, 168 answered; the 167 acts, its reply lost
    h.payout(3)
    final, _ = _slow_run(w, h, m)
    assert final == ("payout", 3, 0) and dev.out == 3 and dev.counter == 1 and m.waits == []


def test_service_a_silent_hopper_mid_payout_is_an_error_and_the_record_stays_armed():
    w, dev, store, h, m = _slow_driver()
    h.payout(5)
    for _ in range(3):  # 166, 168, then the 167 out
        w.release()
        h.service([])
    assert w.headers(3)[-1] == 166 and dev.counter == 1  # the 167's reply taken, 166 out
    w.devices.pop(3)
    w.held = b""
    err = _until_error(h, m)
    assert err.reason == "timeout" and m.waits == []
    assert store.value["st"] == "armed" and dev.counter == 1  # nothing re-sent; the firmware begins again
    w.devices[3] = dev
    h2 = Hopper(m, Store(store.load()))
    h2.begin([])
    final, _ = _slow_run(w, h2, m)
    assert final == ("payout", 5, 0) and dev.out == 5 and dev.counter == 1


def test_service_idle_check_reads_168_then_163_in_later_calls():
    w, dev, store, h, m = _slow_driver()
    dev.total += 2  # two coins out while idle: a runaway
    out = []
    h.service(out)
    assert h.busy() and out == []  # the 168 is under way: the firmware calls again next pass
    w.release()
    h.service(out)
    assert out == [("extra", 2, 0)] and h.busy()  # 168 taken; 163 under way
    w.release()
    h.service(out)
    assert not h.busy() and m.waits == []


def test_a_silent_hopper_before_the_record_is_saved_is_an_error_and_nothing_is_kept():
    w, dev, store, h, m = _slow_driver()
    w.devices.pop(3)  # unplugged as the cash-out starts: its 166 is never answered
    h.payout(5, ref=2)
    err = _until_error(h, m)
    assert err.reason == "timeout" and m.waits == []
    assert h.record is None and store.value is None and store.saves == 0  # forgotten unsaved
    assert 167 not in w.headers(3) and not h.busy()  # no coin can have gone out: the firmware pays by hand


def test_a_latched_fault_read_while_arming_refuses_the_payout():
    w, dev, store, h, m = _slow_driver()
    dev.flags |= 1  # a jam latched, not yet read
    h.service([])  # the idle check's 168 on the bus
    h.payout(5)  # taken: the flags known say nothing; its readings wait for the idle check
    w.release()
    h.service([])  # 168 in, 163 out
    w.release()
    h.service([])  # 163 in: the jam latched
    with raises(HopperError):
        h.service([])
    assert h.record is None and store.value is None and 167 not in w.headers(3) and m.waits == []


def test_an_idle_reading_under_way_is_finished_before_the_payout_reads_the_counters():
    w, dev, store, h, m = _slow_driver()
    dev.total += 1  # a runaway coin while idle
    h.service([])  # the idle check's 168 is on the bus
    h.payout(3)
    assert w.headers(3)[-1] == 168 and h.record["st"] == "arming"  # nothing sent over it
    final, events = _slow_run(w, h, m)
    assert ("extra", 1, 0) in events and final == ("payout", 3, 0) and dev.out == 3
    assert m.waits == [] and w.headers(3).count(167) == 1


def test_the_dispense_waits_for_a_free_bus_after_the_record_is_saved():
    w, dev, store, h, m = _slow_driver()
    send = m.send
    refused = []

    def busy_once(dest, header, data=b"", retries=None):  # the bus another device's for one call
        if header == 167 and not refused:
            refused.append(header)
            return 0
        return send(dest, header, data, retries)

    m.send = busy_once
    h.payout(2)
    w.release()
    h.service([])  # 166 in, 168 out
    w.release()
    h.service([])  # 168 in: the record saved armed; the bus refused the 167
    assert refused and store.value["st"] == "armed" and 167 not in w.headers(3) and h.busy()
    h.service([])  # sent now
    assert w.headers(3)[-1] == 167
    final, _ = _slow_run(w, h, m)
    assert final == ("payout", 2, 0) and w.headers(3).count(167) == 1 and m.waits == []


def test_the_next_chunk_over_255_coins_is_armed_without_waiting_or_reading_again():
    w, dev, store, h, m = _slow_driver(per_poll=100)
    dev.stock = 400
    h.payout(300)
    final, _ = _slow_run(w, h, m)
    assert final == ("payout", 300, 0) and dev.out == 300 and m.waits == []
    hd = w.headers(3)
    i = hd.index(167)
    j = hd.index(167, i + 1)
    assert hd[j - 1] == 168 and hd[j - 2] == 163  # the chunk's end: 166, 163, 168, then the next 167
    armed = [r for r in store.history if r and r["st"] == "armed"]
    assert [(r["paid"], r["c"], r["cnt"]) for r in armed] == [(0, 255, 0), (255, 45, 255)]


def test_a_hopper_power_loss_is_resolved_without_waiting_and_reset_after_the_result_is_saved():
    w, dev, store, h, m = _slow_driver(per_poll=1)
    h.payout(8)
    for _ in range(12):
        w.release()
        h.service([])
        m.now.advance(10)
    assert 0 < dev.out < 8
    dev.power_cycle()
    n = len(w.sent)
    final, _ = _slow_run(w, h, m)
    assert final == ("payout", dev.out, 8 - dev.out) and store.value["st"] == "done"
    assert w.headers(3).count(167) == 1 and m.waits == []
    assert 1 not in [hd for d, hd, _ in w.sent[n:]]  # the reset comes after the saved result
    h.settle()
    for _ in range(5):
        w.release()
        h.service([])
    after = [hd for d, hd, _ in w.sent[n:]]
    i = after.index(1)
    assert after[i:i + 3] == [1, 164, 163] and dev.enabled and h.record is None and m.waits == []
    assert not h.flags & (1 << 6)  # power-up flag cleared by the reset


def test_start_sets_the_hopper_up_a_step_a_call_and_finishes_a_payout_left_armed():
    w, dev, store, h, m = _slow_driver(per_poll=1)
    h.payout(4, ref=8)
    for _ in range(4):  # 166, 168, the 167 out, its reply taken
        w.release()
        h.service([])
    assert store.value["st"] == "armed" and dev.counter == 1
    from fakes_slow_bus import master

    w.held = b""  # the logic board restarts (its 163's reply came while it booted); the hopper pays on
    m = master(w, timeout_ms=100)
    h2 = Hopper(m, Store(store.load()))
    h2.store = store
    n = len(w.sent)
    events = []
    r, calls = passes(w, m, lambda: h2.start(events), n=200)
    assert r is True and m.waits == [] and calls > 5  # one exchange a call, never waiting
    final, more = _slow_run(w, h2, m)
    events += more
    assert final == ("payout", 4, 0) and dev.out == 4 and dev.counter == 1  # never re-sent
    hd = [x for d, x, _ in w.sent[n:]]
    assert hd[:3] == [245, 163, 166] and 164 in hd and 167 not in hd and dev.enabled and m.waits == []


def test_start_refuses_a_device_that_is_not_a_hopper_and_begins_again():
    from fakes_board import Acceptor

    w, dev, store, h, m = _slow_driver()
    w.devices[3] = Acceptor()
    h2 = Hopper(m, Store())
    w.release()
    with raises(HopperError):
        passes(w, m, lambda: h2.start([]))
    w.devices[3] = dev
    assert passes(w, m, lambda: h2.start([]))[0] is True and m.waits == [] and dev.enabled
