"""A power-cut campaign boots and cuts the firmware thousands of times in one process
(sim/powercut.py): every boot and cut gives back each descriptor it took. `make powercut CUTS=2000`
once stopped at cut 1002 with "filedescriptor out of range in select()": each boot's output pipe
stayed open (sim/harness.py FirmwareProcess._pump)."""
from __future__ import annotations

import os
import time
from pathlib import Path

from sim.powercut import Session


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def settled(limit: int, timeout: float = 10.0) -> int:
    """The process's open descriptors once the last cut's reading threads have seen their ends."""
    deadline = time.monotonic() + timeout
    while (n := open_descriptors()) > limit and time.monotonic() < deadline:
        time.sleep(0.1)
    return n


def test_boots_and_cuts_leave_no_descriptor_open(tmp_path: Path) -> None:
    s = Session(tmp_path, seed=11, heap=None, flip_every=0, jurisdiction="vlt")
    try:
        report = s.run(2)
        before = settled(0, timeout=2.0)
        report = s.run(8)
        after = settled(before)
    finally:
        s.close()
    assert report["cuts"] == 8 and report["unrecovered"] == 0, report["problems"]
    assert after <= before, f"{after - before} descriptors more after 6 boots and cuts ({before} -> {after})"
