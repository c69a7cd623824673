"""What one process's fuzz sequences leave behind: the figures, the steps run per rule, the log of the
sequence running now, the violations found, and the campaign's step budget.

One `Recorder` is shared by the sequences a campaign worker (or a test) runs; nothing of it is a
module global, so a test and a campaign in one process never see each other's figures.
"""
from __future__ import annotations

import os
from typing import Any

# the summary's figures: all zero but the counts (steps, sequences, games_played, power_cuts, regenerated,
# strokes_unreleased: meter strokes a cut took between their commit and their coil's release)
FIGURES = ("steps", "sequences", "games_played", "power_cuts", "violations", "crash_loops", "board_resets",
           "regenerated", "strokes_unreleased")


class Recorder:
    """campaign: violations are recorded (`found`) and the sequence goes on unchecked, instead of
    raised; budget: the steps this worker may still run (None: no limit), after which every rule
    and check of the sequence running is skipped, so a campaign runs exactly the steps asked for;
    progress: a queue that gets a 1 for each step (the campaign's progress bar)."""

    def __init__(self, campaign: bool = False, budget: int | None = None, progress: Any = None) -> None:
        self.stats = {k: 0 for k in FIGURES}
        self.rules: dict[str, int] = {}  # steps run per rule
        self.log: list[list] = []  # [rule name, arguments] of the sequence running now
        self.found: list[tuple[Exception, list]] = []  # (violation, its sequence's steps), for the campaign
        self.campaign = campaign
        self.skip_next = False  # the next machine made is hypothesis's simplest example of a run: not run
        self.budget = budget
        self.progress = progress
        self.debug = bool(os.environ.get("JETON_FUZZ_DEBUG"))  # one line per step on stderr
        # every coupon control number on paper in this process's sequences (each its own machine,
        # its own validation id from the one system of the process) -> its credits
        self.numbers: dict[str, int] = {}

    def spent(self) -> bool:
        """The campaign's budget is used up: the rest of a sequence is not run."""
        return self.budget is not None and self.stats["steps"] >= self.budget

    def take_skip(self) -> bool:
        skip, self.skip_next = self.skip_next, False
        return skip

    def start_sequence(self) -> None:
        self.stats["sequences"] += 1
        self.log.clear()

    def step(self, name: str, kw: dict) -> None:
        """A rule about to run (and be checked after)."""
        self.log.append([name, kw])
        self.rules[name] = self.rules.get(name, 0) + 1
        self.stats["steps"] += 1
        if self.progress is not None:
            self.progress.put(1)

    def add(self, figure: str, n: int = 1) -> None:
        self.stats[figure] += n
