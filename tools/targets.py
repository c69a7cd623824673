"""The firmware's targets and what each one's image carries, read from its manifest.

    python -m tools.firmware --sizes        the table of docs/build.md "What each image carries"

A target is a manifest in manifests/ (MicroPython's manifest format) that includes the common
manifest.py and adds its board: `unix` (the emulated board's image, make firmware), `qemu` (the
Cortex-M3, make firmware-arm), and one per real board profile (`pyboard`, `rp2`, `esp32`). The
manifests are read by MicroPython's own reader (tools/manifestfile.py of the pinned source tree,
the one its build freezes with), so the .mpy set of a target (tools/image.py, make deploy) is
exactly the code its frozen image holds.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
MANIFESTS = ROOT / "manifests"
ROOMS = ("board", "firmware", "games", "rng")  # the device rooms (docs/architecture.md)
# the emulated board first: what `make image`, JETON_CODE=mpy and `make deploy` default to
TARGETS = ("unix", "qemu", "pyboard", "rp2", "esp32")
BOARDS = ("pyboard", "rp2", "esp32")  # a real board's profile (board/<name>.py) is a target of that name
# Device modules that no target's image carries: library drivers that no board profile wires yet
# (docs/drivers.md "Library drivers"). A board that wires one adds it to its own manifest.
LIBRARY = ("board/coin_pulse.py", "board/nvram_littlefs.py")


class TargetError(Exception):
    """A target or manifest that cannot be read; its message is one line."""


def manifest_path(target: str, root: Path = ROOT) -> Path:
    if target not in TARGETS:
        raise TargetError(f"no target {target!r} (one of {', '.join(TARGETS)})")
    return root / "manifests" / f"{target}.py"


def _manifestfile(src: Path) -> ModuleType:
    """MicroPython's tools/manifestfile.py from the source tree, loaded as a library."""
    path = src / "tools" / "manifestfile.py"
    spec = importlib.util.spec_from_file_location("manifestfile", path)
    if spec is None or spec.loader is None or not path.is_file():
        raise TargetError(f"{path}: MicroPython's manifest reader is missing")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def read_manifest(manifest: Path, src: Path) -> list[tuple[str, Path]]:
    """(path in the image, file) of every module `manifest` freezes, sorted by path in the image,
    as MicroPython's build reads it. The files it names must exist (the generated modules of
    build/firmware/gen/ too: tools.firmware writes them first)."""
    mf = _manifestfile(src)
    reader = mf.ManifestFile(mf.MODE_FREEZE, {"MPY_DIR": str(src)})
    try:
        reader.execute(str(manifest))
    except mf.ManifestFileError as e:
        raise TargetError(f"{manifest.name}: {e}") from None
    out = {}
    for f in reader.files():
        if f.target_path in out:
            raise TargetError(f"{manifest.name} freezes {f.target_path} twice")
        out[f.target_path] = Path(f.full_path)
    return sorted(out.items())


def frozen(target: str, root: Path = ROOT, src: Path | None = None) -> list[tuple[str, Path]]:
    """(path in the image, file in the checkout) of every module the target's manifest freezes."""
    from tools import firmware

    return read_manifest(manifest_path(target, root), src or firmware.find_source())


def device_modules(target: str, root: Path = ROOT, src: Path | None = None) -> list[Path]:
    """The device rooms' files the target carries (its .mpy set, without the generated modules)."""
    return [p for name, p in frozen(target, root, src) if name.split("/")[0] in ROOMS]


def on_disk(root: Path = ROOT) -> list[Path]:
    """Every .py file of the device rooms."""
    return sorted(p for room in ROOMS for p in (root / room).rglob("*.py") if "__pycache__" not in p.parts)


def _size_tool(target: str) -> str | None:
    tool = "arm-none-eabi-size" if target == "qemu" else "i686-linux-gnu-size"
    return shutil.which(tool) or shutil.which("size")


def text_data(elf: Path, target: str) -> int | None:
    """text + data of an ELF file or object (binutils `size`): the bytes it puts in flash."""
    tool = _size_tool(target)
    if tool is None or not elf.is_file():
        return None
    res = subprocess.run([tool, str(elf)], capture_output=True, text=True)
    if res.returncode:
        return None
    fields = res.stdout.splitlines()[1].split()
    return int(fields[0]) + int(fields[1])


def built(target: str) -> tuple[Path, Path] | None:
    """(the image's ELF, its frozen_content.o) where this checkout built them, else None."""
    from tools import firmware

    out = {"unix": firmware.FIRMWARE, "qemu": firmware.FIRMWARE_ARM}.get(target)
    if out is None or not out.is_file():
        return None
    return out, out.parent / "frozen_content.o"


def sizes(root: Path = ROOT) -> list[dict]:
    """Per target: the modules its manifest freezes, its .mpy set's bytes (compiled into
    build/mpy-<target>/ by tools.image), and, for an image built here, the frozen code's and the
    whole image's text + data."""
    from tools import firmware, image

    src = firmware.find_source()
    rows = []
    for target in TARGETS:
        out = image.out_dir(target)
        image.build(out, root, target=target, tree=src)  # first: it writes the generated modules
        mods = device_modules(target, root, src)
        mpy = sum(p.stat().st_size for p in out.rglob("*.mpy"))
        row = {"target": target, "manifest": manifest_path(target, root).relative_to(root).as_posix(),
               "modules": len(mods), "board": len([p for p in mods if p.parent.name == "board"]),
               "mpy": mpy, "frozen": None, "image": None}
        elf = built(target)
        if elf is not None:
            row["image"] = text_data(elf[0], target)
            row["frozen"] = text_data(elf[1], target)
        rows.append(row)
    return rows


def table(rows: list[dict]) -> str:
    def n(v: int | None) -> str:
        return "not built here" if v is None else f"{v:,}"

    lines = ["| target | manifest | device modules (of board/) | .mpy set, bytes | frozen code in the image, bytes"
             " | image text + data, bytes |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['target']} | `{r['manifest']}` | {r['modules']} ({r['board']}) | {r['mpy']:,} | "
                     f"{n(r['frozen'])} | {n(r['image'])} |")
    return "\n".join(lines)
