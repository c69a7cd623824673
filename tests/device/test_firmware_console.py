# The maintenance console on a fake UART, driving the real Cabinet, logged in as an administrator
# (accounts, roles and lockout: test_firmware_access.py): the RAM clear (audit key), a RAM error that
# only a RAM clear ends, and errors that never stop the cabinet.
# mp-heap: 1024K  (the firmware's 256K, the 64 + 54 KB NVRAM images the fakes keep in RAM, the tests)
import json

from fakes_access import ADMIN, ADMIN_PIN, accounts, security
from fakes_console import Uart, run
from fakes_firmware import memory
from test_firmware_cabinet import cabinet, coins, press, steps

from firmware.console import Console
from firmware.critmem import RamError
from firmware.ledger import Ledger


def console(role="administrator", **parts):
    """A console with an administrator (and a `role` account), logged in as `role`, on a cabinet
    made with those parts (test_firmware_cabinet.cabinet's)."""
    sec = security()
    cab, board, acc = cabinet(audit=sec, **parts)
    users = accounts(sec, board.ticks_ms)
    users.add(ADMIN, "administrator", ADMIN_PIN)
    uid = ADMIN
    if role != "administrator":
        uid = role[:8]
        users.add(uid, role, ADMIN_PIN)
    con = Console(Uart(), cab, users, sec)
    assert run(con, "login " + uid) == ["PIN for %s:" % uid]
    assert run(con, ADMIN_PIN) == ["logged in as %s (%s)" % (uid, role)]
    return con, cab, board, acc


def audit(board, cab, on):
    board.pins["key_audit"].value(1 if on else 0)
    steps(cab, 10)


def test_help_meters_and_unknown_commands():
    con, cab, board, acc = console()
    coins(cab, acc, 2)
    names = [line.split()[0] for line in run(con, "help")]
    for cmd in ("help", "meters", "state", "paytable", "recall", "events", "ramclear", "login", "account"):
        assert cmd in names
    meters = dict((l.split()[0], int(l.split()[1])) for l in run(con, "meters")[1:-1])
    assert meters["acceptor_in"] == 8 and meters["credits"] == 8
    assert json.loads(run(con, "meters json")[0])["credits"] == 8
    assert run(con, "frobnicate") == ["unknown command 'frobnicate': try help"]
    assert run(con, "testgame")[0].startswith("error: ")  # refused without the audit key
    assert cab.state == "credit"  # a bad command changes nothing


def test_state_shows_credits_tilts_open_doors_and_keys():
    con, cab, board, acc = console()
    coins(cab, acc, 1)
    assert run(con, "state") == ["state credit: credits on the meter, ready to play", "credits 4 ($1.00), bet 1"]
    board.pins["door_cashbox"].value(1)
    acc.push("fraud", 0, 5)
    steps(cab, 12)
    audit(board, cab, True)
    out = run(con, "state")
    assert out[:2] == ["state door: a door is open", "credits 4 ($1.00), bet 1"]
    assert [line for line in out if line.startswith("tilt fraud: fraud 0/5")]
    assert "door_cashbox open" in out and "key_audit on" in out
    assert not [line for line in out if line.startswith("error")]


def test_line_noise_never_stops_the_console_or_the_cabinet():
    con, cab, board, acc = console()
    coins(cab, acc, 1)
    con.uart.rx += bytes([0xFF, 0xFE, 0xC3, 0x28, 0x00, 0x1B]) + b"\r"  # a wrong baud rate looks like this
    con.service()
    assert bytes(con.uart.tx) == b"error: byte 0xff is not printable ASCII: line refused, nothing run\r\njeton> "
    con.uart.tx = bytearray()
    assert run(con, "meters json")[0].startswith("{")
    # UTF-8 'e acute' then a command: refused whole, never run with the noise guessed away
    assert run(con, "\u00e9state") == ["error: byte 0xc3 is not printable ASCII: line refused, nothing run"]
    steps(cab, 5)
    assert cab.state == "credit"
    assert run(con, "state")[0].startswith("state credit")  # the next clean line runs


def test_backspace_edits_the_line():
    con, cab, board, acc = console()
    assert run(con, "helx\x08p")[0].split()[0] == "account"  # help's first line, sorted
    assert run(con, "statez\x7f")[0] == "state idle: no credits, ready"


def test_hardmeters_reports_counts_pending_pulses_and_a_meter_ahead():
    from fakes_board import Store

    from board.meters_em import EmMeters

    con, cab, board, acc = console()
    assert run(con, "hardmeters") == ["no electromechanical meters on this board"]
    con, cab, board, acc = console(em=lambda board: EmMeters(board.coils, Store(), on_ms=20, off_ms=20, clock=board.ticks_ms))
    coins(cab, acc, 1)  # 4 credits: 4 strokes of meter_drop to drive
    st = json.loads(run(con, "hardmeters json")[0])
    assert st["busy"] and st["meter_drop"]["count"] + st["meter_drop"]["pending"] == 4
    steps(cab, 30)
    st = json.loads(run(con, "hardmeters json")[0])
    assert not st["busy"] and st["meter_drop"] == {"count": 4, "pending": 0, "ahead": 0}
    assert board.coils["meter_drop"].rises == 4
    cab.em.state["meter_in"][0] = 3  # ahead of coin_in (0)
    steps(cab, 2)
    lines = run(con, "hardmeters")
    assert "meter_drop           4  pending 0" in lines
    assert [l for l in lines if l.startswith("meter_in") and l.endswith("AHEAD 3")]


def test_a_line_longer_than_the_limit_is_refused_whole():
    # issue 9 fault 15: cut at 80, 'tournament start 1 <56 nines> 1 30' ran as '... 1 3'
    con, cab, board, acc = console()
    coins(cab, acc, 1)
    audit(board, cab, True)
    line = "tournament start 1 %s 1 30" % ("9" * 57)
    assert len(line) == 81 and line[:80].endswith(" 1 3")  # cut, it would have run with 3 %
    assert run(con, line) == ["error: line longer than 80 characters: refused, nothing run"]
    assert not cab.ledger.tour  # nothing started
    assert run(con, "x" * 500) == ["error: line longer than 80 characters: refused, nothing run"]
    assert run(con, "y" * 80) == ["unknown command %r: try help" % ("y" * 80)]  # 80 is still a line


def test_every_json_answer_goes_out_in_pieces_never_one_string():
    # `events json` once ran out of memory on the 128K board heap with 42 KB free: a heap in pieces
    # has no room for a whole answer in one string (meters json: about 2 KB, twice with .encode())
    from firmware.console import JSON_PIECE

    con, cab, board, acc = console()
    led = cab.ledger
    for i in range(3):
        led.event("test", "event %d" % i)
    writes = []
    write = con.uart.write

    def counted(data):
        writes.append(len(data))
        return write(data)

    con.uart.write = counted
    for line in ("meters json", "security status", "events json"):
        del writes[:]
        out = run(con, line)
        assert len(out) == 1 and out[0][:1] == "{", (line, out)
        json.loads(out[0])
        assert max(writes) <= JSON_PIECE + 2, (line, writes)  # the prompt and line ends aside
    assert json.loads(run(con, "meters json")[0]) == json.loads(json.dumps(led.snapshot()))


def test_events_json_is_streamed_a_record_at_a_time():
    # issue 9 fault 15: json.dumps of the whole log ran out of memory at about 60 events
    con, cab, board, acc = console()
    led = cab.ledger
    for i in range(120):  # more than the log keeps: the oldest chunks are recycled
        led.event("test", "event %d of a full log" % i)
    con.uart.rx += b"events json\r"
    writes = []
    write = con.uart.write

    def counted(data):
        writes.append(len(data))
        return write(data)

    con.uart.write = counted
    con.service()
    out = bytes(con.uart.tx).decode()
    assert out.endswith("]}\r\njeton> ")
    doc = json.loads(out[:-len("\r\njeton> ")])
    evs = doc["events"]
    assert doc["security"][-1][2:4] == ["admin1", "login"]  # the security log rides along
    assert evs == [list(e) for e in led.events()]  # every record the log holds, oldest first
    assert len(evs) >= 100 and evs[-1][3] == "event 119 of a full log"
    assert [e[0] for e in evs] == list(range(evs[0][0], evs[0][0] + len(evs)))  # in order, none missing
    assert max(writes) < 200  # no write holds more than one record


def test_ramclear_needs_the_audit_key_and_records_who_cleared():
    con, cab, board, acc = console()
    coins(cab, acc, 1)
    assert run(con, "ramclear") == ["error: turn the audit key first"]
    audit(board, cab, True)
    press(board, cab, "cashout")  # the audit key on: never the hopper, a hand pay
    press(board, cab, "key_reset")  # the attendant pays it
    assert cab.ledger.credits == 0 and cab.ledger.meters["cancelled"] == 4
    assert run(con, "ramclear 2468")[0].startswith("error: usage: ramclear")
    assert cab.ledger.meters["cancelled"] == 4  # nothing cleared
    assert run(con, "ramclear") == ["critical memory cleared; meters start at zero"]
    assert cab.ledger.credits == 0 and cab.ledger.meters["acceptor_in"] == 0
    evs = cab.ledger.events()
    assert len(evs) == 1 and evs[0][2:] == ["ramclear", "by admin1, audit key, nothing owed"]  # recorded
    trail = cab.audit.records()
    assert trail[-2][2:] == ["admin1", "ramclear", "by admin1, audit key, nothing owed"]
    assert trail[-1][2:] == ["admin1", "ok", "ramclear => critical memory cleared; meters start at"]
    assert [r for r in trail if r[3] == "login"]  # the log of what came before is kept
    assert "cl" not in cab.ledger.st  # the security log has it: nothing left to make good


def test_a_ram_clear_cut_before_its_security_record_is_recorded_at_the_next_power_up():
    # make powercut: the books were cleared and the power cut before the security log had the
    # record, so the log never told of a clear the books show (and the campaign took it for lost money)
    from firmware.startup import log_unlogged_clear

    con, cab, board, acc = console()
    audit(board, cab, True)
    why = "by admin1, audit key, nothing owed"
    cab.ledger.format(("ramclear", why), ["casino", 25], unlogged="admin1")  # the cut comes here
    assert cab.ledger.unlogged_clear()[:2] == ("admin1", why)
    before = len(cab.audit.records())
    cab.ledger.open()  # power-up: the books reopened (the flag is in critical memory), then the log
    assert cab.ledger.unlogged_clear()[:2] == ("admin1", why)
    log_unlogged_clear(cab.audit, cab.ledger)
    log_unlogged_clear(cab.audit, cab.ledger)  # once only
    new = [r[2:] for r in cab.audit.records()[before:]]
    assert new == [["admin1", "ramclear", why + " (logged at power-up)"]]
    assert cab.ledger.unlogged_clear() is None and "cl" not in cab.ledger.st
    cab.ledger.open()
    assert cab.ledger.unlogged_clear() is None  # committed
    # the cut after the security record, before the books knew: not written twice
    cab.ledger.format(("ramclear", why), ["casino", 25], unlogged="admin1")
    cab.audit.record("admin1", "ramclear", why)
    before = len(cab.audit.records())
    log_unlogged_clear(cab.audit, cab.ledger)
    assert len(cab.audit.records()) == before and cab.ledger.unlogged_clear() is None


def test_ramclear_never_erases_credits():
    # issue 22, item 2: with the audit key on, 'ramclear' formatted the books whatever was on the
    # credit meter, and with a door open too (the usual service posture), where the table refused it
    con, cab, board, acc = console()
    coins(cab, acc, 1)
    board.pins["door_logic"].value(1)
    audit(board, cab, True)
    before = cab.ledger.snapshot()
    refusal = "error: RAM clear refused: 4 credits on the meter: cash them out first"
    assert run(con, "ramclear") == [refusal]
    board.pins["door_logic"].value(0)
    steps(cab, 10)
    assert run(con, "ramclear") == [refusal]  # the audit key alone, no door
    assert cab.ledger.snapshot() == before and cab.ledger.credits == 4  # nothing erased, nothing moved
    trail = cab.audit.records()
    said = [r[2:] for r in trail if r[3] == "refused"]
    assert said[-1] == ["admin1", "refused", "ramclear: RAM clear refused: 4 credits on the meter: cash them out first"]
    assert [r for r in trail if r[3] == "ramclear"] == []  # no clear was ever recorded


def test_ram_error_refuses_everything_until_a_technician_ram_clear():
    con, cab, board, acc = console()
    coins(cab, acc, 1)
    junk = b"\x55" * 256
    for off in range(0, len(board.nvram.mem), 256):  # both copies gone (in place: a small heap)
        board.nvram.mem[off:off + 256] = junk
    try:
        Ledger(memory(board.nvram)).open()
        raise AssertionError("corruption not detected")
    except RamError as e:
        cab.set_ram_error(str(e))
    steps(cab, 5)
    assert cab.state == "ramerror" and not acc.on
    assert run(con, "meters")[0].startswith("error: critical memory unusable")
    assert run(con, "state")[0].startswith("state ramerror: ")
    press(board, cab, "key_reset")
    assert cab.state == "ramerror"  # the attendant key never clears it
    press(board, cab, "play")
    assert cab.state == "ramerror"
    audit(board, cab, True)
    assert run(con, "ramclear")[0].startswith("critical memory cleared")
    evs = cab.ledger.events()
    assert evs[0][2] == "ramclear" and "no record is sealed with this machine's key" in evs[0][3]
    audit(board, cab, False)
    steps(cab, 12)  # the next acceptor poll
    assert cab.state == "idle" and acc.on
    coins(cab, acc, 1)
    assert cab.ledger.credits == 4  # the machine works again, from zero


def test_self_audit_tilt_ends_only_with_a_ram_clear_after_the_credits_are_paid():
    con, cab, board, acc = console()
    coins(cab, acc, 1)
    cab.ledger.st["credits"] += 7  # credits that did not come through the meters
    press(board, cab, "play")
    assert "audit" in cab.tilts
    audit(board, cab, True)
    assert run(con, "ramclear") == ["error: RAM clear refused: 11 credits on the meter: cash them out first"]
    press(board, cab, "cashout")  # the credit meter as it stands, by hand: an attendant checks it
    assert cab.state == "handpay" and cab.ledger.lock["amount"] == 11
    press(board, cab, "key_reset")
    assert cab.ledger.credits == 0 and "audit" in cab.tilts  # paid; the books still disagree
    assert run(con, "ramclear") == ["critical memory cleared; meters start at zero"]
    assert cab.ledger.events()[0][3] == "by admin1, audit key, nothing owed; tilt audit"
    audit(board, cab, False)
    assert not cab.tilts and cab.state == "idle"


def test_out_of_memory_in_a_command_is_reported_and_the_cabinet_carries_on():
    con, cab, board, acc = console()
    coins(cab, acc, 1)

    def hungry(args):
        raise MemoryError("memory allocation failed, allocating 2048 bytes")

    con.commands["paytable"] = (hungry, "")
    reply = run(con, "paytable fr")
    assert len(reply) == 1 and reply[0].startswith("error: out of memory for 'paytable' at tests/device/"
                                                   "test_firmware_console.py:"), reply
    assert " (hungry) (" in reply[0] and reply[0].endswith("bytes free); try again"), reply  # where it failed
    assert run(con, "meters json")[0].startswith("{")  # the next command works
    press(board, cab, "play")
    assert cab.ledger.meters["games_played"] == 1


def test_tournament_start_with_its_s125_elements_and_bounded_figures():
    con, cab, board, acc = console()
    assert run(con, "tournament start 10 500 20 40 2026-12-05 6")[0].startswith("error: turn the audit key")
    audit(board, cab, True)
    # issue 9 fault 5: a 56-digit figure once made an event too big for its chunk (a RAM error)
    out = run(con, "tournament start 1 %s 1 30 2026-12-05 6" % ("9" * 40))
    assert out == ["error: tournament credits must be a whole number from 1 to 1000000"]
    assert run(con, "tournament start 10 500 20 40 12/05/2026 6")[0].startswith("error: date must be")
    assert run(con, "tournament start 10 500 20")[0].startswith("error: usage: tournament start")
    lines = run(con, "tournament start 10 500 20 40 2026-12-05 6 Coupe des Fetes")
    text = " ".join(lines)
    assert "TOURNAMENT Coupe des Fetes: 2026-12-05, for 6 h" in text
    assert "TOURNOI Coupe des Fetes : le 2026-12-05, pendant 6 h" in text
    assert cab.ledger.tour["date"] == "2026-12-05" and cab.ledger.tour["hours"] == 6


# --- issue 23, item 17: output a technician reads ----------------------------------------------------
def test_meters_in_aligned_columns_with_units_and_dollars():
    from firmware import config
    from firmware.ledger import METERS

    con, cab, board, acc = console()
    coins(cab, acc, 1)  # 4 credits of 25 cents
    cab.ledger.st["m"]["coin_in"] = 9999999999  # the widest a 10-digit meter gets
    lines = run(con, "meters")
    assert config.DENOM_CENTS == 25
    assert lines[0] == "meter                      value  unit               dollars"
    assert lines[1] == "credits                        4  credits              $1.00"
    assert "coin_in               9999999999  credits  $2,499,999,999.75" in lines  # 9,999,999,999 x $0.25
    assert "games_played                   0  count" in lines and "door_main                      0  count" in lines
    assert "bill_unproven_credits          0  credits              $0.00" in lines  # the longest name
    assert lines[-1] == "1 credit = $0.25"
    assert [ln.split()[0] for ln in lines[1:-1]] == ["credits"] + list(METERS)  # every meter, once
    for ln in lines[1:-1]:  # the values end in one column, the dollars in another
        assert ln[31] != " " and ln[32] == " ", ln
        assert len(ln) in (39, 60) and (len(ln) == 39 or ln[-3] == "."), ln
    assert json.loads(run(con, "meters json")[0])["coin_in"] == 9999999999  # machines' shape unchanged


def test_state_in_words():

    con, cab, board, acc = console()
    assert run(con, "state") == ["state idle: no credits, ready", "credits 0 ($0.00), bet 1"]
    coins(cab, acc, 1)
    press(board, cab, "play")
    steps(cab, 120)  # the reels stop
    out = run(con, "state")
    g = cab.ledger.game
    assert out[-1] == "last game: #1 bet 1, won %d" % g["award"]
    assert not [ln for ln in out if "{" in ln]  # words, not raw JSON
    cab.ledger.cashout(hand_pay=True)
    out = run(con, "state")
    left = cab.ledger.credits
    assert out[0] == "state handpay: a cash-out waits for the attendant's hand pay"
    assert "lock: handpay %d credits ($%d.%02d): the attendant's key pays it" % (left, left * 25 // 100, left * 25 % 100) in out


def test_events_and_the_security_log_in_local_time():
    from firmware import localtime

    con, cab, board, acc = console()
    cab.ledger.event("test", "one event")
    n, t, code, text = cab.ledger.events()[-1]
    line = run(con, "events")[-1]
    assert line == "%5d %s %-10s %s" % (n, localtime.stamp(t), "test", "one event")
    assert line[6:16].count("-") == 2 and line[26:29] in ("EST", "EDT")  # 2026-11-23 01:32:09 EST
    rec = cab.audit.records()[-1]
    sec = run(con, "security")
    assert sec[-2].startswith("%5d %s %-8s %-8s" % (rec[0], localtime.stamp(rec[1]), rec[2], rec[3]))  # then its status line
    assert sec[-1].startswith("archived up to ")
    assert json.loads(run(con, "events json")[0])["events"][-1] == [n, t, code, text]  # machines: epoch seconds


def test_recall_with_time_and_the_models_symbol_names():
    from firmware import localtime

    with open("games/models/sept-royal-87.json") as f:
        symbols = json.load(f)["symbols"]  # {"BAR2": {"fr": "Double barre", "en": "Double bar"}, ...}
    con, cab, board, acc = console()
    coins(cab, acc, 1)
    press(board, cab, "play")
    steps(cab, 120)
    shown = cab.screen.reels  # the window the player saw, as codes
    rec = cab.ledger.recall()[-1]
    out = run(con, "recall")
    assert out[0] == "#1 %s sept-royal-87 bet 1 win %d credits 4 -> %d" % (localtime.stamp(rec["t"]), rec["win"], rec["after"])
    rows = out[1:4]
    assert rows == ["    " + " | ".join(symbols[c]["en"] for c in row) for row in shown], (rows, shown)
    assert not [ln for ln in out for code in symbols if code in ln.replace(symbols[code]["en"], "")]
    fr = run(con, "recall fr")
    assert fr[1:4] == ["    " + " | ".join(symbols[c]["fr"] for c in row) for row in shown]
    assert json.loads(run(con, "recall json")[0])["games"][0]["draws"] == rec["draws"]  # machines: unchanged


def test_paytable_shows_the_progressive():
    from firmware.progressive import Progressive

    con, cab, board, acc = console(progressive=lambda game: Progressive(game.m.progressive, "hash"))
    en = run(con, "paytable")
    # sept-royal-87's progressive (games/models/sept-royal-87.json): reset 1500, rate 1/1000 at bet 3,
    # ceiling 4000 ($1,000 at 25 cents: the vlt prize limit, issue 22.1)
    assert en[-1] == ("Progressive on 3 Red seven at bet 3: 1500 credits now ($375.00); reset 1500, "
                      "grows 1/1000 of each credit wagered at that bet, ceiling 4000")
    fr = run(con, "paytable fr")
    assert fr[-1].startswith("Progressif sur 3 Sept rouge à la mise 3 : 1500 crédits maintenant ($375.00)")
    assert fr[-1].endswith("à cette mise, plafond 4000")
    cab.progressive.ceiling = None  # a casino's progressive without one
    assert run(con, "paytable")[-1].endswith("of each credit wagered at that bet")


def test_every_state_has_its_words():
    from firmware import console_read, states

    words = dict(console_read._WORDS)
    assert set(words) == set(states.STATES) - {states.RAMERROR}  # a RAM error prints its reason instead
