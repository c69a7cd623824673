# ccTalk coin acceptor driver: event counter semantics, error-code kinds, missed events.
from devtest import raises
from board.cctalk import Master, CcTalkError
from board.coin_cctalk import CoinAcceptor, new_events, parse_coin_id
from board import cctalk_codes
from fakes_board import Wire, Acceptor, no_idle


def _setup():
    w = Wire()
    dev = Acceptor()
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


def test_more_than_five_missed_events_latch_a_fault_and_inhibit():
    w, dev, ca = _setup()
    ca.enable(True)
    for _ in range(8):
        dev.event(1, 1)
    out = []
    ca.poll(out)
    assert out[0] == ("missed", 3, 8)
    assert out[1:] == [("coin", 1, 1)] * 5  # the five still in the buffer are real coins
    assert ca.fault == "missed" and ca.missed == 3
    assert dev.master == 0  # acceptance stopped at once
    ca.enable(True)
    assert dev.master == 0  # and stays stopped while the fault is latched
    ca.clear_fault()
    assert dev.master == 1


def test_exactly_five_is_not_missed():
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
