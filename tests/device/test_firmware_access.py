# Console accounts, roles, the lockout kept in critical memory, and the security log, on the real
# Console and Cabinet with fakes (firmware/accounts.py, firmware/audit.py, firmware/console.py).
# mp-heap: 1536K  (the firmware's 256K, the 68 + 55 KB NVRAM images the fakes keep in RAM, the tests)
import json

from devtest import raises
from fakes_access import ADMIN, ADMIN_PIN, accounts, security
from fakes_console import Uart, run
from test_firmware_cabinet import cabinet, steps

from firmware import config
from firmware.accounts import ROLES, backoff_s
from firmware.console import Console

# one command each role may run and one it may not (issue 11 s. 5)
ALLOWED = {"attendant": "meters json", "technician": "mem", "auditor": "recall", "administrator": "account list"}
REFUSED = {"attendant": "events", "technician": "meters", "auditor": "testgame", "administrator": None}


def fresh(users=None):
    sec = security()
    cab, board, acc = cabinet(audit=sec)
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
    assert ("-", "refused") not in codes  # a command without a session is noise: counted, not a record
    assert sec.noise_n == 1 and sec.last == "refused -: meters: log in first: 'login ID'"


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
    # a login refused while locked, from no session, is counted with the noise (the wrong PINs are records)
    assert not [r for r in sec.records() if r[3] == "refused"] and sec.noise_n == 2, sec.status()


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
    assert sec.records()[-1][2:] == [ADMIN, "logout", "timed out"]  # the refusal after it is noise
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


def test_the_security_log_never_writes_over_a_record_not_archived_and_survives_reopening():
    from firmware.audit import AUDIT_CHUNKS, PER_CHUNK, RING, Audit

    sec = security()
    total = RING + 20
    kept = [sec.record("u%d" % (i % 3), "ok", "command %d" % i) for i in range(total)]
    assert kept == [True] * RING + [False] * 20  # the 257th would recycle the chunk of records 1-8
    recs = sec.records()
    assert [r[0] for r in recs] == list(range(1, RING + 1)) and recs[0][4] == "command 0"
    assert sec.room() == 0 and sec.no_room == 20 and sec.last == "ok u2: command %d" % (total - 1)
    again = Audit(sec.mem)  # a power cycle: the count is found again from the records, the summary kept
    assert again.open() == [] and again.n == RING and again.no_room == 20
    assert again.archive(5, "aud") is False  # records 6-8 share the chunk that would go: still no room
    assert again.room() == 0
    again.archive(2 * PER_CHUNK, "aud")  # two chunks archived: 16 records of room, the archive's one of them
    assert again.room() == 2 * PER_CHUNK - 1 and again.no_room == 0
    recs = again.records()
    assert recs[-1][2:4] == ["aud", "archive"] and recs[-1][0] == RING + 1
    assert recs[-1][4] == "records up to 16 archived; noise 0 lines since 0, 0 records without room" or \
        recs[-1][4].startswith("records up to 16 archived; noise 0 lines since ")
    assert recs[0][0] == PER_CHUNK + 1  # the first chunk, archived, was the one recycled
    assert len(again.chunks()) == AUDIT_CHUNKS
    with raises(ValueError):
        again.archive(3, "aud")  # never back
    with raises(ValueError):
        again.archive(again.n + 1, "aud")  # nothing beyond the last record


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
    # as the boot opens it (firmware/audit.py open_security: buffers, the ledger's memory)
    from fakes_firmware import RamNvram, memory

    from firmware.audit import Audit
    from firmware.ledger import Ledger

    led = Ledger(memory(RamNvram(69632)))
    led.open()
    sec = security(buffers=led.mem)
    assert sec.mem._jbuf is led.mem._jbuf and sec.mem._saved is led.mem._saved
    assert sec.mem._pads is led.mem._pads  # the same machine's key: one copy of its pads (208 bytes)
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
    assert mem._jbuf is led.mem._jbuf and mem._saved is led.mem._saved
    sec = Audit(mem)
    sec.open()
    for i in range(12):
        sec.record("u", "ok", "command %d" % i)
        led.event("test", "event %d" % i)
    again = Audit(CriticalMemory(nv, LAYOUT, JOURNAL, TEST_SECRET, counter_of(nv, "security")))
    assert again.open() == []
    assert [r[4] for r in again.records()][-2:] == ["command 10", "command 11"]
    assert led.events()[-1][3] == "event 11"


def test_a_memory_sealed_with_another_key_shares_the_buffers_not_the_pads():
    # the pads are the key's (firmware/critmem.py): a memory opened with another secret beside the
    # ledger's keeps pads of its own, and its records are sealed with its own key, not the ledger's
    from fakes_access import blank
    from fakes_firmware import TEST_SECRET, RamNvram, counter_of, memory

    from firmware.audit import JOURNAL, LAYOUT
    from firmware.critmem import CriticalMemory, RamError

    books = memory(RamNvram(69632))
    nv = blank()
    mine = CriticalMemory(nv, LAYOUT, JOURNAL, b"another machine's 32-byte secret", counter_of(nv, "security"),
                          buffers=books)
    assert mine._jbuf is books._jbuf and mine._pads is not books._pads and mine._pads != books._pads
    assert mine.open() is False
    blocks = {}
    for name, _ in LAYOUT:
        blocks[name] = b""
    blocks["acct"] = b"a"
    mine.format(blocks)
    theirs = CriticalMemory(nv, LAYOUT, JOURNAL, b"another machine's 32-byte secret", counter_of(nv, "security"))
    assert theirs.open() is True and bytes(theirs.read("acct")) == b"a"
    with raises(RamError):  # the books' key opens none of it
        CriticalMemory(nv, LAYOUT, JOURNAL, TEST_SECRET, counter_of(nv, "security")).open()


def test_anonymous_noise_is_counted_not_journaled_and_pushes_out_no_record():
    # issue 22.7: 300 anonymous lines (1.6 s) used to push the setup and both badpin records out of
    # the 256-record ring, each line a full commit. Here 10^5 of them, one every 5 ms (as fast as the
    # issue's), after a record of every security class: every one is still there, and the lines cost
    # one summary commit a minute (NOISE_MS), not one each
    from firmware.audit import NOISE_MS

    con, cab, board, users, sec = fresh()
    sec.clock = board.ticks_ms
    key(board, cab, True)
    run(con, "setup boss")
    run(con, ADMIN_PIN)
    assert run(con, ADMIN_PIN) == ["administrator boss created; logged in"]
    run(con, "account add aud auditor")
    run(con, "aud-pin-1")
    run(con, "aud-pin-1")
    assert run(con, "ramclear")[0].startswith("critical memory cleared")
    key(board, cab, False)
    run(con, "logout")
    login(con, "boss", "wrong pin 1")
    login(con, "aud", "wrong pin 2")
    before = sec.records()
    codes = [r[3] for r in before]
    for code in ("setup", "account", "ramclear", "logout", "badpin"):
        assert code in codes, (code, codes)
    commits = []
    commit = sec.mem.commit

    def counted(blocks, then=None):
        commits.append(sorted(blocks))
        return commit(blocks, then)
    sec.mem.commit = counted
    lines = 100000
    start = board.now
    n0 = sec.noise_n
    for i in range(lines):
        board.now += 5
        con.execute(("meters", "xyzzy", "ramclear", "setup x")[i % 4])  # refused, unknown, refused, error
        if not i % 64:
            con.uart.tx = bytearray()  # the replies: the terminal reads them
    con.uart.tx = bytearray()
    assert sec.records() == before  # not one record pushed out, not one added
    assert sec.noise_n == n0 + lines, sec.status()
    minutes = (board.now - start) // NOISE_MS + 1
    assert 1 <= len(commits) <= minutes and commits[0] == ["log"], (len(commits), minutes)
    assert len(commits) * 1000 // lines == 0  # commits per anonymous line: 0.00x
    run(con, "logged") and None  # one more (unknown) line
    login(con, "aud", "aud-pin-1")
    room = sec.room()  # before the command's own record
    out = run(con, "security")
    assert out[-1].startswith("archived up to 0, room for %d records; %d lines not journaled since " % (
        room, n0 + lines + 1)), out[-1]
    assert out[-1].endswith("(last: unknown -: logged), 0 records without room"), out[-1]


class Streamed:
    """A terminal that keeps only the record numbers of a streamed `security json` (each record
    `[n, ...`, read as the pieces come, whatever their cut: board/json_out.py gathers them)."""

    def __init__(self):
        self.numbers = []
        self.tail = b""

    def write(self, data):
        t = self.tail + bytes(data)
        while True:
            i = t.find(b"[")
            j = t.find(b",", i) if i >= 0 else -1
            if j < 0:
                break
            number = t[i + 1:j].decode()
            if number.isdigit():
                self.numbers.append(int(number))
            t = t[i + 1:]
        self.tail = t[t.find(b"["):] if b"[" in t else b""
        return len(data)


def test_a_full_security_log_stops_privileged_operations_until_an_auditor_archives_it():
    from firmware.audit import RESERVE

    con, cab, board, users, sec = fresh()
    users.add(ADMIN, "administrator", ADMIN_PIN)
    users.add("aud", "auditor", "aud-pin-1")
    login(con, ADMIN)
    while not sec.full():
        assert run(con, "account list")[0].startswith("admin1 ")
    assert sec.room() == RESERVE
    n = sec.n
    first = sec.records()
    refusal = ("refused: security log full: records 1 to %d are not archived; an auditor exports them "
               "('security json') and archives them ('security archive %d')" % (n, n))
    for line in ("account list", "ramclear", "tournament start 1 1 1 30 2030-01-01 1", "meters"):
        assert run(con, line) == [refusal], line
    assert sec.n == n and sec.noise_n == 4  # the refusals are counted, not journaled
    assert run(con, "logout") == ["logged out"]  # logins and logouts go on, into the reserve
    assert login(con, "aud", "aud-pin-1") == ["logged in as aud (auditor)"]
    assert run(con, "security archive %d" % n) == [
        "error: export the log first ('security json'): records up to 0 were exported in this session"]
    uart = con.uart
    con.uart = Streamed()  # ~25 KB streamed a record at a time: kept as record numbers in a small heap
    con.execute("security json")
    seen, con.uart = con.uart.numbers, uart
    last = sec.n - 1  # the export's own record follows it
    assert seen == list(range(1, last + 1))
    # 251 archived: the chunks of records 1-248 may be recycled, so records up to 504 fit; 253 written
    assert (last, sec.n) == (251, 252)
    assert run(con, "security archive %d" % last) == ["security log archived up to record 251; room for 251 records"]
    assert not sec.full() and sec.records()[:len(first)] == first  # nothing was written over
    assert run(con, "meters")[0].startswith("meter ")  # the auditor's commands run again
    assert [r for r in sec.records() if r[2:4] == ["aud", "archive"] and "noise 4 lines since" in r[4]]


def test_the_accounts_block_holds_every_account_at_its_bounds():
    # 8 accounts with the longest ids, a fail count of 10 digits and the loss remembered (firmware/accounts.py)
    from firmware.accounts import MAX_ACCOUNTS, MAX_ID, SALT
    from firmware.audit import ACCOUNTS_SIZE

    acct = [["x" * MAX_ID, 3, "ab" * SALT, "cd" * 32, 10 ** 6] for _ in range(MAX_ACCOUNTS)]
    n = len(json.dumps({"a": acct, "f": 10 ** 10 - 1, "l": 1}))
    assert n <= ACCOUNTS_SIZE, (n, ACCOUNTS_SIZE)
