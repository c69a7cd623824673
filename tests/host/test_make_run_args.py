"""`make run`'s variables reach `python -m sim.cabinet` (issue 23, the docs' commands run as written).
README's `make run JURIS=vlt` then `validation set ID` left the VLT in a `link` tilt for good: it
waits for its central system's polls on the SAS line, and nothing polls the emulated one. `SAS=no`
runs it without the line (`--no-sas`: docs/sas.md "Running it"), and a plain `make run` keeps it."""
from __future__ import annotations

import shlex
import subprocess

from sim.harness import ROOT


def run_args(*variables: str) -> list[str]:
    """The arguments `make run VAR=...` gives sim.cabinet (make -n: printed, not run)."""
    out = subprocess.run(["make", "-n", "run", *variables], cwd=ROOT, capture_output=True, text=True,
                         check=True, timeout=60).stdout
    line = next(x for x in out.splitlines() if "-m sim.cabinet" in x)
    return shlex.split(line.split("-m sim.cabinet", 1)[1])


def test_sas_no_runs_the_cabinet_without_its_sas_line() -> None:
    assert run_args("JURIS=vlt", "SAS=no") == ["--profile", "emulated", "--jurisdiction", "vlt", "--no-sas"]
    assert run_args("SAS=no") == ["--profile", "emulated", "--no-sas"]


def test_without_sas_no_the_line_is_there() -> None:
    assert run_args("JURIS=vlt") == ["--profile", "emulated", "--jurisdiction", "vlt"]
    assert run_args() == ["--profile", "emulated"]
    assert "--no-sas" not in run_args("SAS=yes")
