# Power-up: critical memory, RNG, game, drivers; then hand over to the cabinet's main loop.
import json
import sys

import games
import rng
from board.cctalk import Master
from board.coin_cctalk import CoinAcceptor
from firmware import config
from firmware.cabinet import Cabinet
from firmware.console import Console
from firmware.critmem import RamError
from firmware.ledger import Ledger, open_memory


def log(msg):
    print("jeton: " + msg)


def _heap_size():
    import gc

    if hasattr(gc, "mem_free"):  # MicroPython: the fixed heap given by -X heapsize
        return gc.mem_free() + gc.mem_alloc()
    return None


def boot(board):
    log("boot on %s" % board.NAME)
    ledger = Ledger(open_memory(board.nvram))
    ram_error = None
    try:
        for finding in ledger.open():
            log("critical memory: " + finding)
            ledger.event("nvram", finding)
        ledger.power_up()
    except (RamError, ValueError, KeyError) as e:
        ram_error = str(e)
        ledger.st = None
    gen = rng.open_generator(rng.open_source(board.ENTROPY))
    game = games.load(config.GAME_MODEL)
    bus = Master(board.uart("cctalk"), board.idle)
    cab = Cabinet(board, ledger, game, gen, CoinAcceptor(bus), log=log)
    cab.console = Console(board.uart("console"), cab)
    if ram_error:
        cab.set_ram_error(ram_error)
    else:
        cab.resume()
    cab.show()
    log("ready " + json.dumps({"game": game.id, "credits": ledger.credits if ledger.st else None,
                               "state": cab.state, "runtime": sys.implementation.name, "heap": _heap_size()}))
    if hasattr(sys.stdout, "flush"):
        sys.stdout.flush()
    return cab
