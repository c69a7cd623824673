"""python -m tools.bench's command line (issue 23.6): bench names as arguments, --help, and an
unknown name refused in one line; a module's own options never see the names given to the runner."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tools.bench", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_help_lists_the_benches_and_runs_none():
    p = bench("--help")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("usage: python -m tools.bench")
    assert "signature" in p.stdout and "rng" in p.stdout
    assert "== bench_" not in p.stdout  # nothing ran


def test_an_unknown_bench_is_one_line_and_exit_2():
    p = bench("signature", "nope")
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.count("\n") == 1 and "no bench 'nope'" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr


def test_one_bench_by_its_short_name():
    # the runner used to leave its own argv to the module: bench_signature read "signature" as its
    # N and raised ValueError
    p = bench("signature")
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr
    assert p.stdout.startswith("== bench_signature\n")
    assert "RSA-3072 PKCS#1 v1.5 verify, 200 times" in p.stdout
    assert "== bench_rng" not in p.stdout


def test_each_bench_module_answers_help_and_refuses_an_unknown_option_without_running():
    # make newcomer's sweep: bench_keno --help and bench_montecarlo --help ran the whole bench
    from tools.bench.__main__ import bench_names

    for name in bench_names():
        mod = f"tools.bench.bench_{name}"
        p = subprocess.run([sys.executable, "-m", mod, "--help"], cwd=ROOT, capture_output=True, text=True,
                           timeout=60)
        assert p.returncode == 0 and p.stdout.startswith(f"usage: python -m {mod}"), (name, p.stdout, p.stderr)
        p = subprocess.run([sys.executable, "-m", mod, "--no-such-option"], cwd=ROOT, capture_output=True,
                           text=True, timeout=60)
        assert p.returncode == 2 and "Traceback" not in p.stderr, (name, p.stderr)
        assert p.stderr.strip().splitlines()[-1].endswith("--no-such-option"), (name, p.stderr)
