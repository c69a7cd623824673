# Pulse coin acceptor, electromechanical meters (power cut at every step), debounced doors.
from devtest import MICROPYTHON, raises, skip
from fakes_board import Clock, Coil, Pin, PinBoard, Store

from board import hal
from board.coin_pulse import PulseAcceptor
from board.doors import Doors
from board.meters_em import EmMeters


def _pulse(clock, pin, ms):
    pin.value(1)
    clock.advance(ms)
    pin.value(0)


# --- pulse acceptor ------------------------------------------------------------------------------
def test_lines_mode_widths():
    clk = Clock()
    pins = [Pin(), Pin()]
    pa = PulseAcceptor(pins, clock=clk)
    _pulse(clk, pins[0], 50)
    _pulse(clk, pins[1], 25)
    _pulse(clk, pins[1], 100)
    _pulse(clk, pins[0], 5)  # glitch: ignored
    _pulse(clk, pins[0], 22)  # between glitch and min: bad pulse, no credit
    _pulse(clk, pins[0], 101)  # too long: bad pulse, no credit
    out = []
    pa.poll(out)
    assert out == [("coin", 1, 0), ("coin", 2, 0), ("coin", 2, 0), ("fault", 1, 22), ("fault", 1, 101)]
    assert pa.glitches == 1


def test_stuck_line_reported_once_never_credited():
    clk = Clock()
    pins = [Pin()]
    pa = PulseAcceptor(pins, clock=clk)
    pins[0].value(1)
    clk.advance(150)
    out = []
    pa.poll(out)
    pa.poll(out)
    assert out == [("fault", 1, 150)]
    clk.advance(500)
    pins[0].value(0)
    pa.poll(out)
    assert out == [("fault", 1, 150)]


def test_count_mode_trains():
    clk = Clock()
    pins = [Pin()]
    pa = PulseAcceptor(pins, mode="count", gap_ms=150, clock=clk)
    for _ in range(3):
        _pulse(clk, pins[0], 40)
        clk.advance(40)
    out = []
    pa.poll(out)
    assert out == []  # the train may go on
    clk.advance(150)
    pa.poll(out)
    assert out == [("coin", 3, 0)]
    _pulse(clk, pins[0], 3)  # a glitch does not start a train
    clk.advance(300)
    pa.poll(out)
    assert out == [("coin", 3, 0)]


def test_bad_config_rejected():
    with raises(ValueError):
        PulseAcceptor([Pin()], glitch_ms=30, min_ms=25)
    with raises(ValueError):
        PulseAcceptor([Pin()], mode="both")


def test_pulse_irq_allocates_nothing():
    if not MICROPYTHON:
        skip("heap_lock exists only on MicroPython")
    import micropython

    pins = [Pin()]
    pa = PulseAcceptor(pins)
    h = pins[0]._irq
    micropython.heap_lock()
    try:
        pins[0]._v = 1
        h(pins[0])
        pins[0]._v = 0
        h(pins[0])
    finally:
        micropython.heap_unlock()
    assert pa._head == 2


# --- EM meters -----------------------------------------------------------------------------------
def _meters(store, coils, clk):
    return EmMeters(coils, store, on_ms=50, off_ms=50, clock=clk)


def _drive(m, clk, limit=2000):
    for _ in range(limit):
        if not m.busy():
            return
        clk.advance(m.service(clk()))
    raise AssertionError("meters never settled")


def test_meters_pulse_to_target_at_rate():
    clk = Clock()
    coils = {"meter_in": Coil(), "meter_out": Coil()}
    store = Store()
    m = _meters(store, coils, clk)
    m.target("meter_in", 3)
    m.target("meter_out", 1)
    _drive(m, clk)
    assert coils["meter_in"].strokes == 3 and coils["meter_out"].strokes == 1
    assert m.done("meter_in") == 3 and store.value["meter_in"] == [3, 0]


def test_meters_never_ahead_of_target():
    coils = {"meter_in": Coil()}
    store = Store({"meter_in": [5, 0]})
    m = _meters(store, coils, Clock())
    m.target("meter_in", 3)
    assert m.pending("meter_in") == 0 and m.mismatch["meter_in"] == 2
    assert not m.busy()


def test_power_cut_at_every_step_keeps_hard_equal_soft():
    # Record the sequence of coil levels and saves; cut after each one; reboot; finish.
    target = 3
    clk = Clock()
    coils = {"meter_in": Coil()}
    store = Store()
    m = _meters(store, coils, clk)
    m.target("meter_in", target)
    steps = []

    class Rec:
        def value(self, v=None):
            if v is None:
                return coils["meter_in"].v
            steps.append(("coil", v))
            coils["meter_in"].value(v)

    class RecStore(Store):
        def save(self, value, then=None):
            Store.save(self, value)
            steps.append(("save", self.value))
            if then is not None:
                then()  # the commit point: what the meters do right after the record

    store = RecStore()
    m = EmMeters({"meter_in": Rec()}, store, on_ms=50, off_ms=50, clock=clk)
    m.target("meter_in", target)
    _drive(m, clk)
    assert coils["meter_in"].strokes == target
    for cut in range(len(steps) + 1):
        strokes = 0
        coil_on = False
        saved = None
        for kind, v in steps[:cut]:
            if kind == "coil":
                if coil_on and not v:
                    strokes += 1  # a complete stroke counts on release
                coil_on = bool(v)
            else:
                saved = v
        # the cut: a coil that was on loses power mid-stroke and does not count
        c2 = Coil()
        clk2 = Clock()
        m2 = EmMeters({"meter_in": c2}, Store(saved), on_ms=50, off_ms=50, clock=clk2)
        m2.target("meter_in", target)
        _drive(m2, clk2)
        hard = strokes + c2.strokes
        # the stroke on record, its coil not yet released: the documented window, between two
        # adjacent writes (the record's commit point and the release); one behind at worst
        window = 0 < cut < len(steps) and steps[cut] == ("coil", 0) and steps[cut - 1][0] == "save"
        if window:
            assert hard == target - 1, (cut, steps[:cut])
        else:
            assert hard == target, (cut, hard, steps[:cut])
    # the window is only ever that gap: every release follows its record at once
    for i, step in enumerate(steps):
        if step == ("coil", 0) and i:  # (step 0: every coil is set off at start-up)
            assert steps[i - 1][0] == "save" and steps[i - 1][1]["meter_in"][1] == 0


def test_a_slow_commit_never_shortens_a_stroke_or_its_spacing():
    # The record before the coil goes on may take long (a Cortex-M3 commit is 13-17 ms, docs/sas.md;
    # a loaded host longer): the stroke's width and the spacing after it are timed from the edges,
    # never from the service call's `now`. Before, a 40 ms commit left a 10 ms stroke, too short for
    # the meter to count, while the books counted it (make powercut: meter_games 141 vs soft 142).
    clk = Clock()
    edges = []

    class Timed:
        def value(self, v=None):
            if v is not None:
                edges.append((clk(), v))

    class SlowStore(Store):
        def save(self, value, then=None):
            if any(x[1] for x in value.values()):
                clk.advance(40)  # the record that the stroke is on its way: slow
            Store.save(self, value, then)

    m = EmMeters({"meter_in": Timed()}, SlowStore(), on_ms=50, off_ms=50, clock=clk)
    m.target("meter_in", 3)
    _drive(m, clk)
    edges = edges[1:]  # the start-up's "off"
    assert [v for _, v in edges] == [1, 0] * 3, edges
    widths = [edges[i + 1][0] - edges[i][0] for i in range(0, len(edges), 2)]
    gaps = [edges[i + 1][0] - edges[i][0] for i in range(1, len(edges) - 1, 2)]
    assert min(widths) >= 50 and min(gaps) >= 50, (widths, gaps)


# --- doors ---------------------------------------------------------------------------------------
def test_door_debounce_and_events():
    clk = Clock()
    b = PinBoard(hal.DOORS + hal.KEYS)
    d = Doors(b, debounce_ms=50, clock=clk)
    out = []
    p = b.pin("door_main")
    p.value(1)
    d.scan(out)
    clk.advance(20)
    p.value(0)  # bounce
    d.scan(out)
    clk.advance(20)
    p.value(1)
    d.scan(out)
    assert out == []
    clk.advance(60)
    d.scan(out)
    assert out == [("door", "door_main", 1)] and d.any_open()
    b.pin("key_audit").value(1)
    d.scan(out)
    clk.advance(60)
    d.scan(out)
    assert out[-1] == ("key", "key_audit", 1)


def test_short_opening_between_scans_is_seen():
    clk = Clock()
    b = PinBoard(hal.DOORS)
    d = Doors(b, names=hal.DOORS, debounce_ms=50, clock=clk)
    p = b.pin("door_cashbox")
    p.value(1)
    clk.advance(80)
    p.value(0)  # opened and closed while the loop was busy
    out = []
    d.scan(out)
    clk.advance(60)
    d.scan(out)
    assert out == [("door", "door_cashbox", 1), ("door", "door_cashbox", 0)]
    p.value(1)
    clk.advance(10)
    p.value(0)  # a spike shorter than the debounce: nothing
    d.scan(out)
    clk.advance(60)
    d.scan(out)
    assert len(out) == 2


def test_door_opened_while_off():
    class Latch:
        def __init__(self, names):
            self.names = names

        def read(self):
            return self.names

        def clear(self):
            self.names = []

    b = PinBoard(hal.DOORS)
    b.pin("door_logic").value(1)  # open at power-up
    d = Doors(b, names=hal.DOORS)
    out = []
    latch = Latch(["door_main"])
    n = d.check_boot(out, saved={"door_logic": 0}, latch=latch)
    assert n == 2 and out == [("door_while_off", "door_main", 0), ("door_while_off", "door_logic", 0)]
    assert latch.names == []
    out = []
    assert d.check_boot(out, saved={"door_logic": 1}) == 0  # was already open when we went down
