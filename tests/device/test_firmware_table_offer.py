# The table games at power-up (issue 26): every shipped roulette, craps, sic bo, wheel and baccarat
# model passes its boot check and is offered (the cabinet plays them: firmware/play_table.py); under
# vlt only the card games are (S-13.1, r. 7, s. 3), and of those only a model within the $2.50 bet.
# mp-heap: 512K
import gc

from firmware.config import Config
from firmware.startup import load_games


class _Ledger:
    st = {}

    def __init__(self):
        self.events = []

    def event(self, code, text=""):
        self.events.append((code, text))


def test_every_table_game_boots_playable_and_vlt_offers_card_games_only():
    ids = ("roulette-simple-97", "roulette-americaine-92", "roulette-double-87", "sicbo-83", "roue-fortune-85",
           "baccarat-mini-85", "baccarat-85", "craps-83")
    for juris, denom in (("casino", 25), ("vlt", 25)):
        cfg = Config({"JURISDICTION": juris, "DENOM_CENTS": denom})
        led = _Ledger()
        got = {}
        for gid in ids:
            gc.collect()
            r = load_games([gid], "games/models", "games/certs", led, cfg, lambda line: None)[0]
            got[gid] = (r[1], r[2])
            r = None
        if juris == "casino":
            assert all(got[g][0] for g in ids), got
        else:
            assert got["baccarat-mini-85"][0], got["baccarat-mini-85"]
            assert not got["baccarat-85"][0] and "maximum bet" in got["baccarat-85"][1]
            for gid in ids[:5] + ("craps-83",):
                assert not got[gid][0] and "game kind" in got[gid][1], (gid, got[gid])
