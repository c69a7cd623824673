"""The power-cut campaign's model of a RAM clear when the cut lands right after the clear's answer,
while the campaign reads the security log and the books to learn the clear's record
(sim/powercut.py `Session.ram_clear`, `Session.cleared`). `make powercut CUTS=2000 JURIS=vlt` at
25fc3cc: the campaign had marked the clear's record seen and then the cut took the `events json`
that came before its truth started again, so the clear was never counted: the books were back at
zero, the truth still held the coins, notes and coupons from before it, and every later reboot
reported them lost (588 credits) or doubled (521); `python -m sim.powercut --cuts 300 --jobs 1
--seed 101 --jurisdiction vlt` the same at its cut 71 (520 lost, 337 doubled, the four meter coils).
A clear the console answered is taken at once;
the reads that follow only check it, and a cut in them changes nothing."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from sim.powercut import TOKEN, TOKEN_CREDITS, Session
from tools.console import ConsoleClosed

CUT = (OSError, TimeoutError, ValueError, ConsoleClosed, RuntimeError)  # what a read cut short raises


def money_through(s: Session, panel, tokens: int) -> None:
    """Tokens in, then a cash-out by coupon: the truth holds coins and a coupon on paper."""
    for _ in range(tokens):
        deadline = time.monotonic() + 5
        while not s.rig.peer.accepting(TOKEN) and time.monotonic() < deadline:
            s.rig.wait_polls(1, 1.0)  # the firmware enables the acceptor at its first polls
        assert s.rig.peer.insert(TOKEN)
        s.truth.tokens += 1
        s.rig.wait_polls(1, 2.0)
    panel.wait_for(lambda x: x.get("credits") == tokens * TOKEN_CREDITS, 5)
    panel.press("cashout")
    panel.wait_for(lambda x: x.get("credits") == 0 and x.get("state") == "idle", 15)
    s.rig.wait_polls(2, 2.0)


@pytest.mark.parametrize("read", ["security json", "events json"])
def test_a_cut_while_the_campaign_reads_an_answered_clear(tmp_path: Path, monkeypatch, read: str) -> None:
    s = Session(tmp_path, seed=11, heap=None, flip_every=0, jurisdiction="vlt")
    try:
        fw, peer, panel, console = s.boot()
        money_through(s, panel, 3)
        real = s.rig.console_json
        asked = []

        def cut_in(line: str):
            asked.append(line)
            if line == read:
                s.rig.fw.kill()  # the kill timer fires as the campaign asks
            return real(line)

        monkeypatch.setattr(s.rig, "console_json", cut_in)
        with pytest.raises(CUT):
            s.ram_clear(panel)
        monkeypatch.setattr(s.rig, "console_json", real)
        assert read in asked
        s.unplug(peer, panel, console)
        fw, peer, panel, console = s.boot()
        assert s.check(fw, peer, panel, console)
        assert s.report["problems"] == [], s.report["problems"]
        assert s.report["ramclears"] == 1 and s.report["cuts_ramclear"] == 1, s.report
        money_through(s, panel, 2)  # the new books and the truth go on together
        s.rig.fw.kill()
        s.unplug(peer, panel, console)
        fw, peer, panel, console = s.boot()
        assert s.check(fw, peer, panel, console)
        assert s.report["problems"] == [], s.report["problems"]
        assert s.report["ramclears"] == 1, s.report
    finally:
        s.close()
