"""The heap a boot leaves on the firmware image (firmware/main.py BOOT_GC_BYTES). Left to fill the heap
to its top between collections, the games' boot check strewed what lives (the game's tables, the
cabinet's parts) across the free heap: roulette-americaine-92 at 112K with its SAS line had 14 KB
free after boot in pieces of 1.3 KB at most, and its boot asked 1,016 bytes it did not find (a
board reset, three boots of three). Collected every BOOT_GC_BYTES while booting, the objects that
live are packed at the heap's low end. The largest free piece is read from MicroPython's own
`micropython.mem_info()` ("max free sz", in GC blocks), printed by the boot line below once the
boot-only modules are given back (main.release), as the cabinet starts to run."""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from sim import harness

GAME = "roulette-americaine-92"  # the most cut up of the seven at 120K (docs/build.md "Heap")
HEAP = "112K"  # the house's budget with the SAS line (tools/bench/bench_heap.py BUDGET_NEED_K)
# MicroPython's default GC block: 4 words (py/mpconfig.h MICROPY_BYTES_PER_GC_BLOCK), 16 bytes on the
# 32-bit image whose heap is a board's (tests/host/test_heap_word_size.py)
BLOCK = 16
PIECE = 4096  # bytes: a paytable's text, the books' JSON stream (3,200), SAS's buffers, with room

BOOT_LINE = """import sys, micropython
sys.path.remove('')
from firmware import main
given = main.release
def release(names):
    given(names)
    if names is main.BOOT_ONLY:
        micropython.mem_info()
main.release = release
main.main(sys.argv[1:])
"""
FREE = re.compile(r"max free sz: (\d+)")


def largest_free(lines: list[str]) -> int | None:
    """The largest free piece of the heap, in bytes, from the last mem_info() in the firmware's output."""
    found = [int(m.group(1)) for line in lines if (m := FREE.search(line))]
    return found[-1] * BLOCK if found else None


def test_largest_free_reads_mem_info_in_blocks() -> None:
    lines = ["GC: total: 112000, used: 97616, free: 14384",
             " No. of 1-blocks: 2005, 2-blocks: 272, max blk sz: 366, max free sz: 81"]
    assert largest_free(lines) == 81 * 16
    assert largest_free(["jeton: ready {}"]) is None


def test_the_boot_leaves_the_free_heap_in_one_large_piece(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(harness, "FROZEN_BOOT", BOOT_LINE)
    cab = harness.EmulatedCabinet(tmp_path, heap=HEAP, code="frozen", sas=True, extra_args=["--games", GAME])
    try:
        cab.boot(login=False)
        lines = cab.firmware.lines
        assert cab.firmware.ready.get("game") == GAME, [ln for ln in lines if "DISABLED" in ln or "memory" in ln]
        deadline = time.monotonic() + 30
        while largest_free(cab.firmware.lines) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        piece = largest_free(cab.firmware.lines)
        assert piece is not None, cab.firmware.lines[-5:]
        assert piece >= PIECE, f"largest free piece after boot {piece} bytes"
        assert not [ln for ln in cab.firmware.lines if "MemoryError" in ln or "restarting" in ln]
    finally:
        cab.shutdown()
        cab.close_sas()
