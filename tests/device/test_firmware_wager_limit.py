# The jurisdiction's maximum bet enforced again on every wager (firmware/play.py): under vlt a bet
# worth more than $2.50 (L-6, r. 3, s. 4; docs/reference/vlt-rules.md) is refused before anything is
# committed, with an event naming the rule; a bet inside it plays.
# mp-heap: 640K  (as test_firmware_cabinet.py: the 68 KB NVRAM image and the modules from source)
import gc

from fakes_cabinet import Acceptor, Board, make_cabinet
from fakes_firmware import RamNvram, memory, wiped

import rng
from firmware import states
from firmware.config import Config
from firmware.ledger import Ledger
from games import load

NVRAM = RamNvram(69632)


def cabinet(juris, denom):
    """A cabinet under the profile `juris` at `denom` cents a credit, three $1 tokens credited."""
    gc.collect()
    board = Board(wiped(NVRAM))
    led = Ledger(memory(board.nvram))
    led.open()
    acc = Acceptor()
    cab = make_cabinet(board, led, load("games/models/sept-royal-87.json"), rng.open_generator(rng.open_source("emulated")),
                       acc, Config({"JURISDICTION": juris, "DENOM_CENTS": denom}))
    cab.resume()
    cab.step(0)
    for _ in range(3):
        acc.push("coin", 1, 1)
    for _ in range(12):
        cab.step(10)
    return cab


def test_a_wager_over_the_vlt_maximum_is_refused_and_commits_nothing():
    # a machine whose credit is worth $1 (a setting the boot check would refuse): 3 credits = $3.00
    cab = cabinet("vlt", 100)
    before = dict(cab.ledger.meters)
    credits = cab.ledger.credits
    assert credits == 3
    cab.ledger.set_bet(3)
    cab.handle(states.PLAY)
    assert cab.ledger.meters["games_played"] == before["games_played"]
    assert cab.ledger.credits == credits and cab.ledger.meters["coin_in"] == before["coin_in"]
    ev = cab.ledger.events()[-1]
    assert ev[2] == "bet-refused" and ev[3].startswith("vlt maximum bet: $3.00 above $2.50"), ev
    assert cab.screen.message == ("bet_refused",)


def test_a_wager_inside_the_limit_plays():
    cab = cabinet("vlt", 25)
    cab.ledger.set_bet(3)
    games = cab.ledger.meters["games_played"]
    cab.handle(states.PLAY)
    assert cab.ledger.meters["games_played"] == games + 1
