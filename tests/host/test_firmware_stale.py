"""tools/firmware.py decides when the image must be built again: a file of it changed, and also
a file renamed, added or deleted, which leaves every remaining date older than the image (a game
model renamed once booted the old image, which had the model under its old name)."""
from __future__ import annotations

import os
from pathlib import Path

from tools import firmware


def _tree(root: Path) -> Path:
    for rel in ("firmware/a.py", "games/models/one.json", "manifest.py"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("# " + rel + "\n")
    image = root / "build" / "micropython"
    image.parent.mkdir()
    image.write_bytes(b"image")
    return image


def _age(root: Path, secs: int) -> None:
    """Every input dated `secs` in the past: older than an image built now."""
    for p in firmware.inputs(root):
        st = p.stat()
        os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns - secs * 10 ** 9))


def test_built_then_fresh_until_an_input_changes(tmp_path: Path) -> None:
    image = _tree(tmp_path)
    assert firmware.stale(image, tmp_path)  # never marked built
    _age(tmp_path, 100)
    firmware.mark_built(image, tmp_path)
    assert not firmware.stale(image, tmp_path)
    (tmp_path / "firmware" / "a.py").write_text("# changed\n")
    assert firmware.stale(image, tmp_path)


def test_a_file_renamed_added_or_deleted_makes_it_stale(tmp_path: Path) -> None:
    image = _tree(tmp_path)
    _age(tmp_path, 100)
    firmware.mark_built(image, tmp_path)
    old = tmp_path / "games" / "models" / "one.json"
    new = old.with_name("uno.json")
    old.rename(new)  # keeps its old date
    assert new.stat().st_mtime_ns < image.stat().st_mtime_ns
    assert firmware.stale(image, tmp_path)
    firmware.mark_built(image, tmp_path)
    assert not firmware.stale(image, tmp_path)
    new.unlink()
    assert firmware.stale(image, tmp_path)
    firmware.mark_built(image, tmp_path)
    extra = tmp_path / "firmware" / "b.py"
    extra.write_text("# b\n")
    _age(tmp_path, 100)
    assert firmware.stale(image, tmp_path)
