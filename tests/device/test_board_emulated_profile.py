# `--profile`: the emulated board booted as a real board's profile gets only the wires that profile
# has (firmware/main.py make_board). The state directory's lock names this process and is ignored
# once that process is gone (board/state_lock.py; the refusal of a second process is
# tests/host/test_state_lock.py).
import gc

from devtest import tmpdir

from board import emulated, hal, state_lock


def board(profile=None):
    gc.collect()
    return emulated.Board(tmpdir("prof"), 0, 0, 0, nvram_size=4096, profile=profile)  # port 0: any free one


def unplug(b):
    for link in b._links:
        link.srv.close()
    b.nvram.close()


def test_the_pyboard_profile_gets_only_the_pyboard_s_wires():
    import board.pyboard as pyboard

    b = board(pyboard)
    try:
        assert b.NAME == "pyboard (emulated)" and b.ENTROPY == "emulated"
        assert b.meter_names() == ()  # no coils on the pyboard: soft meters only
        assert sorted(b.pins) == sorted(hal.INPUTS) and sorted(b.lamps) == sorted(hal.LAMPS)
        assert b.nvram.size == 131072  # its FRAM part, not the size asked for
        assert b.door_latch is None
    finally:
        unplug(b)


def test_the_emulated_profile_has_every_wire():
    b = board()
    try:
        assert b.NAME == "emulated"
        assert b.meter_names() == hal.METERS
        assert sorted(b.pins) == sorted(hal.INPUTS + hal.COIN_PULSE)
        assert b.nvram.size == 4096
        assert b.door_latch is not None
    finally:
        unplug(b)


def test_the_floors_are_files_of_the_state_directory_apart_from_nvram_bin():
    import os

    from devtest import raises

    gc.collect()
    d = tmpdir("floors")
    b = emulated.Board(d, 0, 0, 0, nvram_size=4096)
    try:
        for which in hal.FLOORS:
            assert b.floor(which).read() is None
            b.floor(which).write(3)
        with raises(ValueError):
            b.floor("release").write(2)
        with raises(ValueError):
            b.floor("nvram")
    finally:
        unplug(b)
    os.remove(d + "/nvram.bin")  # the part wiped: the floors are still there for the next power-up
    b = emulated.Board(d, 0, 0, 0, nvram_size=4096)
    try:
        assert [b.floor(w).read() for w in hal.FLOORS] == [3, 3, 3]
        assert sorted(n for n in os.listdir(d) if n.startswith("floor-")) == [
            "floor-config", "floor-enrol", "floor-release"]
    finally:
        unplug(b)


def test_the_lock_names_this_process_and_a_dead_one_is_no_holder():
    d = tmpdir("lock")
    state_lock.claim(d, (1, 2, 3))
    with open(d + state_lock.LOCK) as f:
        assert f.read() == "pid %d ports 1 2 3\n" % state_lock.my_pid()
    assert state_lock.holder(d) is None  # our own lock holds nothing against us
    state_lock.check(d)
    with open(d + state_lock.LOCK, "w") as f:
        f.write("pid 2147483646 ports 1 2 3\n")  # above Linux's pid_max (2**22): no such process
    assert state_lock.holder(d) is None
    with open(d + state_lock.LOCK, "w") as f:
        f.write("garbage")
    assert state_lock.holder(d) is None


def test_detach_lets_go_of_what_a_cabinet_gave_the_board():
    # firmware/main.py supervise: a restart drops the failed cabinet; what the board kept of it (an
    # input's handler into its driver, its last screen, its generator) would stay in the heap
    b = board()
    try:
        edges, reseeds = [], []

        class Gen:
            def reseed(self):
                reseeds.append(1)

        door = b.pin("door_main")
        door.irq(lambda p: edges.append(p.value()))
        b.display.last = {"state": "idle"}
        b.entropy.watch(Gen())
        door.value(1)
        assert edges == [1]
        b.detach()
        door.value(0)
        assert edges == [1]  # no handler left on the wire
        assert b.display.last is None and b.entropy._gen is None
        b.entropy.set_stuck(True)  # a dead wire with no generator attached: none reseeded
        assert reseeds == []
    finally:
        unplug(b)


def test_the_clock_the_system_sets_runs_on_from_it_and_is_kept_through_a_power_cut():
    # SAS 7F (firmware/sas/control.py) sets it; the board keeps how far it runs from the host's clock
    # in STATE/clock (a new file renamed over the old, as an RTC keeps its time with the power off)
    import os
    import time

    from board import calendar_clock
    from firmware import eventlog

    d = tmpdir("clock")
    set_to = 1768496400  # 2026-01-15 17:00:00 UTC: 20,468 days after 1970-01-01, and 17 hours
    try:
        b = emulated.Board(d, 0, 0, 0, nvram_size=4096)
        try:
            assert abs(eventlog.now() - time.time()) <= 2  # never set: the host's time
            t0 = time.time()
            b.set_clock(set_to)
            n = eventlog.now()
            assert set_to <= n <= set_to + (time.time() - t0) + 1
        finally:
            unplug(b)
        calendar_clock.shift(0)  # the power off: nothing of it kept in RAM
        with open(d + "/clock.new", "w") as f:
            f.write("garb")  # a cut while the next setting was being written: the last one stands
        b = emulated.Board(d, 0, 0, 0, nvram_size=4096)
        try:
            n = eventlog.now()
            assert set_to <= n <= set_to + (time.time() - t0) + 1
        finally:
            unplug(b)
        with open(d + "/clock", "w") as f:
            f.write("garbage")  # unreadable: the host's time, as a board whose RTC lost its setting
        os.remove(d + "/clock.new")
        b = emulated.Board(d, 0, 0, 0, nvram_size=4096)
        unplug(b)
        assert abs(eventlog.now() - time.time()) <= 2
    finally:
        calendar_clock.shift(0)


def test_the_printer_uart_keeps_the_port_default_ring_not_the_cctalk_line_s():
    # the printer answers each status request with one byte (board/printer_epic.py) and sends nothing
    # unasked: a VLT's heap held a 1 KB ring for it, sized for ccTalk's frames and their echo
    gc.collect()
    b = emulated.Board(tmpdir("printer"), 0, 0, 0, nvram_size=4096, printer_port=0)
    try:
        assert b.uarts["printer"].size == emulated.PRINTER_RX == emulated.CONSOLE_RX == 256
        assert b.uarts["cctalk"].size == emulated.RX_SIZE == 1024
        assert len(b.uarts["printer"]._rx) == 256
    finally:
        unplug(b)
