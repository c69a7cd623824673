"""tools.check_device_imports: the device rooms keep the import rules of docs/architecture.md, and
the checker finds each kind of breach (so a clean report means something)."""
from __future__ import annotations

from pathlib import Path

from tools import check_device_imports as chk

ROOT = Path(__file__).resolve().parents[2]


def test_the_device_rooms_keep_the_import_rules() -> None:
    assert chk.problems(str(ROOT)) == []


def _tree(tmp_path: Path, files: dict[str, str]) -> str:
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return str(tmp_path)


def test_each_kind_of_breach_is_reported(tmp_path: Path, capsys) -> None:
    root = _tree(tmp_path, {
        "rng/a.py": "import games.engine\n",                       # rng imports nothing of ours
        "games/b.py": "from board import hal\nimport rng\n",        # games: rng only
        "board/c.py": "import firmware.ledger\nfrom board import compat\n",  # board: board only
        "firmware/d.py": "import rng, games, board\nimport sim.harness\n",   # firmware: no host room
        "firmware/e.py": "from typing import List\n",               # CPython-only module
        "firmware/f.py": "try:\n    import typing\nexcept ImportError:\n    typing = None\n",  # guarded: fine
        "games/g.py": "def f(:\n",
        # games takes of rng its scaling API and the crypto package, nothing else
        "games/h.py": "from rng import below, shuffle\nfrom rng.crypto.canon import math_hash\nimport rng.crypto\n",
        "games/i.py": "from rng import open_generator\nfrom rng.hmac_drbg import HmacDrbg\n",
    })
    assert chk.problems(root) == [
        "board/c.py:1: import firmware.ledger (board/ may not import firmware)",
        "firmware/d.py:2: import sim.harness",
        "firmware/e.py:1: import typing",
        "games/b.py:1: import board (games/ may not import board)",
        "games/g.py:1: syntax error: invalid syntax",
        "games/i.py:1: import rng (games/ takes of rng only its scaling API and rng.crypto)",
        "games/i.py:2: import rng.hmac_drbg (games/ takes of rng only its scaling API and rng.crypto)",
        "rng/a.py:1: import games.engine (rng/ may not import games)",
    ]
    assert chk.main([root]) == 1 and "rng/a.py:1" in capsys.readouterr().out
    assert chk.main([_tree(tmp_path / "ok", {"rng/x.py": "import hashlib\n"})]) == 0
