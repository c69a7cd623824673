"""End to end: the firmware image booted under the vlt profile (`--jurisdiction vlt`, what
`make run JURIS=vlt` passes) disables a game that breaks the video-lottery limits, naming the rule
in its event, and plays one that keeps them; a cabinet with no game inside them is in the limits
tilt, which the player's screen words (docs/screen.md)."""
from __future__ import annotations

import json
import time
from pathlib import Path

from sim.cabinet import firmware_args
from sim.cctalk_hopper import HopperPeer
from sim.harness import EmulatedCabinet, free_ports
from tools import firmware as fwbuild
from tools import operator

MACHINE = "JTN-EMU-0001"  # firmware/config.py MACHINE_ID


def test_vlt_boot_disables_a_game_over_the_limits(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "s", extra_args=firmware_args("aurore-93,sept-royal-87", "emulated", "vlt")).boot()
    try:
        ready = cab.firmware.ready
        assert ready["jurisdiction"] == "vlt" and ready["game"] == "sept-royal-87", ready
        assert cab.console
        events = "\n".join(cab.console.command("events"))
        # aurore-93 bets 100 credits: $25.00 at 25 cents
        assert "aurore-93: vlt maximum bet: $25.00 above $2.50" in events, events
    finally:
        cab.shutdown()


def test_vlt_boot_with_no_game_inside_the_limits_is_the_limits_tilt_the_player_is_told(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "s", extra_args=firmware_args("trefle-90", "emulated", "vlt")).boot()
    try:
        assert cab.firmware.ready["game"] is None and cab.firmware.ready["state"] == "tilt"
        assert cab.console and cab.panel
        state = "\n".join(cab.console.command("state"))
        assert "tilt limits: no game within the vlt limits to offer (trefle-90: vlt maximum bet: $6.25" in state, state
        # the player's screen is told why play is stopped, with the profile's figures (docs/screen.md)
        s = cab.panel.wait_for(lambda s: s.get("state") == "tilt")
        assert s["say"] == ["tilt", "limits"] and s["limits"] == {"bet": 250, "prize": 100000}, s
    finally:
        cab.shutdown()


def test_the_casino_profile_is_the_default(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "s", extra_args=firmware_args("trefle-90", "emulated")).boot()
    try:
        assert cab.firmware.ready["jurisdiction"] == "casino" and cab.firmware.ready["game"] == "trefle-90"
    finally:
        cab.shutdown()


# --- a change of jurisdiction across a reboot (issue 22.6) -------------------------------------------

def juris_args(juris: str, games: str = "sept-royal-87") -> list[str]:
    return firmware_args(games, "emulated", juris)


def signed_config(state: Path, number: int, juris: str, denom: int = 25, games: tuple[str, ...] = ("sept-royal-87",)) -> None:
    """The operator's configuration `number`, signed with the development operator key the image trusts."""
    operator.sign_config(state / "operator.json", fwbuild.DEV_OPERATOR_KEY, number, MACHINE, juris, denom, list(games))


def reboot_as(cab: EmulatedCabinet, juris: str, **kw) -> EmulatedCabinet:
    """Power the same cabinet (its printer, hopper and state) up again with another jurisdiction asked."""
    cab.firmware.extra_args = juris_args(juris)
    return cab.boot(**kw)


def tilt_config(cab: EmulatedCabinet) -> str:
    lines = [ln for ln in cab.console.command("state") if ln.startswith("tilt config: ")]
    return lines[0][len("tilt config: "):] if lines else ""


def wait(pred, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(0.05)
    raise TimeoutError("condition not met")


def test_vlt_to_casino_with_a_coupon_owed_waits_until_the_coupon_is_printed(tmp_path: Path) -> None:
    # the first case: a coupon owed (paper out, then the power cut), and the next power-up asks
    # for casino rules, signed by the operator. It used to boot idle as a casino, never print the
    # coupon, and take money and play. The change waits: vlt rules, the coupon printed with its number
    state = tmp_path / "s"
    ports = dict(zip(("console", "cctalk", "panel", "printer"), free_ports(4)))
    cab = EmulatedCabinet(state, ports=ports, extra_args=juris_args("vlt")).boot()
    try:
        for _ in range(2):
            cab.insert_token()
        cab.printer.paper_out_after(4)
        cab.panel.press("cashout")
        cab.panel.wait_for(lambda s: "printer: paper out" in s.get("msg", ""))
        [rec] = json.loads(cab.console.command("coupons json")[-1])
        assert rec["st"] == "owed" and rec["k"] == 8
        cab.power_cut()
        signed_config(state, 2, "casino")
        reboot_as(cab, "casino")
        ready = cab.firmware.ready
        assert ready["jurisdiction"] == "vlt" and ready["state"] == "payout" and ready["game"] is None, ready
        assert tilt_config(cab) == ("change to casino at 25 cents a credit waits: coupon 1 owed under vlt at 25 cents "
                                    "(paid by those rules first)")
        assert not cab.acceptor.accepting(cab.TOKEN_POSITION)  # no money in, no play
        cab.printer.fix()
        cab.attendant_key()
        [t] = wait(cab.printer.issued)
        assert t.number == rec["n"]
        wait(lambda: json.loads(cab.console.command("coupons json")[-1])[-1]["st"] == "issued")
        assert cab.meters()["coupon_out"] == 8
        cab.shutdown()
        reboot_as(cab, "casino")  # nothing owed now: the operator's change is taken
        assert cab.firmware.ready["jurisdiction"] == "casino" and cab.firmware.ready["game"] == "sept-royal-87"
        events = "\n".join(cab.console.command("events"))
        assert "basis      vlt at 25 -> casino at 25 cents a credit (operator configuration 2)" in events, events
        cab.insert_token()
        cab.play()
    finally:
        cab.shutdown()


def test_casino_to_vlt_after_a_cut_hopper_payout_books_the_coins_paid_first(tmp_path: Path) -> None:
    # the second case: a hopper cash-out cut by the power, then a vlt asked for (a vlt never
    # opens a hopper: it sat in `payout` with the coins already paid never booked). The change waits:
    # casino rules, the hopper's record booked from its own counters
    state = tmp_path / "s"
    hopper = HopperPeer(coin_ms=300)
    ports = dict(zip(("console", "cctalk", "panel", "printer"), free_ports(4)))
    cab = EmulatedCabinet(state, ports=ports, extra_args=juris_args("casino")).boot(hopper=hopper)
    try:
        for _ in range(3):
            cab.insert_token()
        cab.panel.press("cashout")
        wait(lambda: hopper.coins_out >= 1, 5)
        cab.power_cut()  # mid-payout: the hopper pays on by itself, on its own supply
        reboot_as(cab, "vlt", hopper=hopper)
        ready = cab.firmware.ready
        assert ready["jurisdiction"] == "casino", ready
        assert tilt_config(cab) == ("change to vlt at 25 cents a credit waits: 12 credits on the meter, a hopper "
                                    "payout to book under casino at 25 cents (paid by those rules first)")
        s = cab.panel.wait_for(lambda s: s.get("state") != "payout")
        m = cab.meters()
        assert m["hopper_out"] == 12 and m["credits"] == 0 and s["credits"] == 0 and hopper.coins_out == 3
        cab.shutdown()
        reboot_as(cab, "vlt", hopper=hopper)
        assert cab.firmware.ready["jurisdiction"] == "vlt" and cab.firmware.ready["game"] == "sept-royal-87"
        assert tilt_config(cab) == ""
        cab.panel.wait_for(lambda s: s.get("state") == "idle")  # its system set its validation id
        assert hopper.coins_out == 3 and cab.meters()["hopper_out"] == 12  # booked once
    finally:
        cab.shutdown()


def test_a_hand_pay_and_credits_on_the_meter_keep_the_old_rules_until_paid(tmp_path: Path) -> None:
    state = tmp_path / "s"
    state.mkdir()
    (state / "settings.json").write_text(json.dumps({"HOPPER_LIMIT": 0}))  # every cash-out a hand pay
    ports = dict(zip(("console", "cctalk", "panel", "printer"), free_ports(4)))  # the printer a vlt will need
    cab = EmulatedCabinet(state, ports=ports, extra_args=juris_args("casino")).boot()
    try:
        for _ in range(2):
            cab.insert_token()
        cab.shutdown()
        reboot_as(cab, "vlt")  # credits on the meter: 8 credits at 25 cents under casino rules
        assert cab.firmware.ready["jurisdiction"] == "casino" and cab.firmware.ready["credits"] == 8
        assert tilt_config(cab) == ("change to vlt at 25 cents a credit waits: 8 credits on the meter under casino "
                                    "at 25 cents (paid by those rules first)")
        cab.panel.press("cashout")  # the config tilt's cash-out: a hand pay, under casino rules
        cab.panel.wait_for(lambda s: s.get("state") == "handpay")
        cab.shutdown()
        reboot_as(cab, "vlt")
        assert tilt_config(cab) == ("change to vlt at 25 cents a credit waits: 8 credits on the meter, a handpay of 8 "
                                    "credits to pay under casino at 25 cents (paid by those rules first)")
        cab.attendant_key()
        cab.panel.wait_for(lambda s: s.get("credits") == 0 and s.get("state") == "tilt")
        assert cab.meters()["cancelled"] == 8
        cab.shutdown()
        reboot_as(cab, "vlt")
        assert cab.firmware.ready["jurisdiction"] == "vlt" and tilt_config(cab) == ""
    finally:
        cab.shutdown()


def test_under_vlt_an_unsigned_or_older_configuration_is_refused_by_name(tmp_path: Path) -> None:
    state = tmp_path / "s"
    cab = EmulatedCabinet(state, extra_args=juris_args("vlt")).boot()  # operator configuration 1, signed
    try:
        cab.insert_token()
        cab.shutdown()
        cab.firmware.sign_config = False  # from here on the operator signs nothing new
        cab.firmware.extra_args = ["--jurisdiction", "vlt"]  # the games are the configuration's
        # the settings file edited: another game set, another credit value
        for settings, want in (({"GAMES": ["trefle-90"]}, "GAMES: the operator's signed configuration says "
                                "sept-royal-87; the settings file or the command line may not change it"),
                               ({"DENOM_CENTS": 10}, "DENOM_CENTS: the operator's signed configuration says 25; the "
                                "settings file or the command line may not change it")):
            (state / "settings.json").write_text(json.dumps(settings))
            cab.boot()
            assert cab.firmware.ready["jurisdiction"] == "vlt" and cab.firmware.ready["game"] is None
            assert tilt_config(cab) == want
            cab.shutdown()
        (state / "settings.json").unlink()
        (state / "operator.json").unlink()  # and its signature left beside it
        cab.boot()
        assert tilt_config(cab) == ("JURISDICTION: under vlt the game set, credit value and jurisdiction come only from "
                                    "a configuration the operator signs; there is none (operator.json)")
        cab.panel.press("cashout")  # the credit is still paid, by the committed rules: a coupon
        cab.panel.wait_for(lambda s: s.get("credits") == 0)
        wait(cab.printer.issued)
        cab.shutdown()
        signed_config(state, 3, "vlt")
        cab.boot()
        assert tilt_config(cab) == "" and cab.firmware.ready["game"] == "sept-royal-87"
        cab.shutdown()
        signed_config(state, 2, "vlt", games=("trefle-90", "sept-royal-87"))  # a genuine, older configuration
        cab.boot()
        assert tilt_config(cab).endswith("operator.json: configuration 2 is older than number 3, accepted here "
                                         "(never taken again)")
        flip = bytearray((state / "operator.json").read_bytes())
        flip[flip.index(b"25")] = ord("5")
        (state / "operator.json").write_bytes(bytes(flip))
        cab.shutdown()
        cab.boot()
        # the signature first: what an unsigned file says (55 cents a credit: COINS no longer divide) comes after
        assert tilt_config(cab).endswith("/operator.json: not signed by the operator's key (and 2 more)")
    finally:
        cab.shutdown()
