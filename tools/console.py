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


class ConsoleClosed(Exception):
    """The cabinet closed the console link; str() is what it said last (e.g. 'console busy: one
    session at a time' when another client holds the console)."""


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
        try:
            # an empty line gets a prompt: the session is ours. Else the cabinet said why and hung up
            # (ConsoleClosed); nothing is discarded first, that line may already be here.
            self._exchange("", discard=False)
        except BaseException:
            self.port.close()
            raise

    def command(self, line: str) -> list[str]:
        """Send one command; return the reply's lines (the prompt that ends it is not included).
        ConsoleClosed when the cabinet hangs up instead of answering."""
        return self._exchange(line, discard=True)

    def _exchange(self, line: str, discard: bool) -> list[str]:
        if discard:
            self.port.reset_input_buffer()
        self.port.write(line.encode() + b"\n")
        buf = b""
        deadline = time.monotonic() + self.timeout
        # pyserial's socket:// read() drops what it read when the peer then hangs up: the greeting
        # is read a byte at a time so that the cabinet's last line is never lost with it
        size = 4096 if discard else 1
        while not buf.endswith(PROMPT):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no prompt after {line!r}; got {buf!r}")
            try:
                buf += self.port.read(size)
            except (serial.SerialException, OSError) as e:  # socket:// reports a hang-up this way
                said = _lines(buf)
                raise ConsoleClosed(said[-1] if said else f"console closed the link ({e})") from None
        return _lines(buf[: -len(PROMPT)])

    def close(self) -> None:
        self.port.close()


def _lines(raw: bytes) -> list[str]:
    text = raw.decode(errors="replace")
    return [ln for ln in text.replace("\r\n", "\n").split("\n") if ln]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.console", description=__doc__.splitlines()[0])
    ap.add_argument("url", help="pyserial URL: socket://HOST:PORT, /dev/ttyUSB0, rfc2217://...")
    ap.add_argument("--baud", type=int, default=115200)
    ap.add_argument("-c", "--command", action="append", help="run this command and exit (repeatable)")
    args = ap.parse_args(argv)
    try:
        client = ConsoleClient(args.url, args.baud)
    except ConsoleClosed as e:
        print(e, file=sys.stderr)  # one line, e.g. 'console busy: one session at a time'
        return 1
    except TimeoutError:
        print(f"no prompt from {args.url}: is the cabinet running?", file=sys.stderr)
        return 2
    except (serial.SerialException, OSError) as e:
        print(f"cannot open {args.url}: {e}", file=sys.stderr)
        return 2
    try:
        if args.command:
            for cmd in args.command:
                try:
                    print("\n".join(client.command(cmd)))
                except ConsoleClosed as e:
                    print(e, file=sys.stderr)
                    return 1
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
                except ConsoleClosed as e:
                    print(e, file=sys.stderr)
                    return 1
    finally:
        client.close()


if __name__ == "__main__":
    sys.exit(main())
