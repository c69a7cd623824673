# firmware/main.py's supervisor: what the firmware does when the heap runs out.
from devtest import raises
from firmware import main


class Cab:
    def __init__(self, script):
        self.script = script

    def run(self):
        what = self.script.pop(0)
        if what == "oom":
            raise MemoryError("memory allocation failed")
        if what == "crash":
            raise ValueError("a bug")


def supervised(boots):
    """boots: per boot, "oom" (the boot itself runs out) or a Cab script for its run."""
    log, resets, booted = [], [], []

    def boot():
        b = boots.pop(0)
        booted.append(b)
        if b == "oom":
            raise MemoryError("memory allocation failed")
        return Cab(b)

    import sys

    kept = {}
    for name in main.BOOT_ONLY:  # supervise() unloads them; the other tests share this process
        if name in sys.modules:
            kept[name] = sys.modules[name]
    try:
        main.supervise(boot, lambda: resets.append(1), log.append)
    finally:
        gone = [n for n in main.BOOT_ONLY if n not in sys.modules]
        for name, mod in kept.items():
            sys.modules[name] = mod
            parent, _, child = name.rpartition(".")
            setattr(sys.modules[parent], child, mod)
    return log, resets, booted, gone


def test_out_of_memory_while_running_restarts_from_critical_memory():
    log, resets, booted, gone = supervised([["oom"], ["oom"], ["stop"]])
    assert len(booted) == 3 and not resets
    assert log == ["jeton: out of memory: restarting the cabinet from critical memory"] * 2


def test_boots_that_run_out_of_memory_end_in_a_board_reset_not_a_spin():
    log, resets, booted, gone = supervised(["oom"] * main.BOOT_TRIES + [["stop"]])
    assert resets == [1] and len(booted) == main.BOOT_TRIES
    assert log[-1] == "jeton: out of memory %d times while booting: board reset" % main.BOOT_TRIES


def test_a_good_boot_resets_the_count_of_failed_boots():
    boots = ["oom"] * (main.BOOT_TRIES - 1) + [["oom"]] + ["oom"] * (main.BOOT_TRIES - 1) + [["stop"]]
    log, resets, booted, gone = supervised(boots)
    assert not resets and len(booted) == 2 * main.BOOT_TRIES


def test_other_errors_are_not_swallowed():
    with raises(ValueError):
        supervised([["crash"]])


def test_boot_only_modules_are_released_after_boot():
    import firmware.startup  # noqa: F401  (one of BOOT_ONLY)

    gone = supervised([["stop"]])[3]
    assert "firmware.startup" in gone
