"""The fuzz campaign's rules for a table game (issue 26: roulette, craps, sic bo, the wheel of fortune,
baccarat, firmware/play_table.py): a player who touches random wagers on the layout (each touch takes
one to its next bet level, then off), clears it, and plays the round; power cut right after PLAY at
a random instant. After each, beside the checks every step gets (sim/fuzz/checks.py: the books, the
credits shown, the recall against the replay), the round is held to what a table round must be: the
last recall record's stake is the one the screen showed before PLAY (or, the round cut before its
commit, none was taken), its draws replay to its win and digest (games/table_game.py evaluate_round),
and what it took from the credit meter is what its stake takes. The card-poker tables the cabinet plays
(firmware/play_cards.py: 3 Card Poker, Caribbean Stud, Let It Ride, Red Dog, War, 3-5-7, Boston and
Crazy Four Poker) get card_round:
a stake, PLAY, then random decisions (auto or hold key N, an illegal one refused), the hand left
waiting or not, the power cut between the deal and a decision or within one; a round settled in the
step is the stake shown, replays through evaluate_round to its win and digest, and its credits
balance (after == before - bet + win). A mixin of sim/fuzz/machine.py."""
from __future__ import annotations

import time

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from firmware.recall import digest
from sim.fuzz import oracle
from sim.fuzz.games import MODELS, game
from sim.fuzz.oracle import Violation
from sim.fuzz.rules import logged


def table(self) -> bool:
    """A table game is offered (the model: the game set booted); or nothing is run (skipped)."""
    return self._playable() and (self.rig is None or any(is_table(g) for g in self.rig.games))


def is_table(game_id: str | None) -> bool:
    return game_id in MODELS and hasattr(game(game_id), "play_round")


def cards(self) -> bool:
    """A card-poker table the cabinet plays is offered (firmware/play_cards.py); or nothing is run."""
    return self._playable() and (self.rig is None or any(is_cards(g) for g in self.rig.games))


def is_cards(game_id: str | None) -> bool:
    return game_id in MODELS and hasattr(game(game_id), "givable")  # games/cardtable.py CardTable


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
        self._tokens_for(takes)
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

    @precondition(cards)
    @rule(touches=st.lists(st.tuples(st.integers(0, 255), st.integers(1, 3)), min_size=0, max_size=4),
          clear=st.booleans(), decisions=st.lists(st.integers(0, 3), min_size=0, max_size=3),
          cut=st.one_of(st.none(), st.tuples(st.integers(0, 3), st.floats(0.0, 0.05))))
    @logged
    def card_round(self, touches: list[tuple[int, int]], clear: bool, decisions: list[int],
                   cut: tuple[int, float] | None) -> None:
        """A card table's round (firmware/play_cards.py): stake wagers touched on the layout (key
        number % its size, 1-3 touches each: levels, then off), cleared first or not, tokens for
        what the round can put at risk, PLAY; then, while the hand waits, each decision in turn (0:
        `auto`, the built-in strategy's; N: hold key N, decision N-1, refused when not legal), the
        hand left waiting when they run out. cut (k, t): the power goes t seconds after the k-th
        press (0: PLAY, then the decisions), between the deal and a decision or within one, and
        comes back. A hand already waiting (an earlier step's) is decided on, no new stake."""
        rig = self.rig
        gid = rig.screen.get("id")
        if not is_cards(gid) or rig.screen.get("state") not in ("idle", "credit", "hold"):
            return
        played = rig.console_json("meters json")["games_played"]
        stake = None
        if rig.screen.get("state") != "hold":
            stakes = game(gid).m.stakes
            if clear:
                rig.panel.touch("clear")
                rig.wait_polls(2, 1.0)
            for i, n in touches:
                for _ in range(n):
                    rig.panel.touch("wager", i % len(stakes))
                    rig.wait_polls(1, 1.0)
            rig.wait_polls(2, 1.0)
            t = rig.screen.get("table") or {}
            stake, takes = t.get("stake") or {}, t.get("takes") or 0
            self._tokens_for(takes)
            self._press("play")
            if self._cut_at(cut, 0):
                return self._check_card_round(gid, stake, played)
            self._await_game_or_refusal()
        for k, d in enumerate(decisions, 1):
            if not oracle.hand_open(rig.screen):
                break
            if d:
                rig.panel.touch("hold", d)
            else:
                rig.panel.touch("auto")
            if self._cut_at(cut, k):
                break
            rig.wait_polls(2, 1.0)
        self._settle()
        self._check_card_round(gid, stake, played)

    def _tokens_for(self, takes: int) -> None:
        """Tokens, one at a time, until the credit meter holds what the round takes; each waited for on
        the screen (a token is counted a poll or more after it drops: read at once, the meter had not
        moved yet and a round that needed a second token was refused for credits, one run in a few);
        stops at one not counted within 2 s (the credit limit, a tilt): PLAY says why."""
        rig = self.rig
        while rig.screen.get("credits", 0) < takes and rig.screen.get("state") in ("idle", "credit"):
            before = rig.screen.get("credits", 0)
            self._insert(1)
            try:
                rig.wait_screen(lambda s: s.get("credits", 0) > before, 2.0)
            except (TimeoutError, ConnectionError):
                break

    def _cut_at(self, cut: tuple[int, float] | None, k: int) -> bool:
        """The power cut after press k, if it is the one (then back on), else nothing."""
        if cut is None or cut[0] != k:
            return False
        time.sleep(cut[1])  # the instant of the cut is what this rule varies, not a wait for an event
        self._cut()
        self._boot()
        self._booted(owed=None)
        self._settle()
        return True

    def _check_card_round(self, gid: str, stake: dict | None, played: int) -> None:
        """A round settled since the step began is the stake shown before PLAY (when the step staked
        one), replays from its record (CardTable.evaluate_round) to its win and digest, and its
        credits balance; a hand still waiting after a cut waits with its stake and wager counted."""
        rig = self.rig
        m = rig.console_json("meters json")
        recall = rig.console_json("recall json")["games"]
        rec = recall[-1] if recall else None
        s = rig.screen
        if stake is not None and oracle.hand_open(s) and m["games_played"] == played + 1 and \
                (s.get("table") or {}).get("stake") != stake:
            raise Violation("cards", f"the hand waits with the stake {(s.get('table') or {}).get('stake')}, "
                                     f"the screen showed {stake} before PLAY")
        if rec is None or rec["n"] <= played or rec["id"] != gid:
            return  # no round settled in this step: refused, or its hand still waits
        if rec["n"] > m["games_played"]:
            raise Violation("recall", f"record #{rec['n']} beyond games_played {m['games_played']}")
        if stake is not None and rec["n"] == played + 1 and rec["draws"][0] != stake:
            raise Violation("cards", f"round #{rec['n']} staked {rec['draws'][0]}, the screen showed {stake}")
        try:
            o = game(gid).evaluate_round(rec["bet"], rec["draws"])
        except ValueError as e:
            raise Violation("cards", f"round #{rec['n']} does not replay: {e}") from None
        if o.award != rec["win"] or digest(o) != rec["h"]:
            raise Violation("cards", f"round #{rec['n']} replays to {o.award} ({digest(o)}), recorded "
                                     f"{rec['win']} ({rec['h']})")
        if rec["after"] is not None and rec["after"] != rec["before"] - rec["bet"] + rec["win"] + rec.get("in", 0) \
                and not rec.get("hand") and not rec.get("forfeit"):
            raise Violation("cards", f"round #{rec['n']}: credits {rec['before']} -> {rec['after']}, bet "
                                     f"{rec['bet']}, win {rec['win']}")

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
