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

DOC = Path(__file__).resolve().parent.parent / "docs" / "firmware.md"
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
    lines = text.split("\n")
    try:
        first = next(i for i, ln in enumerate(lines) if ln.startswith(BEGIN))
        last = next(i for i, ln in enumerate(lines) if i > first and ln.startswith(END))
    except StopIteration:
        raise ValueError(f"no '{BEGIN} ... {END}' block") from None
    return "\n".join(lines[:first] + rows() + lines[last + 1:])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.state_table", description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only check: exit 1 when the page differs from the code")
    ap.add_argument("--doc", type=Path, default=DOC, help="the page (default: docs/firmware.md)")
    args = ap.parse_args(argv)
    try:
        text = args.doc.read_text(encoding="utf-8")
        new = rewrite(text)
    except (OSError, ValueError) as e:
        print(f"{args.doc}: {e}", file=sys.stderr)
        return 2
    if new == text:
        return 0
    if args.check:
        print(f"{args.doc}: the state table differs from firmware/states.py: run python -m tools.state_table",
              file=sys.stderr)
        return 1
    args.doc.write_text(new, encoding="utf-8")
    print(f"{args.doc}: state table rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
