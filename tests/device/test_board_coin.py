# ccTalk coin acceptor driver: event counter semantics, error-code kinds, counters out of sequence
# (replayed replies, jumps beyond the 5-event buffer) that must never credit a coin twice.
from devtest import raises
from fakes_board import Acceptor, Wire, no_idle

from board import cctalk_codes
from board.cctalk import CcTalkError, Master
from board.coin_cctalk import CoinAcceptor, new_events, parse_coin_id


def _setup(dev=None):
    w = Wire()
    dev = dev or Acceptor()
    w.devices[2] = dev
    ca = CoinAcceptor(Master(w, no_idle, timeout_ms=20))
    ca.begin()
    return w, dev, ca


def test_new_events_counter_rules():
    assert new_events(0, 0) == 0
    assert new_events(0, 3) == 3
    assert new_events(254, 1) == 2  # 255, then 1: the counter never shows 0 again
    assert new_events(255, 1) == 1
    assert new_events(10, 10) == 0
    assert new_events(200, 199) == 254


def test_identify_and_coin_ids():
    w, dev, ca = _setup()
    info = ca.identify()
    assert info["category"] == "Coin Acceptor" and info["serial"] == 0x030201
    assert ca.coin_ids() == {1: "CA100T"}
    assert parse_coin_id("CA100T") == ("CA", 100, "T")
    assert parse_coin_id("......") is None


def test_begin_inhibits_then_enable_sets_masks():
    w, dev, ca = _setup()
    assert dev.master == 0
    ca.enable(True, 0x0003)
    assert dev.master == 1 and dev.mask == 3
    ca.enable(False)
    assert dev.master == 0


def test_coins_oldest_first_and_wrap():
    w, dev, ca = _setup()
    dev.counter = 253
    ca.last = 253
    dev.event(1, 1)  # 254
    dev.event(2, 1)  # 255
    dev.event(3, 2)  # 1 (wrap)
    out = []
    assert ca.poll(out) == 3
    assert out == [("coin", 1, 1), ("coin", 2, 1), ("coin", 3, 2)]
    assert ca.last == 1
    out = []
    assert ca.poll(out) == 0 and out == []


def test_error_codes_map_to_kinds():
    w, dev, ca = _setup()
    ca.enable(True)
    for code in (1, 2, 17, 14):
        dev.event(0, code)
    out = []
    ca.poll(out)
    assert out == [("reject", 0, 1), ("reject", 0, 2), ("fraud", 0, 17), ("fault", 0, 14)]


def test_every_code_has_a_kind_and_name():
    kinds = {}
    for code in range(256):
        k = cctalk_codes.kind(code)
        assert k in ("reject", "fault", "fraud", "status")
        assert cctalk_codes.name(code)
        kinds[k] = kinds.get(k, 0) + 1
    for fraud in (16, 17, 18, 19, 20, 22, 23, 24, 25, 29, 34, 36, 37, 38, 40):
        assert cctalk_codes.kind(fraud) == "fraud", fraud
    assert cctalk_codes.kind(130) == "reject"  # inhibited coin type 3
    assert cctalk_codes.kind(254) == "fault"  # flight deck open
    assert cctalk_codes.kind(100) == "fault"  # unassigned: never harmless


class Replaying(Acceptor):
    """The fake acceptor, plus one 229 reply with its counter k steps back (the current buffer),
    and an optional hook run after each 229 reply (a coin landing between two readings)."""

    def __init__(self):
        Acceptor.__init__(self)
        self.replay = 0
        self.after_229 = None

    def reply(self, header, data):
        r = Acceptor.reply(self, header, data)
        if header == 229:
            if self.replay:
                k, self.replay = self.replay, 0
                r = bytes(((self.counter - 1 - k) % 255 + 1,)) + r[1:]
            if self.after_229:
                hook, self.after_229 = self.after_229, None
                hook()
        return r


def _replay_rig():
    w, dev, ca = _setup(Replaying())
    ca.enable(True)
    for _ in range(3):
        dev.event(1, 1)
    out = []
    ca.poll(out)
    assert out == [("coin", 1, 1)] * 3 and ca.last == 3
    return dev, ca


def test_replayed_counter_never_credits_and_latches_a_fault():
    # (k, event): counter 3 answered k steps back once. k <= 249 reads as a step of 255 - k > 5;
    # 250..254 read as 5..1 forward (3 - 250 -> 8), which the second reading (3) contradicts.
    # Before the fix, k = 1 credited the 3 buffered coins again and k = 250 credited 5.
    for k, event in ((1, ("counter", 3, 2)), (5, ("counter", 3, 253)), (6, ("counter", 3, 252)),
                     (250, ("counter", 8, 3)), (254, ("counter", 4, 3))):
        dev, ca = _replay_rig()
        dev.replay = k
        out = []
        ca.poll(out)
        assert out == [event], (k, out)
        assert ca.fault == "counter" and dev.master == 0, k  # acceptance stopped at once
        for _ in range(3):  # baselined again from two agreeing readings: nothing credited
            out = []
            ca.poll(out)
            assert out == [], (k, out)
        assert ca.last == 3
        ca.enable(True)
        assert dev.master == 0  # stays stopped while the fault is latched
        ca.clear_fault()
        assert dev.master == 1
        dev.event(1, 2)
        out = []
        ca.poll(out)
        assert out == [("coin", 1, 2)], k  # the next real coin, exactly once


def test_counter_jump_beyond_the_buffer_credits_nothing():
    for k in (6, 100, 249):
        dev, ca = _replay_rig()
        dev.counter = (dev.counter - 1 + k) % 255 + 1  # moved k forward, buffer unchanged
        out = []
        ca.poll(out)
        assert out == [("counter", 3, 3 + k)], (k, out)
        assert ca.fault == "counter" and dev.master == 0
        out = []
        ca.poll(out)
        assert out == [] and ca.last == 3 + k


def test_more_than_five_real_events_are_a_counter_fault_not_five_credits():
    w, dev, ca = _setup()
    ca.enable(True)
    for _ in range(8):
        dev.event(1, 1)
    out = []
    ca.poll(out)
    # 8 forward reads exactly like 247 back: the five buffered coins cannot be proven new
    assert out == [("counter", 0, 8)]
    assert ca.fault == "counter" and ca.counter_faults == 1 and dev.master == 0
    ca.enable(True)
    assert dev.master == 0
    ca.clear_fault()
    assert dev.master == 1


def test_a_coin_between_the_two_readings_is_credited_once_at_the_next_poll():
    dev, ca = _replay_rig()
    dev.event(1, 1)
    dev.after_229 = lambda: dev.event(2, 1)  # lands between the first and the confirming reading
    out = []
    # the confirming reading holds the first one's coin behind the new one: the first is proven
    assert ca.poll(out) == 1 and out == [("coin", 1, 1)] and ca.last == 4 and ca.fault is None
    ca.poll(out)
    assert out == [("coin", 1, 1), ("coin", 2, 1)] and ca.last == 5


def test_a_coin_between_the_two_readings_at_the_buffers_limit_loses_nothing():
    # five events since the last poll, a sixth between the two readings: waiting for the next poll
    # would push one of the five out of the buffer (a fuzz campaign lost six tokens so, twice)
    dev, ca = _replay_rig()
    for _ in range(5):
        dev.event(1, 1)
    dev.after_229 = lambda: dev.event(2, 1)
    out = []
    assert ca.poll(out) == 5 and out == [("coin", 1, 1)] * 5 and ca.fault is None
    out = []
    ca.poll(out)
    assert out == [("coin", 2, 1)] and ca.last == 9


def test_a_confirming_reading_that_does_not_hold_the_first_is_a_fault():
    dev, ca = _replay_rig()
    dev.event(1, 1)

    def rewrite():  # the next reply shows a new event but not the first reading's behind it
        dev.event(2, 1)
        dev.events[1] = (3, 7)

    dev.after_229 = rewrite
    out = []
    ca.poll(out)
    assert out == [("counter", 4, 5)] and ca.fault == "counter"


def test_a_lone_zero_reading_is_not_a_reset():
    # a reset would make the next 1..5 readings provable again and credit old coins twice
    dev, ca = _replay_rig()
    zeros = [1]

    def zero_once(header, data):
        r = Acceptor.reply(dev, header, data)
        if header == 229 and zeros:
            zeros.pop()
            return b"\x00" + r[1:]
        return r

    dev.reply = zero_once
    out = []
    ca.poll(out)
    assert out == [("counter", 0, 3)] and ca.fault == "counter"
    out = []
    ca.poll(out)
    ca.poll(out)
    assert out == [] and ca.last == 3


def test_exactly_five_is_provable():
    w, dev, ca = _setup()
    for _ in range(5):
        dev.event(1, 1)
    out = []
    ca.poll(out)
    assert len(out) == 5 and ca.fault is None


def test_device_reset_is_reported_and_inhibits_restored():
    w, dev, ca = _setup()
    ca.enable(True)
    dev.event(1, 1)
    ca.poll([])
    dev.counter, dev.events, dev.master = 0, [], 0  # power cycle
    out = []
    ca.poll(out)
    assert out == [("reset", 1, 0)]
    assert dev.master == 1  # what the firmware asked for is re-applied
    dev.event(1, 1)
    out = []
    ca.poll(out)
    assert out == [("coin", 1, 1)]


def test_counter_zero_never_credits():
    w, dev, ca = _setup()
    dev.events = [(1, 1)] * 5  # a device that shows events with counter 0
    out = []
    ca.poll(out)
    assert out == []


def test_short_229_reply_is_a_frame_error():
    w, dev, ca = _setup()

    class Short:
        def reply(self, header, data):
            return b"\x01\x01"

    w.devices[2] = Short()
    with raises(CcTalkError) as e:
        ca.poll([])
    assert e.value.reason == "frame"


def test_poll_without_begin_baselines_silently():
    w = Wire()
    dev = Acceptor()
    w.devices[2] = dev
    dev.event(1, 1)
    ca = CoinAcceptor(Master(w, no_idle, timeout_ms=20))
    out = []
    assert ca.poll(out) == 0 and out == []  # coins from before we knew the counter: not ours


# --- service(): the same poll, its readings sent and taken in later passes (fakes_slow_bus.py) -----


def _slow_setup():
    from fakes_slow_bus import Slow, master

    w = Slow()
    dev = Acceptor()
    w.devices[2] = dev
    m = master(w, timeout_ms=100)
    ca = CoinAcceptor(m)
    ca.begin()  # waits (set-up): its idle releases the replies
    del m.waits[:]
    return w, dev, ca, m


def test_service_credits_a_coin_once_from_two_readings_taken_in_later_passes():
    from fakes_slow_bus import passes

    w, dev, ca, m = _slow_setup()
    ca.want(True, 0xFFFF)
    out = []
    assert passes(w, m, lambda: ca.service(out)) == (0, 4)  # 231, 228 (want), the 229: each taken a pass later
    assert dev.master == 1 and out == []
    dev.event(1, 1)
    n, k = passes(w, m, lambda: ca.service(out))
    assert (n, k) == (1, 3) and out == [("coin", 1, 1)]  # the 229 read twice: one pass each, then done
    assert passes(w, m, lambda: ca.service(out)) == (0, 2) and len(out) == 1  # once
    assert ca.last == 1 and m.waits == [] and w.headers(2)[-5:] == [228, 229, 229, 229, 229]


def test_service_a_replayed_reply_between_its_readings_is_a_counter_fault_not_a_credit():
    from fakes_slow_bus import passes

    w, dev, ca, m = _slow_setup()
    out = []
    dev.event(1, 1)
    assert ca.service(out) is None  # the first 229 out
    w.release()
    assert ca.service(out) is None  # taken: the counter moved; the second 229 out
    dev.counter = 0  # ... and the device now says it was reset: the readings disagree
    dev.events = []
    w.held = b""
    w.release()
    n, _ = passes(w, m, lambda: ca.service(out))
    assert n == 1 and out == [("counter", 1, 0)] and ca.fault == "counter" and dev.master == 0
    assert ca.last is None and m.waits != []  # the fault's inhibit waits (rare: it stops money now)


def test_service_a_silent_acceptor_raises_its_timeout_in_a_later_pass_and_starts_over():
    w, dev, ca, m = _slow_setup()
    w.devices.pop(2)
    out = []
    assert ca.service(out) is None
    m.now.advance(100 * 3)  # its timeout_ms, past each of the two retries
    for _ in range(3):
        try:
            r = ca.service(out)
        except CcTalkError as e:
            assert e.reason == "timeout"
            break
        assert r is None
        m.now.advance(100)
    else:
        raise AssertionError("no timeout")
    assert m.waits == [] and out == []
    w.devices[2] = dev
    dev.event(1, 1)
    from fakes_slow_bus import passes

    assert passes(w, m, lambda: ca.service(out))[0] == 1 and out == [("coin", 1, 1)]


def test_service_want_changed_mid_way_is_sent_again_and_a_fault_keeps_it_inhibited():
    from fakes_slow_bus import passes

    w, dev, ca, m = _slow_setup()
    out = []
    ca.want(True, 0x0001)
    assert ca.service(out) is None  # 231 (mask 1) out
    ca.want(True, 0x0003)  # changed before its 228
    passes(w, m, lambda: ca.service(out))
    assert dev.mask == 0x0003 and dev.master == 1
    ca.fault = "counter"  # latched: want() cannot enable it
    ca.want(True, 0x0003)
    passes(w, m, lambda: ca.service(out))
    assert dev.master == 0
