"""`python -m sim.fuzz --replay FILE` (README: a failure is shrunk to a file it plays again): a FILE
that is not a recorded sequence is one line and exit status 2, not a traceback (issue 23.21)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("text", [None, "", "{", '{"seed": 1}', '{"steps": [["insert_token"]]}', '{"steps": 5}'])
def test_a_file_that_is_no_recorded_sequence_is_one_line(tmp_path: Path, text: str | None) -> None:
    f = tmp_path / "fuzz-1-x.json"
    if text is not None:
        f.write_text(text)
    r = subprocess.run([sys.executable, "-m", "sim.fuzz", "--replay", str(f)], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(f"fuzz: {f}: not a recorded sequence ("), r.stderr
