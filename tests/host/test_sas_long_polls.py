"""SAS part 2's long polls on the real firmware image (a casino cabinet on the emulated board),
driven by the project's own host (sim/sas_host.py) and, where saspy has a call for the poll, by
saspy's own call. What the hosts read is checked against the console's meters, Python's own
clock (zoneinfo) and CRCs computed by crccheck and by saspy (independent of the firmware), never
against the SAS code. Layouts: docs/sas.md's table (saspy's sizes, Monaco's LPParsers' offsets)."""
from __future__ import annotations

import datetime
import json
import time
import zoneinfo
from pathlib import Path

import pytest
from crccheck.crc import CrcKermit
from sas_rig import sas_cabinet, sas_host

from sim.sas_host import bcd

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cab(tmp_path_factory):
    yield from sas_cabinet(tmp_path_factory.mktemp("sas2"))


@pytest.fixture(scope="module")
def host(cab):
    yield from sas_host(cab)


@pytest.fixture(scope="module")
def saspy(cab, host):
    from sim.sas_pty import accept_parity

    accept_parity()
    import sas as saspy_module  # installed by `make saspy` (mk/sas.mk)

    s = saspy_module.Sas(cab.sas_path, timeout=1, poll_address=0x82, denom=0.25, debug_level="CRITICAL")
    cab.power_cut()  # a fresh link: the machine chirps its address until polled, and saspy reads it
    cab.boot()
    assert s.start() == "01"
    s.events_poll()
    host.sync()
    host.exceptions()
    yield s
    s.close()


def idle(cab) -> None:
    cab.panel.wait_for(lambda s: s.get("state") in ("idle", "credit"))


def test_1c_and_the_single_meters_equal_the_consoles(cab, host, saspy) -> None:
    cab.insert_token()
    cab.play()
    m = cab.meters()
    d = host.checked(0x1C, 36)
    assert [bcd(d[i:i + 4]) for i in range(0, 32, 4)] == [
        m["coin_in"], m["coin_out"], m["acceptor_in"] + m["bill_in"], m["jackpot"], m["games_played"],
        m["games_won"], m["door_main"], m["power_resets"]]
    assert bcd(host.checked(0x2A, 8)) == m["acceptor_in"] and bcd(host.checked(0x2B, 8)) == m["hopper_out"]
    assert bcd(host.checked(0x46, 8)) == m["bill_in"] and bcd(host.checked(0x20, 8)) == m["bill_in"] // 4
    got = saspy.meters(denom=False)  # saspy's own call (1C, its 36 bytes); it drops the meters at 0
    assert got["total_bet_meter"] == m["coin_in"] and got["games_played_meter"] == m["games_played"]
    assert got.get("slot_door_opened_meter", 0) == m["door_main"] and got["power_reset_meter"] == m["power_resets"]
    assert saspy.total_dollar_value_of_bills_meter() == m["bill_in"] // 4
    assert saspy.credit_amount_of_all_bills_accepted() == m["bill_in"]


def test_2f_6f_af_and_2d_for_game_n(cab, host) -> None:
    m = cab.meters()
    d = host.variable(0x2F, b"\x00\x01\x00\x05\x0c\x77", multi=True)  # 77: a code Jeton does not keep
    assert d[:2] == b"\x00\x01" and d[2] == 0x00 and bcd(d[3:7]) == m["coin_in"]
    assert d[7] == 0x05 and bcd(d[8:12]) == m["games_played"] and d[12] == 0x0C and bcd(d[13:17]) == m["credits"]
    assert len(d) == 17
    for cmd in (0x6F, 0xAF):
        d = host.variable(cmd, b"\x00\x00\x24\x00\x00\x01", multi=True)  # total drop; 0100: not kept
        assert d[:2] == b"\x00\x00" and d[2:5] == b"\x24\x00\x05" and bcd(d[5:10]) == m["acceptor_in"] + m["bill_in"]
        assert d[10:] == b"\x00\x01\x00"
    d = host.checked(0x2D, 10, b"\x00\x01")
    assert d[:2] == b"\x00\x01" and bcd(d[2:]) == m["cancelled"]
    assert host.long_poll(0x2F, b"\x03\x00\x09\x00", reply=1) == b"\x81"  # game 9: NACK


def test_games_51_53_55_56_a0(cab, host, saspy) -> None:
    assert host.checked(0x51, 6) == b"\x00\x01" and host.checked(0x55, 6) == b"\x00\x01"
    assert host.variable(0x56) == b"\x01\x00\x01"  # one game enabled: 0001
    d = host.checked(0x53, 26, b"\x00\x01")
    assert d[:2] == b"\x00\x01" and d[2:] == host.checked(0x1F, 24)  # game 1: 1F's fields
    assert host.checked(0xA0, 9, b"\x00\x01") == b"\x00\x01\x00\x00\x00"
    d = host.variable(0xB5, b"\x00\x01")  # Monaco's LPB5 layout
    model = json.loads((ROOT / "games/models/sept-royal-87.json").read_text())
    n = d[9]
    assert d[:2] == b"\x00\x01" and bcd(d[2:4]) == max(model["bets"]) and d[4:9] == bytes(5)
    assert d[10:10 + n].decode() == model["name"]["en"]
    j = 10 + n
    assert d[j + 1:j + 1 + d[j]].decode() == model["id"]
    assert d[j + 1 + d[j]:] == b"\x00\x00\x01\x04"  # no wager categories; one denomination, 25 cents
    assert saspy.total_number_of_games_implemented() == "b'0001'"  # saspy hexlifies the 2 BCD
    assert saspy.selected_game_number() == b"0001"


def test_game_n_disable_enable_with_saspy_and_the_state_table(cab, host, saspy) -> None:
    idle(cab)
    assert saspy.en_dis_game(game_number=1, en_dis=False) is True  # saspy's own call: disable game 0001
    cab.panel.wait_for(lambda s: s.get("state") == "tilt")
    assert host.variable(0x56) == b"\x00"
    cab.panel.press("play")
    time.sleep(0.3)
    assert cab.panel.screen["state"] == "tilt"
    assert saspy.en_dis_game(game_number=1, en_dis=True) is True
    idle(cab)
    assert host.command(0x09, b"\x00\x02\x01") == 0x81  # no game 2


def test_maintenance_mode_and_bill_acceptor_orders(cab, host, saspy) -> None:
    idle(cab)
    assert saspy.enter_maintenance_mode() is True
    cab.panel.wait_for(lambda s: s.get("state") == "tilt")
    assert saspy.exit_maintenance_mode() is True
    idle(cab)
    assert saspy.disable_bill_acceptor() is True  # 07 (a casino cabinet takes no notes: only the order)
    assert "bill acceptor disabled by the central system" in "\n".join(cab.console.command("events"))
    assert saspy.enable_bill_acceptor() is True  # 06


def test_94_resets_a_hand_pay_only_in_a_hand_pay(cab, host, saspy) -> None:
    idle(cab)
    assert host.checked(0x94, 5, with_crc=True) == b"\x02"  # not in a hand pay
    host.exceptions()
    cab.insert_token()
    cab.panel.set_pin("door_main", 1)  # a door open: the cash-out is paid by hand
    cab.panel.wait_for(lambda s: s.get("state") == "door")
    cab.panel.press("cashout")
    cab.panel.wait_for(lambda s: s.get("state") == "handpay")
    cab.panel.set_pin("door_main", 0)
    before = cab.meters()
    assert saspy.remote_handpay_reset() is True  # saspy's call: it reads our reply's first byte
    s = cab.panel.wait_for(lambda s: s.get("state") in ("idle", "credit"))
    m = cab.meters()
    assert s["credits"] == 0 and m["cancelled"] == before["cancelled"] + before["credits"]
    got = host.exceptions()
    assert got.count(0x51) == 1 and got.count(0x52) == 1 and got.index(0x51) < got.index(0x52), got


def test_7e_is_quebec_time_and_7f_is_refused_under_casino(cab, host, saspy) -> None:
    d = host.checked(0x7E, 11)
    got = datetime.datetime.strptime(d.hex(), "%m%d%Y%H%M%S")
    now = datetime.datetime.now(zoneinfo.ZoneInfo("America/Montreal")).replace(tzinfo=None)
    assert abs((got - now).total_seconds()) < 5
    # saspy's call reads the 11 bytes and checks their CRC, then parses str() of bytes ("b'...'"):
    # its parse fails, on the digits we sent
    with pytest.raises(ValueError, match=d.hex()[:8]):
        saspy.current_date_time()
    assert host.command(0x7F, bytes.fromhex("01152026120000")) == 0x81  # casino: host_clock False


def reflected(seed: int) -> int:
    """crccheck takes a reflected CRC's initial value unreflected: the seed's 16 bits reversed."""
    return int(format(seed, "016b")[::-1], 2)


def test_21_rom_signature_over_the_image_without_stopping_play(cab, host, saspy) -> None:
    with open(cab.firmware.command()[0], "rb") as f:
        image = f.read()
    from utils import Crc  # saspy's own CRC routine (utils/Crc.py): the seed as its initial value

    for seed in (0x0000, 0xBEEF):
        host.exceptions()
        assert host.command(0x21, seed.to_bytes(2, "little")) == 1  # ACK: computing
        credits = cab.insert_token()["credits"]  # play goes on meanwhile
        deadline = time.monotonic() + 60
        r = b""
        while time.monotonic() < deadline:
            r = host.general_poll_reply(6)
            if len(r) == 6:
                break
            assert r != b"", "no answer to a general poll while computing"
            time.sleep(0.1)
        assert r[:2] == b"\x01\x21" and CrcKermit.calc(r[:-2]).to_bytes(2, "little") == r[-2:], r
        assert int.from_bytes(r[2:4], "little") == CrcKermit.calc(image, reflected(seed))
        assert list(r[2:4]) == Crc.calculate(image, init=seed)  # saspy's, LSB first
        assert host.checked(0x21, 6, seed.to_bytes(2, "little")) == r[2:4]  # asked again: at once
        assert cab.panel.screen["credits"] == credits
    changed = bytearray(image)
    changed[len(image) // 2] ^= 1
    assert CrcKermit.calc(bytes(changed), reflected(0xBEEF)) != int.from_bytes(r[2:4], "little")  # one byte
    # saspy's call reads one byte (its size default): it gets the ACK and parses nothing
    assert saspy.rom_signature_verification() is None
