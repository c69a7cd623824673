"""An out-of-memory restart boots in the heap a power-up has (firmware/main.py supervise,
board/hal.py Board.detach). make test s36e and s37h: aurore-93's every-bet walk on the board's 128K
heap ran out of memory, and the in-process restart's boot check then found no 530 bytes for the
game: 27 KB more in use than at power-up (the modules the failed run had imported, and the board
still holding the failed cabinet's drivers through their IRQ handlers, its last screen and its
generator), so the cabinet stood with no game and asked for a board reset. Here the firmware image
runs as the walk does, the third game's draw made to run out of memory (the wrapper below, in place
of sim/harness.py FROZEN_BOOT): the restart is the only fault, and the game is offered and played
after it."""
from __future__ import annotations

import pytest

from sim import harness
from sim.fuzz import games, oracle
from sim.fuzz.machine import Machine

GAME = "aurore-93"  # the tightest shipped game on the board's heap (docs/games.md, boot check peaks)
STARVED_GAME = 3

# The image's own boot, the cabinet's first gameplay wrapped after it is made: nothing more is
# imported at power-up than the image imports, so the restart is the firmware's own.
INJECT = f"""
import sys
sys.path.remove('')
from firmware import main
made = main.start
def start(board, opts, n=[0]):
    cab = made(board, opts)
    if not n[0]:
        gp = cab.gameplay
        draw = gp.draw_and_settle
        def draw_and_settle(c, bet):
            n[0] += 1
            if n[0] == {STARVED_GAME}:
                raise MemoryError("memory allocation failed (the test's)")
            return draw(c, bet)
        gp.draw_and_settle = draw_and_settle
    return cab
main.start = start
main.main(sys.argv[1:])
"""


def test_an_out_of_memory_restart_offers_the_game_again(monkeypatch: pytest.MonkeyPatch) -> None:
    from test_stateful import WALK_POLL_MS, every_bet, play, recall_bets

    monkeypatch.setattr(harness, "FROZEN_BOOT", INJECT)
    m = play([["power_on", {"games": (GAME,), "poll_ms": WALK_POLL_MS}]])
    try:
        assert m.rig.fw is not None and m.rig.fw.heap == harness.BOARD_HEAP == "128K"
        with pytest.raises(oracle.Violation) as v:
            Machine.player.__wrapped__(m, actions=every_bet(GAME))
            m.step_kind = "player"
            m.check()
        # one restart, not a board reset (exit status 75) nor a crash loop
        assert v.value.kind == "restart", v.value
        assert "out of memory: restarting the cabinet from critical memory" in str(v.value)
        lines = m.rig.fw.lines
        assert not [ln for ln in lines if "DISABLED" in ln or "board reset" in ln], lines
        harness.sign_in(m.rig.console, m.rig.panel)  # the restart ended the console's session, as a reset does
        listed = m.rig.command("games")
        assert any(GAME in ln and "PLAYING" in ln for ln in listed), listed
        events = m.rig.console_json("events json")["events"]
        assert [e[2:] for e in events if e[2] == "restart"] == [["restart", "out of memory"]], events
        # the game the restart found committed was completed, and the walk went on to every bet
        assert any("resume: completing game" in ln for ln in lines), lines
        bets = games.game(GAME).bets
        meters = m.rig.console_json("meters json")
        assert meters["games_played"] == len(bets) and meters["coin_in"] == sum(bets), meters
        assert recall_bets(m) == set(bets)
        assert m.rig.screen["state"] in ("idle", "credit"), m.rig.screen
    finally:
        m.teardown()
