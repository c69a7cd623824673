"""python -m tools.par's command line (issues 23.7, 23.8): a game id as `make run GAMES=` takes it,
or a model file; a bad argument is one line and exit 2; the same model gives the same bytes on
every run (a release's PAR sheets carry no run time)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "games" / "models"


def par(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tools.par", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def files(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


def test_a_game_id_is_its_shipped_model(tmp_path: Path) -> None:
    # issue 23.7: `python -m tools.par aurore-88` died in a FileNotFoundError traceback
    by_id, by_path = tmp_path / "id", tmp_path / "path"
    r = par("sept-royal-87", "--out", str(by_id), cwd=tmp_path)  # any working directory
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("sept-royal-87: bet 1 87.9817 %")
    assert par(str(MODELS / "sept-royal-87.json"), "--out", str(by_path)).returncode == 0
    assert files(by_id) == files(by_path)
    assert "sept-royal-87.html" in files(by_id)


def test_an_unknown_game_is_one_line_naming_the_ids(tmp_path: Path) -> None:
    r = par("aurore-8", "--out", str(tmp_path))
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith("python -m tools.par: aurore-8: no such game id or model file (game ids: ")
    assert "aurore-88" in r.stderr and "jacks-98" in r.stderr
    assert not any(tmp_path.iterdir())


def test_a_file_that_is_not_a_model_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{\n", encoding="utf-8")
    r = par(str(bad), "--out", str(tmp_path / "out"))
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and f"{bad}: not a model: " in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_the_same_model_gives_the_same_bytes(tmp_path: Path) -> None:
    # issue 23.8: every sheet embedded the certifier's run time, so two releases of a commit differed
    games = ("sept-royal-87", "keno-etoile-86", "jacks-98")  # a reel, a keno and a video poker sheet
    one, two = tmp_path / "1", tmp_path / "2"
    assert par(*games, "--out", str(one)).returncode == 0
    assert par(*games, "--out", str(two)).returncode == 0
    assert files(one) == files(two)
    for name, data in files(one).items():  # equal by chance when two runs take the same hundredths
        assert not re.search(rb"Certified by `tools.certify` in [0-9.]+ s", data), name
