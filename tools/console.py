"""Technician console client: opens any pyserial URL and talks to the firmware's console.

    python -m tools.console socket://127.0.0.1:7770        (emulated board)
    python -m tools.console /dev/ttyUSB0 --baud 115200     (a cabinet's maintenance port)
    python -m tools.console URL -c "meters json"           (one command, for scripts)
"""
from __future__ import annotations

import argparse
import sys
import time

import serial

PROMPT = b"jeton> "


class ConsoleClient:
    def __init__(self, url: str, baud: int = 115200, timeout: float = 5.0, connect_for: float = 0.0):
        deadline = time.monotonic() + connect_for
        while True:
            try:
                self.port = serial.serial_for_url(url, baudrate=baud, timeout=0.1)
                break
            except (serial.SerialException, OSError):
                if time.monotonic() >= deadline:
                    raise
                time.sleep(0.1)
        self.timeout = timeout

    def command(self, line: str) -> list[str]:
        """Send one command; return the reply's lines (the prompt that ends it is not included)."""
        self.port.reset_input_buffer()
        self.port.write(line.encode() + b"\n")
        buf = b""
        deadline = time.monotonic() + self.timeout
        while not buf.endswith(PROMPT):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no prompt after {line!r}; got {buf!r}")
            buf += self.port.read(4096)
        text = buf[: -len(PROMPT)].decode(errors="replace")
        return [ln for ln in text.replace("\r\n", "\n").split("\n") if ln]

    def close(self) -> None:
        self.port.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.console", description=__doc__.splitlines()[0])
    ap.add_argument("url", help="pyserial URL: socket://HOST:PORT, /dev/ttyUSB0, rfc2217://...")
    ap.add_argument("--baud", type=int, default=115200)
    ap.add_argument("-c", "--command", action="append", help="run this command and exit (repeatable)")
    args = ap.parse_args(argv)
    try:
        client = ConsoleClient(args.url, args.baud)
    except (serial.SerialException, OSError) as e:
        print(f"cannot open {args.url}: {e}", file=sys.stderr)
        return 2
    try:
        if args.command:
            for cmd in args.command:
                print("\n".join(client.command(cmd)))
            return 0
        print(f"connected to {args.url} — 'help' lists commands, Ctrl-D quits")
        while True:
            try:
                line = input("jeton> ")
            except EOFError:
                print()
                return 0
            if line.strip():
                try:
                    print("\n".join(client.command(line)))
                except TimeoutError as e:
                    print(f"(no answer: {e})")
    finally:
        client.close()


if __name__ == "__main__":
    sys.exit(main())
