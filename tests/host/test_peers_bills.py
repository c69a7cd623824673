"""The emulated bill validator (sim/cctalk_bills.py) against the real driver (board/bill_cctalk.py)
over the emulated board's ccTalk UART, byte for byte, with its faults: jam, stacker full and
removed, fraud, rejects, escrow timeout, power cycle (a note held, on its way, stacked), the event
counter replayed, jumped, beyond the buffer."""
from __future__ import annotations

import shutil
import tempfile
import time

import pytest

from board import emulated
from board.bill_cctalk import BillValidator, bill_cents, parse_bill_id
from board.cctalk import Master
from sim.cctalk_acceptor import CoinAcceptorPeer
from sim.cctalk_bills import BillValidatorPeer


@pytest.fixture
def rig():
    state = tempfile.mkdtemp(prefix="jeton-bills-")
    board = emulated.Board(state, 0, 0, 0)  # 0: ports the board binds itself (never picked free, bound later)
    cctalk = dict(board.ports)["cctalk"]
    acc = CoinAcceptorPeer(cctalk)
    peer = acc.attach(BillValidatorPeer())
    acc.start()
    deadline = time.monotonic() + 5
    while board.uarts["cctalk"].conn is None and time.monotonic() < deadline:
        board.idle(20)
    bv = BillValidator(Master(board.uart("cctalk"), board.idle, timeout_ms=200))
    bv.begin()
    bv.enable(True, 0x001F)
    yield bv, peer
    acc.stop()
    board.nvram.close()
    for link in board._links:
        link.drop()
        link.srv.close()
    shutil.rmtree(state, ignore_errors=True)


def _poll(bv: BillValidator, n: int) -> list:
    out: list = []
    deadline = time.monotonic() + 5
    while len(out) < n and time.monotonic() < deadline:
        bv.poll(out)
    return out


def test_canadian_notes_by_id_and_scaling(rig) -> None:
    bv, peer = rig
    ids = bv.bill_ids()
    assert ids == {1: "CA0005A", 2: "CA0010A", 3: "CA0020A", 4: "CA0050A", 5: "CA0100A"}
    factor, places = bv.scaling("CA")
    cents = {t: bill_cents(parse_bill_id(ids[t])[1], factor, places) for t in ids}
    assert cents == {1: 500, 2: 1000, 3: 2000, 4: 5000, 5: 10000}
    assert bv.scaling("XX") is None
    assert peer.mode == 3  # begin() asked for escrow and stacker


def test_escrow_stack_and_return(rig) -> None:
    bv, peer = rig
    assert peer.insert(3)
    assert _poll(bv, 1) == [("escrow", 3, 1)]
    assert bv.route(True) is None
    assert _poll(bv, 1) == [("bill", 3, 0)]
    assert peer.stacked == {3: 1} and peer.stacked_cents == 2000
    assert peer.insert(5)
    _poll(bv, 1)
    assert bv.route(False) is None
    assert _poll(bv, 1) == [("status", 0, 1)] and peer.returned == 1
    assert bv.route(True) == 254  # the escrow is empty


def test_inhibited_and_invalid_notes(rig) -> None:
    bv, peer = rig
    bv.enable(True, 0x0001)  # only $5
    assert not peer.insert(2)
    assert not peer.insert(9)
    assert _poll(bv, 2) == [("status", 0, 4), ("reject", 0, 2)]
    bv.enable(False)
    assert not peer.insert(1) and not peer.accepting(1)


def test_escrow_timeout_returns_the_note(rig) -> None:
    bv, peer = rig
    peer.insert(2)
    _poll(bv, 1)
    peer.timeout_escrow()
    assert _poll(bv, 1) == [("status", 0, 1)]
    assert bv.route(True) == 254 and peer.stacked_cents == 0


def test_faults_jam_stacker_fraud_reject(rig) -> None:
    bv, peer = rig
    peer.jam()
    assert not peer.insert(1)
    peer.clear()
    peer.stacker_full()
    assert peer.insert(1)
    out = _poll(bv, 3)
    assert out == [("fault", 0, 6), ("status", 0, 14), ("escrow", 1, 1)]
    assert bv.route(True) == 255  # cannot stack: the note stays in escrow
    assert bv.route(False) is None and peer.returned == 1
    peer.stacker_removed()
    peer.stacker_inserted()
    peer.fraud(17)
    peer.reject(3)
    assert _poll(bv, 5) == [("status", 0, 1), ("status", 0, 11), ("status", 0, 12), ("fraud", 0, 17),
                            ("reject", 0, 3)]


def test_power_cycle_gives_the_escrowed_note_back_and_reads_as_a_reset(rig) -> None:
    bv, peer = rig
    peer.insert(4)
    _poll(bv, 1)
    peer.power_cycle()
    assert peer.returned == 1
    out = _poll(bv, 1)
    assert out == [("reset", 1, 0)] and peer.master_enabled  # the driver restored its inhibits


def test_power_cycle_keeps_the_stacker_and_ends_a_note_on_its_way_where_it_is_told(rig) -> None:
    bv, peer = rig
    peer.stack_s = 60.0  # a note routed to the stacker stays on its way for this test
    peer.insert(3)
    _poll(bv, 1)
    assert bv.route(True) is None and peer.transport == 3 and peer.stacked_cents == 0
    assert not peer.insert(1)  # the bezel takes nothing while a note is on its way
    peer.power_cycle(transport="cashbox")
    assert peer.stacked == {3: 1} and peer.stacked_cents == 2000 and peer.transport is None
    assert _poll(bv, 1) == [("reset", 1, 0)]  # no event says where the note went
    peer.insert(2)
    _poll(bv, 1)
    assert bv.route(True) is None
    peer.power_cycle(transport="front")
    assert peer.returned == 1 and peer.stacked_cents == 2000  # the stacker keeps what it held
    bv.enable(True, 0x001F)
    peer.insert(5)
    peer.power_cycle(held="keep")
    assert peer.escrow == 5 and peer.counter == 0 and peer.events == [] and not peer.master_enabled


def test_a_note_on_its_way_lands_later_with_its_event(rig) -> None:
    bv, peer = rig
    peer.stack_s = 0.05
    peer.insert(1)
    _poll(bv, 1)
    bv.route(True)
    assert _poll(bv, 1) == [("bill", 1, 0)] and peer.stacked == {1: 1}


def test_counter_faults_replay_jump_lost_events_and_a_burst_after_stacking(rig) -> None:
    bv, peer = rig
    peer.error(10)
    assert _poll(bv, 1) == [("status", 0, 10)]
    peer.replay(1)
    assert _poll(bv, 1) == [("counter", 1, 255)] and bv.fault == "counter"
    bv.clear_fault()
    _poll(bv, 0)
    bv.poll([])  # baselined afresh
    peer.jump(7)
    assert _poll(bv, 1) == [("counter", 1, 8)]
    bv.clear_fault()
    bv.poll([])
    peer.lose_events(6)
    assert _poll(bv, 1) == [("counter", 8, 14)]
    bv.clear_fault()
    bv.poll([])
    bv.enable(True, 0x001F)
    peer.burst_after_stack(5)
    peer.insert(3)
    assert _poll(bv, 1) == [("escrow", 3, 1)]
    bv.route(True)
    assert peer.counter == 21 and (3, 0) not in peer.events  # stacked, then five more: out of the buffer
    assert _poll(bv, 1) == [("counter", 15, 21)]
