"""Each device room keeps one table of the imports it makes on first use (issue 24.5: "lazy imports
sit in one table per room"), in its package's __init__.py, as a comment: it costs no heap (a table
in code would be a global of a package every module imports). This keeps the tables true: every
import made inside a function of a room names a module of its table, every module of a table is
imported so somewhere in the room, and no module of the room imports it at its top (it would not be
lazy then). An import at the top of a module is the rule; a function-level import is the exception
that the table explains: a module imported on first use ("import"), or one loaded anyway that a
module staying in the heap binds in a function to keep a global out of it ("bound")."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROOMS = ("rng", "games", "board", "firmware")
ENTRY = re.compile(r"^#   import ([A-Za-z_][\w.]*)\s{2,}\S")


def table(room: str, root: Path = ROOT) -> set[str]:
    """The modules a room imports on first use ("#   import MODULE  why")."""
    return {m.group(1) for line in (root / room / "__init__.py").read_text().splitlines()
            if (m := ENTRY.match(line))}


def bound(room: str, root: Path = ROOT) -> set[str]:
    """The modules loaded anyway that a room binds in a function, not at the top of a long-lived
    module, to keep a global out of the heap ("#   bound MODULE ...")."""
    return {name for line in (root / room / "__init__.py").read_text().splitlines()
            if line.startswith("#   bound ") for name in line.split()[2:]}


def _target(module: str, name: str, root: Path) -> str:
    """`from module import name`: the submodule when name is one, else the module."""
    sub = root / Path(*f"{module}.{name}".split("."))
    return f"{module}.{name}" if sub.with_suffix(".py").is_file() or sub.is_dir() else module


def imports(room: str, root: Path = ROOT) -> list[tuple[str, int, str, bool]]:
    """(file, line, module imported, inside a function) of every absolute import in the room."""
    out = []
    for path in sorted((root / room).rglob("*.py")):
        rel = path.relative_to(root).as_posix()

        def visit(node: ast.AST, in_function: bool) -> None:
            for child in ast.iter_child_nodes(node):
                inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                if isinstance(child, ast.Import):
                    out.extend((rel, child.lineno, a.name, in_function) for a in child.names)
                elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                    out.extend((rel, child.lineno, t, in_function)
                               for t in sorted({_target(child.module, a.name, root) for a in child.names}))
                visit(child, inner)

        visit(ast.parse(path.read_text(), rel), False)
    return out


def _module(rel: str) -> str:
    name = rel[:-3].replace("/", ".")
    return name[:-9] if name.endswith(".__init__") else name


@pytest.mark.parametrize("room", ROOMS)
def test_every_import_in_a_function_is_in_its_rooms_table(room: str) -> None:
    lazy, kept = table(room), bound(room)
    assert lazy, f"{room}/__init__.py has no table"
    found = imports(room)
    unlisted = [f"{f}:{n}: {m}" for f, n, m, inside in found if inside and m not in lazy | kept]
    assert not unlisted, f"imported in a function but not in {room}/__init__.py's table: {unlisted}"
    used = {m for _, _, m, inside in found if inside}
    stale = sorted((lazy | kept) - used)
    assert not stale, f"in {room}/__init__.py's table, imported in no function: {stale}"
    eager = [f"{f}:{n}: {m}" for f, n, m, inside in found
             if not inside and m in lazy and _module(f) not in lazy]  # a lazy module's own imports are lazy
    assert not eager, f"in {room}/__init__.py's table but imported at the top of a module: {eager}"


def test_a_breach_of_each_kind_is_found(tmp_path: Path) -> None:
    room = tmp_path / "firmware"
    room.mkdir()
    (room / "__init__.py").write_text("#   import firmware.late   a reason\n#   import firmware.stale  a reason\n"
                                      "#   bound gc sys\n")
    (room / "late.py").write_text("")
    (room / "stale.py").write_text("")
    (room / "a.py").write_text("import gc\nfrom firmware import late\n\n\ndef f():\n    import sys\n"
                               "    from firmware import late\n")
    assert table("firmware", tmp_path) == {"firmware.late", "firmware.stale"}
    assert bound("firmware", tmp_path) == {"gc", "sys"}
    found = imports("firmware", tmp_path)
    assert ("firmware/a.py", 6, "sys", True) in found  # a function-level import not in the table
    assert ("firmware/a.py", 2, "firmware.late", False) in found  # a listed one imported at the top
    assert ("firmware/a.py", 7, "firmware.late", True) in found
    assert not any(m == "firmware.stale" for _, _, m, _ in found)  # a listed one imported nowhere
