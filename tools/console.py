"""Technician console client: opens any pyserial URL and talks to the firmware's console.

    python -m tools.console socket://127.0.0.1:7770        (emulated board)
    python -m tools.console /dev/ttyUSB0 --baud 115200     (a cabinet's maintenance port)
    python -m tools.console URL -c "meters json"           (one command, for scripts)
    python -m tools.console URL --user ID                  (log in first: the PIN is asked, not echoed;
                                                            JETON_PIN in the environment for scripts)
    python -m tools.console URL --user ID --security       (the security log as a table)

Every command but help, login and setup needs an account (docs/console.md "Console access").
"""
from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
import time

import serial

from firmware import localtime

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
            self._exchange(b"\n", discard=False)
        except BaseException:
            self.port.close()
            raise

    def command(self, line: str) -> list[str]:
        """Send one command; return the reply's lines (the prompt that ends it is not included).
        ConsoleClosed when the cabinet hangs up instead of answering."""
        return self._exchange(line.encode() + b"\n", discard=True)

    def send_raw(self, data: bytes) -> list[str]:
        """Send bytes as they are, ending with one line end, and return the reply up to its prompt
        (every line end gets exactly one): the next command then reads its own reply, not this one's."""
        return self._exchange(data, discard=True)

    def _exchange(self, data: bytes, discard: bool) -> list[str]:
        line = data.decode(errors="replace").rstrip("\n")
        if discard:
            self.port.reset_input_buffer()
        self.port.write(data)
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

    def login(self, uid: str, pin: str) -> list[str]:
        """'login ID', then the PIN on a line of its own; the cabinet's reply to the PIN (the
        session is open when it starts with 'logged in as')."""
        first = self.command("login " + uid)
        if first != [f"PIN for {uid}:"]:
            return first
        return self.command(pin)

    def setup(self, uid: str, pin: str) -> list[str]:
        """The first administrator of a fresh cabinet (the audit key must be on)."""
        first = self.command("setup " + uid)
        if not first or not first[0].startswith("new PIN"):
            return first
        self.command(pin)
        return self.command(pin)

    def close(self) -> None:
        self.port.close()


def asks_pin(reply: list[str]) -> bool:
    """The cabinet's reply asks for a PIN ('PIN for ID:', 'new PIN:', 'the same again:' ...)."""
    return bool(reply) and reply[-1].endswith(":") and ("PIN" in reply[-1] or reply[-1] == "the same again:")


def security_table(records: list[list]) -> list[str]:
    """The security log ('security json': [n, t, who, code, text] each) as lines for a person, in
    Québec's local time as the cabinet's own console shows it (firmware/localtime.py)."""
    out = [f"{'n':>5}  {'time (local)':23}  {'account':8}  {'what':8}  detail"]
    for n, t, who, code, text in records:
        out.append(f"{n:>5}  {localtime.stamp(t)}  {who:8}  {code:8}  {text}")
    return out


def _lines(raw: bytes) -> list[str]:
    text = raw.decode(errors="replace")
    return [ln for ln in text.replace("\r\n", "\n").split("\n") if ln]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.console", description=__doc__.splitlines()[0])
    ap.add_argument("url", help="pyserial URL: socket://HOST:PORT, /dev/ttyUSB0, rfc2217://...")
    ap.add_argument("--baud", type=int, default=115200)
    ap.add_argument("-c", "--command", action="append", help="run this command and exit (repeatable)")
    ap.add_argument("--user", help="log in as this account first (PIN asked, or JETON_PIN)")
    ap.add_argument("--security", action="store_true", help="show the security log and exit")
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
        if args.user:
            pin = os.environ.get("JETON_PIN") or getpass.getpass(f"PIN for {args.user}: ")
            reply = client.login(args.user, pin)
            print("\n".join(reply))
            if not reply or not reply[0].startswith("logged in as"):
                return 1
        if args.security:
            out = client.command("security json")
            try:
                records = json.loads(out[-1])
            except (ValueError, IndexError):
                print("\n".join(out), file=sys.stderr)  # e.g. refused: log in first
                return 1
            print("\n".join(security_table(records)))
            return 0
        if args.command:
            for cmd in args.command:
                try:
                    print("\n".join(client.command(cmd)))
                except ConsoleClosed as e:
                    print(e, file=sys.stderr)
                    return 1
            return 0
        print(f"connected to {args.url} — 'help' lists commands, 'security' the security log, Ctrl-D quits")
        secret = False  # the cabinet asked for a PIN: the next line is read without echo
        while True:
            try:
                line = getpass.getpass("") if secret else input("jeton> ")
            except EOFError:
                print()
                return 0
            if line.strip() or secret:
                try:
                    reply = client.command(line)
                    print("\n".join(reply))
                    secret = asks_pin(reply)
                except TimeoutError as e:
                    print(f"(no answer: {e})")
                except ConsoleClosed as e:
                    print(e, file=sys.stderr)
                    return 1
    finally:
        client.close()


if __name__ == "__main__":
    sys.exit(main())
