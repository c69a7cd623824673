"""Benchmarks (`make bench`); each module reports ratios against a reference measured in the same run."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def cli(doc: str | None, prog: str, argv: list[str] | None = None, **extra: dict) -> argparse.Namespace:
    """A bench's command line: `--help` says what it measures (the module's docstring) and an
    unknown argument is refused in one line, instead of either running the whole bench. extra:
    option name -> add_argument keywords, for the few that take any."""
    ap = argparse.ArgumentParser(prog=prog, description=(doc or "").split("\n\n")[0])
    for name, kw in extra.items():
        ap.add_argument(name, **kw)
    return ap.parse_args(argv)


# A 31-bit LCG standing in for the DRBG in the device scripts (the engines' own cost, not the RNG's)
LCG_SOURCE = """class G:
    def __init__(self): self.x = 12345
    def randbits(self, k):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 7) & ((1 << k) - 1)
"""


def run_script(binary: Path, script: str, heap: str, micropypath: str, timeout: float) -> dict | None:
    """Run `script` under a MicroPython binary with a fixed heap; the dict it prints after "BENCH ",
    or None (what it printed is shown) when the binary is missing or the script gave none."""
    if not binary.exists():
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(script)
        path = f.name
    try:
        env = dict(os.environ, MICROPYPATH=micropypath)
        p = subprocess.run([str(binary), "-X", f"heapsize={heap}", path], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=timeout)
    finally:
        os.unlink(path)
    if "BENCH " not in p.stdout:
        print(p.stdout + p.stderr)
        return None
    return json.loads(p.stdout.split("BENCH ", 1)[1])
