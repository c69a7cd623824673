"""The state table is the law (issue 22): firmware/states.py writes it as a literal a reader checks
line by line, and docs/firmware.md shows the table the code holds (tools/state_table.py writes the
block; tests/device/test_firmware_states.py reads it back and compares it with TABLE)."""
from __future__ import annotations

import ast
from pathlib import Path

from firmware import states
from tools import state_table

ROOT = Path(__file__).resolve().parent.parent.parent
SOURCE = ROOT / "firmware" / "states.py"


def test_the_docs_block_is_the_one_the_tool_writes() -> None:
    assert state_table.main(["--check"]) == 0, "docs/firmware.md is stale: run python -m tools.state_table"


def test_a_stale_page_is_found_and_rewritten_in_its_block_only(tmp_path: Path, capsys) -> None:
    page = (ROOT / "docs" / "firmware.md").read_text(encoding="utf-8")
    stale = page.replace("| `tilt` | `cashout` → cashout;", "| `tilt` | `cashout` → keep_cashout;", 1)
    assert stale != page
    doc = tmp_path / "firmware.md"
    doc.write_text(stale, encoding="utf-8")
    assert state_table.main(["--check", "--doc", str(doc)]) == 1
    assert "differs from firmware/states.py" in capsys.readouterr().err
    assert doc.read_text(encoding="utf-8") == stale  # --check writes nothing
    assert state_table.main(["--doc", str(doc)]) == 0
    assert doc.read_text(encoding="utf-8") == page  # the block put right, the rest of the page as it was


def test_a_page_without_the_block_is_an_error(tmp_path: Path, capsys) -> None:
    doc = tmp_path / "firmware.md"
    doc.write_text("# no table here\n", encoding="utf-8")
    assert state_table.main(["--check", "--doc", str(doc)]) == 2
    assert "no '<!-- state-table" in capsys.readouterr().err


def test_every_state_and_every_taken_event_has_a_row() -> None:
    rows = state_table.rows()
    assert rows[0].startswith(state_table.BEGIN) and rows[-1] == state_table.END
    body = rows[3:-1]
    assert [r.split("|")[1].strip().strip("`") for r in body] == list(states.STATES)
    assert sum(r.count(" → ") for r in body) == len(states.TABLE)


def _module_assignments(tree: ast.Module) -> dict[str, ast.expr]:
    out: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    assert target.id not in out, f"{target.id} assigned twice"
                    out[target.id] = node.value
    return out


def test_table_is_a_literal_a_reader_checks_line_by_line() -> None:
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    # no loop, no comprehension and no item assignment builds anything at module level
    for node in tree.body:
        assert not isinstance(node, (ast.For, ast.While, ast.With, ast.If)), ast.dump(node)[:80]
    for node in ast.walk(tree):
        assert not isinstance(node, (ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)), ast.dump(node)[:80]
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            assert not any(isinstance(t, ast.Subscript) for t in targets), "TABLE[...] = ... is not a literal"
    names = _module_assignments(tree)
    table = names["TABLE"]
    assert isinstance(table, ast.Dict)
    lines = set()
    for key, value in zip(table.keys, table.values):
        # (STATE, EVENT): "method", one entry a line
        assert isinstance(key, ast.Tuple) and [type(e) for e in key.elts] == [ast.Name, ast.Name], ast.dump(key)
        assert isinstance(value, ast.Constant) and isinstance(value.value, str)
        assert key.lineno not in lines, f"two entries on line {key.lineno}"
        lines.add(key.lineno)
    assert len(table.keys) == len(states.TABLE)  # no key written twice (the later would win silently)
    for name in ("STATES", "EVENTS", "MONEY_STATES", "PLAY_STATES"):
        value = names[name]
        assert isinstance(value, ast.Tuple) and all(isinstance(e, ast.Name) for e in value.elts), name
