"""Emulated electromechanical meters watching the panel link's "meter NAME 0|1 [MS]" lines.

The model of a meter: it counts one when its coil is released after having been energised for
at least min_on_ms (a complete stroke). A stroke shorter than that, or one cut short because
the link dropped (the cabinet lost power) while the coil was on, does not count. Pulses closer
together than min_off_ms are recorded as rate violations (a real meter would miss them, so
the test fails instead of guessing). Widths and spacings are measured on the board's clock (the
MS stamp the emulated board puts on each line), not on when the lines arrive: a busy host may
deliver a stroke's on and off together. A fresh connection first receives every output's state,
and a meter's state line also the strokes released since power-up, which a monitor plugged in
after the first pulses of a power-up (a loaded host connects late) adds: connect once a power-up. Counts persist
in the object across reconnects (a meter keeps its count through a power cut). stop() returns once the
dropped link's last line is judged, so a stroke the cut took is in `cut_names` and never mistaken for
one of the next power-up's (whose strokes the old reader must not clear).
"""
from __future__ import annotations

import threading
import time

from sim.panel_tap import PanelTap


class MeterMonitor:
    def __init__(self, port: int | None = None, min_on_ms: float = 20.0, min_off_ms: float = 20.0):
        self.min_on_ms = min_on_ms
        self.min_off_ms = min_off_ms
        self.counts: dict[str, int] = {}
        self.short = 0  # strokes too short to count
        self.cut = 0  # strokes cut by a link drop
        self.cut_names: list[str] = []  # the coils those strokes were on, oldest first
        self.violations: list[str] = []
        self._on: dict[str, float] = {}
        self._off: dict[str, float] = {}
        self._cond = threading.Condition()
        self.tap: PanelTap | None = None
        self._reader: threading.Thread | None = None
        if port is not None:
            self.connect(port)

    def connect(self, port: int) -> "MeterMonitor":
        self.stop()  # the previous power-up's reader is done before this one's lines are judged
        self.tap = PanelTap(port)
        self._seen_state: set[str] = set()
        self._reader = threading.Thread(target=self._pump, args=(self.tap,), daemon=True)
        self._reader.start()
        return self

    def _pump(self, tap: PanelTap) -> None:
        with self._cond:
            self._off.clear()  # a new power-up: spacing is measured within one clock
        for line in tap.lines():
            parts = line.split(" ")
            if len(parts) in (3, 4, 5) and parts[0] == "meter":
                # the board's stamp when it sends one (the stroke's electrical width), else arrival
                t = int(parts[3]) / 1000 if len(parts) >= 4 else time.monotonic()
                if len(parts) == 5:  # the state line on connect: the strokes released before it
                    with self._cond:
                        self.counts[parts[1]] = self.counts.get(parts[1], 0) + int(parts[4])
                        self._cond.notify_all()
                self._level(parts[1], parts[2] == "1", t)
        with self._cond:  # link dropped: a coil that was on loses power mid-stroke
            self.cut += len(self._on)
            self.cut_names.extend(sorted(self._on))
            self._on.clear()
            self._cond.notify_all()

    def _level(self, name: str, on: bool, t: float) -> None:
        with self._cond:
            self.counts.setdefault(name, 0)
            if on:
                if name in self._on:
                    return
                off = self._off.get(name)
                if off is not None and (t - off) * 1000 < self.min_off_ms * 0.9:
                    self.violations.append(f"{name}: off {1000 * (t - off):.1f} ms")
                self._on[name] = t
            else:
                t_on = self._on.pop(name, None)
                if t_on is None:
                    return  # a state line on connect, or a repeated off
                if (t - t_on) * 1000 >= self.min_on_ms * 0.9:
                    self.counts[name] += 1
                else:
                    self.short += 1
                self._off[name] = t
            self._cond.notify_all()

    def wait_for(self, name: str, count: int, timeout: float = 10.0) -> int:
        deadline = time.monotonic() + timeout
        with self._cond:
            while self.counts.get(name, 0) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
            return self.counts.get(name, 0)

    def stop(self, timeout: float = 10.0) -> None:
        if self.tap:
            self.tap.close()
        if self._reader is not None:
            self._reader.join(timeout)
            if self._reader.is_alive():
                raise RuntimeError("meter monitor: the dropped link's reader did not finish")
            self._reader = None
