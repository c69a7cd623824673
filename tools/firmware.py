"""Build the Jeton firmware image from MicroPython source (`make firmware`, `make firmware-arm`).

    python -m tools.firmware [--arm] [--data] [--source]
    python -m tools.firmware --sizes     what each target's image carries (docs/build.md)

The image is MicroPython itself with its target's manifest frozen into it (manifests/unix.py for
the emulated board, manifests/qemu.py for the Cortex-M3; each includes the common manifest.py: see
tools/targets.py): the device code as bytecode, and the game models and certificates as a ROMFS
held in a frozen constant (`jeton_rom.ROMFS`, mounted at /rom by firmware/main.py). The heap then
holds data only, as on a board whose bytecode stays in flash.

MicroPython source, pinned to commit PIN, is looked for in this order, and nothing falls back
silently:
  1. MICROPY_DIR, a MicroPython tree (built out of tree: nothing is written inside it);
  2. ../shared/vendor/micropython-1c3c2011.tar.gz, checked against its SHA256SUMS, unpacked into
     build/firmware/src/;
  3. a `git clone` of the pinned commit (and of micropython-lib's), where a network is available.
Everything is built under build/firmware/, incrementally (make), with every core.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from tools.targets import TargetError

ROOT = Path(__file__).resolve().parent.parent
PIN = "1c3c201149f37fe8d81246191b3127bb198d6306"
LIB_PIN = "ee4bb8ff139e24c42b739935fbd8ec7c4d061e02"
REPO = "https://github.com/micropython/micropython"
LIB_REPO = "https://github.com/micropython/micropython-lib"
VENDOR = ROOT.parent / "shared" / "vendor"
TARBALL = "micropython-1c3c2011.tar.gz"
BUILD = ROOT / "build" / "firmware"
GEN = BUILD / "gen"
MANIFEST = ROOT / "manifests" / "unix.py"  # the emulated board's image
MANIFEST_ARM = ROOT / "manifests" / "qemu.py"  # the Cortex-M3's
FIRMWARE = BUILD / "unix32" / "micropython"  # the emulated board's image: 32-bit, as every board is
FIRMWARE64 = BUILD / "unix64" / "micropython"  # the same image with 64-bit words (bench_heap's comparison)
FIRMWARE_ARM = BUILD / "qemu" / "firmware.elf"  # MPS2-AN385 (Cortex-M3) under qemu-system-arm
# The unix port without the parts whose sources the vendored tree leaves out (vendor/README.md);
# the emulated board needs none of them.
UNIX_ARGS = ("VARIANT=standard", "MICROPY_PY_BTREE=0", "MICROPY_PY_SSL=0", "MICROPY_PY_FFI=0")
# The emulated board's image is built for i686, as MicroPython's own 32-bit CI builds the unix port:
# every board Jeton runs on has 32-bit words, and a 64-bit build doubles the heap that objects take
# (a pointer, a small int, a dict slot), so its heap figures are not a board's.
UNIX32_ARGS = ("CROSS_COMPILE=i686-linux-gnu-",)
UNIX32_PACKAGES = ("gcc-i686-linux-gnu", "libc6-dev-i386-cross", "libc6-i386")
QEMU_BOARD = "MPS2_AN385"
ARM_PACKAGES = ("gcc-arm-none-eabi", "libnewlib-arm-none-eabi", "qemu-system-arm")
# Files the firmware reads with open(), frozen as ROMFS: the certified models and their certificates.
DATA = ("games/models", "games/certs")
# The release public key built into the image (jeton_key, frozen): the firmware checks the release
# manifest's signature with it at power-up (firmware/authenticate.py). JETON_RELEASE_PUB names the
# release key's public PEM for an image that goes to the field; without it the build makes (once)
# and uses a development key in build/keys/, never committed, and signs the image's own release
# record with it (BOOT_RELEASE beside the image) so every emulated boot authenticates.
KEYS = ROOT / "build" / "keys"
DEV_KEY = KEYS / "dev.pem"
PUB_ENV = "JETON_RELEASE_PUB"
# The operator's public key, built into the image beside the release key (jeton_key.OPERATOR): the
# manufacturer's statement, covered by the signed release, of whose signature the cabinet takes for
# its configuration under vlt and for enrolling an administrator once the machine had one
# (firmware/operator_config.py, firmware/enrolment.py; tools/operator.py signs). JETON_OPERATOR_PUB
# names it for an image for the field; without it the build makes (once) a development operator key.
DEV_OPERATOR_KEY = KEYS / "operator-dev.pem"
OPERATOR_ENV = "JETON_OPERATOR_PUB"
BOOT_RELEASE = "release"  # folder beside the image: SHA256SUMS and SHA256SUMS.sig (board/emulated.py)
HOW_TO_GET = (f"no MicroPython source: set MICROPY_DIR to a MicroPython tree at {PIN[:8]}, or put "
              f"{TARBALL} (with its SHA256SUMS) in {VENDOR}, or give git network access to {REPO}")


class BuildError(Exception):
    """A build that cannot go on; its message is the one line the user sees."""


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


def _is_tree(path: Path) -> bool:
    return (path / "py" / "mpconfig.h").is_file() and (path / "ports" / "unix").is_dir()


def _expected_digest(vendor: Path) -> str:
    sums = vendor / "SHA256SUMS"
    if not sums.is_file():
        raise BuildError(f"{vendor / TARBALL} has no SHA256SUMS beside it to check it against")
    for line in sums.read_text().splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].lstrip("*") == TARBALL:
            return parts[0].lower()
    raise BuildError(f"{sums} lists no digest for {TARBALL}")


def _unpack(tarball: Path, digest: str, build: Path) -> Path:
    dest = build / "src"
    tree = dest / "micropython"
    stamp = dest / ".unpacked"
    if stamp.is_file() and stamp.read_text().strip() == digest and _is_tree(tree):
        return tree  # already unpacked from this very tarball
    tmp = build / "src.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with tarfile.open(tarball) as tf:
        tf.extractall(tmp, filter="data")
    if not _is_tree(tmp / "micropython"):
        raise BuildError(f"{tarball} does not unpack to a MicroPython tree (micropython/py, micropython/ports/unix)")
    (tmp / ".unpacked").write_text(digest + "\n")
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)  # whole or not at all: an interrupted unpack is redone
    return tree


def _clone(build: Path) -> Path:
    tree = build / "src-git" / "micropython"
    if _is_tree(tree):
        head = subprocess.run(["git", "-C", str(tree), "rev-parse", "HEAD"], capture_output=True, text=True)
        if head.stdout.strip() == PIN:
            return tree
    if shutil.which("git") is None:
        raise BuildError(HOW_TO_GET)
    shutil.rmtree(tree.parent, ignore_errors=True)
    tree.parent.mkdir(parents=True)
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0")
    lib = tree / "lib" / "micropython-lib"
    steps = (["git", "init", "-q", str(tree)],
             ["git", "-C", str(tree), "fetch", "-q", "--depth", "1", REPO, PIN],
             ["git", "-C", str(tree), "checkout", "-q", "FETCH_HEAD"],
             ["git", "init", "-q", str(lib)],
             ["git", "-C", str(lib), "fetch", "-q", "--depth", "1", LIB_REPO, LIB_PIN],
             ["git", "-C", str(lib), "checkout", "-q", "FETCH_HEAD"])
    for cmd in steps:
        if subprocess.run(cmd, env=env, capture_output=True, timeout=600).returncode:
            shutil.rmtree(tree.parent, ignore_errors=True)
            raise BuildError(HOW_TO_GET)
    return tree


def find_source(env: dict | None = None, vendor: Path = VENDOR, build: Path = BUILD, clone: bool = True) -> Path:
    """The MicroPython tree to build from, in the issue's order: MICROPY_DIR, the vendored tarball
    (checked), a pinned clone. Raises BuildError with one line when there is none."""
    env = os.environ if env is None else env
    given = env.get("MICROPY_DIR")
    if given:
        tree = Path(given).resolve()
        if not _is_tree(tree):
            raise BuildError(f"MICROPY_DIR={given} is not a MicroPython tree (no py/mpconfig.h, ports/unix)")
        return tree
    tarball = vendor / TARBALL
    if tarball.is_file():
        want = _expected_digest(vendor)
        got = sha256_file(tarball)
        if got != want:
            raise BuildError(f"{tarball}: SHA-256 {got} does not match SHA256SUMS ({want}); refusing to build from it")
        return _unpack(tarball, want, build)
    if not clone:
        raise BuildError(HOW_TO_GET)
    return _clone(build)


def romfs_image(root: Path = ROOT, dirs: tuple[str, ...] = DATA) -> bytes:
    """A ROMFS (MicroPython's VfsRom format) holding the files of each of `dirs` (one level), at
    its path in the checkout, or at DEST for an entry written "DEST=SRC"."""
    from mpremote.romfs import VfsRomWriter

    w = VfsRomWriter()
    opened: list[str] = []
    for dest, _, src in sorted(d.partition("=") for d in dirs):
        parts = dest.split("/")
        common = 0
        while common < min(len(opened), len(parts)) and opened[common] == parts[common]:
            common += 1
        for _ in opened[common:]:
            w.closedir()
        for name in parts[common:]:
            w.opendir(name)
        opened = parts
        for f in sorted((root / (src or dest)).iterdir()):
            if f.is_file():
                w.mkfile(f.name, f.read_bytes())
    for _ in opened:
        w.closedir()
    return w.finalise()


def _write_if_changed(out: Path, text: str) -> Path:
    # an unchanged file keeps its time: make (and the frozen content) stays incremental
    if out.is_file() and out.read_text() == text:
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(text)
    os.replace(tmp, out)
    return out


def write_data_module(gen: Path = GEN, root: Path = ROOT, name: str = "jeton_rom",
                      dirs: tuple[str, ...] = DATA) -> Path:
    """build/firmware/gen/jeton_rom.py: the ROMFS of `dirs` in one frozen bytes constant."""
    text = ("# Generated by tools/firmware.py from %s: do not edit.\n"
            "# A ROMFS image; frozen, this constant stays in the firmware image (flash), not the heap.\n"
            "ROMFS = %r\n" % (", ".join(dirs), romfs_image(root, dirs)))
    return _write_if_changed(gen / f"{name}.py", text)


def release_pub(env: dict | None = None) -> tuple[Path, bool]:
    """(the public PEM to build in, whether it is the development key), making that key once."""
    from tools import sign

    env = os.environ if env is None else env
    if env.get(PUB_ENV):
        return Path(env[PUB_ENV]), False
    return sign.dev_keygen(DEV_KEY), True


def operator_pub(env: dict | None = None) -> tuple[Path, bool]:
    """(the operator's public PEM to build in, whether it is the development operator key), making
    that key once. An image built with a release key must name the operator's key too: a field
    image never trusts a development operator key by default."""
    from tools import sign

    env = os.environ if env is None else env
    if env.get(OPERATOR_ENV):
        return Path(env[OPERATOR_ENV]), False
    if env.get(PUB_ENV):
        raise BuildError(f"{PUB_ENV} names a release key: name the operator's public key too ({OPERATOR_ENV}=PEM)")
    return sign.dev_keygen(DEV_OPERATOR_KEY), True


def write_key_module(gen: Path = GEN) -> Path:
    """build/firmware/gen/jeton_key.py: the release public key and the operator's, frozen (bytes
    constants: no heap)."""
    from tools import sign

    pub, dev = release_pub()
    nums = sign.load_public(pub).public_numbers()
    opub, odev = operator_pub()
    onums = sign.load_public(opub).public_numbers()
    text = ("# Generated by tools/firmware.py from %s and %s: do not edit.\n"
            "# The release public key (RSA-3072): the firmware checks SHA256SUMS.sig with it at power-up.\n"
            "N = %r\nE = %d\nDEV = %r  # the development key of build/keys/, not a release key\n"
            "# The operator's public key (RSA-3072): its signed configuration (vlt) and enrolments.\n"
            "OPERATOR = (%r, %d)\nOPERATOR_DEV = %r  # the development operator key of build/keys/\n"
            % (pub.name, opub.name, nums.n.to_bytes(sign.BITS // 8, "big"), nums.e, dev,
               onums.n.to_bytes(sign.BITS // 8, "big"), onums.e, odev))
    return _write_if_changed(gen / "jeton_key.py", text)


def shipped_data(root: Path = ROOT) -> list[tuple[str, Path]]:
    """(name in a release, file) of every shipped game's model and certificate (tools/release.py)."""
    out = []
    for cert in sorted((root / "games" / "certs").glob("*.json")):
        model = root / "games" / "models" / cert.name
        if model.is_file():
            out += [(f"models/{model.name}", model), (f"certs/{cert.name}", cert)]
    return out


def write_boot_release(image: Path, root: Path = ROOT) -> Path | None:
    """The image's release record, signed with the development key, in BOOT_RELEASE beside it: the
    release number, the image and every shipped model and certificate (what the emulated board
    authenticates at power-up). None with a release key: its private half is not here, and
    `tools.sign sign` signs the release folder instead."""
    return write_record(image.parent / BOOT_RELEASE, [("firmware/micropython-unix", image)], root)


def write_record(out: Path, entries: list[tuple[str, Path]], root: Path = ROOT) -> Path | None:
    """SHA256SUMS (the release number, `entries` and every shipped model and certificate) and its
    signature by the development key, written into `out`; None with a release key."""
    from tools import release, sign

    if not release_pub()[1]:
        return None
    ver = release.version(root)
    text = f"# jeton-release version={ver} counter={release.counter(ver)}\n" + "".join(
        f"{sha256_file(p)}  {name}\n" for name, p in sorted(entries + shipped_data(root)))
    sig = sign.sign_bytes(sign.load_private(DEV_KEY), text.encode())
    out.mkdir(parents=True, exist_ok=True)
    for name, data in ((sign.SIG, sig), (sign.SUMS, text.encode())):  # the manifest last: it dates the pair
        tmp = out / (name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, out / name)
    return out


def record_fresh(sums: Path, files: list[Path], root: Path = ROOT) -> bool:
    """A development-key record at `sums` newer than every file it lists (always, with a release key)."""
    if os.environ.get(PUB_ENV):
        return True  # nothing to sign here
    if not DEV_KEY.is_file() or not sums.is_file():
        return False
    made = sums.stat().st_mtime_ns
    return all(p.stat().st_mtime_ns <= made for p in files + [p for _, p in shipped_data(root)])


def boot_release_fresh(image: Path, root: Path = ROOT) -> bool:
    return record_fresh(image.parent / BOOT_RELEASE / "SHA256SUMS", [image], root)


# The device tests of rng/ and games/ frozen into a second Cortex-M3 image, with the files they read
# (fixtures, models, certificates) as a ROMFS: the qemu port has no other file system. The tests are
# frozen at their checkout paths (tests/device/...), so a test that finds its fixtures from its own
# __file__ ("tests/device/../fixtures/...") gets that very path; VfsRom does not resolve "..", so
# the ROMFS holds the CAVP vectors (the only fixtures found that way) under that path.
TEST_DATA = ("tests/device/../fixtures/cavp-drbg=tests/fixtures/cavp-drbg",
             "tests/fixtures/games", "games/models", "games/certs")
# imported by the tests as top-level modules
TEST_HELPERS = ("devtest.py", "device/fakes_rng.py", "device/heap_pieces.py", "device/model_formats.py")


def device_test_modules(root: Path = ROOT) -> list[Path]:
    dev = root / "tests" / "device"
    return sorted(list(dev.glob("test_rng_*.py")) + list(dev.glob("test_games_*.py")))


def write_test_manifest(gen: Path = GEN, root: Path = ROOT) -> Path:
    write_data_module(gen, root, "jeton_testrom", TEST_DATA)
    lines = [f"include({str(root / 'manifests' / 'qemu.py')!r})",
             f"module('jeton_testrom.py', base_path={str(gen)!r})"]
    for rel in TEST_HELPERS:
        p = root / "tests" / rel
        lines.append(f"module({p.name!r}, base_path={str(p.parent)!r})")
    for p in device_test_modules(root):
        lines.append(f"module({p.relative_to(root).as_posix()!r}, base_path={str(root)!r})")
    return _write_if_changed(gen / "manifest_tests.py", "\n".join(lines) + "\n")


def _forget_frozen(src: Path, manifest: Path, out: Path) -> None:
    """MicroPython regenerates the frozen content only when a frozen file is newer than it, so a
    module taken out of the manifest would stay in the image: the content is made again whenever
    the list of frozen files is not the one it was made from (kept beside it)."""
    from tools import targets

    names = "".join(f"{name} {path}\n" for name, path in targets.read_manifest(manifest, src))
    made = out / "frozen_content.list"
    if not made.is_file() or made.read_text() != names:
        (out / "frozen_content.c").unlink(missing_ok=True)
        out.mkdir(parents=True, exist_ok=True)
        made.write_text(names)


def _make(src: Path, args: list[str], what: str) -> None:
    cmd = ["make", "-j", str(os.cpu_count() or 2)] + args
    # The same source gives the same image, byte for byte (its SHA-256 is the image's identity):
    # the build date is the source's, and `git describe` must not see the Jeton checkout around an
    # unpacked tree (it would stamp every Jeton commit into the version string).
    env = dict(os.environ, SOURCE_DATE_EPOCH=str(int((src / "py" / "mpconfig.h").stat().st_mtime)))
    if not (src / ".git").exists():
        env["GIT_CEILING_DIRECTORIES"] = str(src.parent)
    res = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if res.returncode:
        tail = "\n".join((res.stdout + res.stderr).strip().splitlines()[-25:])
        raise BuildError(f"building {what} failed ({' '.join(cmd)}):\n{tail}")


def build_mpy_cross(src: Path, build: Path = BUILD) -> Path:
    _make(src, ["-C", str(src / "mpy-cross"), f"BUILD={build / 'mpy-cross'}"], "mpy-cross")
    return build / "mpy-cross" / "mpy-cross"


def unix32_tools_missing() -> list[str]:
    missing = [] if shutil.which("i686-linux-gnu-gcc") else ["gcc-i686-linux-gnu"]
    if not Path("/usr/i686-linux-gnu/lib/libc.so").exists():
        missing.append("libc6-dev-i386-cross")
    if not Path("/lib/ld-linux.so.2").exists():  # to run it
        missing.append("libc6-i386")
    return missing


def build_unix(src: Path | None = None, build: Path = BUILD, manifest: Path = MANIFEST, word: int = 32) -> Path:
    """mpy-cross, then the unix port with the manifest frozen: build/firmware/unix32/micropython
    (32-bit words, the emulated board's), or build/firmware/unix64/micropython (word=64)."""
    missing = unix32_tools_missing() if word == 32 else []
    if missing:
        raise BuildError("the emulated board's 32-bit image needs Debian's " + " ".join(UNIX32_PACKAGES) +
                         f" (missing: {' '.join(missing)}): make unix32-tools, or apt-get install -y "
                         "--no-install-recommends " + " ".join(UNIX32_PACKAGES))
    src = src or find_source(build=build)
    write_data_module(build / "gen")
    write_key_module(build / "gen")
    cross = build_mpy_cross(src, build)
    out = "unix32" if word == 32 else "unix64"
    _forget_frozen(src, manifest, build / out)
    _make(src, ["-C", str(src / "ports" / "unix"), *UNIX_ARGS, *(UNIX32_ARGS if word == 32 else ()),
                f"BUILD={build / out}", f"FROZEN_MANIFEST={manifest}", f"MICROPY_MPYCROSS={cross}"],
          "the unix port")
    return build / out / "micropython"


def inputs(root: Path = ROOT) -> list[Path]:
    """Every file the image is made of, in the checkout: a newer one makes the image stale."""
    from tools.image import sources

    data = [p for rel in DATA for p in (root / rel).glob("*.json")]
    key = [GEN / "jeton_key.py"] if (GEN / "jeton_key.py").is_file() else []
    manifests = [root / "manifest.py"] + sorted((root / "manifests").glob("*.py"))
    return sources(root) + data + manifests + key


def _input_names(root: Path) -> str:
    return "\n".join(sorted(os.path.relpath(p, root) for p in inputs(root))) + "\n"


def _names_file(image: Path) -> Path:
    return image.parent / (image.name + ".inputs")


def stale(image: Path = FIRMWARE, root: Path = ROOT) -> bool:
    """A file of the image newer than it, or the list of files not the one it was built from (a
    file renamed, added or deleted leaves every date older)."""
    if not image.is_file():
        return True
    names = _names_file(image)
    if not names.is_file() or names.read_text() != _input_names(root):
        return True
    built = image.stat().st_mtime_ns
    return any(p.stat().st_mtime_ns > built for p in inputs(root))


def mark_built(image: Path, root: Path = ROOT) -> None:
    """The image is what its inputs make now: dated now (make may leave an unchanged binary
    untouched), with the list of the files it was made of beside it. The Cortex-M image's
    firmware.bin is dated with its firmware.elf: older, the next make would copy it out again
    while a test reads it (make test s39c: test_flash_image_qemu found it missing)."""
    os.utime(image)
    bin_ = image.with_suffix(".bin")
    if image.suffix == ".elf" and bin_.is_file():
        os.utime(bin_)
    _names_file(image).write_text(_input_names(root))


def ensure_built(word: int = 32) -> Path:
    """The emulated board's image, rebuilt first if a device file changed since (a few stat calls
    when nothing did). Concurrent callers (the power-cut campaign's workers) build it once."""
    image = FIRMWARE if word == 32 else FIRMWARE64
    if not stale(image) and boot_release_fresh(image):
        return image
    with _locked():
        write_key_module()  # cheap when unchanged; makes the development key the first time
        if stale(image):
            build_unix(word=word)
            mark_built(image)
        if not boot_release_fresh(image):
            write_boot_release(image)
    return image


def ensure_built_arm() -> Path:
    """The Cortex-M3 image, rebuilt first if a device file changed since (as ensure_built)."""
    if stale(FIRMWARE_ARM):
        with _locked():
            if stale(FIRMWARE_ARM):
                build_arm()
                mark_built(FIRMWARE_ARM)
    return FIRMWARE_ARM


class _locked:  # noqa: N801  (used as a with-statement, like a function)
    """One build at a time in build/firmware (make firmware beside a harness that rebuilds)."""

    def __enter__(self):
        import fcntl

        BUILD.mkdir(parents=True, exist_ok=True)
        self.f = open(BUILD / ".lock", "w")
        fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        self.f.close()  # closing releases the lock
        return False


def arm_tools_missing() -> list[str]:
    need = {"arm-none-eabi-gcc": "gcc-arm-none-eabi", "qemu-system-arm": "qemu-system-arm"}
    missing = [pkg for tool, pkg in need.items() if shutil.which(tool) is None]
    if not missing and not any(Path(p).is_file() for p in ("/usr/lib/arm-none-eabi/newlib/libc.a",
                                                           "/usr/lib/arm-none-eabi/lib/libc.a")):
        missing.append("libnewlib-arm-none-eabi")
    return missing


def build_arm(src: Path | None = None, build: Path = BUILD, manifest: Path = MANIFEST_ARM, out: str = "qemu") -> Path:
    """The qemu port (MPS2-AN385, Cortex-M3) with the manifest frozen: build/firmware/qemu/firmware.elf."""
    missing = arm_tools_missing()
    if missing:
        raise BuildError("the Cortex-M build needs Debian's " + " ".join(ARM_PACKAGES) +
                         f" (missing: {' '.join(missing)}): make arm-tools, or apt-get install -y --no-install-recommends "
                         + " ".join(ARM_PACKAGES))
    src = src or find_source(build=build)
    write_data_module(build / "gen")
    write_key_module(build / "gen")
    cross = build_mpy_cross(src, build)
    _forget_frozen(src, manifest, build / out)
    _make(src, ["-C", str(src / "ports" / "qemu"), f"BOARD={QEMU_BOARD}", f"BUILD={build / out}",
           f"FROZEN_MANIFEST={manifest}", f"MICROPY_MPYCROSS={cross}"], "the qemu port")
    return build / out / "firmware.elf"


def build_arm_tests(build: Path = BUILD) -> Path:
    """The Cortex-M3 image with the rng/games device tests frozen: build/firmware/qemu-tests/firmware.elf."""
    with _locked():
        manifest = write_test_manifest(build / "gen")
        return build_arm(build=build, manifest=manifest, out="qemu-tests")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.firmware", description=__doc__.split("\n\n")[0])
    ap.add_argument("--arm", action="store_true", help="the qemu Cortex-M3 image instead of the unix port")
    ap.add_argument("--word", type=int, choices=(32, 64), default=32,
                    help="the unix port's word size (default 32, a board's; 64 for comparison)")
    ap.add_argument("--data", action="store_true", help="only write build/firmware/gen/jeton_rom.py")
    ap.add_argument("--source", action="store_true", help="only print where the MicroPython source is")
    ap.add_argument("--sizes", action="store_true",
                    help="only print what each target carries and its size (the images built here, every .mpy set)")
    args = ap.parse_args(argv)
    try:
        if args.sizes:
            from tools import targets

            print(targets.table(targets.sizes()))
            return 0
        if args.data:
            print(write_data_module().relative_to(ROOT))
            print(write_key_module().relative_to(ROOT))
            return 0
        if args.source:
            print(find_source())
            return 0
        with _locked():
            out = build_arm() if args.arm else build_unix(word=args.word)
            mark_built(out)
            if not args.arm:
                write_boot_release(out)
    except (BuildError, TargetError) as e:
        print(f"firmware: {e}", file=sys.stderr)
        return 1
    print(f"{out.relative_to(ROOT)}  sha256 {sha256_file(out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
