# The console's answer to `ramclear` says what happened: "critical memory cleared" exactly when the
# books were cleared (their journal on record), an error exactly when nothing changed, whatever
# fails part-way with the power on (out of memory writing the copies, the security record, the
# screen). A power cut part-way leaves no answer: the clear is then whole or absent at power-up,
# decided by its one journal (test_firmware_ledger.test_ram_clear_and_its_record_are_one_transaction),
# and a whole one gets its security record then (test_firmware_console). make powercut counts the
# clears from these answers (sim/powercut.py Session.ram_clear).
# mp-heap: 1024K  (as test_firmware_console.py: the fakes' NVRAM images and the tests)
from test_firmware_console import audit, console, run

from firmware.critmem import RamError
from firmware.ledger import Ledger
from firmware.startup import log_unlogged_clear

CLEARED = "critical memory cleared; meters start at zero"
WHY = "by admin1, audit key, nothing owed"


def cleared_console():
    con, cab, board, acc = console()
    audit(board, cab, True)
    for i in range(3):
        cab.ledger.event("test", "before %d" % i)
    return con, cab


def ramclear_records(cab):
    return [r[2:] for r in cab.audit.records() if r[3] == "ramclear"]


def power_up(cab):
    """The books and the security log as the next power-up finds them (firmware/startup.py)."""
    led = Ledger(cab.ledger.mem)
    findings = led.open()
    log_unlogged_clear(cab.audit, led)
    return led, findings


def fail_once(obj, name, when=lambda *a: True):
    """obj.name raises MemoryError the first time `when` holds for its arguments (the power on)."""
    real = getattr(obj, name)
    left = [1]

    def hungry(*args):
        if left[0] and when(*args):
            left[0] = 0
            raise MemoryError("memory allocation failed, allocating 3200 bytes")
        return real(*args)

    setattr(obj, name, hungry)
    return left


def test_a_clear_whose_copies_fail_after_its_journal_answers_cleared():
    # the clear's journal is on record, a copy's write runs out of memory: the clear happened
    con, cab = cleared_console()
    mem = cab.ledger.mem
    left = fail_once(mem, "_write_copy")
    reply = run(con, "ramclear")
    del mem._write_copy
    assert left == [0]
    assert reply == [CLEARED], reply
    assert cab.ledger.events()[0][2:] == ["ramclear", WHY] and len(cab.ledger.events()) == 1
    assert ramclear_records(cab) == [["admin1", "ramclear", WHY]]
    led, findings = power_up(cab)
    assert led.events()[0][2:] == ["ramclear", WHY] and led.credits == 0
    assert ramclear_records(cab) == [["admin1", "ramclear", WHY]]  # once


def test_a_clear_whose_security_record_fails_answers_cleared_and_is_recorded_at_power_up():
    con, cab = cleared_console()
    fail_once(cab.audit, "record", lambda who, code, text="": code == "ramclear")
    reply = run(con, "ramclear")
    del cab.audit.record
    assert reply == [CLEARED, "the security log records it at the next power-up"], reply
    assert not cab.ram_error and cab.ledger.unlogged_clear()[:2] == ("admin1", WHY)
    assert ramclear_records(cab) == []
    power_up(cab)
    assert ramclear_records(cab) == [["admin1", "ramclear", WHY + " (logged at power-up)"]]


def test_a_clear_whose_security_memory_fails_answers_cleared_and_the_cabinet_comes_out_of_service():
    con, cab = cleared_console()
    real = cab.audit.record

    def broken(who, code, text=""):
        if code == "ramclear":
            raise RamError("both copies of a3 are bad")  # the security memory's own fault
        return real(who, code, text)

    cab.audit.record = broken
    reply = run(con, "ramclear")
    del cab.audit.record
    assert reply == [CLEARED, "the security log records it at the next power-up"], reply
    assert cab.ledger.unlogged_clear()[:2] == ("admin1", WHY) and cab.state == "service"


def test_a_clear_without_room_in_the_security_log_keeps_asking_at_each_power_up():
    con, cab = cleared_console()
    cab.audit.record = lambda who, code, text="": False  # no room: counted, not written
    assert run(con, "ramclear") == [CLEARED, "the security log records it at the next power-up"]
    led, _ = power_up(cab)
    assert led.unlogged_clear()[:2] == ("admin1", WHY)  # still owed to the log
    del cab.audit.record
    led, _ = power_up(cab)
    assert led.unlogged_clear() is None
    assert ramclear_records(cab) == [["admin1", "ramclear", WHY + " (logged at power-up)"]]


def test_a_clear_whose_screen_fails_afterwards_answers_cleared():
    con, cab = cleared_console()
    fail_once(cab.screen, "clear")
    reply = run(con, "ramclear")
    del cab.screen.clear
    assert reply[0].startswith(CLEARED + " (then: memory allocation failed"), reply
    assert cab.ledger.events()[0][2:] == ["ramclear", WHY]
    assert ramclear_records(cab) == [["admin1", "ramclear", WHY]]


def test_a_clear_that_fails_replaying_an_earlier_torn_commit_changes_nothing():
    # an event's commit ran out of memory after its journal (on record: the next commit replays it
    # first); the clear's commit then ran out of memory in that replay, before its own journal:
    # nothing was cleared, the answer is an error and the books in RAM and NVRAM stay the old ones
    con, cab = cleared_console()
    led = cab.ledger
    mem = led.mem
    fail_once(mem, "_write_copy")
    try:
        led.event("test", "torn")
    except MemoryError:
        pass
    del mem._write_copy
    assert mem._torn is not None
    ev, clears = led.st["ev"], led.clears
    fail_once(mem, "_open")
    reply = run(con, "ramclear")
    del mem._open
    assert len(reply) == 1 and reply[0].startswith("error: out of memory for 'ramclear'"), reply
    assert led.st["ev"] == ev and "cl" not in led.st and led.clears == clears  # the old books in RAM
    assert ramclear_records(cab) == []
    led.event("test", "after")  # the next commit replays the torn one, then writes this
    after, findings = power_up(cab)
    assert [e[3] for e in after.events()][-5:] == ["before 0", "before 1", "before 2", "torn", "after"]
    assert ramclear_records(cab) == []
