"""An image carries what it runs (issue 24.1): each target's manifest (manifests/<target>.py over the
common manifest.py) freezes the firmware whole, the board drivers a board uses, and its own board;
the emulated board's sockets, the test scaffolding, the library drivers no profile wires and asyncio
are in no board's image. Checked on the manifests as MicroPython's reader reads them, on the .mpy
sets tools.image compiles from them, and on the built images themselves (an import that must fail)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tools import firmware, image, qemu, targets

ROOT = targets.ROOT
# Written here from docs/drivers.md "What each image carries", not read from tools/targets.py.
EMULATED_ONLY = {"board/emulated.py", "board/nvram_file.py", "board/state_lock.py", "board/touch.py"}
MACHINE = {"board/machine_board.py", "board/nvram_fram.py", "board/flash_image.py"}
PIN_MAPS = {"board/pyboard.py", "board/rp2.py", "board/esp32.py"}
LIBRARY = {"board/coin_pulse.py", "board/nvram_littlefs.py"}


def _on_disk() -> set[str]:
    """Every .py file of the device rooms (docs/architecture.md), listed with os.walk."""
    found = set()
    for room in ("rng", "games", "board", "firmware"):
        for dirpath, dirnames, files in os.walk(ROOT / room):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            found |= {(Path(dirpath) / f).relative_to(ROOT).as_posix() for f in files if f.endswith(".py")}
    return found


@pytest.fixture(scope="module")
def carried() -> dict[str, set[str]]:
    firmware.write_data_module()
    firmware.write_key_module()
    return {t: {p.relative_to(ROOT).as_posix() for p in targets.device_modules(t)} for t in targets.TARGETS}


def test_every_target_carries_the_firmware_whole(carried: dict[str, set[str]]) -> None:
    core = {p for p in _on_disk() if not p.startswith("board/")}
    assert "firmware/cabinet.py" in core and "rng/hmac_drbg.py" in core and "games/reels.py" in core
    for target, mods in carried.items():
        assert core <= mods, (target, sorted(core - mods))


def test_a_board_carries_its_own_board_and_no_other(carried: dict[str, set[str]]) -> None:
    for name in ("pyboard", "rp2", "esp32"):
        board = carried[name]
        assert f"board/{name}.py" in board and MACHINE <= board
        assert not board & (EMULATED_ONLY | LIBRARY | (PIN_MAPS - {f"board/{name}.py"})), name
    assert MACHINE <= carried["qemu"] and not carried["qemu"] & (EMULATED_ONLY | LIBRARY | PIN_MAPS)
    # the emulated board: its own files, and the pin maps --profile boots as; no machine-module board
    assert EMULATED_ONLY | PIN_MAPS <= carried["unix"] and not carried["unix"] & (MACHINE | LIBRARY)


def test_a_device_module_in_no_image_is_a_named_library_driver(carried: dict[str, set[str]]) -> None:
    in_some = set().union(*carried.values())
    assert set(targets.LIBRARY) == LIBRARY
    assert _on_disk() - in_some == LIBRARY  # a new module put in no manifest fails here
    assert not in_some - _on_disk()  # and a manifest names no file that is not in a room


def test_the_mpy_set_of_a_board_is_its_manifest(tmp_path: Path, carried: dict[str, set[str]]) -> None:
    out = tmp_path / "rp2"
    image.build(out, target="rp2", signed=False)
    mpys = sorted(out.rglob("*.mpy"))
    assert {p.relative_to(out).with_suffix(".py").as_posix() for p in mpys} == carried["rp2"]
    for p in mpys:  # each one a real .mpy: "M", version 6 (what the unix port loads)
        assert p.read_bytes()[:2] == b"M\x06", p


def test_an_unknown_target_is_refused_in_one_line() -> None:
    with pytest.raises(targets.TargetError, match="no target 'pico'"):
        targets.manifest_path("pico")
    with pytest.raises(SystemExit):  # argparse's one line: invalid choice
        image.main(["--target", "pico"])


PROBE = """
import sys
for m in ("firmware.cabinet", "board.hal", "board.%s", "board.nvram_littlefs", "board.coin_pulse", "asyncio",
          "board.%s"):
    try:
        __import__(m)
        print("HAS", m)
    except ImportError:
        print("NOT", m)
"""


def _answers(text: str) -> dict[str, bool]:
    return {li.split()[1]: li.startswith("HAS") for li in text.splitlines() if li[:4] in ("HAS ", "NOT ")}


def test_the_emulated_board_image_carries_its_board_and_no_library_driver() -> None:
    res = subprocess.run([str(firmware.ensure_built()), "-X", "heapsize=256K", "-c",
                          "import sys; sys.path.remove('')\n" + PROBE % ("emulated", "machine_board")],
                         capture_output=True, text=True, env={"MICROPYPATH": ".frozen"}, timeout=60, cwd="/")
    assert res.returncode == 0, res.stderr
    assert _answers(res.stdout) == {"firmware.cabinet": True, "board.hal": True, "board.emulated": True,
                                    "board.nvram_littlefs": False, "board.coin_pulse": False, "asyncio": False,
                                    "board.machine_board": False}


def test_the_cortex_m_image_carries_a_board_and_not_the_emulated_one() -> None:
    repl = qemu.RawRepl(firmware.ensure_built_arm(), icount=False)
    try:
        out = repl.exec(PROBE % ("flash_image", "emulated"))
    finally:
        repl.close()
    assert _answers(out) == {"firmware.cabinet": True, "board.hal": True, "board.flash_image": True,
                             "board.nvram_littlefs": False, "board.coin_pulse": False, "asyncio": False,
                             "board.emulated": False}


def test_a_module_taken_out_of_a_manifest_leaves_the_image(tmp_path: Path) -> None:
    # MicroPython's make regenerates frozen_content.c only when a frozen file is newer than it: a
    # module taken out of the manifest stayed in the image (the first build of this split did not
    # change the image at all). tools.firmware forgets the content when the list of files changes.
    (tmp_path / "a.py").write_text("A = 1\n")
    (tmp_path / "b.py").write_text("B = 1\n")
    manifest = tmp_path / "manifest.py"
    manifest.write_text('module("a.py")\nmodule("b.py")\n')
    out = tmp_path / "build"
    src = firmware.find_source()
    firmware._forget_frozen(src, manifest, out)
    (out / "frozen_content.c").write_text("/* a and b */\n")  # what make made
    firmware._forget_frozen(src, manifest, out)
    assert (out / "frozen_content.c").is_file()  # the same files: make decides, as before
    manifest.write_text('module("a.py")\n')
    firmware._forget_frozen(src, manifest, out)
    assert not (out / "frozen_content.c").exists()  # b.py went out: the content is made again
