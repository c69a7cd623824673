"""The shipped games a fuzz sequence offers, and their models (read on the host, for the oracle's replays)."""
from __future__ import annotations

import functools
import json
from pathlib import Path

from firmware.startup import CARDS_PLAYED
from games.cardtable_games import FORMATS as CARD_TABLES
from games.table_check import FORMATS as TABLE_FORMATS
from sim.replay import load_game

ROOT = Path(__file__).resolve().parents[2]
# blackjack and any card-poker table game the cabinet does not play (none now: firmware/startup.py
# CARDS_PLAYED holds all eight) are disabled by the firmware: not offered here; nor craps, whose boot
# check and wagers leave a 160K heap too little (docs/games.md "On the cabinet"); the other table games are, and the card tables
# the cabinet plays (firmware/startup.py CARDS_PLAYED; sim/fuzz/rules_table.py)
_OFF = tuple(f for f in CARD_TABLES if f not in CARDS_PLAYED) + ("jeton-blackjack/1", "jeton-craps/1")
MODELS = {json.loads(p.read_text())["id"]: p for p in sorted((ROOT / "games" / "models").glob("*.json"))
          if json.loads(p.read_text())["format"] not in _OFF}
TABLES = tuple(sorted(g for g, p in MODELS.items() if json.loads(p.read_text())["format"] in TABLE_FORMATS))
CARDS = tuple(sorted(g for g, p in MODELS.items() if json.loads(p.read_text())["format"] in CARDS_PLAYED))
# the firmware offers a game by id (games/models/<id>.json): a model filed under another name cannot be
OFFERED = tuple(sorted(g for g, p in MODELS.items() if p.stem == g))
# played with the buttons alone (a table game: a layout too; a card table: a stake and its decisions)
GAME_IDS = tuple(g for g in OFFERED if g not in TABLES + CARDS)
CERTS = ROOT / "games" / "certs"
# every shipped game alone, and multi-game sets (the first that passes its boot check is played)
GAME_SETS = tuple((g,) for g in GAME_IDS) + tuple((g,) for g in TABLES + CARDS if g in OFFERED) + (
    ("sept-royal-87", "trefle-90", "aurore-88"),
    ("aurore-93", "sept-royal-91"),
    ("trefle-94", "sept-royal-84", "aurore-85"),
)
# a vlt cabinet's game sets: reel games within the vlt profile's bet and prize limits (the others
# are refused at boot with the rule named; `certify --jurisdiction vlt` says which)
VLT_SETS = (("sept-royal-87",), ("sept-royal-91",), ("sept-royal-84", "sept-royal-87"))


@functools.lru_cache(maxsize=None)
def game(game_id: str):
    """The model of a shipped game (sim/replay.py load_game), loaded once a process."""
    return load_game(str(MODELS[game_id]))


def bets(games: tuple[str, ...]) -> tuple[int, ...]:
    """Every bet level of the games of a set."""
    return tuple(b for g in games for b in game(g).bets)


@functools.lru_cache(maxsize=None)
def progressive(game_id: str) -> dict | None:
    """The progressive a shipped model declares, read from its file (docs/game-format.md), not
    through the firmware's model code: {"bet", "num", "den", "reset", "ceiling"} (units of 1/den
    credit grow by num per credit wagered at `bet`; the reset is the pay table's value of its pay
    at that bet), or None."""
    raw = json.loads(MODELS[game_id].read_text())
    spec = raw.get("progressive")
    if not spec:
        return None
    num, den = (int(x) for x in spec["rate"].split("/"))
    count, _, name = spec["pay"].partition(" ")
    bet = spec["bet"]
    reset = None
    for p in raw["pays"]:
        if p["name"] == name and count in p["pays"]:
            reset = p["pays"][count][raw["bets"].index(bet)]  # one value per bet level
    return {"bet": bet, "num": num, "den": den, "reset": reset, "ceiling": spec.get("ceiling")}
