"""One release (tools.release, the whole of `make release`: four images and every shipped game's PAR
sheet, three minutes of a core) built once per test session for the test files that read one
(test_release, test_verify, test_e2e_software), each of which gets its own copy to change.

Under pytest-xdist every worker is a process of its own: the first to ask builds the release under a
lock in the session's shared temporary root, the others wait for it there and copy it. It is built
with SOURCE_DATE_EPOCH set, as a build system does, so every file carries that date (test_release
checks it, and that a second build is the same bytes)."""
from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path

import pytest

from tools import release

EPOCH = "1764115200"  # 2025-11-26 00:00:00 UTC


def build(out: Path) -> Path:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SOURCE_DATE_EPOCH", EPOCH)
        return release.release(out=out)


def release_copy(factory: pytest.TempPathFactory, name: str) -> Path:
    """A copy of the session's release in a fresh temporary folder of this test file's (name)."""
    base = factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    built = shared / "release-once"
    with open(shared / "release-once.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # held while the first worker builds; the others wait here
        done = built / "done"
        if not done.exists():
            rel = build(built / "out")
            done.write_text(rel.name)
        rel = built / "out" / done.read_text()
    dest = factory.mktemp(name) / rel.name
    shutil.copytree(rel, dest)  # copy2 and copystat: the files' and folders' dates come along
    return dest
