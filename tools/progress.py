"""Progress bars for the long host commands (make powercut, fuzz, rngtest, par, bench, Monte-Carlo).

Always on stderr, so stdout keeps only the closing lines and JSON that tests and scripts parse; off
when stderr is not a terminal or CI=true (a log is no place for a bar redrawn ten times a second).
"""
from __future__ import annotations

import os
import sys

from tqdm import tqdm


def wanted(enabled: bool | None = None) -> bool:
    """enabled None: a bar when stderr is a terminal and CI is not "true"; True/False force it."""
    if enabled is not None:
        return enabled
    return os.environ.get("CI", "").lower() != "true" and sys.stderr.isatty()


def bar(iterable=None, total: float | None = None, desc: str | None = None, unit: str = "it",
        enabled: bool | None = None, **kw) -> tqdm:
    """A tqdm bar on stderr, disabled (a no-op with the same methods) when not wanted()."""
    return tqdm(iterable, total=total, desc=desc, unit=unit, file=sys.stderr, disable=not wanted(enabled),
                dynamic_ncols=True, **kw)
