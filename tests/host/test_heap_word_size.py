"""The emulated board's image is built with 32-bit words (tools/firmware.py, UNIX32_ARGS) so that
its heap figures are a board's: the same imports and the same loaded game take the same heap in it
as in the Cortex-M3 image under qemu (make firmware-arm), byte for byte within 2 %. A 64-bit build
would take far more, and bench_heap and the 128K board heap (sim/harness.py BOARD_HEAP) would say
nothing about a board."""
from __future__ import annotations

import ast
import subprocess

from tools import firmware, qemu

# Each step's heap in use after a collection, as a list literal on one line. Only modules a board
# has (no socket: board.emulated is the emulated board's own) and a 5x3 game from the frozen ROMFS.
PROBE = r'''
import gc, vfs, jeton_rom
vfs.mount(vfs.VfsRom(jeton_rom.ROMFS), "/rom")
gc.collect(); b = gc.mem_alloc(); out = []
for m in ("board.hal", "board.coin_cctalk", "board.hopper_cctalk", "firmware.ledger", "firmware.cabinet",
          "firmware.console", "games.reels"):
    __import__(m)
    gc.collect(); out.append(gc.mem_alloc() - b)
import games.reels
g = games.reels.load("/rom/games/models/aurore-88.json")
gc.collect(); out.append(gc.mem_alloc() - b)
print("HEAP", out)
'''


def _figures(text: str) -> list[int]:
    line = next(li for li in text.splitlines() if li.startswith("HEAP "))
    return ast.literal_eval(line[5:])


def test_the_emulated_board_takes_the_heap_a_cortex_m_takes() -> None:
    unix = subprocess.run([str(firmware.ensure_built()), "-X", "heapsize=256K", "-c",
                           "import sys; sys.path.remove('')\n" + PROBE],
                          capture_output=True, text=True, env={"MICROPYPATH": ".frozen"}, timeout=60)
    assert unix.returncode == 0, unix.stderr
    repl = qemu.RawRepl(firmware.ensure_built_arm(), icount=False)  # the image of this checkout
    try:
        arm = _figures(repl.exec(PROBE))
    finally:
        repl.close()
    here = _figures(unix.stdout)
    assert len(here) == len(arm) == 8
    assert arm[-1] > 20000  # the probe measured something: the cabinet's imports and a 5x3 game
    for a, u in zip(arm, here):
        assert abs(a - u) <= max(64, a // 50), (arm, here)
