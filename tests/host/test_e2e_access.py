"""Console accounts, roles, the persistent lockout and the security log through the real firmware
image on the emulated board (issue 11 s. 5, s. 6): no credential until one is made on the machine,
a login and a refused command per role, a wrong-PIN lockout that survives a power cut, a RAM clear
that keeps the security log, and every action in `events json`."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from sim.harness import ADMIN_ID, ADMIN_PIN, EmulatedCabinet, enrol, sign_in
from tools.console import ConsoleClient

PINS = {"att": "att-pin-1", "tech": "tech-pin-1", "aud": "aud-pin-1"}
ROLES = {"att": "attendant", "tech": "technician", "aud": "auditor"}
ALLOWED = {"att": "meters json", "tech": "hardmeters json", "aud": "recall json", ADMIN_ID: "account list"}
REFUSED = {"att": "recall", "tech": "meters", "aud": "testgame"}


def security(console: ConsoleClient) -> list[list]:
    return json.loads(console.command("events json")[-1])["security"]


def add(console: ConsoleClient, uid: str, role: str, pin: str) -> None:
    assert console.command(f"account add {uid} {role}") == [f"new PIN for {uid}:"]
    assert console.command(pin) == ["the same again:"]
    assert console.command(pin) == [f"account {uid} ({role}) added"]


def test_a_fresh_cabinet_has_no_credential_and_each_role_gets_only_its_commands(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path).boot(login=False)
    try:
        con = cab.console
        hint = "no account yet: turn the audit key and 'setup ID' to make the first administrator"
        assert con.command("meters") == ["refused: " + hint]
        assert con.login("admin", "2468") == ["error: " + hint]  # the old shared PIN is gone
        assert con.command(f"setup {ADMIN_ID}") == ["error: turn the audit key first"]
        assert sign_in(con, cab.panel)[0] == "administrator sim created; logged in"
        for uid, role in ROLES.items():
            add(con, uid, role, PINS[uid])
        assert con.command("logout") == ["logged out"]
        for uid in (*ROLES, ADMIN_ID):
            role = ROLES.get(uid, "administrator")
            assert con.login(uid, PINS.get(uid, ADMIN_PIN)) == [f"logged in as {uid} ({role})"]
            out = con.command(ALLOWED[uid])
            assert out and not out[0].startswith(("refused", "error")), (uid, out)
            if uid in REFUSED:
                name = REFUSED[uid].split()[0]
                assert con.command(REFUSED[uid])[0].startswith(f"refused: {name} is not for a"), uid
            assert con.command("logout") == ["logged out"]
        assert con.command("state") == ["refused: log in first: 'login ID'"]
        sign_in(con, cab.panel)
        trail = security(con)
        seen = {(r[2], r[3], r[4].split(" =>")[0].split(":")[0]) for r in trail}
        for uid in (*ROLES, ADMIN_ID):
            assert (uid, "login", ROLES.get(uid, "administrator")) in seen
            assert (uid, "ok", ALLOWED[uid]) in seen
            assert (uid, "logout", f"by {uid}") in seen
            if uid in REFUSED:
                assert (uid, "refused", REFUSED[uid]) in seen
        # lines from no session are noise: counted in the summary, not records (issue 22.7)
        assert ("-", "refused", "meters") not in seen and ("-", "refused", "state") not in seen
        status = json.loads(con.command("security status")[0])
        assert status["noise"] >= 3 and status["last"] == "refused -: state: log in first: 'login ID'", status
        assert (ADMIN_ID, "setup", "first administrator sim, logged in") in {tuple(r[2:]) for r in trail}
        for pin in (*PINS.values(), ADMIN_PIN):
            assert pin not in json.dumps(trail)  # a PIN is never logged
        assert [r[0] for r in trail] == list(range(1, len(trail) + 1))  # numbered, none missing
    finally:
        cab.shutdown()


def test_a_wrong_pin_lockout_survives_a_power_cut(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path).boot()  # makes the administrator
    try:
        cab.console.command("logout")
        for i in range(2):
            assert cab.console.login(ADMIN_ID, f"guess-{i}") == ["error: wrong account or PIN"]
        assert cab.console.login(ADMIN_ID, "guess-2") == ["error: wrong account or PIN: locked for 60 s"]
        cab.power_cut()  # the attack of issue 11: reboot between tries
        cab.boot(login=False)
        assert cab.console.command(f"login {ADMIN_ID}") == ["error: locked after 3 wrong PINs: wait 60 s"]
        assert cab.console.command("meters") == ["refused: log in first: 'login ID'"]
    finally:
        cab.shutdown()


def test_a_ram_clear_keeps_the_security_log_and_says_who_cleared(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path).boot()
    try:
        con = cab.console
        cab.insert_token()
        con.command("logout")
        assert con.login(ADMIN_ID, "not-the-pin") == ["error: wrong account or PIN"]
        sign_in(con, cab.panel)
        before = security(con)
        assert [r for r in before if r[3] == "badpin"]
        assert con.command("ramclear") == ["error: turn the audit key first"]
        cab.panel.set_pin("key_audit", 1)
        cab.panel.wait_for(lambda s: s.get("state") == "audit")  # the key on, a token's credits owed
        assert con.command("ramclear") == ["error: RAM clear refused: 4 credits on the meter: cash them out first"]
        cab.cash_out()  # by hand (the audit key is on: never the hopper), the attendant's key pays it
        cab.panel.wait_for(lambda s: s.get("state") == "service")
        deadline = time.monotonic() + 10
        while json.loads(con.command("hardmeters json")[0])["busy"]:  # the hand pay's strokes first
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert con.command("ramclear") == ["critical memory cleared; meters start at zero"]
        cab.panel.set_pin("key_audit", 0)
        doc = json.loads(con.command("events json")[-1])
        after = doc["security"]
        assert after[:len(before)] == before  # every record of the evidence is still there
        assert [r for r in after if r[2:] == [ADMIN_ID, "ramclear", f"by {ADMIN_ID}, audit key, nothing owed"]]
        assert doc["events"][0][2:] == ["ramclear", f"by {ADMIN_ID}, audit key, nothing owed"]
        assert cab.meters()["credits"] == 0
    finally:
        cab.shutdown()


@pytest.mark.parametrize("line", ["testgame", "tournament end", "ramclear"])
def test_an_attendant_cannot_run_a_technicians_or_an_administrators_command(tmp_path: Path, line: str) -> None:
    cab = EmulatedCabinet(tmp_path).boot()
    try:
        add(cab.console, "att", "attendant", PINS["att"])
        cab.console.command("logout")
        cab.console.login("att", PINS["att"])
        cab.panel.set_pin("key_audit", 1)  # the key alone is not enough any more (issue 11)
        cab.panel.wait_for(lambda s: s.get("state") == "service")  # the key on, nothing owed
        assert cab.console.command(line) == [f"refused: {line} is not for an attendant"]
        trail = security(ConsoleSwap(cab).console)
        assert [r for r in trail if r[2:4] == ["att", "refused"] and r[4].startswith(line + ":")]
        assert [r for r in trail if r[2:] == ["att", "logout", "link changed"]]
    finally:
        cab.shutdown()


class ConsoleSwap:
    """The attendant's session cannot read the security log: an auditor's terminal takes the link."""

    def __init__(self, cab: EmulatedCabinet):
        cab.console.close()
        cab.console = ConsoleClient(f"socket://127.0.0.1:{cab.ports['console']}", connect_for=5)
        sign_in(cab.console, cab.panel)
        self.console = cab.console


def test_a_lost_security_memory_needs_the_operators_enrolment_never_the_audit_key_alone(tmp_path: Path) -> None:
    # issue 22.8: the NVRAM part wiped (STATE/nvram.bin deleted) on a machine that had an
    # administrator. The audit key and `setup` no longer make one; an enrolment the operator signed
    # for this board and a number above the board's "enrol" floor does, once
    from tools import firmware as fwbuild
    from tools import operator

    cab = EmulatedCabinet(tmp_path).boot()  # the first administrator, with the audit key (a new machine)
    cab.shutdown()
    (tmp_path / "nvram.bin").unlink()
    cab = EmulatedCabinet(tmp_path).boot(login=False)
    try:
        con = cab.console
        assert cab.firmware.ready["state"] == "ramerror"
        hint = "no account: this machine had accounts or lost its security memory: enrolment needs the operator's signature"
        assert con.command("meters") == [f"refused: {hint} ('enrol' says how)"]
        cab.panel.set_pin("key_audit", 1)
        deadline = time.monotonic() + 10
        while (out := con.setup("evil", "evil-pin-1")) == ["error: turn the audit key first"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert out == ["error: this machine had accounts or lost its security memory: enrolment needs the "
                       "operator's signature ('enrol' says how)"]
        info = con.command("enrol")[0]
        board = info.split()[1].rstrip(":")
        assert info == (f"board {board}: ask the operator for enrolment number 1 of an account id; then 'enrol ID N', "
                        "the PIN twice and the signature in 12 lines of 64 hex digits")
        # another key's signature, or the operator's for another board or number, is refused
        other = tmp_path / "other.pem"
        operator.sign.keygen(other)
        for key, b, n in ((other, board, 1), (fwbuild.DEV_OPERATOR_KEY, "0" * 16, 1)):
            con.command("enrol boss 1")
            con.command("boss-pin-1")
            con.command("boss-pin-1")
            for line in operator.enrol_lines(key, b, n, "boss"):
                out = con.command(line)
            assert out == [f"error: not an enrolment the operator signed for board {board}, number 1, boss: "
                           "nothing changed"], out
        assert enrol(con, "boss", "boss-pin-1") == ["administrator boss enrolled (operator's enrolment 1); logged in"]
        assert con.command("ramclear") == ["critical memory cleared; meters start at zero"]
        trail = security(con)
        assert trail[0][3] == "lost" and [r for r in trail if r[2:4] == ["boss", "enrol"]]
    finally:
        cab.panel.set_pin("key_audit", 0)
        cab.shutdown()
    (tmp_path / "nvram.bin").unlink()  # lost again: enrolment 1 was used, it is never taken again
    cab = EmulatedCabinet(tmp_path).boot(login=False)
    try:
        cab.panel.set_pin("key_audit", 1)
        time.sleep(0.1)
        con = cab.console
        assert con.command("enrol boss 1") == ["error: enrolment 1 was used or is older: the next is above 1"]
        assert cab.sign_in()[-1].endswith("(operator's enrolment 2); logged in")  # the harness asks for number 2
    finally:
        cab.shutdown()


def test_anonymous_lines_over_the_wire_push_out_no_security_record(tmp_path: Path) -> None:
    # issue 22.7 end to end: the 300 anonymous lines pushed the setup and both badpin records out
    # of the log; here LINES of them, each answered before the next (10^5 at the device level:
    # tests/device/test_firmware_access.py), after the security records of a session
    lines = 2000
    cab = EmulatedCabinet(tmp_path).boot()  # the setup record
    try:
        con = cab.console
        con.command("logout")
        for pin in ("wrong-pin-1", "wrong-pin-2"):
            assert con.login(ADMIN_ID, pin) == ["error: wrong account or PIN"]
        sign_in(con, cab.panel)
        before = security(con)
        assert [r for r in before if r[3] == "setup"] and len([r for r in before if r[3] == "badpin"]) == 2
        noise = json.loads(con.command("security status")[0])["noise"]  # the harness's own 'setup' tries
        con.command("logout")
        con.port.timeout = 0.005  # each line answered as soon as its prompt arrives (sim/fuzz_rig.py)
        for i in range(lines):
            con.command(("meters", "xyzzy", "state", "setup x")[i % 4])
        sign_in(con, cab.panel)
        after = security(con)
        assert after[:len(before)] == before  # every record of the session is still there
        status = json.loads(con.command("security status")[0])
        assert status["noise"] == noise + lines and status["no_room"] == 0, status
        # the anonymous lines left no record: after the export above, the logout, the login and this session's
        assert [r[3] for r in after[len(before):]] == ["ok", "ok", "logout", "login", "ok"], after[len(before):]
    finally:
        cab.shutdown()
