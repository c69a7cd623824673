# A fake board and acceptor for driving firmware.cabinet.Cabinet in device tests (both runtimes),
# and the cabinet made of its parts over them as firmware/startup.py makes it (make_cabinet).
from fakes_board import Pin  # a switch input with value() and irq(handler, trigger)
from fakes_firmware import TEST_SECRET, counter_of, floor_of

from board import hal


class Out:
    def __init__(self):
        self.v = 0
        self.rises = 0

    def value(self, v=None):
        if v is None:
            return self.v
        if v and not self.v:
            self.rises += 1
        self.v = v


class Display:
    def __init__(self):
        self.screen = {}

    def show(self, screen):
        self.screen = screen


class Board(hal.Board):
    NAME = "fake"
    ENTROPY = "emulated"

    def __init__(self, nvram):
        self.nvram = nvram
        self.now = 1000
        self.pins = {}
        for name in hal.INPUTS:
            self.pins[name] = Pin()
        self.lamps = {}
        for name in hal.LAMPS:
            self.lamps[name] = Out()
        self.coils = {}
        for name in hal.METERS:
            self.coils[name] = Out()
        self.display = Display()

    def machine_secret(self):
        return TEST_SECRET

    def rollback_counter(self, which="books"):
        return counter_of(self.nvram, which)

    def floor(self, which):
        if which not in hal.FLOORS:
            raise ValueError("no floor %r" % which)
        return floor_of(self.nvram, which)

    def pin(self, name):
        return self.pins[name]

    def lamp(self, name):
        return self.lamps[name]

    def meter(self, name):
        return self.coils[name]

    def ticks_ms(self):
        return self.now

    def idle(self, ms):
        self.now += max(ms, 1)


class Acceptor:
    """Scripted acceptor: queue events with push(); the cabinet polls them like the ccTalk driver."""

    def __init__(self):
        self.last = None
        self.on = False
        self.queue = []
        self.fault = None
        self.cleared = 0
        self.ids = {1: "CA100T"}  # header 184 identities by position

    def coin_ids(self):
        return dict(self.ids)

    def begin(self):
        self.on = False
        if self.last is None:
            self.last = 0

    def enable(self, on, mask=0xFFFF):
        self.on = bool(on) and self.fault is None

    def clear_fault(self):
        self.fault = None
        self.cleared += 1

    def want(self, on, mask=0xFFFF):
        self.enable(on, mask)

    def push(self, kind, a, b):
        self.queue.append((kind, a, b))

    def poll(self, out):
        n = 0
        while self.queue:
            ev = self.queue.pop(0)
            if ev[0] == "coin" and not self.on:
                continue  # an inhibited acceptor returns the coin
            self.last = self.last % 255 + 1
            if ev[0] == "counter":
                self.fault = "counter"
                self.on = False
            out.append(ev)
            n += 1
        return n

    def answers(self):
        """The simple poll before a set-up: answered at once here."""
        return True

    def service(self, out):
        """The cabinet's loop polls through service() (the ccTalk driver's, never waiting): at once here."""
        return self.poll(out)


class FailingGen:
    """A generator whose health tests have failed: it refuses to produce."""

    def __init__(self, exc):
        self.exc = exc

    def randbits(self, k):
        raise self.exc


def steps(cab, n=30):
    """n passes of the cabinet's loop, 10 ms of the fake board's clock each."""
    for _ in range(n):
        cab.step(10)


def coins(cab, acc, n):
    for _ in range(n):
        acc.push("coin", 1, 1)
    steps(cab, 12)  # past the 100 ms acceptor poll


def press(board, cab, name, hold=60):
    board.pins[name].value(1)
    steps(cab, hold // 10)
    board.pins[name].value(0)
    steps(cab, 8)


def quiet(line):
    pass


def make_cabinet(board, ledger, game, gen, acceptor, cfg=None, money_out=None, progressive=None, audit=None,
                 em=None, bills=None, open_rng=None, offered=(), log=quiet):
    """A Cabinet made of its parts as firmware/startup.py boot makes them: the game's play (its
    family's: firmware/play.py for_game), money in from `acceptor`, and money out by hand pay (a
    HopperOut with no hopper) unless money_out(screen, found) makes another (a hopper's, or
    startup.open_coupon_out's); the tilts its making found are set once the cabinet is made, and
    its condition read, as the boot does. cfg: a firmware/config.py Config (default: the defaults)."""
    from firmware.cabinet import Cabinet
    from firmware.coin_in import CoinIn
    from firmware.config import Config
    from firmware.hopper_out import HopperOut
    from firmware.play import for_game
    from firmware.screen import Screen

    cfg = cfg if cfg is not None else Config()
    screen = Screen()
    found = []
    if money_out is None:
        out = HopperOut(None, ledger, cfg, screen, board.ticks_ms, log)
    else:
        out = money_out(screen, found)
    gameplay = for_game(game, gen, ledger, cfg, progressive, audit, screen, board.ticks_ms, log)
    cab = Cabinet(board, ledger, cfg, gameplay, CoinIn(acceptor, ledger, cfg, log), out, screen, bills=bills, em=em,
                  audit=audit, offered=offered, open_rng=open_rng, log=log)
    for kind, why in found:
        cab.set_tilt(kind, why)
    out.condition(cab)
    return cab
