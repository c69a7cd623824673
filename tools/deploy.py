"""Deploy Jeton to a board running stock MicroPython: `python -m tools.deploy PORT [--target T]`
(make deploy PORT=... [PROFILE=pyboard|rp2|esp32]).

PORT is anything mpremote opens: /dev/ttyACM0, a pty path, socket://HOST:PORT. The target is the
board whose .mpy set goes (tools/image.py, manifests/<target>.py): a real board's profile, or `unix`
(the default: the emulated board, on the stock unix port's REPL).

What lands on the board's file system (paths relative to its working directory, / on a board):

    jeton-<id>/          the target's .mpy image (tools.image) of rng games board firmware, with
                         games/models and games/certs; <id> is the first 12 hex digits of the
                         SHA-256 over the image's file list and digests
    main.py              the root loader: enters jeton-<id>/ and runs firmware.main

Stage, then switch: the image is written into its own folder, which no loader names yet; every
file's SHA-256 is read back from the board and compared; only then is main.py replaced (written as
main.py.new, checked, renamed), and older jeton-* folders removed. A deploy cut at any point leaves
the board booting the previous image whole, or the new one whole; a board with no image yet boots to
its REPL. A flaky link is retried: each step reconnects and carries on (files already on the board
with the right digest are not sent again). Then the board is reset. A port where no board answers
at all is not retried: one line says so at once (`deploy: no board answers on /dev/ttyACM0: ...`),
exit status 1.
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import os
import sys
import time
from pathlib import Path

from tools import image, targets
from tools.firmware import BuildError

ROOT = Path(__file__).resolve().parent.parent
DATA = ("games/models", "games/certs")
TRIES = 5  # attempts per step on a flaky link
FIRST_ANSWER_S = 5  # a board's raw REPL answers in milliseconds; silence this long: no board there
LOADER = """# Jeton root loader, written by tools/deploy.py: the image it names was checked file by file.
import os
import sys

IMAGE = {image!r}
root = os.getcwd()
sys.path.insert(0, (root if root != "/" else "") + "/" + IMAGE)
os.chdir(IMAGE)  # the image's models and certificates are read relative to it
from firmware.main import main

main(sys.argv[1:])
"""


class DeployError(Exception):
    pass


def payload(root: Path = ROOT, target: str = "unix") -> dict[str, bytes]:
    """The image's files by their path inside jeton-<id>/: the .mpy of every device module the
    target carries, the models and the certificates."""
    out_dir = image.out_dir(target)
    image.build(out_dir, root, target=target)
    files = {p.relative_to(out_dir).as_posix(): p.read_bytes() for p in sorted(out_dir.rglob("*.mpy"))}
    for name in ("SHA256SUMS", "SHA256SUMS.sig"):  # what the board authenticates them with at power-up
        if (out_dir / name).is_file():
            files[name] = (out_dir / name).read_bytes()
    for rel in DATA:
        for p in sorted((root / rel).glob("*.json")):
            files[f"{rel}/{p.name}"] = p.read_bytes()
    return files


def image_id(files: dict[str, bytes]) -> str:
    h = hashlib.sha256()
    for rel in sorted(files):
        h.update(f"{hashlib.sha256(files[rel]).hexdigest()}  {rel}\n".encode())
    return "jeton-" + h.hexdigest()[:12]


class Board:
    """An mpremote link that reconnects on failure: every call is retried up to TRIES times."""

    def __init__(self, port: str, log=print, connect=None):
        self.port = port
        self.log = log
        self._connect = connect or self._serial
        self.t = None
        self.answered = False  # a link retries only once a board has answered on it

    @staticmethod
    def _serial(port: str):
        from mpremote.transport_serial import SerialTransport

        return SerialTransport(port, baudrate=115200, timeout=2)  # a lost byte must not hang a read

    def _open(self):
        if self.t is None:
            t = self._connect(self.port)
            self.t = t  # closed by drop() if the raw REPL does not answer
            with contextlib.redirect_stdout(io.StringIO()):  # mpremote prints what it read before raising
                # a soft reset would restart a running firmware
                t.enter_raw_repl(soft_reset=False, timeout_overall=10 if self.answered else FIRST_ANSWER_S)
        return self.t

    def drop(self) -> None:
        if self.t is not None:
            try:
                self.t.exit_raw_repl()
                self.t.close()
            except Exception:  # noqa: BLE001  the link is being thrown away anyway
                pass
        self.t = None

    def call(self, what: str, fn):
        last = None
        for attempt in range(1, TRIES + 1):
            try:
                t = self._open()
            except Exception as e:  # noqa: BLE001  serial, transport and OS errors alike
                if not self.answered:  # nothing to retry: no board was ever there
                    raise DeployError(f"no board answers on {self.port}: {_why(self.port, e)}") from None
                t = None
                last = e
            if t is not None:
                self.answered = True
                try:
                    return fn(t)
                except Exception as e:  # noqa: BLE001  serial, transport and OS errors of a flaky link alike
                    last = e
            self.log(f"deploy: {what}: {type(last).__name__}: {str(last).strip()[:120]} (try {attempt}/{TRIES})")
            self.drop()
            time.sleep(0.2 * attempt)
        raise DeployError(f"{what}: gave up after {TRIES} tries: {last}")


def _why(port: str, e: Exception) -> str:
    """Why the first connection failed, in words a technician acts on."""
    if "://" not in port and not os.path.exists(port):
        return "no such device (is the board plugged in and powered? PORT= names another port)"
    return str(e).strip() or type(e).__name__


def _digest(t, path: str) -> str | None:
    try:
        return t.fs_hashfile(path, "sha256").hex()
    except OSError:
        return None  # not there


def _write_checked(t, path: str, data: bytes, want: str) -> None:
    # bytes lost on the link can leave a well-formed but different file: read its digest back at
    # once, so the retry rewrites that file instead of the whole deploy failing at the final check
    t.fs_writefile(path, data)
    if _digest(t, path) != want:
        raise OSError(f"{path} differs on the board after writing")


def _mkdirs(t, path: str) -> None:
    t.exec("import os\np=''\nfor d in %r.split('/'):\n p=p+'/'+d if p else d\n try:\n  os.mkdir(p)\n except OSError:\n  pass\n"
           % path)


def deploy(port: str, files: dict[str, bytes] | None = None, log=print, connect=None, reset: bool = True,
           target: str = "unix") -> str:
    """Stage, check and switch to the image; returns its folder name (jeton-<id>)."""
    board = Board(port, log, connect)
    try:
        board.call("connect", lambda t: None)  # no board: said at once, before the image is built
        files = payload(target=target) if files is None else files
        name = image_id(files)
        dirs = sorted({f"{name}/{rel.rpartition('/')[0]}".rstrip("/") for rel in files})
        for d in dirs:
            board.call(f"mkdir {d}", lambda t, d=d: _mkdirs(t, d))
        sent = 0
        for rel, data in files.items():
            path = f"{name}/{rel}"
            want = hashlib.sha256(data).hexdigest()
            if board.call(f"hash {path}", lambda t, p=path: _digest(t, p)) == want:
                continue  # already there (a deploy resumed after a cut link)
            board.call(f"write {path}", lambda t, p=path, d=data, w=want: _write_checked(t, p, d, w))
            sent += 1
        # read back every file, whether sent now or before: the switch needs all of them right
        bad = [rel for rel, data in files.items()
               if board.call(f"hash {name}/{rel}", lambda t, p=f"{name}/{rel}": _digest(t, p))
               != hashlib.sha256(data).hexdigest()]
        if bad:
            raise DeployError(f"{len(bad)} file(s) differ on the board after writing, e.g. {bad[0]}: not switched")
        loader = LOADER.format(image=name).encode()
        board.call("write main.py.new", lambda t: t.fs_writefile("main.py.new", loader))
        if board.call("hash main.py.new", lambda t: _digest(t, "main.py.new")) != hashlib.sha256(loader).hexdigest():
            raise DeployError("main.py.new differs on the board: not switched")
        # the switch: one rename (where the file system cannot rename over a file, a cut between the
        # remove and the rename leaves no main.py: the board boots to its REPL, never half an image)
        board.call("switch main.py", lambda t: t.exec(
            "import os\ntry:\n os.rename('main.py.new','main.py')\nexcept OSError:\n"
            " os.remove('main.py')\n os.rename('main.py.new','main.py')\n"))
        board.call("remove older images", lambda t: t.exec(
            "import os\ndef rm(p):\n for e in os.ilistdir(p):\n  q=p+'/'+e[0]\n  rm(q) if e[1]==0x4000 else os.remove(q)\n"
            " os.rmdir(p)\nfor e in os.ilistdir('.'):\n if e[0].startswith('jeton-') and e[0]!=%r and e[1]==0x4000:\n  rm(e[0])\n"
            % name))
        log(f"deploy: {name}: {len(files)} files checked on the board ({sent} sent), main.py switched")
        if reset:
            board.call("reset", lambda t: t.exec_raw_no_follow(
                "import machine\ngetattr(machine, 'reset', None) and machine.reset() or machine.soft_reset()"))
    finally:
        board.drop()
    return name


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.deploy", description=__doc__.split("\n\n")[0])
    ap.add_argument("port", help="serial device, pty path or socket://HOST:PORT (mpremote)")
    ap.add_argument("--target", choices=targets.TARGETS, default="unix",
                    help="the board whose .mpy set is installed (default unix: the emulated board)")
    ap.add_argument("--no-reset", action="store_true")
    args = ap.parse_args(argv)
    try:
        deploy(args.port, reset=not args.no_reset, target=args.target)
    except (DeployError, BuildError, targets.TargetError) as e:
        print(f"deploy: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
