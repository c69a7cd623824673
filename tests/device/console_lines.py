# Feeds input to the real firmware Console over a fake UART and reports what ran. Shared by the
# device tests (both runtimes) and the host's Hypothesis test, which replays its generated batches
# under MicroPython by running this file:  micropython tests/device/console_lines.py BATCH.json
#
# A case is a list of items: a str of hex digits is bytes arriving on the wire (the console is
# serviced after each), an int is that many bytes the UART lost at that point (an RX overrun, told
# through take_overrun() as the emulated board's UART tells it).
import json
import sys

from firmware.console import PROMPT, Console


class Uart:
    """Fake UART: rx holds bytes and loss marks; readinto stops at a mark, take_overrun takes it."""

    def __init__(self):
        self.rx = []  # bytes items and int loss marks
        self.tx = bytearray()

    def readinto(self, buf):
        rx = self.rx
        while rx and not isinstance(rx[0], int) and not rx[0]:
            rx.pop(0)
        if not rx or isinstance(rx[0], int):
            return None
        n = min(len(buf), len(rx[0]))
        buf[:n] = rx[0][:n]
        rx[0] = rx[0][n:]
        return n

    def take_overrun(self):
        if self.rx and isinstance(self.rx[0], int):
            return self.rx.pop(0)
        return 0

    def write(self, data):
        self.tx += data
        return len(data)


class _Board:
    def ticks_ms(self):
        return 0


class _Cabinet:
    board = _Board()


def console(uart=None):
    """A Console whose every command is a stub, open to all (the line discipline is under test here;
    access is test_firmware_access.py's): (console, lines it ran)."""
    con = Console(uart or Uart(), _Cabinet())
    con._allowed = lambda words: None
    ran = []
    execute = con.execute

    def recording(line):
        ran.append(line)
        execute(line)

    con.execute = recording
    for name in con.commands:
        con.commands[name] = (lambda args: None, "")
    return con, ran


def feed(case):
    """Run one case; {"ran": [lines run], "prompts": n, "lost": [bytes the console said it lost]}
    or {"exc": "..."} when an exception escaped."""
    con, ran = console()
    try:
        for item in case:
            con.uart.rx.append(item if isinstance(item, int) else bytes(bytearray.fromhex(item)))
            con.service()
    except Exception as e:  # noqa: BLE001  the invariant under test is that none escapes
        return {"exc": "%s: %s" % (type(e).__name__, e)}
    out = bytes(con.uart.tx)
    lost = []
    for line in out.split(b"\r\n"):
        if line.replace(PROMPT, b"").startswith(b"error: input lost ("):
            lost.append(int(line.split(b"(")[1].split(b" ")[0]))
    return {"ran": ran, "prompts": out.count(PROMPT), "lost": lost}


def main(path):
    with open(path) as f:
        cases = json.load(f)
    for case in cases:
        print(json.dumps(feed(case)))


if __name__ == "__main__" and len(getattr(sys, "argv", ())) > 1:
    main(sys.argv[1])
