"""Write the map of the NVRAM part that docs/nvram.md shows, from the layouts the firmware holds
(firmware/ledger.py, firmware/audit.py and firmware/coupon_store.py LAYOUT, JOURNAL and bases,
placed by firmware/critmem.py CriticalMemory as the boot places them), between the page's
`<!-- nvram-map` and `<!-- /nvram-map -->` lines.

    python -m tools.nvram_map            (rewrite the block in docs/nvram.md)
    python -m tools.nvram_map --check    (exit 1, saying so, when the page differs from the code)
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware import audit, coupon_store, ledger
from firmware.critmem import CriticalMemory
from firmware.main import NVRAM_SIZE
from tools import doc_block

DOC = doc_block.DOCS / "nvram.md"
NAME = "nvram-map"
COMMAND = "python -m tools.nvram_map"


class _Part:
    """A part of the firmware's size that is never read or written: the constructor only places the
    layout on it (and refuses one that does not fit, as at boot)."""
    size = NVRAM_SIZE


class _Counter:
    def read(self) -> int | None:
        return None

    def write(self, n: int) -> None:
        pass


def _memory(layout: tuple, journal: int, base: int) -> CriticalMemory:
    return CriticalMemory(_Part(), layout, journal, b"\x00" * 32, _Counter(), base=base)


def memories() -> list[tuple[str, int, int, str, str]]:
    """(what, first offset, bytes, where its base is named, formatted by) of the three memories, in order."""
    return [
        ("the books (`firmware/ledger.py`): credits, meters, recall, events, the books' latest coupon, "
         "the SAS exception queue (and the ticket redeemed through SAS), the notes counted by value, "
         "the tournament's counts", 0,
         _memory(ledger.LAYOUT, ledger.JOURNAL, 0).size, "",
         "a new machine; the RAM clear"),
        ("the security memory (`firmware/audit.py`): accounts, the release number, the security log",
         audit.SEC_BASE, _memory(audit.LAYOUT, audit.JOURNAL, audit.SEC_BASE).size, "`SEC_BASE`",
         "a new machine; its own loss (started afresh, the loss recorded)"),
        ("the coupon memory (`firmware/coupon_store.py`), opened only under a coupon jurisdiction (vlt): "
         "validation id, lifetime coupon sequence, coupon records until acknowledged, the ticket data and "
         "validation the system sets (SAS 7B-7D)", coupon_store.CPN_BASE,
         _memory(coupon_store.LAYOUT, coupon_store.JOURNAL, coupon_store.CPN_BASE).size, "`CPN_BASE`",
         "a new machine; its own loss (started afresh without a validation id: no coupon until the system "
         "sets one)"),
    ]


def _n(x: int) -> str:
    return f"{x:,}"


def _blocks(layout: tuple) -> str:
    """A layout's blocks, runs of equal ones folded: `state` 3,200; `g0`-`g9` 10 x 1,536; ..."""
    out, i = [], 0
    while i < len(layout):
        j = i
        while j + 1 < len(layout) and layout[j + 1][1] == layout[i][1] and layout[j + 1][0][0] == layout[i][0][0]:
            j += 1
        name, cap = layout[i]
        out.append(f"`{name}` {_n(cap)}" if i == j else f"`{name}`-`{layout[j][0]}` {j - i + 1} x {_n(cap)}")
        i = j + 1
    return "; ".join(out)


def rows() -> list[str]:
    """The block's lines: the map of the part, then each memory's blocks."""
    out = [f"<!-- {NAME}: written by `{COMMAND}` from the firmware's layouts; tests/host/test_docs_drift.py "
           "checks it -->",
           f"The part is `NVRAM_SIZE` = {_n(NVRAM_SIZE)} bytes (`firmware/main.py`).", "",
           "| offsets | bytes | what | formatted by |", "|---|---|---|---|"]
    at = 0
    for what, base, size, named, formatted in memories():
        if base > at:
            out.append(f"| {_n(at)} – {_n(base - 1)} | {_n(base - at)} | free | — |")
        if base < at:
            raise ValueError(f"{what.split(' (')[0]} at {base} overlaps the memory before it (ends at {at})")
        label = f" ({named})" if named else ""
        out.append(f"| {_n(base)} – {_n(base + size - 1)}{label} | {_n(size)} | {what} | {formatted} |")
        at = base + size
    if at > NVRAM_SIZE:
        raise ValueError(f"the layouts end at {at}, past the part's {NVRAM_SIZE} bytes")
    if at < NVRAM_SIZE:
        out.append(f"| {_n(at)} – {_n(NVRAM_SIZE - 1)} | {_n(NVRAM_SIZE - at)} | free | — |")
    out += ["", "| memory | blocks (name, payload bytes) | largest transaction (`JOURNAL`) |", "|---|---|---|"]
    for name, mod in (("books", ledger), ("security", audit), ("coupons", coupon_store)):
        out.append(f"| {name} (`{mod.__name__.replace('.', '/')}.py`) | {_blocks(mod.LAYOUT)} | {_n(mod.JOURNAL)} |")
    out.append(f"<!-- /{NAME} -->")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only check: exit 1 when the page differs from the code")
    ap.add_argument("--doc", type=Path, default=DOC, help="the page (default: docs/nvram.md)")
    args = ap.parse_args(argv)
    return doc_block.write(args.doc, NAME, rows, COMMAND, args.check)


if __name__ == "__main__":
    sys.exit(main())
