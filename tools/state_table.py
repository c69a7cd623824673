"""Write the state table that docs/firmware.md shows from the one the firmware holds
(firmware/states.py TABLE), between the page's `<!-- state-table` and `<!-- /state-table -->` lines.

    python -m tools.state_table            (rewrite the block in docs/firmware.md)
    python -m tools.state_table --check    (exit 1, saying so, when the page differs from the code)

One row per state, in the priority order of states.derive, with every event the state takes and
the cabinet method that carries it out; any event a row does not name is refused and changes
nothing. tests/device/test_firmware_states.py reads the rows back and compares them with TABLE.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware import states
from tools import doc_block

DOC = doc_block.DOCS / "firmware.md"
BEGIN = "<!-- state-table"
END = "<!-- /state-table -->"
HEAD = ("<!-- state-table: written by `python -m tools.state_table` from firmware/states.py; "
        "tests/device/test_firmware_states.py checks it -->")


def rows() -> list[str]:
    """The block's lines: the header, then a row per state."""
    out = [HEAD, "| state | event → what the cabinet does (any other event is refused) | money in |", "|---|---|---|"]
    for s in states.STATES:
        taken = [f"`{ev}` → {states.action(s, ev)}" for ev in states.EVENTS if states.action(s, ev)]
        money = "yes" if s in states.MONEY_STATES else "no"
        out.append(f"| `{s}` | {'; '.join(taken) or '—'} | {money} |")
    out.append(END)
    return out


def rewrite(text: str) -> str:
    """The page with its state-table block replaced; ValueError when the page has no such block."""
    return doc_block.rewrite(text, "state-table", rows())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.state_table", description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only check: exit 1 when the page differs from the code")
    ap.add_argument("--doc", type=Path, default=DOC, help="the page (default: docs/firmware.md)")
    args = ap.parse_args(argv)
    return doc_block.write(args.doc, "state-table", rows, "python -m tools.state_table", args.check,
                           source="firmware/states.py")


if __name__ == "__main__":
    sys.exit(main())
