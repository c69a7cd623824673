"""A fuzz sequence on disk: the file a campaign writes for each failure and `--replay` plays again.

    {"seed": S, "violation": "KIND: what was seen", "kind": "KIND",
     "steps": [["power_on", {"games": [...], ...}], ["player", {"actions": [...]}], ...]}

Each step is a rule's name and its arguments; bytes (console line noise) are written as hex with
`"bytes": true` beside them. A step whose rule has arguments added since the file was written
plays with their defaults.
"""
from __future__ import annotations

import json
from pathlib import Path


def encode(log: list) -> list:
    steps = []
    for name, kw in log:
        kw = dict(kw)
        if isinstance(kw.get("junk"), bytes):
            kw = dict(kw, junk=kw["junk"].hex(), bytes=True)
        steps.append([name, kw])
    return steps


def decode(steps: list) -> list:
    """The steps of a file as the rules take them (raises ValueError, TypeError or KeyError when
    they are not a recorded sequence)."""
    out = []
    for name, kw in steps:
        if not isinstance(name, str) or not isinstance(kw, dict):
            raise TypeError(f"a step is [rule, {{arguments}}], not {[name, kw]!r}")
        if kw.get("bytes"):
            kw = dict(kw, junk=bytes.fromhex(kw["junk"]))
        out.append([name, {k: tuple(v) if isinstance(v, list) else v for k, v in kw.items() if k != "bytes"}])
    return out


def write(out: Path, seed: int, violation: Exception, kind: str, log: list) -> Path:
    """fuzz-SEED-KIND.json in `out` (-2, -3 ... for a second failure of one kind in one run)."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"fuzz-{seed}-{kind}.json"
    n = 1
    while path.exists():
        n += 1
        path = out / f"fuzz-{seed}-{kind}-{n}.json"
    path.write_text(json.dumps({"seed": seed, "violation": str(violation)[:4000], "kind": kind,
                                "steps": encode(log)}, indent=1))
    return path


def read(path: Path) -> list:
    """The steps of a recorded sequence (OSError, ValueError, KeyError, TypeError when it is not one)."""
    rec = json.loads(Path(path).read_text())
    return decode(rec["steps"])
