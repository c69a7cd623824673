# firmware/main.py's supervisor: what the firmware does when it fails (the watchdog's job).
# mp-heap: 640K  (a 68 KB NVRAM image in RAM for the restart records, beside the firmware modules)
from devtest import raises
from fakes_firmware import RamNvram, memory

from firmware import main
from firmware.ledger import Ledger


class Cab:
    def __init__(self, script, ledger, clock, starved=(), watch=None):
        self.watch = watch  # called as each run starts
        self.script = script
        self.ledger = ledger
        self.clock = clock
        self.starved = starved  # the games whose boot check found no memory

    def run(self):
        if self.watch is not None:
            self.watch("run")
        what, ms = self.script.pop(0)
        self.clock[0] += ms  # how long this run lasted
        if what == "oom":
            raise MemoryError("memory allocation failed")
        if what == "bug":
            raise ValueError("no lamp_x")
        if what == "exit":
            raise SystemExit(3)


def supervised(boots, imports=(), detach=None, found=None, watch=None):
    """boots: per boot, "oom" (the boot itself runs out) or a (what, ms[, games whose boot check
    found no memory]) for its run. imports: modules each boot imports, whether found already
    imported appended to `found`; detach: the board's; watch: called with "boot" as each boot
    starts and "run" as each run does."""
    log, resets, booted, clock = [], [], [], [0]
    import gc
    import sys

    gc.collect()
    ledger = Ledger(memory(RamNvram(69632)))
    ledger.open()

    def boot():
        if watch is not None:
            watch("boot")
        b = boots.pop(0)
        booted.append(b)
        for name in imports:
            if found is not None:
                found.append(name in sys.modules)
            __import__(name)
        if b == "oom":
            raise MemoryError("memory allocation failed")
        return Cab([b[:2]], ledger, clock, b[2] if len(b) > 2 else (), watch)

    kept = {}
    for name in main.BOOT_ONLY:  # supervise() unloads them; the other tests share this process
        if name in sys.modules:
            kept[name] = sys.modules[name]
    try:
        main.supervise(boot, lambda: resets.append(1), lambda: clock[0], log.append, detach)
    finally:
        gone = [n for n in main.BOOT_ONLY if n not in sys.modules]
        for name, mod in kept.items():
            sys.modules[name] = mod
            parent, _, child = name.rpartition(".")
            setattr(sys.modules[parent], child, mod)
    return log, resets, booted, gone, ledger


def test_out_of_memory_while_running_restarts_from_critical_memory_and_is_recorded():
    log, resets, booted, gone, ledger = supervised([("oom", 10), ("oom", 10), ("stop", 0)])
    assert len(booted) == 3 and not resets
    assert log == ["jeton: out of memory: restarting the cabinet from critical memory"] * 2
    assert [tuple(e[2:]) for e in ledger.events() if e[2] == "restart"] == [("restart", "out of memory")] * 2


def test_an_unexpected_fault_restarts_too_and_says_what_it_was():
    log, resets, booted, gone, ledger = supervised([("bug", 10), ("stop", 0)])
    assert log == ["jeton: fault ValueError: no lamp_x: restarting the cabinet from critical memory"]
    assert tuple(ledger.events()[-1][2:]) == ("restart", "fault ValueError: no lamp_x")


def test_failures_in_a_row_end_in_a_board_reset_not_a_spin():
    log, resets, booted, gone, ledger = supervised(["oom", ("bug", 10), "oom", ("stop", 0)])
    assert resets == [1] and len(booted) == main.RESTARTS
    assert log[-1] == "jeton: out of memory, %d times in a row: board reset" % main.RESTARTS


def test_a_restart_whose_boot_check_finds_no_memory_resets_the_board_once():
    # make test (s36e): after an out-of-memory restart aurore-93's boot check found no 536 bytes in
    # the heap the failed run left in pieces, and the cabinet stood with no game until a power cycle
    log, resets, booted, gone, ledger = supervised([("oom", 10), ("stop", 0, ["aurore-93"])])
    assert resets == [1] and len(booted) == 2
    assert log[-1] == "jeton: out of memory: no memory for aurore-93's boot check after the restart: board reset"
    assert [tuple(e[2:]) for e in ledger.events() if e[2] == "restart"] == [("restart", "out of memory")]
    # a board short of memory from power-up (nothing failed before the boot) plays on, never reset
    log, resets, booted, gone, ledger = supervised([("stop", 0, ["aurore-93"])])
    assert not resets and not log and len(booted) == 1


def test_a_restart_drops_what_the_failed_run_imported_and_the_board_kept():
    # make test s37h: after aurore-93's out-of-memory restart on the 128K board heap its boot check
    # found no 530 bytes: the failed run's modules were kept (and the board's handlers into its
    # drivers), 27 KB more in use than at power-up (tests/host/test_restart_heap.py, the real image)
    import sys

    name = "firmware.states"  # constants only: the other tests' references to it stay good
    before = sys.modules.pop(name, None)
    found, seen = [], []
    try:
        boots = [("oom", 10), ("bug", 10), ("stop", 0)]
        log, resets, booted, gone, ledger = supervised(boots, (name,), lambda: seen.append(name in sys.modules), found)
        assert len(booted) == 3 and not resets
        assert found == [False, False, False]  # each boot imports it anew: the failed run's went with it
        assert seen == [True, True]  # the board let go (once a restart) while the failed run's modules were there
        assert name in sys.modules  # the last boot's, kept while it runs
    finally:
        if before is not None:
            sys.modules[name] = before


def test_a_board_that_cannot_let_go_still_restarts_the_cabinet():
    def detach():
        raise OSError(5, "EIO")

    log, resets, booted, gone, ledger = supervised([("oom", 10), ("stop", 0)], (), detach)
    assert len(booted) == 2 and not resets
    assert log == ["jeton: out of memory: restarting the cabinet from critical memory"]


def test_no_room_to_let_go_of_the_failed_run_resets_the_board_in_one_line():
    # CI (stop 39): a 48K boot out of memory found no 128 bytes for the supervisor's own list of the
    # run's modules: a traceback out of main() and exit status 1. release_since makes no list now;
    # were even that short of room, the board resets (a fresh heap) rather than the firmware dying
    real = main.release_since

    def starved(kept):
        raise MemoryError("memory allocation failed, allocating 16 bytes")

    main.release_since = starved
    try:
        log, resets, booted, gone, ledger = supervised([("oom", 10), ("stop", 0)])
    finally:
        main.release_since = real
    assert resets == [1] and len(booted) == 1
    assert log == ["jeton: out of memory, no room to restart the cabinet: board reset"]


def test_release_since_drops_each_module_imported_after_and_only_those():
    import sys

    name = "firmware.states"  # constants only: the other tests' references to it stay good
    before = sys.modules.pop(name, None)
    try:
        kept = tuple(sys.modules)
        __import__(name)
        assert name in sys.modules
        main.release_since(kept)
        assert name not in sys.modules and tuple(sys.modules) == kept
        assert not hasattr(sys.modules["firmware"], "states")  # its package lets go of it too
    finally:
        if before is not None:
            sys.modules[name] = before
            sys.modules["firmware"].states = before


def test_a_run_that_lasted_resets_the_count():
    long = main.HEALTHY_MS
    boots = ["oom", ("oom", long), "oom", ("bug", long), "oom", ("stop", 0)]
    log, resets, booted, gone, ledger = supervised(boots)
    assert not resets and len(booted) == 6


def test_system_exit_is_not_a_fault():
    with raises(SystemExit):
        supervised([("exit", 0)])


def test_each_boot_collects_the_heap_often_and_each_run_only_when_it_is_full():
    # MicroPython's gc.threshold: a boot's objects packed at the heap's low end (main.BOOT_GC_BYTES);
    # play keeps the default, so a SAS reply never waits on the extra collections. CPython has none.
    import gc

    def threshold():
        return gc.threshold() if hasattr(gc, "threshold") else None

    seen = []
    supervised(["oom", ("oom", 10), ("stop", 0)], watch=lambda when: seen.append((when, threshold())))
    if hasattr(gc, "threshold"):
        boot, run = main.BOOT_GC_BYTES, -1
        assert 0 < main.BOOT_GC_BYTES
    else:
        boot = run = None
    # a boot that ran out of memory, a run that did, and the run that stopped
    assert seen == [("boot", boot), ("boot", boot), ("run", run), ("boot", boot), ("run", run)], seen
    assert threshold() == run


def test_boot_only_modules_are_released_after_boot():
    import firmware.startup  # noqa: F401  (one of BOOT_ONLY)

    gone = supervised([("stop", 0)])[3]
    assert "firmware.startup" in gone


def test_the_state_folder_is_made_where_it_is_named_absolute_or_relative():
    import os

    from devtest import tmpdir

    rel = tmpdir("mkdirs")
    main._mkdirs(rel + "/a/b")
    os.stat(rel + "/a/b")
    absolute = os.getcwd() + "/" + rel + "/c/d"  # its parents missing, as a fresh --state DIR's may be
    main._mkdirs(absolute)
    os.stat(absolute)
