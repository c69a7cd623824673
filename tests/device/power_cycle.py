# A cabinet powered on and off over one NVRAM part, as firmware/startup.py boots it (a new Ledger
# and Cabinet on the same NVRAM: nothing kept from RAM), for the device tests of what a power cycle
# keeps and what is found afresh (issue 9). Helpers only, no tests here; both runtimes.
import gc

from fakes_cabinet import Acceptor, Board, make_cabinet
from fakes_firmware import RamNvram, memory, wiped

import rng
from board.meters_em import EmMeters
from firmware.ledger import Ledger
from games import load

SEPT = "games/models/sept-royal-87.json"  # bets 1, 2, 3
TREFLE = "games/models/trefle-90.json"  # bets 5, 10, 25: a fresh ledger's bet is not one of them


class LedgerStore:
    """The EM meters' record kept in the ledger's critical memory, as firmware.startup wires it."""

    def __init__(self, led):
        self.load = led.em_state
        self.save = led.save_em_state


def gen():
    return rng.open_generator(rng.open_source("emulated"))


def power_on(board, model=SEPT, g="fresh", acc=None, em=False, open_rng=None):
    """Boot on the board's NVRAM as firmware.startup does: ledger, cabinet, resume. em: the board's
    meter coils driven, their record in the books as the boot keeps it."""
    gc.collect()  # a board boots on a fresh heap: what the last boot left is garbage
    led = Ledger(memory(board.nvram))
    led.open()
    game = load(model) if model else None
    cab = make_cabinet(board, led, game, gen() if g == "fresh" else g, acc or Acceptor(),
                       em=EmMeters(board.coils, LedgerStore(led), on_ms=20, off_ms=20, clock=board.ticks_ms) if em else None,
                       open_rng=open_rng)
    cab.resume()
    cab.step(0)
    return cab


NVRAM = RamNvram(69632)  # one part, wiped for each test: made while the heap is in one piece


def new_board():
    gc.collect()
    return Board(wiped(NVRAM))


def steps(cab, n=30):
    for _ in range(n):
        cab.step(10)


def coins(cab, n):
    for _ in range(n):
        cab.coins.device.push("coin", 1, 1)
    steps(cab, 12)


def press(cab, name, hold=60):
    cab.board.pins[name].value(1)
    steps(cab, hold // 10)
    cab.board.pins[name].value(0)
    steps(cab, 8)
