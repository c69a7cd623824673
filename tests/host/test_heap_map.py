"""tools/bench/heap_map.py: the boot's block maps read from the firmware image's own mem_info(1)."""
from __future__ import annotations

from tools.bench import heap_map

SAMPLE = [
    "jeton: ports panel=1 console=2 cctalk=3",
    "jeton: heap boot 50560",
    "mem: total=103759, current=59548, peak=59553",
    "GC: total: 112000, used: 50640, free: 61360",
    " No. of 1-blocks: 1158, 2-blocks: 167, max blk sz: 64, max free sz: 3821",
    "GC memory layout; from 57c25c40:",
    "00000000: MDhh=hhLhh",
    "       (46 lines all free)",
    "0001b400: ........",
    "jeton: boot on emulated",
    "jeton: heap running 96768",
    "GC: total: 112000, used: 96832, free: 15168",
    " No. of 1-blocks: 2005, 2-blocks: 272, max blk sz: 366, max free sz: 650",
]


def test_parse_reads_each_stage_its_heap_and_its_largest_free_piece_in_blocks_of_16_bytes() -> None:
    boot, running = heap_map.parse(SAMPLE)
    assert (boot.name, boot.used, boot.free, boot.largest) == ("boot", 50560, 61360, 3821 * 16)
    assert boot.rows == ["00000000: MDhh=hhLhh", "       (46 lines all free)", "0001b400: ........"]
    assert (running.name, running.used, running.free, running.largest, running.rows) == (
        heap_map.RUNNING, 96768, 15168, 650 * 16, [])
    assert heap_map.table([boot])[1].split() == ["boot", "50560", "61360", str(3821 * 16)]


def test_a_boot_of_the_firmware_image_gives_every_stage_down_to_the_running_cabinet() -> None:
    stages = heap_map.boot("sept-royal-87", "128K")
    names = [s.name for s in stages]
    assert names[0] == "boot" and names[-1] == heap_map.RUNNING, names
    assert {"critical memory", "books", "security", "game", "cabinet"} <= set(names), names
    for s in stages:
        assert 0 < s.largest <= s.free and s.rows, s.name
    assert stages[-1].used < stages[-2].used  # the boot-only modules given back
