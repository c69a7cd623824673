"""The power-cut campaign's RAM clear between coupons (sim/powercut.py `Session.ram_clear`): with
nothing owed the technician clears critical memory while the stretch's kill timer runs, so the cut
lands before the clear, in its one transaction, or after it. After every reboot the campaign finds
from the security log (which the clear does not reach) whether it was taken, and then holds the new
books to the peers' counts from that instant: the coins, notes and coupons from before the clear are
not theirs, the meter coils count on from where they stood."""
from __future__ import annotations

from pathlib import Path

from sim import powercut
from sim.powercut import Session


def test_ram_clears_between_coupons_across_power_cuts(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(powercut, "RAMCLEAR_RATE", 0.3)  # a clear in most stretches that reach idle
    s = Session(tmp_path, seed=7, heap=None, flip_every=0, jurisdiction="vlt")
    try:
        report = s.run(16)
    finally:
        s.rig.shutdown()
    assert report["problems"] == [] and report["cuts"] == 16, "\n".join(report["problems"]) or report
    assert report["ramclears"] >= 1 and report["cuts_ramclear"] >= report["ramclears"], report
