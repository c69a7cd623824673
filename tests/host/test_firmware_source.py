"""tools.firmware finds MicroPython's source in the issue's order, checks the vendored tarball, and
without any source stops with one line that says how to get it (never a silent fallback)."""
from __future__ import annotations

import hashlib
import io
import tarfile
from pathlib import Path

import pytest

from tools import firmware


def tarball(path: Path, tree: bool = True) -> bytes:
    """A tiny stand-in for the vendored tarball: micropython/py/mpconfig.h and ports/unix/."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, data in (("micropython/py/mpconfig.h", b"// stand-in\n"),
                           ("micropython/ports/unix/Makefile", b"# stand-in\n")):
            if not tree and name.endswith("mpconfig.h"):
                continue
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    path.write_bytes(buf.getvalue())
    return buf.getvalue()


def test_no_source_is_one_line_saying_how_to_get_it(tmp_path: Path) -> None:
    with pytest.raises(firmware.BuildError) as e:
        firmware.find_source(env={}, vendor=tmp_path / "vendor", build=tmp_path / "build", clone=False)
    msg = str(e.value)
    assert "\n" not in msg and "MICROPY_DIR" in msg and firmware.TARBALL in msg and "git" in msg


def test_micropy_dir_comes_first_and_must_be_a_tree(tmp_path: Path) -> None:
    vendor = tmp_path / "vendor"
    vendor.mkdir()
    data = tarball(vendor / firmware.TARBALL)
    (vendor / "SHA256SUMS").write_text(f"{hashlib.sha256(data).hexdigest()}  {firmware.TARBALL}\n")
    with pytest.raises(firmware.BuildError, match="is not a MicroPython tree"):
        firmware.find_source(env={"MICROPY_DIR": str(tmp_path)}, vendor=vendor, build=tmp_path / "b", clone=False)
    tree = firmware.find_source(env={}, vendor=vendor, build=tmp_path / "b", clone=False)
    assert tree == tmp_path / "b" / "src" / "micropython" and (tree / "py" / "mpconfig.h").is_file()
    # given MICROPY_DIR, that tree is used as it is, even with the tarball present
    assert firmware.find_source(env={"MICROPY_DIR": str(tree)}, vendor=vendor, build=tmp_path / "c",
                                clone=False) == tree.resolve()
    assert not (tmp_path / "c").exists()


def test_a_tarball_that_does_not_match_its_sum_is_refused(tmp_path: Path) -> None:
    vendor = tmp_path / "vendor"
    vendor.mkdir()
    tarball(vendor / firmware.TARBALL)
    (vendor / "SHA256SUMS").write_text(f"{'0' * 64}  {firmware.TARBALL}\n")
    with pytest.raises(firmware.BuildError, match="does not match SHA256SUMS"):
        firmware.find_source(env={}, vendor=vendor, build=tmp_path / "b", clone=True)  # no clone instead
    assert not (tmp_path / "b").exists()
    (vendor / "SHA256SUMS").unlink()
    with pytest.raises(firmware.BuildError, match="no SHA256SUMS"):
        firmware.find_source(env={}, vendor=vendor, build=tmp_path / "b", clone=True)


def test_the_data_romfs_holds_every_model_and_certificate_byte_for_byte() -> None:
    from mpremote.romfs import VfsRomWriter  # noqa: F401  (the writer the image uses)

    image = firmware.romfs_image()
    assert image.startswith(VfsRomWriter.ROMFS_HEADER)
    for rel in firmware.DATA:
        for p in (firmware.ROOT / rel).glob("*.json"):
            assert p.read_bytes() in image, p  # stored verbatim: the boot check reads the certified bytes


def test_without_the_i686_compiler_the_build_says_what_to_install(tmp_path: Path, monkeypatch) -> None:
    """The emulated board's image has a board's 32-bit words; without Debian's i686 compiler the
    build stops before touching anything, naming the packages and the make target that installs
    them (never a silent 64-bit build, whose heap figures are not a board's)."""
    monkeypatch.setenv("PATH", str(tmp_path))  # no i686-linux-gnu-gcc on it
    with pytest.raises(firmware.BuildError) as e:
        firmware.build_unix(src=tmp_path / "no-tree", build=tmp_path / "build")
    msg = str(e.value)
    assert "\n" not in msg and "gcc-i686-linux-gnu" in msg and "make unix32-tools" in msg
    assert not (tmp_path / "build").exists()
