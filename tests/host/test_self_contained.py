"""The repository is self-contained: no test reads a file outside it, no test skips because a file
is missing (a missing fixture fails the run), and docs/ names no path outside the repository.

A clone with nothing beside it must run every known-answer test: the CAVP vectors were once read
from a sibling folder, and a clone without it skipped 13 tests silently (issue 9, fault 16).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
THIS = Path(__file__).resolve()

# the sibling folder of the design notes, its name put together so that this file names no path
# outside the repository either: the guards below and their examples are built from it
SIBLING = "sha" + "red"
# a path out of the checkout: that sibling folder, the machine's own folders, or a walk above the
# repository root
OUTSIDE = re.compile(rf"\.\./{SIBLING}|(?<![\w.-]){SIBLING}/|[\"']{SIBLING}[\"']|/work/|/home/|ROOT\.parent\b")
# how a condition or a message says "this file is not there"
MISSING_FILE = re.compile(r"\bexists\(|\bis_dir\(|\bis_file\(|\bisdir\(|\bisfile\(|os\.stat\(|os\.access\(|"
                          r"not found|missing|no such file", re.I)
FILE_ERRORS = {"OSError", "FileNotFoundError", "IOError", "EnvironmentError"}


def outside_paths(text: str) -> list[str]:
    return [f"{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1) if OUTSIDE.search(line)]


def _is_skip_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
    return name in ("skip", "skipif")


def skips_on_missing_files(source: str) -> list[str]:
    """Lines of `source` where a test skips because a file or folder is absent: a skipif whose
    condition tests for a path, a skip() under an `except OSError` or an `if not path.exists()`,
    or a skip whose reason says something is missing."""
    found = []
    stack: list[tuple[ast.AST, list[ast.AST]]] = [(ast.parse(source), [])]
    while stack:
        node, parents = stack.pop()
        for child in ast.iter_child_nodes(node):
            stack.append((child, parents + [node]))
        if not _is_skip_call(node):
            continue
        text = ast.unparse(node)
        why = None
        if MISSING_FILE.search(text):
            why = "skips on a missing file"
        for p in parents:
            if isinstance(p, ast.ExceptHandler) and p.type is not None:
                elts = p.type.elts if isinstance(p.type, ast.Tuple) else [p.type]
                if {getattr(e, "id", "") for e in elts} & FILE_ERRORS:
                    why = "skips when a file cannot be opened"
            elif isinstance(p, ast.If) and MISSING_FILE.search(ast.unparse(p.test)):
                why = "skips when a path is absent"
        if why:
            found.append(f"{node.lineno}: {why}: {text}")
    return found


def _test_sources() -> list[Path]:
    return sorted(p for p in (ROOT / "tests").rglob("*") if p.is_file() and p.suffix in (".py", ".md", ".json")
                  and "node_modules" not in p.parts and "__pycache__" not in p.parts and p != THIS)


def test_no_test_reads_outside_the_repository() -> None:
    bad = {str(p.relative_to(ROOT)): hits for p in _test_sources() if (hits := outside_paths(p.read_text()))}
    assert not bad, bad


def test_no_test_skips_for_a_missing_file() -> None:
    bad = {}
    for p in _test_sources():
        if p.suffix == ".py" and (hits := skips_on_missing_files(p.read_text())):
            bad[str(p.relative_to(ROOT))] = hits
    assert not bad, bad


def test_docs_name_no_path_outside_the_repository() -> None:
    pages = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
    bad = {}
    for p in pages:
        text = p.read_text()
        hits = [f"{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1)
                if OUTSIDE.search(line) or "../" in line]
        if hits:
            bad[str(p.relative_to(ROOT))] = hits
    assert not bad, bad


def test_the_guards_catch_what_they_are_for() -> None:
    # the very code this file exists to keep out (tests/host/test_rng_cavp.py and
    # tests/device/test_rng_drbg.py before the vectors moved into tests/fixtures/)
    host = f'''
CAVP = ROOT.parent / "{SIBLING}" / "reference" / "cavp-drbg"
needs_cavp = pytest.mark.skipif(not CAVP.is_dir(), reason=f"CAVP vectors not found at {{CAVP}}")
'''
    device = f'''
CAVP_DIR = "../{SIBLING}/reference/cavp-drbg"
def cavp_cases(kind):
    try:
        os.stat(CAVP_DIR)
    except OSError:
        skip("no vectors")
'''
    assert len(outside_paths(host)) == 1 and len(outside_paths(device)) == 1
    assert len(skips_on_missing_files(host)) == 1
    assert len(skips_on_missing_files(device)) == 1
    assert outside_paths(f"The import rules of `../{SIBLING}/design.md` hold")
    # and genuine runtime skips stay allowed
    assert not skips_on_missing_files('if not MICROPYTHON:\n    skip("littlefs needs the MicroPython port")\n')
    assert not skips_on_missing_files('if period <= 0:\n    skip("CPython\'s monotonic clock does not wrap")\n')
    assert not outside_paths('CAVP_DIR = __file__.rpartition("/")[0] + "/../fixtures/cavp-drbg"')
