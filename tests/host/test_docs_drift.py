"""Docs that cannot drift (issue 24.6): what a page says the code holds is checked against the code.

- A figure the code computes is written into the page by code (tools/doc_block.py: the NVRAM map
  by tools/nvram_map.py, the state table by tools/state_table.py, test_state_table.py) and a stale
  page fails here, naming the command that puts it right.
- Every file a page names (`room/file.py`, `docs/page.md`, `room/module` for a module) exists, every
  `python -m MODULE` and `make TARGET` it tells a reader to run exists, and every constant it cites by name (`NAME`,
  `module.NAME`) is still named in the code: a renamed file or constant fails here, not a reader.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools import nvram_map

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
ROOMS = ("firmware", "board", "rng", "games", "sim", "tools", "central", "tests", "docs", "manifests", "mk", ".ci")
TICK = re.compile(r"`([^`\n]+)`")
PATH = re.compile(r"^((?:%s)/[\w./*-]*)(?::[\w:\[\]-]+)?$" % "|".join(re.escape(r) for r in ROOMS))
CONST = re.compile(r"^(?:[a-z_][\w.]*\.)?([A-Z][A-Z0-9_]{2,})$")
MAKE = re.compile(r"^make ([a-z][\w-]*)(?:\s|$)")
TARGET = re.compile(r"^([a-z][\w -]*):(?!=)", re.M)
RUN = re.compile(r"python3? -m ((?:%s)\.[\w.]+|(?:%s)\b)" % ("|".join(ROOMS[:7]), "|".join(ROOMS[:7])))

# named on a page but not files of this repository, each for a stated reason
NOT_OURS = {
    "tools/manifestfile.py": "MicroPython's own manifest reader, in its tree (docs/build.md says so)",
    "firmware/micropython-unix": "the built image (make firmware), not a source",
    "firmware/qemu-mps2-an385.elf": "the built Cortex-M3 image (make firmware-arm)",
    "games/floor.mpy": "a compiled module of a frozen image, as the page's tamper example",
    "board/qemu_mps2.py": "a profile the page says would be needed, not one that exists",
    "games/models/ID.json": "a pattern: ID is a model's id",
}


def _code_text() -> str:
    """Every file a constant may be defined or read in: Python, make files, manifests, CI."""
    files = [p for p in ROOT.rglob("*") if p.is_file() and ".venv" not in p.parts and "var" not in p.parts
             and (p.suffix in (".py", ".mk", ".toml", ".json") or p.name in ("Makefile", "run"))]
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in files)


def _named(kind: str) -> list[tuple[str, int, str]]:
    out = []
    for page in PAGES:
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            where = page.relative_to(ROOT).as_posix()
            if kind == "run":
                out.extend((where, n, m) for m in RUN.findall(line))
                continue
            for t in TICK.findall(line):
                m = {"path": PATH, "const": CONST, "make": MAKE}[kind].match(t.strip())
                if m:
                    out.append((where, n, m.group(1)))
    return out


def test_the_nvram_map_is_the_one_the_code_places() -> None:
    assert nvram_map.main(["--check"]) == 0, "docs/nvram.md is stale: run python -m tools.nvram_map"


def test_a_stale_nvram_map_is_found_and_rewritten_in_its_block_only(tmp_path: Path, capsys) -> None:
    page = (ROOT / "docs" / "nvram.md").read_text(encoding="utf-8")
    stale = page.replace("| `state` 3,", "| `state` 2,", 1)
    assert stale != page, "the map's books row names no state block"
    doc = tmp_path / "nvram.md"
    doc.write_text(stale, encoding="utf-8")
    assert nvram_map.main(["--check", "--doc", str(doc)]) == 1
    assert "run python -m tools.nvram_map" in capsys.readouterr().err
    assert doc.read_text(encoding="utf-8") == stale
    assert nvram_map.main(["--doc", str(doc)]) == 0
    assert doc.read_text(encoding="utf-8") == page


def test_the_map_places_the_memories_without_overlap_inside_the_part() -> None:
    rows = [r for r in nvram_map.rows() if r.startswith("| ") and " – " in r]
    spans = [tuple(int(x.replace(",", "")) for x in re.findall(r"[\d,]+", r.split("|")[1])[:2]) for r in rows]
    assert spans[0][0] == 0 and spans[-1][1] == nvram_map.NVRAM_SIZE - 1
    assert all(a[1] + 1 == b[0] for a, b in zip(spans, spans[1:])), spans  # contiguous: free rows fill the gaps


def _targets() -> set[str]:
    makefiles = [ROOT / "Makefile", *sorted((ROOT / "mk").glob("*.mk"))]
    return {t for f in makefiles for m in TARGET.findall(f.read_text(encoding="utf-8")) for t in m.split()}


@pytest.mark.parametrize("kind", ["path", "const", "run", "make"])
def test_what_a_page_names_exists(kind: str) -> None:
    code = _code_text() if kind == "const" else ""
    targets = _targets() if kind == "make" else set()
    missing = []
    for where, n, name in _named(kind):
        if kind == "path":
            path = name.rstrip("/")
            ok = (path in NOT_OURS or any(ROOT.glob(path)) if "*" in path else
                  path in NOT_OURS or (ROOT / path).exists() or (ROOT / path).with_suffix(".py").exists())
        elif kind == "const":
            ok = re.search(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])|\\n%s\b" % (name, name), code) is not None
        elif kind == "make":
            ok = name in targets
        else:
            mod = ROOT / name.replace(".", "/")
            ok = mod.with_suffix(".py").exists() or (mod / "__main__.py").exists()
        if not ok:
            missing.append(f"{where}:{n}: {name}")
    assert not missing, f"named in the docs but not in the repository: {missing}"
