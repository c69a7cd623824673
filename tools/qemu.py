"""The Jeton image on an emulated Cortex-M3: qemu-system-arm (MPS2-AN385) running
build/firmware/qemu/firmware.elf (make firmware-arm), driven through its raw REPL on the serial port.

With -icount shift=0 every instruction takes one virtual nanosecond, so time.ticks_us() on the
device counts thousands of instructions: a device-cost figure that host timings cannot give.
"""
from __future__ import annotations

import os
import select
import subprocess
import time
from pathlib import Path

from tools import firmware

QEMU = "qemu-system-arm"


class RawRepl:
    """One qemu process; exec(code) runs a script through the raw REPL (Ctrl-A, text, Ctrl-D) and
    returns what it printed; a traceback raises DeviceError."""

    def __init__(self, elf: Path = firmware.FIRMWARE_ARM, icount: bool = True):
        cmd = [QEMU, "-machine", "mps2-an385", "-nographic", "-monitor", "none", "-semihosting",
               "-serial", "stdio", "-kernel", str(elf)]
        if icount:
            cmd += ["-icount", "shift=0"]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buf = b""
        self._write(b"\r\x03\x03")  # stop anything running
        self._write(b"\x01")  # raw REPL
        self._until(b"raw REPL; CTRL-B to exit\r\n>", 30)

    def _write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def _until(self, token: bytes, timeout: float) -> bytes:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while token not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                raise TimeoutError(f"qemu: no {token!r} after {timeout} s; got {self.buf[-300:]!r}")
            r, _, _ = select.select([fd], [], [], left)
            if r:
                self.buf += os.read(fd, 65536)
        head, _, self.buf = self.buf.partition(token)
        return head

    def exec(self, code: str, timeout: float = 120) -> str:
        data = code.encode()
        for i in range(0, len(data), 256):  # the UART's FIFO is small: send in pieces
            self._write(data[i:i + 256])
        self._write(b"\x04")
        self._until(b"OK", 30)
        out = self._until(b"\x04", timeout)
        err = self._until(b"\x04", 10)
        self._until(b">", 10)
        if err:
            raise DeviceError(err.decode(errors="replace").strip())
        return out.decode(errors="replace").replace("\r\n", "\n")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)


class DeviceError(Exception):
    """A traceback printed by the device."""


MOUNT = """
import vfs, jeton_rom
try:
    vfs.mount(vfs.VfsRom(jeton_rom.ROMFS), '/rom')
except OSError:
    pass  # mounted by an earlier script
"""
