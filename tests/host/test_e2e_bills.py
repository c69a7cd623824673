"""End to end: a vlt cabinet (the firmware image, `--jurisdiction vlt`) takes Canadian notes from the
emulated ccTalk bill validator: a $20 note is stacked and credited once (80 credits of 25 cents),
games are played on it, a note that would pass the credit limit comes back out of escrow, and a
fraud code tilts until the attendant's key. A casino cabinet never enables the validator."""
from __future__ import annotations

import time
from pathlib import Path

from sim.cabinet import firmware_args
from sim.harness import EmulatedCabinet


def _vlt(tmp_path: Path) -> EmulatedCabinet:
    return EmulatedCabinet(tmp_path / "s", extra_args=firmware_args("sept-royal-87", "emulated", "vlt")).boot()


def test_a_twenty_dollar_note_is_credited_once_and_played(tmp_path: Path) -> None:
    cab = _vlt(tmp_path)
    try:
        assert cab.bills
        s = cab.insert_bill(3)  # $20
        assert s["credits"] == 80
        m = cab.meters()
        assert m["bill_in"] == 80 and m["credits"] == 80 and cab.bills.stacked == {3: 1}
        for _ in range(3):
            cab.play()
        m = cab.meters()
        assert m["bill_in"] == 80 and m["games_played"] == 3
        assert m["credits"] == 80 + m["coin_out"] - m["coin_in"]
    finally:
        cab.shutdown()


def test_a_note_past_the_limit_comes_back_and_fraud_tilts(tmp_path: Path) -> None:
    cab = _vlt(tmp_path)
    try:
        assert cab.bills and cab.console and cab.panel
        for _ in range(9):
            cab.insert_bill(5)  # $900
        cab.insert_bill(4)  # $950: 3800 credits
        returned = cab.bills.returned
        assert cab.bills.insert(5)  # $1,050 would pass the $1,000 limit: the firmware hands it back
        deadline = time.monotonic() + 10
        while cab.bills.returned == returned:
            assert time.monotonic() < deadline, "the note stayed in escrow"
            time.sleep(0.05)
        m = cab.meters()
        assert m["bill_in"] == 3800 and m["credits"] == 3800 and cab.bills.stacked == {5: 9, 4: 1}
        cab.bills.fraud(18)
        cab.panel.wait_for(lambda s: s.get("state") == "tilt")
        assert any("tilt fraud: bill validator: string fraud detected" in line for line in cab.console.command("state"))
        cab.attendant_key()
        cab.panel.wait_for(lambda s: s.get("state") == "credit")
    finally:
        cab.shutdown()


def test_a_casino_cabinet_takes_no_notes(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "s").boot()
    try:
        assert cab.bills and cab.acceptor
        cab.insert_token()  # the firmware is up and polling
        assert not cab.bills.master_enabled and cab.bills.polls == 0
    finally:
        cab.shutdown()
