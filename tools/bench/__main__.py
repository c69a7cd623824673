"""`make bench`: run every tools/bench/bench_*.py module's main() in name order.

Each module prints its own table; figures are ratios against a reference measured in the same run,
so they mean the same on any machine.
"""
from __future__ import annotations

import importlib
import pkgutil
import sys

import tools.bench as pkg
from tools.progress import bar


def main(argv: list[str]) -> int:
    wanted = set(argv)
    names = sorted(m.name for m in pkgutil.iter_modules(pkg.__path__) if m.name.startswith("bench_"))
    names = [n for n in names if not wanted or n in wanted or n[6:] in wanted]
    b = bar(total=len(names), desc="bench", unit="module")  # stderr; off when not a TTY or CI=true
    for name in names:
        b.set_postfix_str(name)
        print(f"== {name}", flush=True)
        importlib.import_module(f"tools.bench.{name}").main()
        b.update(1)
    b.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
