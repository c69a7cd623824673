"""tools.image: the device rooms compiled to .mpy, incrementally, as the firmware process runs them."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from sim.harness import MICROPYTHON
from tools import image


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "src"
    (root / "games").mkdir(parents=True)
    (root / "games" / "__init__.py").write_text("")
    (root / "games" / "pays.py").write_text("TOP = 1500\n\ndef pay(n):\n    return TOP * n\n")
    for room in ("board", "firmware", "rng"):
        (root / room).mkdir()
        (root / room / "__init__.py").write_text("")
    (root / "manifests").mkdir()  # the emulated board's manifest (the default target): every room whole
    (root / "manifests" / "unix.py").write_text(
        'for room in ("board", "firmware", "games", "rng"):\n    package(room, base_path="..")\n')
    return root


def _run_mp(path: str, code: str, tmp: Path) -> str:
    env = dict(os.environ, MICROPYPATH=path)  # cwd away from the checkout: its rooms are on sys.path
    res = subprocess.run([str(MICROPYTHON), "-c", code], env=env, capture_output=True, text=True, timeout=30, cwd=tmp)
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout.strip()


def test_build_is_incremental_and_runs_on_micropython(tmp_path: Path) -> None:
    root, out = _tree(tmp_path), tmp_path / "mpy"
    assert sorted(p.relative_to(out).as_posix() for p in image.build(out, root)) == [
        "board/__init__.mpy", "firmware/__init__.mpy", "games/__init__.mpy", "games/pays.mpy", "rng/__init__.mpy"]
    assert image.build(out, root) == []  # nothing changed: nothing compiled
    # the source is gone from the path: the module really comes from the .mpy
    assert _run_mp(f"{out}:.frozen", "import games.pays as p; print(p.pay(2), p.__file__)", tmp_path) == \
        f"3000 {out}/games/pays.mpy"
    src = root / "games" / "pays.py"
    src.write_text("TOP = 2000\n\ndef pay(n):\n    return TOP * n\n")
    st = src.stat()
    os.utime(src, ns=(st.st_atime_ns, (out / "games" / "pays.mpy").stat().st_mtime_ns + 1))
    assert [p.name for p in image.build(out, root)] == ["pays.mpy"]
    assert _run_mp(f"{out}:.frozen", "import games.pays as p; print(p.pay(2))", tmp_path) == "4000"


def test_module_removed_from_source_is_removed_from_image(tmp_path: Path) -> None:
    root, out = _tree(tmp_path), tmp_path / "mpy"
    image.build(out, root)
    (root / "games" / "pays.py").unlink()
    image.build(out, root)
    assert not (out / "games" / "pays.mpy").exists()
    assert (out / "games" / "__init__.mpy").exists()


def test_syntax_error_names_the_file_and_leaves_no_partial_mpy(tmp_path: Path) -> None:
    root, out = _tree(tmp_path), tmp_path / "mpy"
    (root / "rng" / "broken.py").write_text("def f(:\n")
    with pytest.raises(RuntimeError, match="rng/broken.py"):
        image.build(out, root)
    assert not (out / "rng" / "broken.mpy").exists()
    assert sorted(p.name for p in (out / "rng").iterdir()) == ["__init__.mpy"]  # no temp file left


def test_tracebacks_name_the_checkout_path(tmp_path: Path) -> None:
    root, out = _tree(tmp_path), tmp_path / "mpy"
    (root / "rng" / "boom.py").write_text("def f():\n    raise ValueError('x')\n")
    image.build(out, root)
    env = dict(os.environ, MICROPYPATH=f"{out}:.frozen")
    res = subprocess.run([str(MICROPYTHON), "-c", "import rng.boom; rng.boom.f()"], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=30)
    assert res.returncode == 1 and 'File "rng/boom.py", line 2' in res.stdout + res.stderr



def test_the_signed_record_follows_a_module_taken_out(tmp_path: Path) -> None:
    # The record a board checks at power-up (SHA256SUMS) was rewritten only when a .mpy was newer
    # than it: a module taken out of the set stayed listed, and the board refused to boot ("listed
    # in SHA256SUMS, missing"; seen when the manifests were split, issue 24.1).
    root, out = _tree(tmp_path), tmp_path / "mpy"
    (root / "firmware" / "config.py").write_text('VERSION = "0.1.0"\n')  # the record's release number
    image.build(out, root, signed=True)
    sums = out / "SHA256SUMS"
    assert "  mpy/games/pays.mpy\n" in sums.read_text()
    (root / "games" / "pays.py").unlink()
    image.build(out, root, signed=True)
    assert "pays" not in sums.read_text() and "  mpy/games/__init__.mpy\n" in sums.read_text()
