"""How long one ccTalk request holds the cabinet's loop: the real Master on a simulated single-wire
bus at the boards' 9600 baud (10 bits a byte, board/pyboard.py UARTS), its own transmission echoed
byte by byte, the device's reply after a chosen delay; a simulated clock moved only by the Master's
idle(ms), by min(ms, 5) as board/machine_board.py idle does, and by the loop's passes. No wall
clock: the figures are the same on any host.

    python -m tools.bench.bench_cctalk

Rows: the requests the cabinet's loop makes (coin acceptor 229 every ACCEPTOR_POLL_MS, twice when
new events are corroborated; bill validator 159 likewise; hopper 166 and 163 while it pays), each
for device reply delays of 0, 5 and 10 ms, and a device that does not answer (the Master's
timeout_ms and retries). Two tables: the waiting form (Master.request: what set-up and the console
use, and what the loop's polling did before it stopped waiting), the ms one request holds its
caller; and the loop's form (Master.send, then Master.take once a pass of PASS_MS until the reply or
the failure), the longest any one call held the loop (the clock moved inside it: the Master never
idles there, so 0) and the passes until the outcome. SAS 6.02 s. 2.3.2's 20 ms (docs/sas.md) is the
reference.

Then a hopper cash-out as the cabinet's loop drives it (board/hopper_cctalk.py Hopper: payout() in one
pass, service() once a pass of PASS_MS until its final result, settle()), against a hopper on the same
simulated bus and clock (BenchHopper: a coin every COIN_MS after its 167): the longest any one pass
held the loop (the Master's idle() moves the clock, as a board's waits do) and the passes to the
result, for CASHOUTS (one chunk; two chunks, over 255 coins; a hopper power loss mid-payout); and
the hopper's set-up, waiting (begin, at power-up) and a step a pass (start, a hopper back after it
was lost).
"""
from __future__ import annotations

import sys

from board.cctalk import CcTalkError, Master
from board.cctalk_frame import build
from board.hopper_cctalk import Hopper
from tools.bench import cli

BAUD = 9600
BYTE_MS = 10 * 1000 / BAUD  # start bit, 8 data bits, stop bit
IDLE_STEP_MS = 5  # board/machine_board.py idle: sleep_ms(min(ms, 5))
SAS_WINDOW_MS = 20  # SAS 6.02 s. 2.3.2, as docs/sas.md cites it
# (what, device address, header, data bytes of the reply): board/coin_cctalk.py, bill_cctalk.py, hopper_cctalk.py
REQUESTS = (("coin acceptor: read buffered credit", 2, 229, 11),
            ("bill validator: read buffered bill events", 40, 159, 11),
            ("hopper: request status", 3, 166, 4),
            ("hopper: test hopper", 3, 163, 2))
DELAYS_MS = (0, 5, 10)
PASS_MS = 20  # one pass of the cabinet's loop (firmware/cabinet.py step idles up to 20 ms)
HOPPER_DELAY_MS = 5  # the hopper's reply delay in the cash-out rows
COIN_MS = 150  # a coin out of the hopper every 150 ms (6-7 coins a second)
# (what, coins, pass of the power loss or None)
CASHOUTS = (("hopper cash-out: 20 coins", 20, None),
            ("hopper cash-out: 300 coins (two chunks)", 300, None),
            ("hopper cash-out: 20 coins, power loss", 20, 40))


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def ticks(self) -> int:
        return int(self.t)

    def idle(self, ms: int) -> None:
        self.t += min(ms, IDLE_STEP_MS)


class TimedBus:
    """The master's UART: what it writes comes back as its echo, one byte every BYTE_MS, then the
    addressed device's ACK with `data` zero bytes after delay_ms (no device: nothing)."""

    def __init__(self, clock: Clock, replies: dict, delay_ms: float) -> None:
        self.clock = clock
        self.replies = replies  # address -> data bytes of its reply, or a device: reply(header, data)
        self.delay_ms = delay_ms
        self.due: list[tuple[float, int]] = []
        self.rx = bytearray()

    def write(self, data) -> int:
        data = bytes(data)
        t = self.clock.t
        for i, b in enumerate(data):
            self.due.append((t + (i + 1) * BYTE_MS, b))
        n = self.replies.get(data[0])
        if n is not None:
            body = bytes(n) if isinstance(n, int) else n.reply(data[3], data[4:-1])
            frame = bytearray(5 + len(body))
            k = build(frame, 1, data[0], 0, body)
            start = t + len(data) * BYTE_MS + self.delay_ms
            for i in range(k):
                self.due.append((start + (i + 1) * BYTE_MS, frame[i]))
        return len(data)

    def _arrive(self) -> None:
        while self.due and self.due[0][0] <= self.clock.t:
            self.rx.append(self.due.pop(0)[1])

    def any(self) -> int:
        self._arrive()
        return len(self.rx)

    def readinto(self, buf) -> int | None:
        self._arrive()
        n = min(len(buf), len(self.rx))
        if not n:
            return None
        buf[:n] = self.rx[:n]
        del self.rx[:n]
        return n


class BenchHopper:
    """A payout hopper on the simulated clock (its headers: board/hopper_cctalk.py's comment, from the
    ccTalk generic specification part 2): 167 starts a payout, a coin leaves every COIN_MS; 166 its
    event counter and the payout's remaining / paid coins; 168 the lifetime count; power_loss() stops
    it (counter 0, the power-up and payout-disabled flags, the count kept in NV memory)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.counter = 0
        self.base = 0  # the 168 count before the payout under way
        self.n = 0  # its coins
        self.t0 = 0.0
        self.flags = 0
        self.dispenses = 0

    def paid(self) -> int:
        return min(self.n, int((self.clock.t - self.t0) / COIN_MS)) if self.n else 0

    def power_loss(self) -> None:
        self.base += self.paid()
        self.n = 0
        self.counter = 0
        self.flags = (1 << 6) | (1 << 7)

    def reply(self, header: int, data: bytes) -> bytes:
        paid = self.paid()
        if header == 166:
            return bytes((self.counter, self.n - paid, paid & 0xFF, 0))
        if header == 168:
            c = self.base + paid
            return bytes((c & 0xFF, c >> 8 & 0xFF, c >> 16 & 0xFF))
        if header == 163:
            return bytes((self.flags & 0xFF, self.flags >> 8 & 0xFF, 0))
        if header == 167:
            self.base += paid
            self.counter = self.counter % 255 + 1
            self.n = data[-1]
            self.t0 = self.clock.t
            self.dispenses += 1
            return bytes((self.counter,))
        if header == 1:
            self.counter = 0
            self.flags = 1 << 7
        if header == 164:
            self.flags &= ~(1 << 7)
        if header == 245:
            return b"Payout"
        return b""


class Store:
    def __init__(self) -> None:
        self.value = None

    def load(self):
        return self.value

    def save(self, rec) -> None:
        self.value = dict(rec) if rec else None


def cashout(coins: int, loss_pass: int | None, delay_ms: float = HOPPER_DELAY_MS) -> dict:
    """A cash-out of `coins` as the loop drives it: the longest ms any one pass held the loop, the
    waits (Master idle calls) in the loop's passes, the passes to the final result, the coins out."""
    clock = Clock()
    hopper = BenchHopper(clock)
    bus = TimedBus(clock, {3: hopper}, delay_ms)
    waits: list[int] = []

    def idle(ms: int) -> None:
        waits.append(ms)
        clock.idle(ms)

    h = Hopper(Master(bus, idle, clock=clock.ticks), Store())
    h.begin([])  # the set-up: power-up, before the loop
    del waits[:]
    longest = 0.0
    final = None
    n = 0
    while final is None:
        t0 = clock.t
        out: list = []
        if n == 0:
            h.payout(coins, 1)  # the cash-out's own pass
        else:
            h.service(out)
        for e in out:
            if e[0] in ("payout", "uncertain"):
                final = e
                h.settle()
        longest = max(longest, clock.t - t0)
        n += 1
        if n == loss_pass:
            hopper.power_loss()
        clock.t += PASS_MS
        if n > 10000:
            raise AssertionError("no final result")
    while h.busy():  # the steps after it (a power loss's reset and enable), then the idle check
        t0 = clock.t
        h.service([])
        longest = max(longest, clock.t - t0)
        clock.t += PASS_MS
    return {"held_ms": longest, "waits": len(waits), "passes": n, "final": list(final),
            "dispenses": hopper.dispenses, "coins_out": hopper.base + hopper.paid()}


def setup(delay_ms: float = HOPPER_DELAY_MS) -> dict:
    """The hopper's set-up: begin() (waiting, as at power-up) held its caller `begin_ms`; start() once
    a pass (as the loop sets up a hopper that was lost): the longest pass, the Master's waits, passes."""
    clock = Clock()
    bus = TimedBus(clock, {3: BenchHopper(clock)}, delay_ms)
    Hopper(Master(bus, clock.idle, clock=clock.ticks), Store()).begin([])
    begin_ms = clock.t
    clock = Clock()
    bus = TimedBus(clock, {3: BenchHopper(clock)}, delay_ms)
    waits: list[int] = []

    def idle(ms: int) -> None:
        waits.append(ms)
        clock.idle(ms)

    h = Hopper(Master(bus, idle, clock=clock.ticks), Store())
    longest = 0.0
    n = 0
    while True:
        t0 = clock.t
        done = h.start([])
        longest = max(longest, clock.t - t0)
        n += 1
        if done:
            return {"begin_ms": begin_ms, "held_ms": longest, "waits": len(waits), "passes": n}
        clock.t += PASS_MS


def held_ms(addr: int, header: int, data_bytes: int | None, delay_ms: float) -> tuple[float, str]:
    """The simulated time one Master.request holds its caller, and how it ended."""
    clock = Clock()
    bus = TimedBus(clock, {} if data_bytes is None else {addr: data_bytes}, delay_ms)
    try:
        Master(bus, clock.idle, clock=clock.ticks).request(addr, header)  # deadlines on the simulated clock
        how = "answered"
    except CcTalkError as e:
        how = e.reason
    return clock.t, how


def passes(addr: int, header: int, data_bytes: int | None, delay_ms: float) -> tuple[float, int, str]:
    """The loop's form: send, then take once a pass (PASS_MS apart) until the outcome; the longest
    any one call held the loop (simulated ms), the passes after the send, and how it ended."""
    clock = Clock()
    bus = TimedBus(clock, {} if data_bytes is None else {addr: data_bytes}, delay_ms)

    def no_wait(ms: int) -> None:
        raise AssertionError("the loop's form waited")

    m = Master(bus, no_wait, clock=clock.ticks)
    t0 = clock.t
    tok = m.send(addr, header)
    longest = clock.t - t0
    n = 0
    how = "answered"
    while True:
        clock.t += PASS_MS
        n += 1
        t0 = clock.t
        try:
            r = m.take(tok)
        except CcTalkError as e:
            how = e.reason
            r = e
        longest = max(longest, clock.t - t0)
        if r is not None:
            return longest, n, how


def main(argv: list[str] | None = None) -> dict:
    cli(__doc__, "python -m tools.bench.bench_cctalk", sys.argv[1:] if argv is None else argv)
    out: dict = {}
    print(f"ccTalk at {BAUD} baud, the waiting form (Master.request): ms one request holds its caller "
          f"(reference: SAS's {SAS_WINDOW_MS} ms)")
    print(f"{'request':44} " + " ".join(f"{'delay %d' % d:>8}" for d in DELAYS_MS) + f" {'silent':>8}")
    for what, addr, header, n in REQUESTS:
        row = [held_ms(addr, header, n, d)[0] for d in DELAYS_MS]
        silent, how = held_ms(addr, header, None, 0)
        out[what] = {"delays_ms": dict(zip(DELAYS_MS, row)), "silent_ms": silent, "silent_ends": how}
        print(f"{what:44} " + " ".join(f"{ms:8.1f}" for ms in row) + f" {silent:8.1f}")
    print(f"\nthe loop's form (send, then take once a pass of {PASS_MS} ms): the longest ms one call holds "
          "the loop / the passes to the outcome")
    print(f"{'request':44} " + " ".join(f"{'delay %d' % d:>8}" for d in DELAYS_MS) + f" {'silent':>8}")
    longest = 0.0
    for what, addr, header, n in REQUESTS:
        row = [passes(addr, header, n, d) for d in DELAYS_MS]
        silent = passes(addr, header, None, 0)
        out[what]["loop"] = {"delays": {d: {"held_ms": r[0], "passes": r[1]} for d, r in zip(DELAYS_MS, row)},
                             "silent": {"held_ms": silent[0], "passes": silent[1], "ends": silent[2]}}
        longest = max([longest, silent[0]] + [r[0] for r in row])
        print(f"{what:44} " + " ".join(f"{r[0]:4.1f}/{r[1]:<3d}" for r in row) + f" {silent[0]:4.1f}/{silent[1]:<3d}")
    out["loop_longest_ms"] = longest
    print(f"the loop's longest wait on the bus: {longest:.1f} ms (the waiting form's: "
          f"{max(v['silent_ms'] for k, v in out.items() if isinstance(v, dict) and 'silent_ms' in v):.1f} ms)")
    print(f"\nhopper cash-outs as the loop drives them (reply delay {HOPPER_DELAY_MS} ms, a coin every {COIN_MS} ms, "
          f"a pass every {PASS_MS} ms): the longest ms one pass held the loop, the Master's waits, the passes")
    worst = 0.0
    for what, coins, loss in CASHOUTS:
        r = cashout(coins, loss)
        out[what] = r
        worst = max(worst, r["held_ms"])
        print(f"{what:44} {r['held_ms']:8.1f} ms {r['waits']:4d} waits {r['passes']:5d} passes  {tuple(r['final'])}")
    out["cashout_longest_ms"] = worst
    print(f"a hopper cash-out's longest pass: {worst:.1f} ms")
    r = setup()
    out["hopper set-up"] = r
    print(f"the hopper's set-up: begin() held its caller {r['begin_ms']:.1f} ms; start() a step a pass: "
          f"{r['held_ms']:.1f} ms the longest, {r['waits']} waits, {r['passes']} passes")
    return out


if __name__ == "__main__":
    main()
