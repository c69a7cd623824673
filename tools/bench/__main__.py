"""`make bench`: run every tools/bench/bench_*.py module's main() in name order.

    python -m tools.bench [NAME ...]

NAME is a bench module, with or without its `bench_` prefix (`signature`, `bench_rng`); none runs
them all. Each module prints its own table; figures are ratios against a reference measured in the
same run, so they mean the same on any machine. A module's own options: `python -m
tools.bench.bench_NAME --help` (those that take any).
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
import sys

import tools.bench as pkg
from tools.progress import bar


def bench_names() -> list[str]:
    """Every bench module's short name (`rng` for bench_rng.py), in name order."""
    return sorted(m.name[6:] for m in pkgutil.iter_modules(pkg.__path__) if m.name.startswith("bench_"))


def run_one(name: str) -> int:
    """Run bench_NAME's main() with its defaults (none of the command line this process got)."""
    main = importlib.import_module(f"tools.bench.bench_{name}").main
    got = main([]) if "argv" in inspect.signature(main).parameters else main()
    return got if isinstance(got, int) else 0


def main(argv: list[str]) -> int:
    known = bench_names()
    ap = argparse.ArgumentParser(prog="python -m tools.bench", description=__doc__.split("\n\n")[0],
                                 epilog="benches: " + ", ".join(known))
    ap.add_argument("names", nargs="*", metavar="NAME", help="a bench to run (default: all of them)")
    args = ap.parse_args(argv)
    wanted = [n[6:] if n.startswith("bench_") else n for n in args.names]
    unknown = [n for n in args.names if (n[6:] if n.startswith("bench_") else n) not in known]
    if unknown:
        ap.exit(2, f"{ap.prog}: no bench {unknown[0]!r} (benches: {', '.join(known)})\n")
    names = [n for n in known if not wanted or n in wanted]
    b = bar(total=len(names), desc="bench", unit="module")  # stderr; off when not a TTY or CI=true
    failed = 0
    for name in names:
        b.set_postfix_str(name)
        print(f"== bench_{name}", flush=True)
        failed += run_one(name) != 0
        b.update(1)
    b.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
