# Console accounts, roles, the lockout kept in critical memory, and the security log, on the real
# Console and Cabinet with fakes (firmware/accounts.py, firmware/audit.py, firmware/console.py).
# mp-heap: 1024K  (the firmware's 256K, the 68 + 55 KB NVRAM images the fakes keep in RAM, the tests)
import json

from fakes_access import ADMIN, ADMIN_PIN, accounts, security
from firmware import config
from firmware.accounts import ROLES, backoff_s
from firmware.console import Console
from test_firmware_cabinet import cabinet, steps
from test_firmware_console import Uart, run

# one command each role may run and one it may not (issue 11 s. 5)
ALLOWED = {"attendant": "meters json", "technician": "mem", "auditor": "recall", "administrator": "account list"}
REFUSED = {"attendant": "events", "technician": "meters", "auditor": "testgame", "administrator": None}


def fresh(users=None):
    cab, board, acc = cabinet()
    sec = security()
    cab.audit = sec
    users = users or accounts(sec, board.ticks_ms)
    return Console(Uart(), cab, users, sec), cab, board, users, sec


def login(con, uid, pin=ADMIN_PIN):
    assert run(con, "login " + uid) == ["PIN for %s:" % uid]
    return run(con, pin)


def key(board, cab, on):
    board.pins["key_audit"].value(1 if on else 0)
    steps(cab, 10)


def test_no_default_credential_the_first_administrator_needs_the_audit_key():
    con, cab, board, users, sec = fresh()
    assert users.empty()
    hint = "refused: no account yet: turn the audit key and 'setup ID' to make the first administrator"
    assert run(con, "meters") == [hint]
    assert run(con, "help")[0].startswith("account ")  # help stays open
    assert run(con, "setup boss") == ["error: turn the audit key first"]
    key(board, cab, True)
    assert run(con, "setup boss") == ["new PIN for administrator boss:"]
    assert run(con, "12345") == ["error: a PIN or passphrase is 6 to 64 characters"]
    assert users.empty()
    run(con, "setup boss")
    assert run(con, ADMIN_PIN) == ["the same again:"]
    assert run(con, ADMIN_PIN) == ["administrator boss created; logged in"]
    assert users.listing() == [("boss", "administrator")]
    assert run(con, "setup other") == ["error: accounts exist: 'login ID'"]
    trail = json.dumps(sec.records())
    assert ADMIN_PIN not in trail and "12345" not in trail  # a PIN is never logged
    assert '"boss", "setup"' in trail


def test_a_login_and_a_refusal_per_role_each_logged_with_the_account():
    con, cab, board, users, sec = fresh()
    for role in ROLES:
        users.add(role[:8], role, ADMIN_PIN)
    for role in ROLES:
        uid = role[:8]
        assert login(con, uid) == ["logged in as %s (%s)" % (uid, role)]
        out = run(con, ALLOWED[role])
        assert not out or not out[0].startswith(("refused", "error")), (role, out)
        if REFUSED[role]:
            name = REFUSED[role].split()[0]
            assert run(con, REFUSED[role])[0].startswith("refused: %s is not for a" % name)
            assert sec.records()[-1][2:4] == [uid, "refused"]
        assert run(con, "logout") == ["logged out"]
    assert run(con, "meters") == ["refused: log in first: 'login ID'"]
    codes = [(r[2], r[3]) for r in sec.records()]
    for role in ROLES:
        assert (role[:8], "login") in codes and (role[:8], "logout") in codes
    assert ("-", "refused") in codes  # a command without a session, refused and logged


def test_tournament_prize_pool_and_ram_clear_are_the_administrators():
    con, cab, board, users, sec = fresh()
    users.add("tech", "technician", ADMIN_PIN)
    login(con, "tech")
    key(board, cab, True)
    assert run(con, "tournament end") == ["refused: tournament end is not for a technician"]
    assert run(con, "tournament")[0] == "no tournament"  # the status is everyone's
    assert run(con, "ramclear")[0] == "refused: ramclear is not for a technician"
    assert run(con, "testgame")[0].startswith("TEST GAME")  # a technician's, with the key
    assert [r for r in sec.records() if r[3] == "ok" and r[4].startswith("testgame => TEST GAME")]


def test_wrong_pins_lock_the_console_with_a_growing_backoff_that_survives_a_power_cycle():
    con, cab, board, users, sec = fresh()
    users.add(ADMIN, "administrator", ADMIN_PIN)
    for i in range(config.PIN_TRIES - 1):
        assert login(con, ADMIN, "wrong pin %d" % i) == ["error: wrong account or PIN"]
    assert login(con, "nobody", "wrong pin") == ["error: wrong account or PIN: locked for 60 s"]
    assert run(con, "login " + ADMIN) == ["error: locked after 3 wrong PINs: wait 60 s"]  # even the right one
    # power cycle: the counter is in critical memory, and a lock starts over in full at power-up
    board.now += 30000
    users2 = accounts(sec, board.ticks_ms)
    con2 = Console(Uart(), cab, users2, sec)
    assert users2.fails == 3 and users2.wait_s() == 60
    board.now += 60000
    assert login(con2, ADMIN, "again wrong") == ["error: wrong account or PIN: locked for 120 s"]
    board.now += 119000
    assert run(con2, "login " + ADMIN) == ["error: locked after 4 wrong PINs: wait 1 s"]
    board.now += 1000
    assert login(con2, ADMIN) == ["logged in as admin1 (administrator)"]
    assert users2.fails == 0 and accounts(sec, board.ticks_ms).wait_s() == 0
    codes = [r[3] for r in sec.records()]
    assert codes.count("badpin") == 4 and "login" in codes
    bad = [r for r in sec.records() if r[3] == "badpin"]
    assert [r[2] for r in bad] == [ADMIN, ADMIN, "nobody", ADMIN]  # the id tried, each time
    assert bad[0][4] == "login admin1: error: wrong account or PIN"
    assert [r for r in sec.records() if r[3] == "refused" and "locked" in r[4]]


def test_a_try_is_on_record_before_the_pin_is_checked():
    # the attack of issue 11: power cut between a try and its answer, 206 tries a minute
    con, cab, board, users, sec = fresh()
    users.add(ADMIN, "administrator", ADMIN_PIN)
    seen = []

    def key_then_cut(pin, salt, iterations):
        seen.append(json.loads(sec.mem.read("acct"))["f"])
        raise KeyboardInterrupt  # the power goes while the PIN is being derived
    users._key = key_then_cut
    try:
        users.check(ADMIN, "guess 1")
    except KeyboardInterrupt:
        pass
    assert seen == [1]
    assert accounts(sec, board.ticks_ms).fails == 1  # after the power cut the try still counts


def test_backoff_grows_and_is_capped():
    assert [backoff_s(f, 3, 60) for f in (0, 2, 3, 4, 5, 8, 40)] == [0, 0, 60, 120, 240, 1920, 3600]


def test_sessions_time_out_and_end_when_another_terminal_takes_the_link():
    con, cab, board, users, sec = fresh()
    users.add(ADMIN, "administrator", ADMIN_PIN)
    login(con, ADMIN)
    board.now += config.SESSION_S * 1000 + 1
    assert run(con, "meters") == ["session timed out: log in again", "refused: log in first: 'login ID'"]
    assert sec.records()[-2][2:] == [ADMIN, "logout", "timed out"]
    con.uart.peers = 1
    login(con, ADMIN)
    con.uart.peers = 2  # a second terminal on the link
    assert run(con, "meters") == ["refused: log in first: 'login ID'"]
    assert [r for r in sec.records() if r[3:] == ["logout", "link changed"]]


def test_accounts_add_list_delete_and_passwd():
    con, cab, board, users, sec = fresh()
    users.add(ADMIN, "administrator", ADMIN_PIN)
    login(con, ADMIN)
    assert run(con, "account add ann attendant") == ["new PIN for ann:"]
    assert run(con, "ann-pin-1") == ["the same again:"]
    assert run(con, "ann-pin-2") == ["error: the two PINs differ: nothing changed"]
    assert users.find("ann") is None
    for line, reply in (("account add ann attendant", "new PIN for ann:"), ("ann-pin-1", "the same again:"),
                        ("ann-pin-1", "account ann (attendant) added")):
        assert run(con, line) == [reply]
    assert run(con, "account add ann auditor") == ["error: account ann exists"]
    assert run(con, "account add Bad! auditor")[0].startswith("error: an account id holds")
    assert run(con, "account add bob chief")[0].startswith("error: role must be one of")
    assert run(con, "account list") == ["admin1   administrator", "ann      attendant"]
    assert run(con, "account del admin1") == ["error: you cannot delete your own account"]
    a = users.find("ann")
    assert a[2] != users.find(ADMIN)[2] and len(a[3]) == 64  # own salt; a 32-byte key
    run(con, "logout")
    login(con, "ann", "ann-pin-1")
    for line, reply in (("passwd", "current PIN:"), ("ann-pin-1", "new PIN:"), ("ann-pin-9", "the same again:"),
                        ("ann-pin-9", "PIN changed")):
        assert run(con, line) == [reply]
    run(con, "logout")
    assert login(con, "ann", "ann-pin-1") == ["error: wrong account or PIN"]
    assert login(con, "ann", "ann-pin-9") == ["logged in as ann (attendant)"]
    assert run(con, "account list")[0].startswith("refused: account is not for an attendant")
    run(con, "logout")
    login(con, ADMIN)
    assert run(con, "account del ann") == ["account ann deleted"]
    assert users.listing() == [("admin1", "administrator")]
    trail = json.dumps(sec.records())
    for pin in ("ann-pin-1", "ann-pin-2", "ann-pin-9", ADMIN_PIN):
        assert pin not in trail


def test_the_last_administrator_cannot_be_deleted():
    con, cab, board, users, sec = fresh()
    users.add(ADMIN, "administrator", ADMIN_PIN)
    try:
        users.delete(ADMIN)
        raise AssertionError("deleted the last administrator")
    except ValueError as e:
        assert "last administrator" in str(e)


def test_the_security_log_is_a_ring_that_keeps_the_newest_and_survives_reopening():
    from firmware.audit import AUDIT_CHUNKS, PER_CHUNK, Audit

    sec = security()
    total = AUDIT_CHUNKS * PER_CHUNK + 20
    for i in range(total):
        sec.record("u%d" % (i % 3), "ok", "command %d" % i)
    recs = sec.records()
    assert len(recs) >= (AUDIT_CHUNKS - 1) * PER_CHUNK and recs[-1][4] == "command %d" % (total - 1)
    assert [r[0] for r in recs] == list(range(recs[0][0], total + 1))
    again = Audit(sec.mem)  # a power cycle: the count is found again from the records
    assert again.open() == [] and again.n == total
    again.record("x", "ok", "after")
    assert again.records()[-1][0] == total + 1


def test_a_ram_clear_keeps_the_security_log():
    con, cab, board, users, sec = fresh()
    users.add(ADMIN, "administrator", ADMIN_PIN)
    for i in range(5):
        login(con, ADMIN, "wrong %d" % i)
        board.now += 4000 * 1000
    login(con, ADMIN)
    before = sec.records()
    key(board, cab, True)
    assert run(con, "ramclear")[0].startswith("critical memory cleared")
    after = sec.records()
    assert after[:len(before)] == before  # nothing of the evidence went
    assert [r for r in after if r[3] == "ramclear" and r[2] == ADMIN]


def test_the_security_memory_commits_through_the_ledgers_buffers():
    from fakes_firmware import RamNvram, memory
    from firmware.audit import Audit, share_buffers
    from firmware.ledger import Ledger

    led = Ledger(memory(RamNvram(69632)))
    led.open()
    sec = security()
    assert share_buffers(sec.mem, led.mem)
    assert sec.mem._jbuf is led.mem._jbuf and sec.mem._cbuf is led.mem._cbuf
    for i in range(40):  # interleaved with the ledger's own commits, in the same buffers
        sec.record("u", "ok", "command %d" % i)
        led.event("test", "event %d" % i)
    again = Audit(sec.mem)
    assert again.open() == []
    assert [r[4] for r in again.records()][-3:] == ["command 37", "command 38", "command 39"]
    assert led.events()[-1][3] == "event 39"


def test_the_security_memory_opened_with_the_ledgers_buffers_allocates_none():
    # the boot opens it after the game checks, in a fragmented heap: a fuzz campaign saw its own
    # 2 KB journal buffer fail to allocate there at 128K (a restart)
    from fakes_access import blank
    from fakes_firmware import TEST_SECRET, RamNvram, counter_of, memory
    from firmware.audit import JOURNAL, LAYOUT, Audit
    from firmware.critmem import CriticalMemory
    from firmware.ledger import Ledger

    led = Ledger(memory(RamNvram(69632)))
    led.open()
    nv = blank()
    mem = CriticalMemory(nv, LAYOUT, JOURNAL, TEST_SECRET, counter_of(nv, "security"), buffers=led.mem)
    assert mem._jbuf is led.mem._jbuf and mem._cbuf is led.mem._cbuf
    sec = Audit(mem)
    sec.open()
    for i in range(12):
        sec.record("u", "ok", "command %d" % i)
        led.event("test", "event %d" % i)
    again = Audit(CriticalMemory(nv, LAYOUT, JOURNAL, TEST_SECRET, counter_of(nv, "security")))
    assert again.open() == []
    assert [r[4] for r in again.records()][-2:] == ["command 10", "command 11"]
    assert led.events()[-1][3] == "event 11"
