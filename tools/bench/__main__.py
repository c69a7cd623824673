"""`make bench`: run every tools/bench/bench_*.py module's main() in name order.

Each module prints its own table; figures are ratios against a reference measured in the same run,
so they mean the same on any machine.
"""
from __future__ import annotations

import importlib
import pkgutil
import sys

import tools.bench as pkg


def main(argv: list[str]) -> int:
    wanted = set(argv)
    names = sorted(m.name for m in pkgutil.iter_modules(pkg.__path__) if m.name.startswith("bench_"))
    for name in names:
        if wanted and name not in wanted and name[6:] not in wanted:
            continue
        print(f"== {name}")
        importlib.import_module(f"tools.bench.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
