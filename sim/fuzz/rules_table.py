"""The fuzz campaign's rules for a table game (issue 26: roulette, craps, sic bo, the wheel of fortune,
baccarat, firmware/play_table.py): a player who touches random wagers on the layout (each touch takes
one to its next bet level, then off), clears it, and plays the round; power cut right after PLAY at
a random instant. After each, beside the checks every step gets (sim/fuzz/checks.py: the books, the
credits shown, the recall against the replay), the round is held to what a table round must be: the
last recall record's stake is the one the screen showed before PLAY (or, the round cut before its
commit, none was taken), its draws replay to its win and digest (games/table_game.py evaluate_round),
and what it took from the credit meter is what its stake takes. A mixin of sim/fuzz/machine.py."""
from __future__ import annotations

import time

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from firmware.recall import digest
from sim.fuzz.games import MODELS, game
from sim.fuzz.oracle import Violation
from sim.fuzz.rules import logged


def table(self) -> bool:
    """A table game is offered (the model: the game set booted); or nothing is run (skipped)."""
    return self._playable() and (self.rig is None or any(is_table(g) for g in self.rig.games))


def is_table(game_id: str | None) -> bool:
    return game_id in MODELS and hasattr(game(game_id), "play_round")


class TableRules:
    @precondition(table)
    @rule(touches=st.lists(st.tuples(st.integers(0, 255), st.integers(1, 3)), min_size=0, max_size=8),
          clear=st.booleans(), cut=st.one_of(st.none(), st.floats(0.0, 0.2)))
    @logged
    def table_round(self, touches: list[tuple[int, int]], clear: bool, cut: float | None) -> None:
        """Wagers touched on the layout (key number % the layout's size, 1-3 touches each), the layout
        cleared first or not, tokens enough for what the stake takes, then PLAY; cut: the power goes
        that long after PLAY, and comes back."""
        rig = self.rig
        gid = rig.screen.get("id")
        if not is_table(gid) or rig.screen.get("state") not in ("idle", "credit"):
            return
        lay = game(gid).layout()
        if clear:
            rig.panel.touch("clear")
            rig.wait_polls(2, 1.0)
        for i, n in touches:
            for _ in range(n):
                rig.panel.touch("wager", i % len(lay))
                rig.wait_polls(1, 1.0)
        rig.wait_polls(2, 1.0)
        t = rig.screen.get("table") or {}
        stake, takes = t.get("stake") or {}, t.get("takes") or 0
        while rig.screen.get("credits", 0) < takes and rig.screen.get("state") in ("idle", "credit"):
            before = rig.screen.get("credits", 0)
            self._insert(1)
            if rig.screen.get("credits", 0) == before:
                break  # the acceptor took nothing (the credit limit, a tilt): PLAY says why
        played = rig.console_json("meters json")["games_played"]
        self._press("play")
        if cut is not None:
            time.sleep(cut)  # the instant of the cut is what this rule varies, not a wait for an event
            self._cut()
            self._boot()
            self._booted(owed=None)
        else:
            self._await_game_or_refusal()
        self._settle()
        self._check_table_round(gid, stake, played)

    def _check_table_round(self, gid: str, stake: dict, played: int) -> None:
        """The round the step played, if it played one, is the stake shown before PLAY, replayed."""
        rig = self.rig
        m = rig.console_json("meters json")
        if m["games_played"] == played:
            return  # refused before its commit (no stake, too few credits, a limit), or cut before it
        recall = rig.console_json("recall json")["games"]
        rec = recall[-1] if recall else None
        if rec is None or rec["n"] != m["games_played"] or rec["id"] != gid:
            raise Violation("recall", f"a table round was played, the last record is {rec}")
        if rec["draws"][0] != stake:
            raise Violation("table", f"round #{rec['n']} staked {rec['draws'][0]}, the screen showed {stake}")
        try:
            o = game(gid).evaluate_round(rec["bet"], rec["draws"])
        except ValueError as e:
            raise Violation("table", f"round #{rec['n']} does not replay: {e}") from None
        if o.award != rec["win"] or digest(o) != rec["h"]:
            raise Violation("table", f"round #{rec['n']} replays to {o.award} ({digest(o)}), recorded "
                                     f"{rec['win']} ({rec['h']})")
        if rec["after"] is not None and rec["after"] != rec["before"] - rec["bet"] + rec["win"] + rec.get("in", 0) \
                and not rec.get("hand") and not rec.get("forfeit"):
            raise Violation("table", f"round #{rec['n']}: credits {rec['before']} -> {rec['after']}, bet "
                                     f"{rec['bet']}, win {rec['win']}")
