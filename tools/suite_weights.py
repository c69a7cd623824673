"""The test suite's per-file weights (tests/weights.json): the seconds each test file took in one
`make test` run, read from that run's JUnit XML, and the order tests/conftest.py gives the files.

`make test` keeps each file on one worker (--dist loadfile) and a worker takes the next file from
the queue when it runs low, so a long file that starts last runs alone at the end while the other
core idles. Heaviest first (the longest-processing-time rule) keeps both cores busy to the end.
The weights only order the queue: a stale or missing table changes how long the run takes, never
what it runs.

    make test PYTEST_ADDOPTS=--junitxml=var/junit.xml
    .venv/bin/python -m tools.suite_weights var/junit.xml      # rewrites tests/weights.json
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS = ROOT / "tests" / "weights.json"


def file_of(nodeid: str) -> str:
    """tests/host/test_x.py of tests/host/test_x.py::test_y[param]."""
    return nodeid.split("::", 1)[0]


def weights_from_junit(xml_text: str) -> dict[str, float]:
    """Seconds per test file (setup, call and teardown of each of its tests), from JUnit XML.
    A testcase's classname is the module's dotted path, with a class name after it for tests in a
    class: tests.host.test_x or tests.host.test_x.TestY."""
    out: dict[str, float] = {}
    for case in ET.fromstring(xml_text).iter("testcase"):
        parts = case.get("classname", "").split(".")
        if len(parts) < 3 or not parts[2].startswith("test_"):
            raise ValueError(f"a testcase outside tests/<room>/test_*.py: {case.get('classname')!r}")
        path = "/".join(parts[:3]) + ".py"
        out[path] = out.get(path, 0.0) + float(case.get("time") or 0.0)
    return {path: round(seconds, 1) for path, seconds in sorted(out.items())}


def heaviest_first(nodeids: Sequence[str], weights: dict[str, float]) -> list[int]:
    """Indexes of nodeids with their files heaviest first; a file's own tests keep their order, and a
    file the table does not know (new since it was measured) weighs the table's median."""
    default = statistics.median(weights.values()) if weights else 0.0
    return sorted(range(len(nodeids)), key=lambda i: -weights.get(file_of(nodeids[i]), default))


def load(path: Path = WEIGHTS) -> dict[str, float]:
    """The table, or {} (collection order kept) when it is missing or unreadable."""
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {k: float(v) for k, v in table.items() if isinstance(k, str) and isinstance(v, (int, float))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.suite_weights", description=__doc__.split("\n\n")[0])
    ap.add_argument("junit", type=Path, help="the JUnit XML of one whole `make test` run")
    ap.add_argument("--out", type=Path, default=WEIGHTS, help="default: tests/weights.json")
    args = ap.parse_args(argv)
    try:
        weights = weights_from_junit(args.junit.read_text(encoding="utf-8"))
    except (OSError, ET.ParseError, ValueError) as e:
        print(f"suite_weights: {args.junit}: {e}", file=sys.stderr)
        return 2
    args.out.write_text(json.dumps(weights, indent=1) + "\n", encoding="utf-8")
    total = sum(weights.values())
    print(f"{len(weights)} files, {total:.0f} s of tests; heaviest: "
          + ", ".join(f"{p} {s:.0f} s" for p, s in sorted(weights.items(), key=lambda kv: -kv[1])[:3]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
