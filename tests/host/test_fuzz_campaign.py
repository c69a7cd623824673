"""The fuzz campaign runner (sim/fuzz/campaign.py): it runs exactly the steps asked for and says how
many each rule ran (issue 23.3: `make fuzz STEPS=150` ran 225 and its progress bar, past its total,
became a bare counter)."""
from __future__ import annotations

from pathlib import Path

from sim.fuzz import campaign


def test_a_campaign_runs_exactly_the_steps_asked_for(tmp_path: Path) -> None:
    summary, failures = campaign.campaign(steps=5, seed=3, jobs=1, seq_steps=3, out=str(tmp_path), shrink_s=0,
                                          progress=False)
    assert failures == [] and summary["violations"] == 0, failures
    assert summary["steps"] == 5
    # every step is one rule's, and the first of a sequence its power-on
    assert sum(summary["rules"].values()) == 5 and summary["rules"]["power_on"] == summary["sequences"] >= 1
