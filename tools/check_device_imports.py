"""List imports in device code (rng/ games/ board/ firmware/) that a MicroPython board lacks, that
reach host-only rooms, or that break the rooms' import rules (docs/architecture.md); imports
guarded by `try: ... except ImportError` are ignored.

    python -m tools.check_device_imports [ROOT]     (exit 1 when something is found)

Source: the project's design-time checker (shared with the design notes, outside this repository),
copied here so the repository checks itself; added: the room rules (ROOM_MAY_IMPORT), games' share
of rng (GAMES_FROM_RNG, GAMES_RNG_PACKAGES) and `tests/host/test_device_imports.py`, which runs it on
every test run.
"""
from __future__ import annotations

import ast
import os
import sys

DEVICE = ("rng", "games", "board", "firmware")
HOST_ROOMS = {"sim", "tools", "tests", "central"}
# which of our device rooms each device room may import (docs/architecture.md)
ROOM_MAY_IMPORT = {
    "rng": set(),
    "games": {"rng"},
    "board": set(),
    "firmware": {"rng", "games", "board"},
}
# games/ takes of rng/ its scaling API (rng/__init__.py: what every outcome comes through) and the
# crypto package, whose canonical hashing binds a model to its certificate (docs/architecture.md)
GAMES_FROM_RNG = {"below", "weighted", "shuffle", "deal"}
GAMES_RNG_PACKAGES = ("rng.crypto",)
CPYTHON_ONLY = {
    "typing", "dataclasses", "fractions", "enum", "abc", "pathlib", "logging", "itertools",
    "functools", "numpy", "serial", "cryptography", "decimal", "statistics", "secrets",
    "threading", "subprocess", "multiprocessing", "hmac", "contextlib", "copy", "inspect",
}


def guarded(parents: list[ast.AST]) -> bool:
    for p in parents:
        if isinstance(p, ast.Try):
            for h in p.handlers:
                if h.type is None:
                    return True
                elts = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
                names = [getattr(e, "id", "") for e in elts]
                if "ImportError" in names or "Exception" in names:
                    return True
    return False


def walk(tree: ast.AST):
    stack: list[tuple[ast.AST, list[ast.AST]]] = [(tree, [])]
    while stack:
        node, parents = stack.pop()
        yield node, parents
        for child in ast.iter_child_nodes(node):
            stack.append((child, parents + [node]))


def problems(root: str) -> list[str]:
    found = []
    for room in DEVICE:
        for dirpath, _, files in os.walk(os.path.join(root, room)):
            for name in files:
                if not name.endswith(".py"):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                try:
                    with open(path, encoding="utf-8") as f:
                        tree = ast.parse(f.read(), path)
                except SyntaxError as e:
                    found.append(f"{rel}:{e.lineno}: syntax error: {e.msg}")
                    continue
                for node, parents in walk(tree):
                    mods = []
                    if isinstance(node, ast.Import):
                        mods = [a.name for a in node.names]
                    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                        mods = [node.module]
                    for m in mods:
                        top = m.split(".")[0]
                        if top == "__future__":
                            continue
                        if (top in HOST_ROOMS or top in CPYTHON_ONLY) and not guarded(parents):
                            found.append(f"{rel}:{node.lineno}: import {m}")
                        elif top in ROOM_MAY_IMPORT and top != room and top not in ROOM_MAY_IMPORT[room]:
                            # a room rule is never excused by a try/except: the import is there
                            found.append(f"{rel}:{node.lineno}: import {m} ({room}/ may not import {top})")
                        elif room == "games" and top == "rng" and not _games_may_take(node, m):
                            found.append(f"{rel}:{node.lineno}: import {m} (games/ takes of rng only its scaling API"
                                         " and rng.crypto)")
    return sorted(found)


def _games_may_take(node: ast.AST, module: str) -> bool:
    if module == "rng":  # the package itself: `import rng`, or its scaling functions by name
        return not isinstance(node, ast.ImportFrom) or {a.name for a in node.names} <= GAMES_FROM_RNG
    return any(module == p or module.startswith(p + ".") for p in GAMES_RNG_PACKAGES)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    found = problems(args[0] if args else ".")
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
