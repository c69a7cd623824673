"""Every shipped game offered on the real firmware (issue 9, faults 2, 3, 6, 13): it boots, takes
a token, plays one game at each of its bet levels, and cashes out, with the money identity
checked against the host's own count of tokens. A bad configuration is a named tilt that keeps the
credits cashable. One firmware process per game, on the emulated board."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.cardtable_games import FORMATS as CARD_TABLES
from sim.harness import EmulatedCabinet
from sim.replay import load_game

ROOT = Path(__file__).resolve().parents[2]
# the card-poker table games (issue 26) are certified but not yet played by this firmware: offered
# alone they are a named "game" tilt (tests/host/test_e2e_cardtable.py)
GAMES = sorted(p.stem for p in (ROOT / "games" / "models").glob("*.json")
               if json.loads(p.read_text(encoding="utf-8"))["format"] not in CARD_TABLES)
TOKEN_CREDITS = 4  # a $1 token at 25-cent credits (firmware/config.py)


def model_id(stem: str) -> str:
    return json.loads((ROOT / "games" / "models" / f"{stem}.json").read_text())["id"]


@pytest.mark.parametrize("stem", GAMES)
def test_every_shipped_game_boots_plays_each_bet_and_cashes_out(tmp_path: Path, stem: str) -> None:
    gid = model_id(stem)
    if stem != gid:  # games are offered by id, and a model file is named for its id
        pytest.fail(f"games/models/{stem}.json holds {gid}: the firmware would never find it")
    game = load_game(str(ROOT / "games" / "models" / f"{stem}.json"))
    bets = game.bets
    cab = EmulatedCabinet(tmp_path, extra_args=["--games", gid]).boot()
    try:
        assert cab.firmware.ready["game"] == gid, cab.firmware.lines[-20:]
        if hasattr(game, "spots"):  # keno: a card of the most spots offered, from the player's screen
            cab.quick_pick(game.spots[-1])
        tokens = 0
        for bet in bets:
            while cab.panel.screen.get("credits", 0) < bet:
                cab.insert_token()
                tokens += 1
            while cab.panel.screen.get("bet") != bet:  # the bet button walks the game's own bet levels
                shown = cab.panel.screen.get("bet")
                cab.panel.press("bet_one")
                cab.panel.wait_for(lambda s, shown=shown: s.get("bet") != shown)
            cab.play(timeout=30)
        m = cab.meters()
        assert m["games_played"] == len(bets) and m["coin_in"] == sum(bets)
        assert m["acceptor_in"] == tokens * TOKEN_CREDITS
        cab.cash_out()
        m = cab.meters()
        assert m["credits"] == 0
        assert m["cashout"] == m["acceptor_in"] + m["coin_out"] + m["refunds"] - m["coin_in"]
        assert "restart" not in cab.console.command("events")[-1]
    finally:
        cab.shutdown()


def test_a_bad_configuration_is_a_named_tilt_and_credits_stay_cashable(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path).boot()
    try:
        cab.insert_token()
    finally:
        cab.shutdown()
    (tmp_path / "settings.json").write_text(json.dumps({"COINS": {"CA100T": 100, "CA010A": 10}, "PAYOUT_COIN": ["CA100T", 100]}))
    cab = EmulatedCabinet(tmp_path).boot()
    try:
        s = cab.panel.wait_for(lambda s: s.get("state") == "tilt")
        assert "CA010A is worth 10 cents, not a whole number of 25-cent credits" in s["msg"]
        assert s["credits"] == TOKEN_CREDITS
        assert not cab.acceptor.accepting(1)  # no money in while the configuration is wrong
        state = "\n".join(cab.console.command("state"))
        assert "tilt config: COINS: CA010A" in state
        cab.cash_out()  # a hand pay: the player's credits are never out of reach
        assert cab.meters()["cancelled"] == TOKEN_CREDITS
    finally:
        cab.shutdown()
