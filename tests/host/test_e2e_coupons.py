"""Redemption coupons through the real firmware image on a `vlt` emulated cabinet (issue 12 s. 3):
tokens in, a game, cash-out by coupon with every S-13.1, r. 7, s. 9 field on its rendering and its
bar code read back from the PNG; a paper-out mid-print and a power cut mid-print that leave one
control number and no credit lost; the attendant's DUPLICATE; the console's `coupons`."""
from __future__ import annotations

import datetime
import json
import time
from pathlib import Path
from zoneinfo import ZoneInfo

import zxingcpp
from PIL import Image
from stdnum import luhn

from sim.harness import EmulatedCabinet
from tests.host.test_e2e_access import add

SCHEME, LICENCE, MACHINE = "LOTERIE VIDEO / VIDEO LOTTERY", "EXPL-QC-000001", "JTN-EMU-0001"  # firmware/config.py


def local_stamp(t: int) -> str:
    """The coupon's date and time (S-13.1, r. 7, s. 9) in Québec's local time, by zoneinfo."""
    d = datetime.datetime.fromtimestamp(t, ZoneInfo("America/Montreal"))
    return d.strftime("%Y-%m-%d %H:%M:%S ") + {"EST": "HNE/EST", "EDT": "HAE/EDT"}[d.tzname()]


def wait(pred, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(0.05)
    raise TimeoutError("condition not met")


def coupons(cab: EmulatedCabinet) -> list[dict]:
    return json.loads(cab.console.command("coupons json")[-1])


def cash_out_to_one_coupon(cab: EmulatedCabinet) -> tuple[int, object, dict]:
    """CASH OUT with credits on the meter: the credits it took, the one ticket printed and its record."""
    credits = cab.panel.screen["credits"]
    cab.panel.press("cashout")
    cab.panel.wait_for(lambda s: s.get("credits") == 0 and s.get("state") == "idle")
    [t] = wait(cab.printer.issued)
    [rec] = coupons(cab)
    return credits, t, rec


def test_cash_out_prints_a_coupon_with_every_field(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "state", jurisdiction="vlt").boot()
    try:
        for _ in range(3):
            cab.insert_token()
        cab.play()
        credits, t, rec = cash_out_to_one_coupon(cab)
        assert rec["st"] == "issued" and rec["k"] == credits and rec["c"] == credits * 25
        assert luhn.is_valid(rec["n"]) and t.number == rec["n"] == t.barcode
        text = t.text()
        dollars = "$%d.%02d" % (credits * 25 // 100, credits * 25 % 100)
        for field in (SCHEME, LICENCE, MACHINE, "Valeur/Value: " + dollars, "Credits: %d" % credits,
                      local_stamp(rec["t"]), rec["n"]):
            assert field in text, field
        png = tmp_path / "state" / "coupons" / "coupon-1.png"  # the emulated printer keeps what it printed
        wait(png.exists)
        assert (tmp_path / "state" / "coupons" / "coupon-1.txt").read_text() == text
        assert [r.text for r in zxingcpp.read_barcodes(Image.open(png), formats=zxingcpp.BarcodeFormat.ITF)] == [rec["n"]]
        m = cab.meters()
        assert m["coupon_out"] == credits and m["cashout"] == credits and m["hopper_out"] == 0
        assert cab.hopper.coins_out == 0  # a VLT pays by coupon only
        # the attendant's duplicate, marked, and worth nothing more
        add(cab.console, "att", "attendant", "att-pin-1")
        assert cab.console.command("logout") == ["logged out"]
        assert cab.console.login("att", "att-pin-1") == ["logged in as att (attendant)"]
        assert cab.console.command("reprint") == ["coupon no 1 %s %s reprinted as DUPLICATE" % (rec["n"], dollars)]
        dup = wait(lambda: len(cab.printer.issued()) == 2 and cab.printer.issued()[-1])
        assert dup.number == rec["n"] and "*** DUPLICATA / DUPLICATE ***" in dup.lines
        assert cab.console.command("coupons")[-1] == "printer: ready"
        assert cab.meters()["coupon_out"] == credits
    finally:
        cab.shutdown()


def test_paper_out_then_power_cut_mid_print_leave_one_number_and_no_lost_credit(tmp_path: Path) -> None:
    state = tmp_path / "state"
    cab = EmulatedCabinet(state, jurisdiction="vlt").boot()
    try:
        for _ in range(2):
            cab.insert_token()
        cab.printer.paper_out_after(4)
        cab.panel.press("cashout")
        s = cab.panel.wait_for(lambda s: "printer: paper out" in s.get("msg", ""))
        assert s["credits"] == 0 and s["state"] == "payout"  # the credits are the owed coupon
        [rec] = coupons(cab)
        assert rec["st"] == "owed" and rec["k"] == 8 and not cab.printer.issued()
        cab.power_cut()  # with the printer still out of paper
        printer = cab.printer
        printer.fix()
        cab.boot()
        [t] = wait(printer.issued)
        assert t.number == rec["n"]
        assert [x.number for x in printer.tickets if x.number] == [rec["n"]]  # the first stopped before its number
        wait(lambda: coupons(cab)[-1]["st"] == "issued")
        m = cab.meters()
        assert m["coupon_out"] == 8 and m["credits"] == 0 and m["acceptor_in"] == 8
    finally:
        cab.shutdown()


def test_a_twenty_dollar_note_games_and_a_coupon_at_cash_out(tmp_path: Path) -> None:
    # issue 12's check: a vlt cabinet, a $20 note in, games played, the coupon at cash-out with
    # every s. 9 field on its rendering
    cab = EmulatedCabinet(tmp_path / "state", jurisdiction="vlt").boot()
    try:
        s = cab.insert_bill(3)  # sim/cctalk_bills.py: type 3, the $20 note
        assert s["credits"] == 80  # $20 at 25 cents a credit
        for _ in range(3):
            cab.play()
        credits, t, rec = cash_out_to_one_coupon(cab)
        dollars = "$%d.%02d" % (credits * 25 // 100, credits * 25 % 100)
        for field in (SCHEME, LICENCE, MACHINE, "Valeur/Value: " + dollars, "Credits: %d" % credits,
                      local_stamp(rec["t"])[:10], rec["n"]):
            assert field in t.text(), field
        m = cab.meters()
        assert m["bill_in"] == 80 and m["coupon_out"] == credits and cab.hopper.coins_out == 0
    finally:
        cab.shutdown()


def test_credits_reaching_one_thousand_dollars_print_a_coupon_by_themselves(tmp_path: Path) -> None:
    # L-6, r. 3, s. 6: ten $100 notes bring the credits to $1,000: a coupon is printed with no
    # cash-out pressed, for all of them
    cab = EmulatedCabinet(tmp_path / "state", jurisdiction="vlt").boot()
    try:
        for i in range(9):
            assert cab.insert_bill(5)["credits"] == 400 * (i + 1)
        before = len(cab.printer.issued())
        assert before == 0
        assert cab.bills.insert(5)  # the tenth: the credits reach $1,000 and leave by coupon at once
        [t] = wait(cab.printer.issued, 20)
        assert "Valeur/Value: $1,000.00" in t.text() and "Credits: 4000" in t.text()
        cab.panel.wait_for(lambda s: s.get("credits") == 0)
        m = cab.meters()
        assert m["bill_in"] == 4000 and m["coupon_out"] == 4000
    finally:
        cab.shutdown()


def test_a_silent_printer_is_found_at_boot_and_the_hopper_is_never_driven(tmp_path: Path) -> None:
    """Issue 12: a silent (or missing) printer is found at power-up, not at the first coupon: the
    printer tilt names it; the credits stay and are cashed out by coupon once it answers. The
    board's hopper is wired on the same ccTalk bus all along: a VLT never sends it one frame."""
    from sim.cctalk_hopper import HopperPeer

    hopper = HopperPeer()
    frames: list[int] = []
    command = hopper.command

    def counted(header: int, data: bytes):
        frames.append(header)
        return command(header, data)

    hopper.command = counted  # type: ignore[method-assign]
    cab = EmulatedCabinet(tmp_path / "state", jurisdiction="vlt").boot(hopper=hopper)
    try:
        for _ in range(2):
            cab.insert_token()
        credits = cab.panel.screen["credits"]
        cab.power_cut()
        cab.printer.mute(True)  # dead across the power cycle
        cab.boot(hopper=hopper)
        s = cab.panel.wait_for(lambda x: "printer" in x.get("msg", ""), 20)
        tilt = [ln for ln in cab.console.command("state") if ln.startswith("tilt printer")]
        assert tilt == ["tilt printer: no reply since power-up"], cab.console.command("state")
        assert s["credits"] == credits and coupons(cab) == [] and cab.printer.issued() == []
        cab.printer.mute(False)
        cab.attendant_key()
        cab.panel.wait_for(lambda x: "printer" not in x.get("msg", "") and x.get("state") != "tilt")
        cab.panel.press("cashout")
        cab.panel.wait_for(lambda x: x.get("credits") == 0 and x.get("state") == "idle")
        [t] = wait(cab.printer.issued)
        assert "Credits: %d" % credits in t.lines and coupons(cab)[0]["st"] == "issued"
        assert frames == [] and hopper.coins_out == 0 and cab.meters()["hopper_out"] == 0
    finally:
        cab.shutdown()
