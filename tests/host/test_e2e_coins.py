"""End to end, money in: the real firmware process on the emulated board, the ccTalk acceptor peer
answering with a replayed or jumping event counter (issue 9, fault 1) and a foreign coin (fault 11,
s. 4). The credits never move, the tilt names the fault, the attendant's key clears it, and in the
end every credit is a token the acceptor really took: acceptor_in == 4 x tokens credited."""
from __future__ import annotations

import time
from pathlib import Path

from sim.harness import EmulatedCabinet

TOKEN_CREDITS = 4  # firmware/config.py: the "CA100T" token is 100 cents, a credit 25 cents


def _tilted(cab: EmulatedCabinet, reason: str) -> None:
    """Wait for the acceptor tilt and the polls after it; the state names the reason."""
    assert cab.panel and cab.acceptor and cab.console
    cab.panel.wait_for(lambda s: s.get("state") == "tilt")
    polls = cab.acceptor.polls
    deadline = time.monotonic() + 10
    while cab.acceptor.polls < polls + 6:  # the counter baselined again, and polled since
        assert time.monotonic() < deadline, "the firmware stopped polling"
        time.sleep(0.05)
    lines = cab.console.command("state")
    assert any(line.startswith("tilt acceptor: " + reason) for line in lines), lines
    assert not cab.acceptor.master_enabled  # no money while tilted


def _clear(cab: EmulatedCabinet) -> None:
    assert cab.panel and cab.acceptor
    cab.attendant_key()
    cab.panel.wait_for(lambda s: s.get("state") == "credit")
    deadline = time.monotonic() + 10
    while not cab.acceptor.accepting(1):
        assert time.monotonic() < deadline, "acceptance never resumed after the key"
        time.sleep(0.05)


def test_replayed_or_jumping_counter_never_credits(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "state").boot()
    try:
        assert cab.acceptor
        for _ in range(3):
            cab.insert_token()
        assert cab.meters()["credits"] == 3 * TOKEN_CREDITS
        faults = [("replay", k) for k in (1, 5, 6, 250)] + [("jump", k) for k in (6, 100)]
        for how, k in faults:
            getattr(cab.acceptor, how)(k)
            _tilted(cab, "event counter out of sequence: was ")
            m = cab.meters()
            assert m["credits"] == 3 * TOKEN_CREDITS and m["acceptor_in"] == 3 * TOKEN_CREDITS, (how, k, m)
            _clear(cab)
        cab.insert_token()  # the next real token is credited, once
        m = cab.meters()
        assert m["credits"] == m["acceptor_in"] == 4 * TOKEN_CREDITS
        assert cab.acceptor.credited == 4  # host-side truth: every credit is a token taken
        events = "\n".join(cab.console.command("events"))
        assert events.count("event counter out of sequence") == len(faults)
    finally:
        cab.shutdown()


def test_foreign_coin_is_never_credited(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "state").boot()
    try:
        acc = cab.acceptor
        assert acc and acc.coins[2] == "US025A"
        cab.insert_token()
        assert not acc.insert(2)  # its position is not enabled: the acceptor returns the coin
        assert acc.inhibit_mask == 0b1
        acc.ignore_inhibits = True  # a faulty or tampered acceptor takes it anyway
        assert acc.insert(2)
        _tilted(cab, "coin refused: position 2 (US025A) is not an accepted coin")
        m = cab.meters()
        assert m["credits"] == m["acceptor_in"] == TOKEN_CREDITS
        acc.ignore_inhibits = False
        _clear(cab)
        cab.insert_token()
        m = cab.meters()
        assert m["credits"] == m["acceptor_in"] == 2 * TOKEN_CREDITS
    finally:
        cab.shutdown()
