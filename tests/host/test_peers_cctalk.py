"""The emulated peers against the real drivers over real sockets (CPython side of the board)."""
from __future__ import annotations

import shutil
import tempfile
import time

import pytest

from board import emulated
from board.cctalk import CcTalkError, Master
from board.coin_cctalk import CoinAcceptor
from board.hopper_cctalk import Hopper
from sim.cctalk_acceptor import CoinAcceptorPeer
from sim.cctalk_hopper import HopperPeer


class Store:
    def __init__(self, value=None):
        self.value = value

    def load(self):
        import copy

        return copy.deepcopy(self.value)

    def save(self, value):
        import copy

        self.value = copy.deepcopy(value)


@pytest.fixture
def rig():
    state = tempfile.mkdtemp(prefix="jeton-peers-")
    board = emulated.Board(state, 0, 0, 0)  # 0: ports the board binds itself (never picked free, bound later)
    cctalk = dict(board.ports)["cctalk"]
    acc = CoinAcceptorPeer(cctalk, coins={1: "CA100T", 2: "CA200T"})
    hop = acc.attach(HopperPeer(coin_ms=5))
    acc.start()
    deadline = time.monotonic() + 5
    while board.uarts["cctalk"].conn is None and time.monotonic() < deadline:
        board.idle(20)
    bus = Master(board.uart("cctalk"), board.idle, timeout_ms=200)
    yield board, bus, acc, hop
    acc.stop()
    board.nvram.close()
    for link in board._links:
        link.drop()
        link.srv.close()
    shutil.rmtree(state, ignore_errors=True)


def _poll(ca, n, timeout=5.0):
    out = []
    deadline = time.monotonic() + timeout
    while len(out) < n and time.monotonic() < deadline:
        try:
            ca.poll(out)
        except CcTalkError:
            pass
        ca.bus.idle(20)
    return out


def test_tokens_in_over_the_wire(rig):
    board, bus, acc, hop = rig
    ca = CoinAcceptor(bus)
    ca.begin()
    assert ca.identify()["category"] == "Coin Acceptor"
    assert ca.coin_ids() == {1: "CA100T", 2: "CA200T"}
    assert not acc.insert(1)  # inhibited until enabled
    ca.enable(True)
    assert acc.insert(1) and acc.insert(2)
    out = _poll(ca, 3)
    assert out == [("reject", 0, 2), ("coin", 1, 1), ("coin", 2, 1)]


def test_bus_faults_never_lose_or_invent_coins(rig):
    board, bus, acc, hop = rig
    ca = CoinAcceptor(bus)
    ca.begin()
    ca.enable(True)
    coins = []
    for fault in ("drop", "bad_checksum", "garbage", "busy"):
        acc.insert(1)
        acc.inject(fault)
        out = _poll(ca, 1)
        coins += [e for e in out if e[0] == "coin"]
        bus_noise = bytes([1, 9, 2, 0, 0xAA])  # unsolicited junk on the wire
        acc.bus.send(bus_noise)
    assert len(coins) == 4
    assert acc.credited == 4


def test_lost_events_and_fraud_over_the_wire(rig):
    board, bus, acc, hop = rig
    ca = CoinAcceptor(bus)
    ca.begin()
    ca.enable(True)
    acc.error(17)  # coin going backwards
    assert _poll(ca, 1) == [("fraud", 0, 17)]
    acc.lose_events(7)  # seven coins between two polls: the buffer holds five, none is provable
    out = _poll(ca, 1)
    assert out == [("counter", 1, acc.counter)]
    assert not acc.master_enabled and ca.fault == "counter"


def test_replayed_and_jumping_counters_over_the_wire(rig):
    board, bus, acc, hop = rig
    ca = CoinAcceptor(bus)
    ca.begin()
    ca.enable(True)
    for _ in range(3):
        assert acc.insert(1)
    assert _poll(ca, 3) == [("coin", 1, 1)] * 3
    for k, event in ((1, ("counter", 3, 2)), (250, ("counter", 8, 3))):
        acc.replay(k)
        assert _poll(ca, 1) == [event]
        assert not acc.master_enabled
        assert _poll(ca, 1, timeout=0.3) == []  # baselined again on the real counter: no coin
        ca.clear_fault()
        assert acc.master_enabled
    acc.jump(6)
    assert _poll(ca, 1) == [("counter", 3, 9)]
    ca.clear_fault()
    assert _poll(ca, 1, timeout=0.3) == [] and ca.last == 9
    assert acc.insert(1)
    assert _poll(ca, 1) == [("coin", 1, 1)]


def test_foreign_coin_is_refused_while_inhibited_and_forced_by_a_faulty_acceptor(rig):
    board, bus, acc, hop = rig
    acc.coins[3] = "US025A"
    ca = CoinAcceptor(bus)
    ca.begin()
    ca.enable(True, 0b011)  # positions 1 and 2 only
    assert not acc.insert(3)  # inhibited: returned to the player
    assert _poll(ca, 1) == [("reject", 0, 2)]
    acc.ignore_inhibits = True  # a faulty or tampered acceptor credits it anyway
    assert acc.insert(3)
    assert _poll(ca, 1) == [("coin", 3, 1)]


def test_acceptor_power_cycle_detected(rig):
    board, bus, acc, hop = rig
    ca = CoinAcceptor(bus)
    ca.begin()
    ca.enable(True)
    acc.insert(1)
    assert _poll(ca, 1) == [("coin", 1, 1)]
    acc.power_cycle()
    assert _poll(ca, 1) == [("reset", 1, 0)]
    assert acc.master_enabled  # re-enabled by the driver


def _pay(h, timeout=10.0):
    deadline = time.monotonic() + timeout
    events = []
    while time.monotonic() < deadline:
        out = []
        try:
            h.service(out)
        except CcTalkError:
            pass
        events += out
        for e in out:
            if e[0] in ("payout", "uncertain"):
                return e, events
        h.bus.idle(10)
    raise AssertionError(f"no payout result: {events[-5:]}")


def test_hopper_payout_on_shared_bus(rig):
    board, bus, acc, hop = rig
    store = Store()
    h = Hopper(bus, store)
    h.begin([])
    h.payout(12, ref=1)
    final, _ = _pay(h)
    assert final == ("payout", 12, 0) and hop.coins_out == 12
    h.settle()


def test_hopper_jam_partial_and_empty(rig):
    board, bus, acc, hop = rig
    h = Hopper(bus, Store())
    h.begin([])
    hop.jam_after(4)
    h.payout(10)
    final, events = _pay(h)
    assert final == ("payout", 4, 6) and ("fault", 0, 0) in events
    h.settle()
    h.clear_faults()
    hop.stock = 2
    h.payout(5)
    final, events = _pay(h)
    assert final == ("payout", 2, 3) and ("fault", 1, 0) in events


def test_hopper_runaway_and_fraud_flag(rig):
    board, bus, acc, hop = rig
    h = Hopper(bus, Store())
    h.begin([])
    hop.runaway(3)
    h.payout(2)
    final, events = _pay(h)
    assert ("extra", 3, 0) in events
    h.settle()
    hop.set_flag(3)  # opto fraud while idle
    out = []
    deadline = time.monotonic() + 10
    while ("fraud", 3, 0) not in out and time.monotonic() < deadline:
        h.service(out)  # the status request goes out in one pass, its reply is taken in a later one
        h.bus.idle(10)
    assert ("fraud", 3, 0) in out


def test_driver_restart_and_hopper_power_loss_never_pay_twice(rig):
    board, bus, acc, hop = rig
    hop.coin_ms = 20
    store = Store()
    h = Hopper(bus, store)
    h.begin([])
    h.payout(30)
    while not hop.dispenses:  # its 166 and 168 read over calls, the record saved, then the 167
        h.service([])
        bus.idle(5)
    time.sleep(0.2)
    # the logic board restarts: a fresh driver from the persisted record
    h = Hopper(bus, Store(store.value))
    h.store = store
    h.begin([])
    time.sleep(0.1)
    hop.power_cycle()  # and now the hopper loses power too
    final, _ = _pay(h)
    assert final == ("payout", hop.coins_out, 30 - hop.coins_out)
    assert hop.dispenses == 1 and 0 < hop.coins_out < 30
