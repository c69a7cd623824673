"""End to end: a vlt cabinet (the firmware image, `--jurisdiction vlt`) takes Canadian notes from the
emulated ccTalk bill validator: a $20 note is stacked and credited once (80 credits of 25 cents),
games are played on it, a note that would pass the credit limit comes back out of escrow, and a
fraud code tilts until the attendant's key. A casino cabinet never enables the validator.
Issue 22.4: the whole cabinet, validator included, loses power as a $20 is stacked: the note is a
note of unknown fate that stops money in until the attendant counts the cash box and settles it.
Issue 22.5: five more events before the next poll after a $20 is stacked (a counter fault): the
attendant's key never lets a later refusal wipe its record. The validator's stacker is the truth."""
from __future__ import annotations

import json
import time
from pathlib import Path

from firmware import config
from sim.cabinet import firmware_args
from sim.cctalk_bills import BillValidatorPeer
from sim.harness import ADMIN_ID, EmulatedCabinet


def _vlt(tmp_path: Path, bills: BillValidatorPeer | None = None) -> EmulatedCabinet:
    cab = EmulatedCabinet(tmp_path / "s", extra_args=firmware_args("sept-royal-87", "emulated", "vlt"))
    return cab.boot(bills=bills)


def _until(pred, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def _note(cab: EmulatedCabinet) -> dict:
    assert cab.console
    return json.loads(cab.console.command("note json")[-1])


def _events(cab: EmulatedCabinet) -> list:
    assert cab.console
    return json.loads(cab.console.command("events json")[-1])["events"]


def _cut_as_a_note_is_stacked(tmp_path: Path, transport: str) -> tuple[EmulatedCabinet, BillValidatorPeer]:
    """A $5 credited, then a $20 committed and on its way to the stacker as the power goes, the
    validator's with the cabinet's; powered up again."""
    bills = BillValidatorPeer(stack_s=60.0)  # routed notes stay on their way until the cut
    cab = _vlt(tmp_path, bills)
    bills.stack_s = 0.0
    cab.insert_bill(1)  # $5: 20 credits
    bills.stack_s = 60.0
    assert bills.insert(3)
    _until(lambda: bills.transport == 3, "the firmware never routed the $20 to the stacker")
    cab.power_cut()
    bills.power_cycle(transport=transport)
    bills.stack_s = 0.0
    cab.boot(bills=bills)
    assert cab.panel
    cab.panel.wait_for(lambda s: "note" in (s.get("say") or []))
    return cab, bills


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


def test_a_twenty_stacked_as_the_whole_cabinet_loses_power_waits_for_the_attendant(tmp_path: Path) -> None:
    cab, bills = _cut_as_a_note_is_stacked(tmp_path, "cashbox")
    try:
        assert cab.panel and cab.console and cab.acceptor
        assert bills.stacked_cents == 2500  # the cash box holds the $5 and the $20
        m = cab.meters()
        assert m["bill_in"] == 20 and m["credits"] == 20 and m["bill_unproven"] == 1 and m["bill_unproven_credits"] == 80
        note = _note(cab)["note"]
        assert note["id"] == "CA0020A" and note["k"] == 80 and note["why"].startswith("validator reset")
        assert any(e[2] == "bill-unknown" and "CA0020A (80 credits) fate unknown: validator reset" in e[3]
                   for e in _events(cab))
        # money in stops: notes and coins
        cab._loop_passes(3)
        assert not bills.master_enabled and not cab.acceptor.accepting(cab.TOKEN_POSITION)
        assert not bills.insert(1)
        cab.attendant_key()  # the reset key cannot say stacked or returned
        cab._loop_passes(3)
        assert cab.panel.screen["state"] == "tilt" and _note(cab)["note"] == note
        # the player still cashes out the credits on the meter: a coupon (vlt)
        cab.panel.press("cashout")
        cab.panel.wait_for(lambda s: s.get("credits") == 0 and s.get("state") == "tilt")  # printed, still the note
        assert cab.meters()["coupon_out"] == 20
        # the attendant counts the cash box: $25 in it, $5 in bill_in: the $20 was stacked
        out = cab.console.command("note stacked")
        assert out[0] == "CA0020A (80 credits) settled as stacked: credited"
        s = cab.panel.wait_for(lambda s: s.get("state") == "credit")
        assert s["credits"] == 80
        m = cab.meters()
        assert m["bill_in"] * config.DENOM_CENTS == bills.stacked_cents and m["bill_settled_stacked"] == 80
        assert m["credits"] == m["bill_in"] + m["acceptor_in"] + m["coin_out"] + m["refunds"] - m["coin_in"] - m["cashout"]
        ev = _events(cab)
        assert ev[-1][2] == "note-stacked" and "CA0020A of unknown fate: stacked, says %s: +80 credits" % ADMIN_ID in ev[-1][3]
        assert any(r[3] == "ok" and r[4].startswith("note stacked => CA0020A")
                   for r in json.loads(cab.console.command("security json")[-1]))
        _until(lambda: bills.master_enabled, "money in never came back")
        cab.insert_bill(1)
        assert cab.meters()["bill_in"] == 120 and bills.stacked_cents == 3000  # $5 + $20 + $5
        texts = [e[3] for e in _events(cab)]
        assert any("CA0005A stacked: +20 credits" in t for t in texts)
    finally:
        cab.shutdown()


def test_a_note_cleared_out_of_the_front_at_power_up_is_settled_returned(tmp_path: Path) -> None:
    cab, bills = _cut_as_a_note_is_stacked(tmp_path, "front")
    try:
        assert cab.console
        assert bills.stacked_cents == 500 and bills.returned == 1  # the player has the $20 back
        assert cab.console.command("note returned")[0] == "CA0020A (80 credits) settled as returned: nothing credited"
        m = cab.meters()
        assert m["bill_in"] == 20 and m["credits"] == 20 and m["bill_settled_returned"] == 80
        assert "returned to the player" in _events(cab)[-1][3]
    finally:
        cab.shutdown()


def test_a_power_cut_of_the_cabinet_alone_proves_the_note_and_raises_nothing(tmp_path: Path) -> None:
    bills = BillValidatorPeer(stack_s=60.0)
    cab = _vlt(tmp_path, bills)
    try:
        _until(lambda: bills.accepting(3), "the firmware never enabled the validator")
        assert bills.insert(3)
        _until(lambda: bills.transport == 3, "the firmware never routed the $20 to the stacker")
        cab.power_cut()  # the validator keeps its power: its buffer and counter say what happened
        bills.land_after(0.3)  # it lands while the firmware boots or just after
        cab.boot(bills=bills)
        assert cab.panel
        cab.panel.wait_for(lambda s: s.get("credits") == 80)
        m = cab.meters()
        assert m["bill_in"] == 80 and m["bill_unproven"] == 0 and bills.stacked_cents == 2000
        assert _note(cab)["note"] is None
    finally:
        cab.shutdown()


def test_five_events_after_a_twenty_is_stacked_never_lose_it(tmp_path: Path) -> None:
    bills = BillValidatorPeer()
    cab = _vlt(tmp_path, bills)
    try:
        assert cab.panel and cab.console
        bills.burst_after_stack(5)  # five invalid notes handed back before the next poll
        _until(lambda: bills.accepting(3), "the firmware never enabled the validator")
        assert bills.insert(3)
        s = cab.panel.wait_for(lambda s: "acceptor" in (s.get("say") or []))
        assert "event counter out of sequence" in s["msg"] and bills.stacked_cents == 2000
        cab.attendant_key()  # clears the counter tilt: the fresh baseline cannot show the $20's end
        s = cab.panel.wait_for(lambda s: "note" in (s.get("say") or []))
        assert "acceptor" not in s["say"]
        note = _note(cab)["note"]
        assert note["id"] == "CA0020A" and "event counter out of sequence" in note["why"]
        assert not bills.insert(1)  # the next note is not taken while the $20 waits
        assert cab.console.command("note stacked")[0].endswith("credited")
        m = cab.meters()
        assert m["bill_in"] == 80 and m["credits"] == 80 and bills.stacked_cents == 2000
        _until(lambda: bills.master_enabled, "money in never came back")
        cab.insert_bill(1)  # the next note now: stacked and credited, the $20 kept
        m = cab.meters()
        assert m["bill_in"] * config.DENOM_CENTS == bills.stacked_cents == 2500 and m["credits"] == 100
    finally:
        cab.shutdown()
