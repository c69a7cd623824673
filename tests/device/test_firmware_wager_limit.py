# The jurisdiction's maximum bet enforced again on every wager (firmware/play.py): under vlt a bet
# worth more than $2.50 (L-6, r. 3, s. 4; docs/reference/vlt-rules.md) is refused before anything is
# committed, with an event naming the rule; a bet inside it plays.
# mp-heap: 640K  (as test_firmware_cabinet.py: the 68 KB NVRAM image and the modules from source)
import gc

from fakes_cabinet import Acceptor, Board
from fakes_firmware import RamNvram, memory, wiped

import rng
from firmware import config
from firmware.cabinet import Cabinet
from firmware.ledger import Ledger
from games import load

NVRAM = RamNvram(69632)


def cabinet():
    gc.collect()
    board = Board(wiped(NVRAM))
    led = Ledger(memory(board.nvram))
    led.open()
    acc = Acceptor()
    cab = Cabinet(board, led, load("games/models/sept-royal-87.json"), rng.open_generator(rng.open_source("emulated")),
                  acc, log=lambda m: None)
    cab.resume()
    cab.step(0)
    for _ in range(3):
        acc.push("coin", 1, 1)
    for _ in range(12):
        cab.step(10)
    return cab


def _under(juris, denom, fn):
    was = config.JURISDICTION, config.DENOM_CENTS
    config.JURISDICTION, config.DENOM_CENTS = juris, denom
    try:
        return fn()
    finally:
        config.JURISDICTION, config.DENOM_CENTS = was


def test_a_wager_over_the_vlt_maximum_is_refused_and_commits_nothing():
    cab = cabinet()
    before = dict(cab.ledger.meters)
    credits = cab.ledger.credits
    cab.ledger.set_bet(3)

    def play():
        # a machine whose credit is worth $1 (a setting the boot check would refuse): 3 credits = $3.00
        cab.play()
        return cab.ledger.meters["games_played"]

    assert _under("vlt", 100, play) == before["games_played"]
    assert cab.ledger.credits == credits and cab.ledger.meters["coin_in"] == before["coin_in"]
    ev = cab.ledger.events()[-1]
    assert ev[2] == "bet-refused" and ev[3].startswith("vlt maximum bet: $3.00 above $2.50"), ev
    assert cab.message == ("bet_refused",)


def test_a_wager_inside_the_limit_plays():
    cab = cabinet()
    cab.ledger.set_bet(3)
    games = cab.ledger.meters["games_played"]
    assert _under("vlt", 25, lambda: (cab.play(), cab.ledger.meters["games_played"])[1]) == games + 1
