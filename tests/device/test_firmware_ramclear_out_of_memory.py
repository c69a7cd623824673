# The console's `ramclear` running out of memory, the path that booted a power-cut campaign's
# cabinet into `RAM ERROR: e0: 864 bytes exceed its 768` (make powercut CUTS=2000 JURIS=vlt): the
# console answers with the error and the cabinet carries on, so whatever the clear did in RAM is
# what the next commit writes. It must be the books NVRAM holds.
# mp-heap: 1024K  (as test_firmware_console.py: the fakes' NVRAM images and the tests)
from test_firmware_cabinet import coins
from test_firmware_console import audit, console, run

from firmware.ledger import Ledger


def test_a_ramclear_out_of_memory_changes_nothing_and_the_cabinet_boots_again():
    con, cab, board, acc = console()
    audit(board, cab, True)
    led = cab.ledger
    for i in range(12):  # e0 full, e1 begun: the log a clear would start afresh
        led.event("test", "before %d" % i)
    ev, evs = led.st["ev"], led.events()
    real = led.mem.format

    def out_of_memory(blocks):
        raise MemoryError("memory allocation failed, allocating 1536 bytes")

    led.mem.format = out_of_memory
    reply = run(con, "ramclear")
    led.mem.format = real
    assert len(reply) == 1 and reply[0].startswith("error: out of memory for 'ramclear'"), reply
    assert led.st["ev"] == ev and "cl" not in led.st  # the books in RAM are NVRAM's
    assert [r for r in cab.audit.records() if r[3] == "ramclear"] == []  # not taken, and so logged
    audit(board, cab, False)
    coins(cab, acc, 1)  # a commit of the state, then the power goes
    after = Ledger(led.mem)
    assert after.open() == []
    after.power_up()  # the power-up's event: it overflowed e0 before
    assert after.credits == 4 and after.events()[:len(evs)] == evs
    assert after.events()[-1][2] == "power"
