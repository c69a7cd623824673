"""tools.image: the device rooms compiled to .mpy, incrementally, as the firmware process runs them."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sim.harness import MICROPYTHON
from tools import image

ROOT = image.ROOT


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "src"
    (root / "games").mkdir(parents=True)
    (root / "games" / "__init__.py").write_text("")
    (root / "games" / "pays.py").write_text("TOP = 1500\n\ndef pay(n):\n    return TOP * n\n")
    for room in ("board", "firmware", "rng"):
        (root / room).mkdir()
        (root / room / "__init__.py").write_text("")
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


def _device_sources_on_disk() -> set[Path]:
    """Every .py file of the device rooms (docs/architecture.md), listed with os.walk: not the
    list tools.image builds from."""
    found = set()
    for room in ("rng", "games", "board", "firmware"):
        for dirpath, dirnames, files in os.walk(ROOT / room):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            found |= {(Path(dirpath) / f).relative_to(ROOT) for f in files if f.endswith(".py")}
    return found


def test_every_device_module_is_in_the_shipped_image(tmp_path: Path) -> None:
    out = tmp_path / "mpy"
    image.build(out)
    mpys = list(out.rglob("*.mpy"))
    built = {p.relative_to(out).with_suffix(".py") for p in mpys}
    on_disk = _device_sources_on_disk()
    assert built == on_disk, (sorted(on_disk - built), sorted(built - on_disk))
    assert Path("firmware/cabinet.py") in built and Path("rng/hmac_drbg.py") in built
    for p in mpys:  # each one a real .mpy: "M", version 6 (what the unix port loads)
        assert p.read_bytes()[:2] == b"M\x06", p
    shutil.rmtree(out)
