"""Keno on the real firmware (issue 13), on the emulated board: a card from the player's screen, a
session that sim.replay reproduces bit for bit from the console's `recall json` (the picks and the
numbers drawn in every record), and power cuts at instants right after the play button, after each
of which nothing is lost: every committed game completes on the card it was paid for, and the
books balance."""
from __future__ import annotations

import json
from pathlib import Path

from e2e_session import books, cuts_after_play, recall

from sim import replay
from sim.harness import EmulatedCabinet

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "games" / "models"
GAME = "keno-etoile-90"


def test_keno_session_replays_and_power_cuts_lose_nothing(tmp_path: Path) -> None:
    state = tmp_path / "state"
    cab = EmulatedCabinet(state, extra_args=["--games", GAME]).boot()
    cards: list[list[int]] = []  # the card shown before each press of play
    try:
        assert cab.firmware.ready["game"] == GAME
        assert cab.panel
        cab.panel.press("play")  # no card yet: refused with its reason, nothing committed
        cab.panel.wait_for(lambda s: s.get("say") == ["no_spots"])
        for _ in range(6):
            cab.insert_token()
        for junk in ("touch spot 999", "touch spot 12x", "touch hold 3", "touch spot", "touch quick 4444", "touch"):
            cab.panel.tap.send_line(junk)  # noise on the panel link is no press
        cab.panel.touch("spot", 7)
        s = cab.panel.wait_for(lambda s: isinstance(s.get("reels"), dict) and s["reels"]["picks"])
        assert s["reels"]["picks"] == [7]
        for n in (14, 21, 28, 35, 42, 49, 56):
            cab.panel.touch("spot", n)
        s = cab.panel.wait_for(lambda s: isinstance(s.get("reels"), dict) and len(s["reels"]["picks"]) == 8)
        cards.append(s["reels"]["picks"])
        s = cab.play(timeout=30)
        cab.pay_jackpot(s)  # 7 or 8 of 8 spots, one game in 6,000: locked until the key
        assert s["reels"]["picks"] == cards[0] and len(s["reels"]["drawn"]) == 20
        assert s["reels"]["hits"] == sorted(set(cards[0]) & set(s["reels"]["drawn"]))
        cards.append(cab.quick_pick(5))
        cab.pay_jackpot(cab.play(timeout=30))
        assert books(cab)["games_played"] == 2
    finally:
        cab.shutdown()

    # power cuts right after the play button, at growing delays: before, during or after the commits
    def place(cab: EmulatedCabinet, before: dict, i: int) -> None:
        if before["credits"] < 5:
            cab.insert_token()
            cab.insert_token()
        cards.append(cab.quick_pick(2 + i))

    def check(cab: EmulatedCabinet, before: dict, after: dict) -> None:
        export = recall(cab)
        assert after["refunds"] == 0  # nothing the machine could not complete
        assert after["games_played"] in (before["games_played"], before["games_played"] + 1)
        assert len(export["games"]) == min(10, after["games_played"])
        last = export["games"][-1]
        if after["games_played"] > before["games_played"]:  # the game was committed: it completed on its card
            assert last["draws"][:len(cards[-1])] == cards[-1] and len(last["draws"]) == len(cards[-1]) + 20
            assert last["after"] is not None
        else:
            cards.pop()  # cut before the wager's commit: nothing was paid for that card

    cuts_after_play(state, GAME, place, check)

    cab = EmulatedCabinet(state, extra_args=["--games", GAME]).boot()
    try:
        export = recall(cab)
        m = books(cab)
    finally:
        cab.shutdown()
    games = export["games"]
    assert len(games) == min(10, m["games_played"])
    for rec, card in zip(games, cards[-len(games):]):
        assert rec["id"] == GAME and rec["draws"][:len(card)] == card
    results = replay.replay(export, MODELS)
    assert [r["diffs"] for r in results] == [[] for _ in results]
    for r in results:
        assert set(r["window"]) == {"picks", "drawn", "hits"} and len(r["window"]["drawn"]) == 20
    # a recall record whose numbers were changed is flagged
    forged = json.loads(json.dumps(export))
    drawn = forged["games"][0]["draws"]
    drawn[-1] = next(n for n in range(1, 81) if n not in drawn)
    assert replay.replay(forged, MODELS)[0]["diffs"]
