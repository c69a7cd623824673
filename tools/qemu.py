"""The Jeton image on an emulated Cortex-M3: qemu-system-arm (MPS2-AN385) running
build/firmware/qemu/firmware.elf (make firmware-arm), driven through its raw REPL on the serial port.

The serial port is a pseudo-terminal (`-serial pty`), spoken to by the pinned mpremote's own
transport (`SerialTransport`: raw REPL, raw-paste mode, the tracebacks it returns), as `mpremote
connect /dev/pts/N` would. With -icount shift=0 every instruction takes one virtual nanosecond, so
time.ticks_us() on the device counts thousands of instructions: a device-cost figure that host
timings cannot give.
"""
from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

from tools import firmware

QEMU = "qemu-system-arm"
PASTE_S = 15  # seconds the device may take to ask for the next window of a pasted script
PTY_LINE = re.compile(r"char device redirected to (/dev/pts/\d+)")  # what qemu says of -serial pty


class RawRepl:
    """One qemu process; exec(code) runs a script through the raw REPL (mpremote's transport) and
    returns what it printed; a traceback raises DeviceError."""

    def __init__(self, elf: Path = firmware.FIRMWARE_ARM, icount: bool = True, timeout: float = 30):
        from mpremote.transport_serial import SerialTransport

        cmd = [QEMU, "-machine", "mps2-an385", "-nographic", "-monitor", "none", "-semihosting",
               "-serial", "pty", "-kernel", str(elf)]
        if icount:
            cmd += ["-icount", "shift=0"]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True)
        self.t = None
        try:
            path = self._pty(timeout)
            # the serial timeout bounds each read of the raw-paste flow control: a device under
            # icount on a loaded host can stay silent longer than a second while it takes a
            # window of the script (1 s failed about 1 run in 6 beside a fuzz campaign)
            self.t = SerialTransport(path, baudrate=115200, timeout=PASTE_S)
            self.t.enter_raw_repl(soft_reset=False, timeout_overall=timeout)  # Ctrl-C, then Ctrl-A
        except BaseException:
            self.close()
            raise

    def _pty(self, timeout: float) -> str:
        """The pty qemu made for the serial port, from the line it prints when it starts."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        said = []
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:  # qemu ended
                break
            said.append(line.strip())
            m = PTY_LINE.search(line)
            if m:
                return m.group(1)
        raise TimeoutError(f"qemu: no serial pty (exit status {self.proc.poll()}); it said {said[-5:]}")

    def exec(self, code: str, timeout: float = 120) -> str:
        """Run `code`; what it printed. timeout: seconds the device may stay silent."""
        from mpremote.transport import TransportError

        assert self.t is not None
        try:
            out, err = self.t.exec_raw(code, timeout=timeout)
        except TransportError as e:
            raise TimeoutError(f"qemu: {e}") from None
        if err:
            raise DeviceError(err.decode(errors="replace").strip())
        return out.decode(errors="replace").replace("\r\n", "\n")

    def close(self) -> None:
        if self.t is not None:
            try:
                self.t.close()
            except OSError:
                pass  # qemu's side of the pty already gone
            self.t = None
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


class DeviceError(Exception):
    """A traceback printed by the device."""


MOUNT = """
import vfs, jeton_rom
try:
    vfs.mount(vfs.VfsRom(jeton_rom.ROMFS), '/rom')
except OSError:
    pass  # mounted by an earlier script
"""


# The qemu board has no entropy source: a deterministic stand-in (a SHA-256 counter stream), so the
# figures and the tests repeat. It checks the plumbing of the sources, never entropy.
NOISE = """
import hashlib
_n = [0]
def _urandom(k):
    out = b''
    while len(out) < k:
        _n[0] += 1
        out += hashlib.sha256(b'qemu-noise' + _n[0].to_bytes(4, 'big')).digest()
    return out[:k]
"""

def module_with(module: str, name: str, value: str) -> str:
    """Device script text: where the qemu port's `module` lacks `name` (its os has no urandom, its
    time no time()), sys.modules[module] becomes a copy of it with `name` the expression `value`,
    so that code importing it afterwards finds it. `module` is imported by the script before."""
    return f"""
if not hasattr({module}, {name!r}):
    class _Shim:
        pass

    _shim = _Shim()
    for _k in dir({module}):
        setattr(_shim, _k, getattr({module}, _k))
    _shim.{name} = {value}
    sys.modules[{module!r}] = _shim
"""


# rng's emulated-board and ESP32 sources read os.urandom, which the qemu port lacks: an `os` with
# the stand-in lets their tests check the plumbing
RUN_TESTS = NOISE + """
import vfs, jeton_testrom, os, sys, gc
vfs.mount(vfs.VfsRom(jeton_testrom.ROMFS), '/t')
os.chdir('/t')  # the tests read tests/fixtures/..., games/models/... relative to the checkout
sys.path.remove('')  # the ROMFS's games/ folder (models) must not shadow the frozen games package
""" + module_with("os", "urandom", "_urandom") + """from devtest import SkipTest
mod = __import__('tests.device.' + {name!r}, None, None, ('x',))
for n in sorted(dir(mod)):
    if not n.startswith('test_'):
        continue
    if n in {nofs!r}:
        print('@@MP NOFS', n)
        continue
    gc.collect()
    try:
        getattr(mod, n)()
        print('@@MP PASS', n)
    except SkipTest as e:
        print('@@MP SKIP', n, e)
    except BaseException as e:
        print('@@MP FAIL', n)
        sys.print_exception(e)
        print('@@MP END', n)
print('@@MP DONE')
"""


def needs_files(source: str) -> set[str]:
    """Test functions that write a scratch directory (devtest.tmpdir): the qemu port has no
    writable file system, so they run on the unix port only."""
    import ast

    out = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            if any(isinstance(n, ast.Name) and n.id == "tmpdir" for n in ast.walk(node)):
                out.add(node.name)
    return out


def run_device_tests(modules: list[Path] | None = None, timeout: float = 600) -> dict[str, dict[str, str]]:
    """Every test of the rng/games device test modules, frozen in the qemu test image, one fresh
    qemu per module: {module: {test: "PASS" | "FAIL <traceback>" | "SKIP ..." | "NOFS"}}."""
    elf = firmware.build_arm_tests()
    results: dict[str, dict[str, str]] = {}
    for path in modules or firmware.device_test_modules():
        repl = RawRepl(elf, icount=False)
        try:
            code = RUN_TESTS.format(name=path.stem, nofs=sorted(needs_files(path.read_text())))
            try:
                out = repl.exec(code, timeout=timeout)
            except DeviceError as e:  # the module itself failed to import or run
                results[path.stem] = {"<module>": "FAIL " + str(e)}
                continue
        finally:
            repl.close()
        res: dict[str, str] = {}
        current = None
        for line in out.splitlines():
            if line.startswith("@@MP "):
                parts = line.split(" ", 3)
                if parts[1] in ("PASS", "NOFS", "SKIP"):
                    res[parts[2]] = " ".join(parts[1:2] + parts[3:])
                elif parts[1] == "FAIL":
                    current = parts[2]
                    res[current] = "FAIL"
                elif parts[1] == "END":
                    current = None
            elif current:
                res[current] += "\n" + line
        if "@@MP DONE" not in out:
            res["<module>"] = "FAIL: no DONE line"
        results[path.stem] = res
    return results
