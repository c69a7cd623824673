"""Instructions per SAS poll on an emulated Cortex-M3: the machine's side of SAS as the firmware runs
it (board/sas_link.py SasLink framing and answering, firmware/sas/machine.py SasMachine with the
real polls table, firmware/sas/polls.py), on the real Cabinet and Ledger (firmware/cabinet.py,
firmware/ledger.py) over a critical memory in RAM, counted by qemu (MPS2-AN385, -icount shift=0: one
instruction per virtual nanosecond) running the Jeton image with the device rooms frozen (make
firmware-arm, as bench_arm).

    python -m tools.bench.bench_sas_arm [--polls N]

The script sent over the raw REPL (SCRIPT) makes the cabinet as the device tests' make_cabinet does
(tests/device/fakes_cabinet.py) with a board stand-in of its own: pins, lamps, a hand clock, and a
fake UART that hands the link one whole poll per read and notes when the reply is written. The
critical memory is NVRAM_SIZE bytes at NVRAM_ADDRESS, outside MicroPython's heap, as a board's FRAM
is (board/nvram_fram.py): the MPS2-AN385's ZBT SSRAM 2&3, which the qemu port leaves unused. Each poll
is timed twice: to its reply's write (what SAS 6.02 s. 2.3.2's 20 ms window bounds:
board/sas_link.py) and to the end of the cabinet's SAS service (SasMachine.service: for a general
poll that took an exception, its removal committed to the critical memory after the reply; for an
order, its commit's copies, written after the reply: firmware/critmem.py defer). Every
long poll is preceded, untimed, by a general poll to another address (the implied ACK a host's next
poll gives), so none is answered as a repeat. The references measured in the same run: the timer
alone, the fake UART's round trip alone, a general poll to another address through the same
service (framing, no answer), and one books commit (Ledger.event) with its two shares, the state's
JSON text and the critical memory's commit of it; each poll's figure is also given as a ratio to
the UART round trip.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from central.sas_reads import SNAPSHOT_CODES
from sim.sas_host import crc
from tools import firmware
from tools.bench.bench_arm import MHZ
from tools.qemu import MOUNT, NOISE, DeviceError, RawRepl, module_with

POLLS = 100  # of each kind
WINDOW_MS = 20  # SAS 6.02 s. 2.3.2: the machine starts its reply within 20 ms (board/sas_link.py)
ADDRESS = 1
NVRAM_SIZE = 69632  # the ledger's critical memory, as the device tests size it (tests/device/test_sas_polls.py)
# MPS2-AN385's ZBT SSRAM 2&3, 4 MB at 0x20000000 in qemu's model (hw/arm/mps2.c); the qemu port links its
# image, stack and heap into ZBT SSRAM1 at 0 (ports/qemu/mcu/arm/mps2.ld), so nothing else uses it
NVRAM_ADDRESS = 0x20000000
HEAP = "512K"  # the unix port's, for the same script there: its critical memory in the heap, the script's text too
MODEL = "sept-royal-87"
EPOCH = 1795000000  # the qemu board's clock of the day (it has none): 2026-11-18 11:06:40 UTC, a fixed second


def _long(cmd: int, data: bytes = b"", with_crc: bool = False) -> bytes:
    msg = bytes((ADDRESS, cmd)) + data
    return msg + crc(msg) if data or with_crc else msg


METERS_2F = bytes((0x00, 0x00)) + bytes(code for _, code in SNAPSHOT_CODES)  # game 0 (the machine), the codes
# name, message, what the bench does before each one (untimed), the reply's length, its first byte
# after the address (an exception code: one of them; a long poll: its command echoed; -1: the
# address alone, an ACK)
ACK_ONLY = -1
POLL_KINDS: tuple[tuple[str, bytes, str, int, tuple[int, ...]], ...] = (
    ("general poll, exception", bytes((0x80 | ADDRESS,)), "raise", 1, (0x11, 0x12)),  # slot door opened / closed
    ("general poll, 00", bytes((0x80 | ADDRESS,)), "drain", 1, (0x00,)),
    ("1A credits (R)", _long(0x1A), "ack", 8, (0x1A,)),
    ("1C meters (R)", _long(0x1C), "ack", 36, (0x1C,)),
    ("1F game config (R)", _long(0x1F), "ack", 24, (0x1F,)),
    ("54 version (R)", _long(0x54), "ack", 20, (0x54,)),
    (f"2F {len(SNAPSHOT_CODES)} meters (M)", _long(0x2F, bytes((len(METERS_2F),)) + METERS_2F), "ack",
     2 + 1 + 2 + 5 * len(SNAPSHOT_CODES) + 2, (0x2F,)),
    ("01 shut down (S)", _long(0x01, with_crc=True), "enabled", 1, (ACK_ONLY,)),
    ("02 start up (S)", _long(0x02, with_crc=True), "disabled", 1, (ACK_ONLY,)),
    ("94 hand-pay reset (S)", _long(0x94, with_crc=True), "handpay", 5, (0x94,)),
)
# what each "before" sends untimed: 02 before a timed 01 (so each 01 shuts the machine down), 01
# before a timed 02
START_UP = _long(0x02, with_crc=True)
SHUT_DOWN = _long(0x01, with_crc=True)

# The device side, sent over the raw REPL (qemu) or given to the unix port's -c (tests): {polls},
# {kinds}, {nvram} and the rest are filled in by script(). It prints HEAP0 <bytes in use> before the
# cabinet is made, then one line per figure:
#   ROW <name> <polls> <us to the reply> <us to the end of the service> <first reply, hex>
# then HEAP <bytes free> <bytes in use> with the cabinet made and polled, and LINK <repeats> <polls>
# <crc errors> <broken> <unknown> (the link's own counts).
# the qemu board has no clock of the day (its time module lacks time()): a fixed one
SCRIPT = NOISE + """
import gc, sys, time
""" + module_with("time", "time", "lambda: {epoch}") + """import rng
from board import hal
from firmware import states
from firmware.cabinet import Cabinet
from firmware.coin_in import CoinIn
from firmware.config import Config
from firmware.hopper_out import HopperOut
from firmware.ledger import Ledger, open_memory
from firmware.play import for_game
from firmware.screen import Screen
from firmware.sas.exceptions import attach_queue
from firmware.sas.machine import SasMachine
from games import load

us = time.ticks_us
diff = time.ticks_diff


class Nvram:
    # the critical memory's part: a buffer outside the heap on the qemu board, as a board's FRAM
    def __init__(self, buf):
        self.size = len(buf)
        self.mem = buf
        for i in range(self.size):
            buf[i] = 0

    def read(self, off, n):
        return bytes(self.mem[off:off + n])

    def readinto(self, off, buf):
        buf[:] = memoryview(self.mem)[off:off + len(buf)]

    def write(self, off, data):
        self.mem[off:off + len(data)] = data


class Counter:
    # an anti-rollback counter or a floor in RAM: read() None until written
    def __init__(self):
        self.v = None

    def read(self):
        return self.v

    def write(self, n):
        self.v = n


class Pin:
    def __init__(self):
        self.v = 0

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v

    def irq(self, handler=None, trigger=0):
        pass


class Display:
    def show(self, screen):
        pass


class Board(hal.Board):
    NAME = "bench"
    ENTROPY = "emulated"

    def __init__(self, nvram):
        self.nvram = nvram
        self.display = Display()
        self.now = 1000
        self.pins = {{}}
        for n in hal.INPUTS + hal.LAMPS:
            self.pins[n] = Pin()
        self.counters = {{}}

    def pin(self, name):
        return self.pins[name]

    def lamp(self, name):
        return self.pins[name]

    def ticks_ms(self):
        return self.now

    def idle(self, ms):
        self.now += max(ms, 1)

    def machine_secret(self):
        return bytes(range(32))

    def rollback_counter(self, which="books"):
        if which not in self.counters:
            self.counters[which] = Counter()
        return self.counters[which]

    def floor(self, which):
        return self.rollback_counter("floor " + which)


class Acceptor:
    # no coin comes: the cabinet polls it as the ccTalk driver's
    last = 0

    def coin_ids(self):
        return {{1: "CA100T"}}

    def begin(self):
        pass

    def enable(self, on, mask=0xFFFF):
        pass

    def clear_fault(self):
        pass

    def want(self, on, mask=0xFFFF):
        pass

    def answers(self):
        return True  # the simple poll before the set-up: answered

    def poll(self, out):
        return 0

    def service(self, out):
        return 0  # the loop's form of poll (board/coin_cctalk.py): never waits


class Uart:
    # the SAS port: one whole message per read; the time the reply is written, and the reply
    def __init__(self):
        self.rx = None
        self.tx = bytearray(128)
        self.n = 0
        self.t = 0

    def readinto(self, buf):
        msg = self.rx
        if msg is None:
            return None
        self.rx = None
        buf[:len(msg)] = msg
        return len(msg)

    def write(self, b):
        self.t = us()
        n = len(b)
        self.tx[:n] = b
        self.n = n
        return n


gc.collect()
print("HEAP0", gc.mem_alloc())  # the imports and the bench's own classes, before the cabinet
board = Board(Nvram({nvram}))
led = Ledger(open_memory(board.nvram, board.machine_secret(), board.rollback_counter()))
led.open()
attach_queue(led)
cfg = Config({{"MODELS_DIR": "/rom/games/models", "CERTS_DIR": "/rom/games/certs"}})
screen = Screen()
game = load("/rom/games/models/{model}.json")
gen = rng.open_generator(rng.open_source("emulated", _urandom))


def quiet(line):
    pass  # the cabinet's log lines: what they cost is the console's, not the link's


out = HopperOut(None, led, cfg, screen, board.ticks_ms, quiet)  # no hopper: every cash-out a hand pay
cab = Cabinet(board, led, cfg, for_game(game, gen, led, cfg, None, None, screen, board.ticks_ms, quiet),
              CoinIn(Acceptor(), led, cfg, quiet), out, screen, log=quiet)
out.condition(cab)
led.power_up()
cab.resume()
uart = Uart()
m = SasMachine(cab, uart, {address}, board.ticks_ms)
cab.attach(None, m)
cab.step(0)
link = m.link
OTHER = bytes((0x80 | ({address} + 1),))  # a general poll to the next address: our last reply ACKed
GP = bytes((0x80 | {address},))


def service(msg):
    board.now += 50  # a silence before each message: the link frames by time
    uart.rx = msg
    uart.t = 0
    uart.n = 0
    t0 = us()
    m.service()
    t1 = us()
    return (diff(uart.t, t0) if uart.n else 0), diff(t1, t0)


def drain():
    for i in range(80):
        service(GP)
        if uart.tx[0] == 0:
            return
    raise AssertionError("the queue does not empty")


door = [False]


def before(what):
    if what == "raise":  # one exception in the queue: the slot door opened or closed (11 / 12)
        door[0] = not door[0]
        led.door("door_main", door[0])
    elif what == "ack":
        service(OTHER)
    elif what == "enabled" or what == "disabled":  # the other order first: each timed one changes the state
        service(OTHER)
        service({start_up} if what == "enabled" else {shut_down})
        assert bytes(uart.tx[:uart.n]) == bytes(({address},)), (what, bytes(uart.tx[:uart.n]))
        service(OTHER)
    elif what == "handpay":  # credits, cashed out by hand: 94 has a lock to reset
        service(OTHER)
        led.accept(4)
        assert cab.handle(states.CASHOUT) and cab.state == states.HANDPAY, cab.state
        drain()
    elif what == "drain":
        drain()


def row(name, a, b, n, first):
    print("ROW", name.replace(" ", "_"), n, a, b, first)


drain()  # the power-up's 18, 17
gc.collect()
n = {polls}
# references: the timer alone, the fake UART's round trip alone, a poll to another address
t = 0
for i in range(n):
    t0 = us()
    t += diff(us(), t0)
row("ref timer", t, t, n, "-")
buf = bytearray(64)
t = 0
for i in range(n):
    uart.rx = GP
    t0 = us()
    k = uart.readinto(buf)
    uart.write(memoryview(buf)[:k])
    t += diff(us(), t0)
row("ref UART round trip", t, t, n, "-")
a = b = 0
for i in range(n):
    x, y = service(OTHER)
    a += x
    b += y
row("ref poll to another address", a, b, n, "-")
t = 0
for i in range(n):
    t0 = us()
    led.event("sas", "bench")  # one of the books' commits: the state, an event
    t += diff(us(), t0)
row("ref books commit (event)", t, t, n, "-")
from firmware.ledger import STATE_SIZE
jb = bytearray(STATE_SIZE)  # a window as the journal gives one (Ledger._as_json)
t = k = 0
for i in range(n):
    t0 = us()
    k = led._json.into(led.st, jb, 0, STATE_SIZE)  # its share: the state's JSON text (board/json_out.py JsonOut)
    t += diff(us(), t0)
row("ref state JSON text", t, t, n, "-")
sb = memoryview(jb)[:k]
t = 0
for i in range(n):
    t0 = us()
    led.mem.commit({{"state": sb}})  # and the critical memory's: journal, two copies, tags (the same text again)
    t += diff(us(), t0)
row("ref state block commit", t, t, n, "-")
sb = jb = None  # the bench's window, not the cabinet's: out of the heap figure below
for name, msg, what, size, firsts in {kinds}:
    a = b = 0
    first = None
    for i in range(n):
        before(what)
        polls = link.polls
        x, y = service(msg)
        got = bytes(uart.tx[:uart.n])
        assert len(got) == size, (name, got)
        if size == 1:
            assert got[0] in firsts or (firsts[0] < 0 and got[0] == {address}), (name, got)  # never a NACK
        else:
            assert got[0] == {address} and got[1] in firsts, (name, got)
        assert msg[0] & 0x80 or link.polls == polls + 1, (name, "answered as a repeat")
        if first is None:
            first = got
        a += x
        b += y
    row(name, a, b, n, "".join("%02x" % c for c in first))
gc.collect()
print("HEAP", gc.mem_free(), gc.mem_alloc())
print("LINK", link.repeats, link.polls, link.crc_errors, link.broken, link.unknown)
"""


def script(polls: int, nvram: str) -> str:
    """The device script for `polls` of each kind, its critical memory made by the expression `nvram`."""
    return MOUNT + SCRIPT.format(polls=polls, kinds=repr(POLL_KINDS), nvram=nvram, address=ADDRESS, model=MODEL,
                                 epoch=EPOCH, start_up=repr(START_UP), shut_down=repr(SHUT_DOWN))


QEMU_NVRAM = f"__import__('uctypes').bytearray_at({NVRAM_ADDRESS:#x}, {NVRAM_SIZE})"
HEAP_NVRAM = f"bytearray({NVRAM_SIZE})"


def parse(out: str) -> dict:
    """The script's output: {"rows": [{name, polls, reply_us, service_us, first}], "heap_free",
    "heap_used" (at the end), "heap_before" (before the cabinet was made), "link": {repeats, polls,
    crc_errors, broken, unknown}}."""
    rows = []
    res: dict = {"rows": rows}
    for line in out.splitlines():
        f = line.split()
        if not f:
            continue
        if f[0] == "ROW":
            rows.append({"name": f[1].replace("_", " "), "polls": int(f[2]), "reply_us": int(f[3]),
                         "service_us": int(f[4]), "first": f[5]})
        elif f[0] == "HEAP":
            res["heap_free"], res["heap_used"] = int(f[1]), int(f[2])
        elif f[0] == "HEAP0":
            res["heap_before"] = int(f[1])
        elif f[0] == "LINK":
            res["link"] = dict(zip(("repeats", "polls", "crc_errors", "broken", "unknown"), map(int, f[1:])))
    return res


def run_qemu(polls: int, timeout: float = 600) -> dict:
    """The script on the Cortex-M3 image under qemu (icount: microseconds are thousands of instructions)."""
    with firmware._locked():
        firmware.build_arm()
    repl = RawRepl()
    try:
        return parse(repl.exec(script(polls, QEMU_NVRAM), timeout=timeout))
    finally:
        repl.close()


def run_unix(polls: int, heap: str = HEAP, image: Path | None = None, timeout: float = 120) -> dict:
    """The same script on the emulated board's image (the unix port, 32-bit, frozen), its critical
    memory in the heap (NVRAM_SIZE more than on the qemu board, in one piece): the replies are the
    firmware's there too (the tests read them)."""
    image = image or firmware.ensure_built()
    r = subprocess.run([str(image), "-X", f"heapsize={heap}", "-c", script(polls, HEAP_NVRAM)],
                       env={"MICROPYPATH": ".frozen"}, capture_output=True, text=True, timeout=timeout)
    if r.returncode:
        raise DeviceError((r.stdout + r.stderr).strip())
    return parse(r.stdout)


def instructions(row: dict, key: str = "reply_us") -> int:
    """Instructions per poll: qemu's -icount shift=0 makes a microsecond 1000 instructions."""
    return row[key] * 1000 // row["polls"]


def report(res: dict, polls: int) -> list[str]:
    rows = res["rows"]
    uart = next(r for r in rows if r["name"] == "ref UART round trip")
    ref = max(instructions(uart), 1)
    window = WINDOW_MS * 1000 * MHZ  # the reply window in instructions at MHZ, one a cycle
    lines = [f"SAS polls on the Cortex-M3 (qemu MPS2-AN385, -icount shift=0), {polls} of each; the real cabinet, "
             f"its critical memory in RAM outside the heap",
             f"heap in use {res['heap_used']:,} bytes ({res['heap_used'] - res['heap_before']:,} of them the cabinet "
             f"and its SAS side, made and polled), {res['heap_free']:,} free",
             f"{'poll':<28} {'instr/reply':>11} {'us @' + str(MHZ) + 'MHz':>9} {'x ref':>6} {'instr/service':>13} "
             f"{'us @' + str(MHZ) + 'MHz':>9}  within {WINDOW_MS} ms"]
    for r in rows:
        a, b = instructions(r), instructions(r, "service_us")
        within = "-" if r["name"].startswith("ref ") else ("yes" if a < window else "NO")
        if r["name"] == "ref poll to another address":  # no reply: the service's figures only
            head = f"{'-':>11} {'-':>9} {'-':>6}"
        else:
            head = f"{a:>11,} {a / MHZ:>9.1f} {a / ref:>6.1f}"
        lines.append(f"{r['name']:<28} {head} {b:>13,} {b / MHZ:>9.1f}  {within}")
    lines.append("(instr/reply: to the reply's write; instr/service: to the end of the cabinet's SAS service, "
                 "a taken exception's commit and an order's copies included; x ref: against the fake UART's "
                 "round trip)")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.bench.bench_sas_arm", description=__doc__.split("\n\n")[0])
    ap.add_argument("--polls", type=int, default=POLLS, help=f"of each kind (default {POLLS})")
    a = ap.parse_args([] if argv is None else argv)
    missing = firmware.arm_tools_missing()
    if missing:
        print(f"skipped: needs {' '.join(missing)} (make firmware-arm installs them)")
        return 0
    try:
        res = run_qemu(a.polls)
    except firmware.BuildError as e:
        print(f"skipped: {e}")
        return 0
    print("\n".join(report(res, a.polls)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
