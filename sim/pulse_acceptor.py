"""Emulated pulse-output coin acceptor on the panel link: real level changes on the lines
coin_pulse_1..4 ("pin coin_pulse_N 1" ... "pin coin_pulse_N 0"), timed on the host.

insert(line, width_ms): one coin on its own line (lines mode); insert_count(n, ...): one coin as
a train of n pulses on line 1 (count mode). Fault injection: glitch(line, ms) (a spike under the
glitch filter), pulse(line, ms) (any width: too short / too long), hold(line) / release(line) (a
stuck line), extra coins are just more insert() calls.
"""
from __future__ import annotations

import time

from sim.panel_tap import PanelTap


class PulseAcceptorPeer:
    def __init__(self, port: int, width_ms: float = 50.0, gap_ms: float = 50.0):
        self.tap = PanelTap(port)
        self.width_ms = width_ms
        self.gap_ms = gap_ms
        self.sent = 0

    def pulse(self, line: int = 1, ms: float | None = None) -> None:
        self.tap.send_line(f"pin coin_pulse_{line} 1")
        time.sleep((self.width_ms if ms is None else ms) / 1000)
        self.tap.send_line(f"pin coin_pulse_{line} 0")
        self.sent += 1

    def insert(self, line: int = 1, width_ms: float | None = None) -> None:
        self.pulse(line, width_ms)
        time.sleep(self.gap_ms / 1000)

    def insert_count(self, n: int, width_ms: float | None = None, gap_ms: float | None = None) -> None:
        for _ in range(n):
            self.pulse(1, width_ms)
            time.sleep((self.gap_ms if gap_ms is None else gap_ms) / 1000)

    def glitch(self, line: int = 1, ms: float = 3.0) -> None:
        self.pulse(line, ms)

    def hold(self, line: int = 1) -> None:
        self.tap.send_line(f"pin coin_pulse_{line} 1")

    def release(self, line: int = 1) -> None:
        self.tap.send_line(f"pin coin_pulse_{line} 0")

    def stop(self) -> None:
        self.tap.close()
