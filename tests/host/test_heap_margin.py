"""tools/heap_margin.py: a device test module's heap read from its `# mp-heap:` line, and a module
run in a share of it: passing in its own heap, listed when it fails in a tenth of it."""
from __future__ import annotations

from pathlib import Path

from tools import heap_margin

ROOT = Path(__file__).resolve().parents[2]


def test_the_heap_line(tmp_path: Path) -> None:
    f = tmp_path / "test_x.py"
    f.write_text("# a module\nimport gc\n")
    assert heap_margin.heap_kb(f) == 256  # tests/conftest.py DEFAULT_HEAP
    f.write_text("# mp-heap: 768K  (why)\n")
    assert heap_margin.heap_kb(f) == 768
    f.write_text("# mp-heap: 1M\n")
    assert heap_margin.heap_kb(f) == 1024


def test_a_module_in_its_heap_and_in_a_tenth_of_it(capsys) -> None:
    mod = ROOT / "tests" / "device" / "test_sas_polls.py"  # 768K: its objects and a 68 KB NVRAM image
    assert heap_margin.main([str(mod), "--percent", "100"]) == 0
    assert heap_margin.main([str(mod), "--percent", "10"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == ["tests/device/test_sas_polls.py: fails in 10 % of its 768K", "1 modules, 1 at the edge of their heap"]


def test_a_module_marked_tight_is_listed_apart(capsys) -> None:
    assert heap_margin.tight(ROOT / "tests" / "device" / "test_games_bootmem.py")
    assert not heap_margin.tight(ROOT / "tests" / "device" / "test_sas_polls.py")
    mod = ROOT / "tests" / "device" / "test_games_ways.py"  # 144K tight: fails in 10 %
    assert heap_margin.main([str(mod), "--percent", "10"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == ["tests/device/test_games_ways.py: fails in 10 % of its 144K (tight on purpose)",
                        "1 modules, 0 at the edge of their heap"]
