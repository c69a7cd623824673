"""sim.replay reproduces a machine's recorded games bit for bit, and flags any tampering."""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sim import replay
from sim.harness import ADMIN_ID, ADMIN_PIN, ROOT, EmulatedCabinet

MODELS = ROOT / "games" / "models"


@pytest.fixture(scope="module")
def machine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[EmulatedCabinet, dict]]:
    """A cabinet that played 12 games, its recall export, and its console free for a second client."""
    cab = EmulatedCabinet(tmp_path_factory.mktemp("replay") / "state").boot()
    try:
        for _ in range(4):
            cab.insert_token()
        for _ in range(12):
            cab.play()
        assert cab.console is not None
        export = json.loads(cab.console.command("recall json")[-1])
        cab.console.close()  # the technician's client (tools.console, sim.replay --url) takes the console
        cab.console = None
        yield cab, export
    finally:
        cab.shutdown()


@pytest.fixture(scope="module")
def export(machine: tuple[EmulatedCabinet, dict]) -> dict:
    return machine[1]


def test_recorded_games_replay_identically(export: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert len(export["games"]) == 10  # the last ten of twelve
    results = replay.replay(export, MODELS)
    assert all(not r["diffs"] for r in results), results
    f = tmp_path / "recall.json"
    f.write_text(json.dumps(export))
    assert replay.main([str(f)]) == 0
    assert "10 reproduced, 0 differ" in capsys.readouterr().out


def test_tampered_record_is_flagged(export: dict) -> None:
    forged = copy.deepcopy(export)
    g = forged["games"][3]
    g["draws"][0] = (g["draws"][0] + 1) % 8  # a different stop on reel 1
    g2 = forged["games"][5]
    g2["win"] += 10
    results = replay.replay(forged, MODELS)
    flagged = {r["n"] for r in results if r["diffs"]}
    assert g2["n"] in flagged
    # moving a stop changes the outcome digest even when the award happens to be the same
    assert g["n"] in flagged


def test_money_in_while_the_reels_turned_balances_the_credits(export: dict) -> None:
    # a token credited during the spin: in the credits after and in the record's "in" (firmware/game_books.py)
    with_coin = copy.deepcopy(export)
    g = with_coin["games"][2]
    g["after"] += 4
    g["in"] = 4
    assert not replay.replay(with_coin, MODELS)[2]["diffs"]
    del g["in"]  # credits after that the game does not account for
    (diff,) = replay.replay(with_coin, MODELS)[2]["diffs"]
    assert diff.startswith(f"credits {g['before']} - {g['bet']} + ") and diff.endswith(f" + in 0 != recorded {g['after']}")


def run(module: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, **(env or {})))


def url(machine: tuple[EmulatedCabinet, dict]) -> str:
    return f"socket://127.0.0.1:{machine[0].ports['console']}"


def test_a_console_export_with_its_login_line_replays(machine: tuple[EmulatedCabinet, dict], tmp_path: Path) -> None:
    # issue 23.5: what `tools.console URL --user ID -c "recall json" > FILE` saves begins with
    # 'logged in as ...'; replaying it died in a JSONDecodeError traceback
    got = run("tools.console", url(machine), "--user", ADMIN_ID, "-c", "recall json", env={"JETON_PIN": ADMIN_PIN})
    assert got.returncode == 0, got.stderr
    assert got.stdout.startswith("logged in as ")
    f = tmp_path / "recall.txt"
    f.write_text(got.stdout)
    r = run("sim.replay", str(f))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == f"10 reproduced, 0 differ (machine {machine[1]['machine']})"


def test_replay_from_the_machine_logs_in(machine: tuple[EmulatedCabinet, dict], tmp_path: Path) -> None:
    # issue 23.5: `sim.replay --url` never logged in: 'recall json' was refused, and json.loads of the
    # refusal raised
    pin = tmp_path / "pin"
    pin.write_text(ADMIN_PIN + "\n")
    r = run("sim.replay", "--url", url(machine), "--user", ADMIN_ID, "--pin-file", str(pin), env={"JETON_PIN": ""})
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == f"10 reproduced, 0 differ (machine {machine[1]['machine']})"
    r = run("sim.replay", "--url", url(machine), "--user", ADMIN_ID, env={"JETON_PIN": ADMIN_PIN})  # as tools.console
    assert r.returncode == 0, r.stderr


def test_replay_from_the_machine_without_an_account_is_one_line(machine: tuple[EmulatedCabinet, dict]) -> None:
    r = run("sim.replay", "--url", url(machine))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(f"replay: {url(machine)}: refused"), r.stderr
    assert r.stderr.endswith(" (give --user ID)\n")


def test_replay_from_no_machine_is_one_line(tmp_path: Path) -> None:
    r = run("sim.replay", "--url", "socket://127.0.0.1:9")  # the discard port: nobody listens on loopback
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("replay: socket://127.0.0.1:9: cannot open: "), r.stderr
    r = run("sim.replay", "--url", "socket://127.0.0.1:9", "--user", "x", "--pin-file", str(tmp_path / "none"))
    assert r.returncode == 2
    assert r.stderr == f"replay: --pin-file {tmp_path / 'none'}: No such file or directory\n"


BAD_FILES = {
    "empty": ("", "no recall in it (save the console's `recall json` output)"),
    "a refusal": ("refused: log in first\n", "no recall in it (the console said: refused: log in first)"),
    "cut short": ('logged in as sim (admin)\n{"machine": "JTN-1", "games": [{"n": 1', "the recall is not valid JSON ("),
    "no games": ('{"machine": "JTN-1"}', 'not a recall export (no "games" list)'),
    "a list": ("{}\n[1, 2]", 'not a recall export (no "games" list)'),
    "a record without draws": ('{"games": [{"n": 1, "id": "sept-royal-87", "bet": 1, "win": 0, "before": 4, "after": 3}]}',
                               "game record 1 has no valid draws"),
    "a path for a game id": ('{"games": [{"n": 1, "id": "../../etc/x", "bet": 1, "draws": [], "win": 0, "before": 4,'
                             ' "after": 3}]}', "game record 1: '../../etc/x' is not a game id"),
    "a progressive that is no pair": ('{"games": [{"n": 1, "id": "sept-royal-87", "bet": 1, "draws": [0, 0, 0], "win": 0,'
                                      ' "before": 4, "after": 3, "prog": [1]}]}', "not enough values to unpack"),
    "money in that is no number": ('{"games": [{"n": 1, "id": "sept-royal-87", "bet": 1, "draws": [0, 0, 0], "win": 0,'
                                   ' "before": 4, "after": 3, "in": "4"}]}', "game #1: 'prog' and 'in' must be integers"),
    "an unknown game": ('{"games": [{"n": 1, "id": "no-such-game", "bet": 1, "draws": [], "win": 0, "before": 4,'
                        ' "after": 3}]}', None),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_file_that_is_not_a_recall_is_one_line(name: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    text, said = BAD_FILES[name]
    f = tmp_path / "recall.json"
    f.write_text(text)
    assert replay.main([str(f)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    if said is None:  # the model's path is the checkout's
        assert err.startswith("replay: no-such-game: no model ") and err.endswith(" to replay it with (--models DIR)\n")
    else:
        assert err.startswith(f"replay: {f}: {said}"), err


def test_no_such_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert replay.main([str(tmp_path / "none.json")]) == 2
    assert capsys.readouterr().err == f"replay: {tmp_path / 'none.json'}: No such file or directory\n"
    assert replay.main([str(tmp_path)]) == 2  # a directory
    assert capsys.readouterr().err == f"replay: {tmp_path}: Is a directory\n"


def test_draws_the_game_refuses_are_a_difference_not_a_crash(export: dict, capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    forged = copy.deepcopy(export)
    forged["games"][1]["draws"] = ["seven"]  # not even numbers
    f = tmp_path / "recall.json"
    f.write_text(json.dumps(forged))
    assert replay.main([str(f)]) == 1
    out = capsys.readouterr().out
    assert f"DIFF game #{forged['games'][1]['n']} " in out
    assert "     the game refuses the recorded draws: " in out
    assert out.splitlines()[-1].startswith("9 reproduced, 1 differ")


def test_a_wrong_pin_is_one_line(machine: tuple[EmulatedCabinet, dict]) -> None:
    # last in this file: a wrong PIN counts towards the console's lock-out
    r = run("sim.replay", "--url", url(machine), "--user", ADMIN_ID, env={"JETON_PIN": "not-the-pin"})
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(f"replay: {url(machine)}: login {ADMIN_ID}: "), r.stderr
