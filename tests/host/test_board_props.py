"""Property tests: random garbage never crashes a driver nor credits a coin; framing round-trips."""
from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "device"))

from board.cctalk import CcTalkError, Master  # noqa: E402
from board.cctalk_frame import Scanner, build, valid  # noqa: E402
from board.coin_cctalk import CoinAcceptor  # noqa: E402
from board.hopper_cctalk import Hopper  # noqa: E402
from fakes_board import Store  # noqa: E402


class GarbageWire:
    """Echoes what the master writes, then answers with arbitrary bytes."""

    def __init__(self, replies, echo_ok=True):
        self.replies = list(replies)
        self.rx = bytearray()
        self.echo_ok = echo_ok

    def any(self):
        return len(self.rx)

    def readinto(self, buf):
        n = min(len(buf), len(self.rx))
        if not n:
            return None
        buf[:n] = self.rx[:n]
        del self.rx[:n]
        return n

    def write(self, data):
        self.rx += bytes(data)
        if self.replies:
            self.rx += self.replies.pop(0)
        return len(data)


def _idle(ms):
    pass


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=40), min_size=1, max_size=12), st.booleans())
def test_acceptor_garbage_never_credits(replies, crc):
    ca = CoinAcceptor(Master(GarbageWire(replies), _idle, timeout_ms=1, retries=1, crc=crc))
    out = []
    for _ in range(6):
        try:
            ca.begin()
            ca.poll(out)
        except CcTalkError:
            pass
    assert not [e for e in out if e[0] == "coin"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=40), min_size=1, max_size=20))
def test_hopper_garbage_never_dispenses_twice_nor_crashes(replies):
    wire = GarbageWire(replies)
    h = Hopper(Master(wire, _idle, timeout_ms=1, retries=0), Store())
    out = []
    for _ in range(5):
        try:
            if h.record is None:
                h.payout(3)
            h.service(out)
        except CcTalkError:
            pass
        except Exception as e:  # only our own refusals are acceptable
            assert type(e).__name__ == "HopperError", repr(e)
    assert not [e for e in out if e[0] == "payout" and e[1] > 3]


def _frames():
    return st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255),
                     st.binary(max_size=255), st.booleans())


@given(_frames())
def test_build_then_valid(fr):
    dest, src, header, data, crc = fr
    buf = bytearray(260)
    n = build(buf, dest, src, header, data, crc)
    assert n == 5 + len(data) and valid(buf, 0, n, crc)
    if data:
        buf[4 + len(data) // 2] ^= 0x01  # any single-bit error is caught by both checks
        assert not valid(buf, 0, n, crc)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), _frames(), st.binary(max_size=300))
def test_scanner_finds_the_frame_behind_garbage(pre, fr, post):
    dest, src, header, data, crc = fr
    buf = bytearray(260)
    n = build(buf, 1, src, header, data, crc)
    sc = Scanner(crc=crc)
    sc.feed(pre + bytes(buf[:n]))
    found = []
    while True:
        t = sc.next(1, True)
        if not t:
            break
        found.append(bytes(sc.buf[sc.start:sc.start + t]))
        sc.skip(t)
    # every frame the scanner yields is valid; ours is found unless garbage formed an
    # overlapping valid frame that swallowed it (then that one is valid too)
    assert all(valid(f, 0, len(f), crc) for f in found)
    assert bytes(buf[:n]) in found or found
