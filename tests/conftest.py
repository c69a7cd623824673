"""Runs every device test module (tests/device/test_*.py) a second time under the MicroPython
unix port with a fixed heap; each test function there shows up as `test_name[micropython]`.

A module may ask for another heap with a line `# mp-heap: 512K`; the default is the firmware's
own 256K. MicroPython runs one process per module and reports each test through tests/mprun.py.
"""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEVICE_DIR = ROOT / "tests" / "device"
MICROPYTHON = ROOT / ".venv" / "bin" / "micropython"
DEFAULT_HEAP = "256K"
TIMEOUT_S = 900

sys.path.insert(0, str(ROOT / "tests"))


def micropython_env() -> dict[str, str]:
    env = dict(os.environ)
    env["MICROPYPATH"] = ".frozen:" + str(ROOT)
    return env


def pytest_collection_modifyitems(session, config, items):
    """The heaviest test files first (tests/weights.json, tools/suite_weights.py): with one file per
    worker, a long file collected last would run alone at the end while the other core idles."""
    from tools.suite_weights import heaviest_first, load

    order = heaviest_first([item.nodeid for item in items], load())
    items[:] = [items[i] for i in order]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing test's report ends with the last lines of each firmware it started: a cabinet
    test that times out on CI says what the cabinet printed (a restart, a tilt, a traceback)."""
    outcome = yield
    harness = sys.modules.get("sim.harness")
    if harness is None:
        return
    report = outcome.get_result()
    if report.failed:
        for n, fw in enumerate(harness.STARTED[-4:]):
            lines = fw.lines
            # each traceback it printed (a restart's cause) with the line after it, then its last lines
            starts = [i for i, ln in enumerate(lines[:-40]) if ln.startswith("Traceback")]
            told = [ln for i in starts[:3] for ln in lines[i:i + 16]]
            report.sections.append((f"firmware {n}: its last lines", "\n".join(told + ["..."] * bool(told) + lines[-40:])))
    if call.when == "teardown":
        harness.STARTED.clear()


def pytest_collect_file(parent, file_path: Path):
    if (
        file_path.suffix == ".py"
        and file_path.name.startswith("test_")
        and file_path.parent == DEVICE_DIR
    ):
        return MicroPythonFile.from_parent(parent, path=file_path)
    return None


class MicroPythonFile(pytest.File):
    """The same module, run by the unix port; one process for all its tests."""

    results: dict[str, tuple[str, str]] | None = None
    output: str = ""

    def collect(self):
        tree = ast.parse(self.path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                yield MicroPythonItem.from_parent(self, name=f"{node.name}[micropython]", func=node.name)

    def heap(self) -> str:
        m = re.search(r"^# mp-heap: (\S+)", self.path.read_text(encoding="utf-8"), re.M)
        return m.group(1) if m else DEFAULT_HEAP

    def run_once(self) -> dict[str, tuple[str, str]]:
        if self.results is not None:
            return self.results
        rel = self.path.relative_to(ROOT).as_posix()
        cmd = [str(MICROPYTHON), "-X", f"heapsize={self.heap()}", "tests/mprun.py", rel]
        try:
            proc = subprocess.run(
                cmd, cwd=ROOT, env=micropython_env(), capture_output=True, text=True, timeout=TIMEOUT_S
            )
            out = proc.stdout + proc.stderr
        except subprocess.TimeoutExpired as e:
            out = f"timeout after {TIMEOUT_S}s\n{e.stdout or ''}"
        results: dict[str, tuple[str, str]] = {}
        current = None
        buf: list[str] = []
        for line in out.splitlines():
            if line.startswith("@@MP "):
                parts = line.split(" ", 4)
                kind, name = parts[1], parts[2] if len(parts) > 2 else ""
                if kind == "FAIL":
                    current, buf = name, []
                elif kind == "END" and current:
                    results[current] = ("FAIL", "\n".join(buf))
                    current = None
                elif kind in ("PASS", "SKIP"):
                    results[name] = (kind, parts[4] if len(parts) > 4 else parts[3])
            elif current:
                buf.append(line)
        self.results = results
        self.output = out
        return results


class MicroPythonItem(pytest.Item):
    def __init__(self, *, func: str, **kw):
        super().__init__(**kw)
        self.func = func

    def runtest(self):
        parent: MicroPythonFile = self.parent  # type: ignore[assignment]
        res = parent.run_once().get(self.func)
        if res is None:
            raise MicroPythonFailure(f"no result from MicroPython for {self.func}:\n{parent.output[-4000:]}")
        kind, detail = res
        if kind == "SKIP":
            pytest.skip(detail)
        if kind == "FAIL":
            raise MicroPythonFailure(detail)
        self.user_properties.append(("mp_heap_peak_bytes", detail))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, MicroPythonFailure):
            return f"MicroPython (heap {self.parent.heap()}):\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"{self.path.name}::{self.name}"


class MicroPythonFailure(Exception):
    pass
