"""A block of a docs page written by code: the lines between `<!-- NAME` and `<!-- /NAME -->`.

A figure the code computes is generated into the page, never copied by hand (issue 24.6): each
generator (tools/state_table.py, tools/nvram_map.py) gives its block's lines, and `--check` makes
`make test` fail, naming the command to run, when the page and the code differ.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"


def rewrite(text: str, name: str, block: list[str]) -> str:
    """The page with its NAME block replaced by block (its first line opens it, its last closes it);
    ValueError when the page has no such block."""
    begin, end = f"<!-- {name}", f"<!-- /{name} -->"
    lines = text.split("\n")
    try:
        first = next(i for i, ln in enumerate(lines) if ln.startswith(begin))
        last = next(i for i, ln in enumerate(lines) if i > first and ln.startswith(end))
    except StopIteration:
        raise ValueError(f"no '{begin} ... {end}' block") from None
    return "\n".join(lines[:first] + block + lines[last + 1:])


def write(doc: Path, name: str, block: Callable[[], list[str]], command: str, check: bool,
          source: str = "the code") -> int:
    """Rewrite (or with check only compare) the page's block: 0 when it is current or was rewritten,
    1 when check finds it stale, 2 when the page cannot be read or has no block."""
    try:
        text = doc.read_text(encoding="utf-8")
        new = rewrite(text, name, block())
    except (OSError, ValueError) as e:
        print(f"{doc}: {e}", file=sys.stderr)
        return 2
    if new == text:
        return 0
    if check:
        print(f"{doc}: the {name} block differs from {source}: run {command}", file=sys.stderr)
        return 1
    doc.write_text(new, encoding="utf-8")
    print(f"{doc}: {name} rewritten")
    return 0
