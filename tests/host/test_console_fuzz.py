"""Hypothesis drives the firmware console's line parser on both runtimes (issue 9): generated input
(printable lines, control bytes, over-long lines, bad UTF-8, backspaces, CR/LF mixes, bytes lost in
an RX overrun, split across reads anywhere) goes to the real `firmware.console.Console` under
CPython, and batches of it are replayed under MicroPython by `tests/device/console_lines.py`.

Invariants: no exception escapes; every line end gets exactly one prompt; only a well-formed line
runs a command (printable ASCII, at most 80 characters as typed, nothing lost inside it), and each
well-formed line runs exactly once, as typed after its backspace edits. The expected outcome comes
from `spec()` below, written from the rules in firmware/console.py's header, not from its code.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "device"))

from console_lines import feed  # noqa: E402  (the same feeder the MicroPython replay runs)

MICROPYTHON = ROOT / ".venv" / "bin" / "micropython"
MAX_LINE = 80


def spec(case: list) -> dict:
    """What the console must do with a case: lines run, prompts, losses reported (bytes each)."""
    ran, lost_reports = [], []
    line: list[int] = []
    bad = None
    cr = False
    lost = 0
    prompts = 0
    for item in case:
        if isinstance(item, int):  # bytes lost here: the line they fell in is broken
            bad, lost, cr = "lost", lost + item, False
            continue
        for c in bytes.fromhex(item):
            if c == 10 and cr:  # CR LF: one line end
                cr = False
                continue
            cr = c == 13
            if c in (10, 13):
                prompts += 1
                if bad is None and line:
                    ran.append(bytes(line).decode())
                if bad == "lost":
                    lost_reports.append(lost)
                    lost = 0
                line, bad = [], None
            elif bad is not None:
                continue
            elif c in (8, 127):
                line = line[:-1]
            elif not 32 <= c < 127:
                bad = "byte"
            elif len(line) >= MAX_LINE:
                bad = "long"
            else:
                line.append(c)
    return {"ran": ran, "prompts": prompts, "lost": lost_reports}


def line_ends(case: list) -> int:
    """Line ends counted straight off the wire (CR LF counts once; a loss splits a CR from an LF)."""
    wire = b"".join(b"\0" if isinstance(i, int) else bytes.fromhex(i) for i in case)
    return len(re.findall(rb"\r\n|\r|\n", wire))


printable = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=30).map(str.encode)
pieces = st.one_of(
    printable,
    printable.map(lambda b: b + b"\n"),
    st.sampled_from([b"\r", b"\n", b"\r\n", b"\n\r", b"\x08", b"\x7f", b"\x1b[A", b"\t", b"\x00"]),
    st.binary(max_size=8),  # anything: control bytes, wrong baud rate
    st.text(max_size=6).map(lambda t: t.encode("utf-8")),  # non-ASCII UTF-8
    st.sampled_from([b"\xc3\x28", b"\xff\xfe", b"\xe2\x82"]),  # bad UTF-8
    st.integers(70, 90).map(lambda n: b"x" * n),  # near and over the limit
    st.sampled_from([b"help", b"state", b"meters json", b"ramclear 2468", b"tournament start 1 9 1 30"]),
)
reads = st.lists(pieces, max_size=6).map(lambda ps: b"".join(ps).hex())
case_st = st.lists(st.one_of(reads, reads, reads, st.integers(1, 300)), max_size=12)


def check(case: list, got: dict) -> None:
    assert "exc" not in got, got
    assert got["prompts"] == line_ends(case)
    for line in got["ran"]:
        assert len(line) <= MAX_LINE and all(32 <= ord(ch) < 127 for ch in line), line
    assert got == spec(case)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case_st)
def test_console_line_parser_under_cpython(case: list) -> None:
    check(case, feed(case))


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(case_st, min_size=60, max_size=60))
def test_console_line_parser_under_micropython(tmp_path_factory, batch: list) -> None:
    path = tmp_path_factory.mktemp("console") / "batch.json"
    path.write_text(json.dumps(batch))
    env = dict(os.environ, MICROPYPATH=f".frozen:{ROOT}:{ROOT / 'tests' / 'device'}")
    run = subprocess.run([str(MICROPYTHON), "-X", "heapsize=256K", "tests/device/console_lines.py", str(path)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    results = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(results) == len(batch)
    for case, got in zip(batch, results):
        check(case, got)
