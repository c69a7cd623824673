"""What a lab files a PAR sheet under, common to every kind of game: the software version the
firmware reports, the sheet's date, the cabinet's denomination, and the exact fractions written out
in full (issue 23.18).

The date is the source's, never the run's, so that the same source gives the same sheet (and the
same PDF, tools/par/browser.py pdf): `SOURCE_DATE_EPOCH` when it is set (the reproducible-builds
convention a release sets), else the date of the last commit of the checkout (`git log -1`), else
none ("undated", a tree outside git without SOURCE_DATE_EPOCH).
"""
from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from firmware import config

ROOT = Path(__file__).resolve().parents[2]
SHORT = 41  # longest exact fraction written in a table cell; longer ones go to the sheet's end
DIGITS = 64  # digits per line of a long numerator or denominator


def source_epoch() -> int | None:
    """Seconds since 1970 of the source the sheet describes, or None."""
    env = os.environ.get("SOURCE_DATE_EPOCH")
    if env:
        return int(env)
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True,
                             timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return int(out) if out.isdigit() else None


def sheet_date(epoch: int | None) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(epoch)) if epoch is not None else "undated"


def dollars(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def rows(bets: list[int], cents: int = config.DENOM_CENTS, epoch: int | None = None) -> list[list[str]]:
    """The filing table's rows: software, date, denomination and the bets in dollars. (A later
    row: the largest pay of one game, issue 22.1, beside the denomination.)"""
    return [["software", "Jeton %s (the version the firmware reports: the console's version command, "
             "firmware/config.py VERSION)" % config.VERSION],
            ["date", "%s (%s)" % (sheet_date(epoch), "SOURCE_DATE_EPOCH" if os.environ.get("SOURCE_DATE_EPOCH")
                                  else "the source's last commit" if epoch is not None else "no source date")],
            ["denomination", "a credit is %s (firmware/config.py DENOM_CENTS %d)" % (dollars(cents), cents)],
            ["bets", ", ".join("%d credit%s = %s" % (b, "" if b == 1 else "s", dollars(b * cents)) for b in bets)]]


def filing_blocks(bets: list[int], epoch: int | None) -> list[tuple]:
    return [("table", "Filing: software, date, denomination", ["item", "value"], rows(bets, epoch=epoch))]


class Exact:
    """The exact fractions of a sheet: a short one is written where it is used; a long one (a 5-reel
    game's return has hundreds of digits) is named there ("E1: 257/257 digits") and written out in
    full, numerator over denominator, wrapped over lines, in the sheet's last section."""

    def __init__(self) -> None:
        self.items: list[tuple[list[str], str]] = []  # (what it is, for each use; "p/q")

    def cell(self, s: str, what: str) -> str:
        if len(s) <= SHORT:
            return s
        for i, (uses, v) in enumerate(self.items):
            if v == s:  # the same figure again (the same return at every bet): written once
                if what not in uses:
                    uses.append(what)
                return self._name(i, v)
        self.items.append(([what], s))
        return self._name(len(self.items) - 1, s)

    @staticmethod
    def _name(i: int, s: str) -> str:
        p, q = s.split("/")
        return "E%d: %d/%d digits, in full at the end" % (i + 1, len(p), len(q))

    def blocks(self) -> list[tuple]:
        if not self.items:
            return []
        out: list[tuple] = [("h2", "Exact fractions"),
                            ("p", "Each long exact figure of this sheet in full: the numerator over the denominator, "
                                  "%d digits a line (the line breaks are not part of the number)." % DIGITS)]
        for i, (uses, s) in enumerate(self.items):
            p, q = s.split("/")
            out.append(("fraction", "E%d" % (i + 1), "; ".join(uses), wrap(p), wrap(q)))
        return out


def wrap(digits: str) -> list[str]:
    return [digits[i:i + DIGITS] for i in range(0, len(digits), DIGITS)]
