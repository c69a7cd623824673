"""Redemption coupons through the real firmware image on a `vlt` emulated cabinet (issues 12 s. 3 and
22.3): tokens in, a game, cash-out by coupon with every S-13.1, r. 7, s. 9 field and the s. 14 claim
deadline on its rendering, in Québec time, and its bar code read back from the PNG; a paper-out
mid-print and a power cut mid-print that leave one control number and no credit lost; no reprint
under vlt; control numbers that a RAM clear does not make repeat; every record kept until the
system acknowledges it; no money before the system sets a validation id; the console's `coupons`."""
from __future__ import annotations

import datetime
import json
import time
import zoneinfo
from pathlib import Path

import zxingcpp
from PIL import Image
from stdnum import luhn

from firmware.audit import SEC_BASE
from firmware.coupon_store import CPN_BASE
from sim.harness import EmulatedCabinet
from tests.host.test_e2e_access import add
from tests.host.test_e2e_critmem import ram_clear

SCHEME, LICENCE, MACHINE = "LOTERIE VIDEO / VIDEO LOTTERY", "EXPL-QC-000001", "JTN-EMU-0001"  # firmware/config.py


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


def quebec(t: int) -> str:
    """Québec's local time by Python's zoneinfo (an implementation independent of the firmware's)."""
    d = datetime.datetime.fromtimestamp(t, zoneinfo.ZoneInfo("America/Montreal"))
    return d.strftime("%Y-%m-%d %H:%M:%S ") + {"EST": "HNE/EST", "EDT": "HAE/EDT"}[d.tzname()]


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
        [vid] = cab.validation_ids
        assert len(rec["n"]) == 18 and rec["n"][:8] == "%08d" % vid  # the validation id the system set
        text = t.text()
        dollars = "$%d.%02d" % (credits * 25 // 100, credits * 25 % 100)
        for field in (SCHEME, LICENCE, MACHINE, "Valeur/Value: " + dollars, "Credits: %d" % credits,
                      "Emis/Issued: " + quebec(rec["t"]),
                      "A reclamer avant/Claim by:\n" + quebec(rec["t"] + 24 * 3600), rec["n"]):  # s. 14: 24 hours
            assert field in text, field
        png = tmp_path / "state" / "coupons" / "coupon-1.png"  # the emulated printer keeps what it printed
        wait(png.exists)
        assert (tmp_path / "state" / "coupons" / "coupon-1.txt").read_text() == text
        assert [r.text for r in zxingcpp.read_barcodes(Image.open(png), formats=zxingcpp.BarcodeFormat.ITF)] == [rec["n"]]
        m = cab.meters()
        assert m["coupon_out"] == credits and m["cashout"] == credits and m["hopper_out"] == 0
        assert cab.hopper.coins_out == 0  # a VLT pays by coupon only
        # no reprint under vlt: a coupon printed is never printed again (the operator's practice)
        add(cab.console, "att", "attendant", "att-pin-1")
        assert cab.console.command("logout") == ["logged out"]
        assert cab.console.login("att", "att-pin-1") == ["logged in as att (attendant)"]
        assert cab.console.command("reprint") == [
            "error: no reprint: a coupon printed is never printed again (the jurisdiction's rule)"]
        time.sleep(0.5)
        assert len(cab.printer.tickets) == 1
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
                      quebec(rec["t"])[:10], rec["n"]):
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


def cash_out(cab: EmulatedCabinet) -> dict:
    """CASH OUT with credits on the meter; the coupon's record once it is issued."""
    n = len(cab.printer.issued())
    cab.panel.press("cashout")
    cab.panel.wait_for(lambda s: s.get("credits") == 0 and s.get("state") not in ("payout",))
    wait(lambda: len(cab.printer.issued()) == n + 1)
    rec = wait(lambda: (r := coupons(cab)[-1])["st"] == "issued" and r)
    assert cab.printer.issued()[-1].number == rec["n"]
    return rec


def test_a_ram_clear_never_makes_a_control_number_repeat(tmp_path: Path) -> None:
    """Issue 22.3: after a RAM clear the coupon sequence started again, so a $20 coupon and a later
    $5 coupon carried the same control number, both valid. Both kinds of RAM clear: the one a RAM
    error allows (here the books lost: blank on a machine initialised before) and the one an
    administrator asks for with the audit key."""
    state = tmp_path / "state"
    cab = EmulatedCabinet(state, jurisdiction="vlt")
    try:
        cab.boot()
        assert cab.insert_bill(3)["credits"] == 80  # $20
        twenty = cash_out(cab)
        assert twenty["c"] == 2000
        cab.shutdown()
        nv = state / "nvram.bin"
        data = bytearray(nv.read_bytes())
        data[:SEC_BASE] = bytes(SEC_BASE)  # the books lost; the security and coupon memories above kept
        nv.write_bytes(bytes(data))
        cab.boot()
        assert cab.firmware.ready["state"] == "ramerror"
        cab.panel.set_pin("key_audit", 1)
        assert ram_clear(cab)[0].startswith("critical memory cleared")
        cab.panel.set_pin("key_audit", 0)
        cab.panel.wait_for(lambda s: s.get("state") == "idle")
        assert cab.meters()["coupon_out"] == 0  # fresh books
        for _ in range(5):  # $5 in $1 tokens (the bill validator is opened at the next power-up)
            cab.insert_token()
        five = cash_out(cab)
        assert five["c"] == 500 and five["s"] == twenty["s"] + 1 and five["n"] != twenty["n"]
        # the RAM clear on request (audit key, nothing owed), then another coupon
        cab.panel.set_pin("key_audit", 1)
        assert ram_clear(cab)[0].startswith("critical memory cleared")
        cab.panel.set_pin("key_audit", 0)
        cab.panel.wait_for(lambda s: s.get("state") == "idle")
        for _ in range(5):
            cab.insert_token()
        third = cash_out(cab)
        recs = coupons(cab)
        assert [(r["s"], r["c"], r["st"]) for r in recs] == [(1, 2000, "issued"), (2, 500, "issued"), (3, 500, "issued")]
        numbers = [r["n"] for r in recs]
        assert len(set(numbers)) == 3 and third["n"] == numbers[2]
        assert [t.number for t in cab.printer.issued()] == numbers  # on paper: three numbers, each once
    finally:
        cab.shutdown()


def test_every_record_is_kept_until_the_system_acknowledges_it(tmp_path: Path) -> None:
    """Not only the last four: every coupon's record stays until an acknowledgement (the auditor's
    `coupons ack`, SAS 4D later); an attendant reads them but does not acknowledge them."""
    cab = EmulatedCabinet(tmp_path / "state", jurisdiction="vlt").boot()
    try:
        made = []
        for _ in range(6):
            cab.insert_token()
            made.append(cash_out(cab))
        recs = coupons(cab)
        assert [r["n"] for r in recs] == [r["n"] for r in made] and len({r["n"] for r in recs}) == 6
        assert all(r["st"] == "issued" for r in recs)
        v = json.loads(cab.console.command("validation json")[-1])
        assert v == {"vid": cab.validation_ids[0], "seq": 6, "waiting": 6, "capacity": 64, "stop": None,
                     "mode": "secure", "asked": None,
                     "ticket": {"host": 0, "days": 0, "rdays": 0, "loc": "", "a1": "", "a2": ""}}
        add(cab.console, "att", "attendant", "att-pin-1")
        add(cab.console, "aud", "auditor", "aud-pin-1")
        assert cab.console.command("logout") == ["logged out"]
        assert cab.console.login("att", "att-pin-1")[0].startswith("logged in")
        assert cab.console.command("coupons ack 1") == ["refused: coupons ack is not for an attendant"]
        assert cab.console.command("validation set 9") == ["refused: validation set is not for an attendant"]
        assert cab.console.command("logout") == ["logged out"]
        assert cab.console.login("aud", "aud-pin-1")[0].startswith("logged in")
        assert cab.console.command("coupons ack 1 4") == ["4 acknowledged; 2 awaiting the system"]
        assert cab.console.command("coupons ack 9") == ["error: no record of coupon 9"]
        one = cab.console.command("coupons 2")
        assert len(one) == 1 and one[0].startswith("no 2 %s $1.00 4 credits " % made[1]["n"]) and one[0].endswith(" acked")
        assert [r["st"] for r in coupons(cab)] == ["acked"] * 4 + ["issued"] * 2  # kept until their slot is needed
        lines = cab.console.command("coupons")
        assert lines[-2] == "validation id %d, sequence 6, 2 records awaiting the system (room for 64)" % v["vid"]
    finally:
        cab.shutdown()


def test_no_money_before_the_system_sets_a_validation_id_and_a_lost_coupon_memory(tmp_path: Path) -> None:
    """A vlt cabinet numbers coupons from the validation id its system sets (SAS 4C; the
    administrator's `validation set`): before that it takes no money and plays nothing, and says
    why. Its coupon memory lost, it asks again, and the credits wait on the meter."""
    state = tmp_path / "state"
    cab = EmulatedCabinet(state, jurisdiction="vlt")
    try:
        cab.boot(system=False)
        s = cab.panel.wait_for(lambda x: "coupons" in x.get("msg", ""))
        assert s["state"] == "tilt" and "no validation id: the system must set one" in s["msg"]
        polls = cab.bills.polls
        wait(lambda: cab.bills.polls > polls + 3)  # the firmware polls its validator, and keeps it inhibited
        assert not cab.bills.accepting(3) and not cab.acceptor.accepting(EmulatedCabinet.TOKEN_POSITION)
        assert cab.console.command("validation set 0") == ["error: validation id must be 1 to 16777215 (SAS 4C: 3 bytes)"]
        assert cab.console.command("validation set 777 41") == [
            "validation id 777, sequence 41, 0 records awaiting the system (room for 64)"]
        cab.panel.wait_for(lambda x: x.get("state") == "idle")
        wait(lambda: cab.bills.accepting(3))
        cab.insert_token()
        first = cash_out(cab)
        assert first["s"] == 42 and first["n"][:8] == "00000777"
        cab.insert_token()
        cab.shutdown()
        nv = state / "nvram.bin"
        data = bytearray(nv.read_bytes())
        data[CPN_BASE:] = bytes(len(data) - CPN_BASE)  # the coupon memory lost (blank after it was used)
        nv.write_bytes(bytes(data))
        cab.boot(system=False)
        s = cab.panel.wait_for(lambda x: "coupons" in x.get("msg", ""))
        assert "coupon memory lost" in s["msg"] and s["credits"] == 4, s
        cab.panel.press("cashout")
        time.sleep(0.5)
        assert cab.panel.screen["credits"] == 4 and len(cab.printer.issued()) == 1  # the credits wait, said why
        assert [r["n"] for r in coupons(cab)] == [first["n"]]  # the books' latest coupon, kept again
        assert cab.console.command("validation set 778")[0].startswith("validation id 778, sequence 42,")
        second = cash_out(cab)
        assert second["s"] == 43 and second["n"][:8] == "00000778"
    finally:
        cab.shutdown()


def test_two_machines_never_print_the_same_number(tmp_path: Path) -> None:
    """Issue 22.3: the number used only the last 5 digits of the machine id, so two machines printed
    the same numbers (two emulated cabinets, both JTN-EMU-0001, printed the same first coupon).
    Each machine has the validation id its system gave it, and its own key."""
    numbers = []
    for name in ("a", "b"):
        cab = EmulatedCabinet(tmp_path / name, jurisdiction="vlt").boot()
        try:
            cab.insert_token()
            rec = cash_out(cab)
            assert rec["s"] == 1 and rec["n"][:8] == "%08d" % cab.validation_ids[0]
            numbers.append((cab.validation_ids[0], rec["n"]))
        finally:
            cab.shutdown()
    (vid_a, a), (vid_b, b) = numbers
    assert vid_a != vid_b and a != b and a[:8] != b[:8]
