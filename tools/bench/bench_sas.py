"""SAS poll latency on the emulated board: the firmware image (make firmware) booted with its SAS
line, a pseudo-terminal, polled by the project's host (sim/sas_host.py).

    python -m tools.bench.bench_sas [--polls N]

Each poll is timed from its first byte written to its reply's last byte read, N times: the general
poll (an exception code), and long polls of each type: 1A credits and 1F, 54 (type R), 2F selected
meters (type M: the eight the central system's site controller reads every few seconds,
central/sas_reads.py SNAPSHOT_CODES). The reference measured in the same run is
the same host code against a responder of the bench's own on a pseudo-terminal of its own (a thread
that answers each poll at once with a reply of the same length): what the pty and the host cost,
so the firmware's share is the difference and the ratio. SAS 6.02 s. 2.3.2 gives the machine 20 ms
to start its reply (board/sas_link.py); the slowest poll is reported beside it. The firmware's main
loop also runs the game, the console and the peripherals between two services of the link.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable

from central.sas_reads import SNAPSHOT_CODES
from sim.harness import EmulatedCabinet
from sim.sas_host import SasHost, crc

POLLS = 500
WINDOW_MS = 20  # SAS 6.02 s. 2.3.2: the machine starts its reply within 20 ms
METERS_2F = b"\x00\x00" + bytes(code for _, code in SNAPSHOT_CODES)  # game 0 (the machine), then the codes


def _polls(h: SasHost) -> list[tuple[str, Callable[[], object]]]:
    return [
        ("general poll", h.general_poll),
        ("1A credits (R)", lambda: h.checked(0x1A, 8)),
        ("1F game config (R)", lambda: h.checked(0x1F, 24)),
        ("54 version (R)", lambda: h.checked(0x54, 20)),
        (f"2F {len(SNAPSHOT_CODES)} meters (M)", lambda: h.variable(0x2F, METERS_2F, multi=True)),
    ]


class Responder:
    """The reference: answers each poll on its own pty at once with a reply as long as the
    firmware's (a general poll: one byte 00; 1A 8 bytes, 1F 24, 54 20; 2F 4 BCD bytes a meter)."""

    LENGTHS = {0x1A: 8, 0x1F: 24, 0x54: 20}

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.stop = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _reply(self, msg: bytes) -> bytes:
        if len(msg) == 1:
            return b"\x00"
        if msg[1] == 0x2F:  # game number, then each code with its 4 BCD bytes
            n = msg[2] - 2
            body = bytes([msg[0], 0x2F, 2 + 5 * n, 0x00, 0x00]) + b"".join(bytes([c]) + bytes(4) for c in msg[5:5 + n])
            return body + crc(body)
        body = bytes([msg[0], msg[1]]) + bytes(self.LENGTHS[msg[1]] - 4)
        return body + crc(body)

    def _run(self) -> None:
        buf = b""
        while not self.stop:
            try:
                buf += os.read(self.master, 256)
            except OSError:
                return
            while buf:
                need = 1 if buf[0] & 0x80 else (3 + buf[2] + 2 if len(buf) > 2 and buf[1] == 0x2F else 2)
                if len(buf) < need:
                    break
                os.write(self.master, self._reply(buf[:need]))
                buf = buf[need:]

    def close(self) -> None:
        self.stop = True
        for fd in (self.slave, self.master):
            os.close(fd)


def measure(h: SasHost, polls: int) -> dict[str, list[float]]:
    """Each poll's times in ms, the kinds interleaved (what one kind leaves behind weighs on the next)."""
    kinds = _polls(h)
    times: dict[str, list[float]] = {name: [] for name, _ in kinds}
    for _ in range(polls):
        for name, poll in kinds:
            t = time.perf_counter()
            if poll() is None:
                raise TimeoutError(f"{name}: no answer")
            times[name].append((time.perf_counter() - t) * 1000)
    return times


def _p99(xs: list[float]) -> float:
    return sorted(xs)[max(0, int(len(xs) * 0.99) - 1)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.bench.bench_sas", description=__doc__.split("\n\n")[0])
    ap.add_argument("--polls", type=int, default=POLLS, help=f"of each kind (default {POLLS})")
    a = ap.parse_args([] if argv is None else argv)
    ref = Responder()
    host = SasHost(ref.path)
    try:
        base = measure(host, a.polls)
    finally:
        host.close()
        ref.close()
    with tempfile.TemporaryDirectory() as d:
        cab = EmulatedCabinet(d, sas=True).boot()
        try:
            host = SasHost(cab.sas_path)
            host.sync()
            host.exceptions()  # the power-up's, reported before the figures
            fw = measure(host, a.polls)
            host.close()
        finally:
            cab.shutdown()
            cab.close_sas()
    print(f"SAS polls on the emulated board, {a.polls} of each (ms, first byte sent to last byte read); "
          f"reference: a responder of the bench's own on a pty")
    print(f"{'poll':<20} {'median':>7} {'p99':>7} {'max':>7} {'ref med':>8} {'x ref':>6} {'over ' + str(WINDOW_MS) + ' ms':>11}")
    for name, xs in fw.items():
        med, ref_med = statistics.median(xs), statistics.median(base[name])
        over = sum(x > WINDOW_MS for x in xs)
        print(f"{name:<20} {med:>7.2f} {_p99(xs):>7.2f} {max(xs):>7.2f} {ref_med:>8.3f} {med / ref_med:>6.1f} {over:>11}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
