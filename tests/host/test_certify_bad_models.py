"""Bad and large models given to the certifier (issue 23.10), as a lab would give them: each malformed
or oversized model, built here, makes `python -m tools.certify` print one line on stderr naming the
model and the fault and exit with status 2, never a traceback and never a hang; the device's boot
check (games.certificate.check, run by the firmware image: frozen code in the board's heap) names
the same fault in the same words. Models at a bound certify, and their certificates boot.
The device-side details, on both runtimes: tests/device/test_games_model_limits.py."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from games.limits import ModelError
from sim.harness import BOARD_HEAP
from tools import firmware
from tools.certify import joint
from tools.certify.core import certify_model, frac_short, frac_str

ROOT = Path(__file__).resolve().parents[2]


def _model(name: str) -> dict:
    return json.loads((ROOT / "games" / "models" / f"{name}.json").read_text(encoding="utf-8"))


def _skeleton_text(pays: str) -> str:
    # skeleton-88 with its SEVEN group's pay table written as given (JSON text: duplicate keys)
    m = _model("skeleton-88")
    m["pays"][0]["pays"] = {"3": 300}
    text = json.dumps(m)
    assert text.count('"pays": {"3": 300}') == 1
    return text.replace('"pays": {"3": 300}', '"pays": ' + pays)


def _bad() -> dict[str, tuple[object, str]]:
    """name -> (model as a dict or a JSON text, the fault's words as both sides print them)."""
    out: dict[str, tuple[object, str]] = {}
    sk = _model("skeleton-88")
    au = _model("aurore-88")

    def change(base: dict, how) -> dict:
        m = copy.deepcopy(base)
        how(m)
        return m

    out["reel_not_an_object"] = (change(sk, lambda m: m["reels"].__setitem__(0, "SEVEN BAR")),
                                 "reels[0] must be an object")
    out["group_not_an_object"] = (change(sk, lambda m: m["pays"].__setitem__(1, ["BAR"])),
                                  "pays[1] must be an object")
    out["free_spins_not_an_object"] = (change(au, lambda m: m.__setitem__("free_spins", [10, 15, 20])),
                                       "free_spins must be an object")
    out["list_as_strip_symbol"] = (change(sk, lambda m: m["reels"][2]["strip"].__setitem__(0, ["SEVEN"])),
                                   "reels[2]: a stop is a symbol's name, not a list")
    out["scatter_pays_as_list"] = (change(au, lambda m: m.__setitem__("scatter_pays", [0, 0, 2, 10])),
                                   "scatter_pays must be an object {count: value}")
    out["deep_array"] = ("[" * 8000 + "]" * 8000,
                         "[0][0][0][0][0][0][0][0]: nested deeper than 8 levels (model_json.MAX_DEPTH) at byte 8")
    out["deep_array_100000"] = ("[" * 100000 + "]" * 100000,
                                "file of 200000 bytes, larger than 16384 (model_json.MAX_BYTES)")
    out["cap_1e9"] = (change(au, lambda m: m["free_spins"].__setitem__("cap", 1000000000)),
                      "free_spins.cap: integer of 10 digits at byte")
    out["cap_101"] = (change(au, lambda m: m["free_spins"].__setitem__("cap", 101)),
                      "free_spins cap is 101: at most 100 (limits.MAX_FREE_SPINS)")
    out["cap_400"] = (change(au, lambda m: m["free_spins"].__setitem__("cap", 400)),
                      "free_spins cap is 400: at most 100 (limits.MAX_FREE_SPINS)")
    out["pay_1e400"] = (_skeleton_text('{"3": 1%s}' % ("0" * 400)),
                        "pays[0].pays.3: integer of 401 digits at byte")
    out["count_3_and_03"] = (_skeleton_text('{"3": 300, "03": 100000}'),
                             'pay "SEVEN": key "03" is not a count (decimal digits 0-9, no leading zero)')
    out["count_3_twice"] = (_skeleton_text('{"3": 100000, "3": 300}'), 'pays[0].pays: duplicate key "3" at byte')
    out["count_fullwidth"] = (_skeleton_text('{"\uff13": 300}'),
                              'pay "SEVEN": key "\\uff13" is not a count (decimal digits 0-9, no leading zero)')
    out["cascade"] = (change(sk, lambda m: m.__setitem__("cascade", {"multipliers": [1, 2, 3]})),
                      'jeton-reels/1: unknown key "cascade"')
    out["pick_bonus"] = (change(au, lambda m: m.__setitem__("pick_bonus", {"picks": 3})),
                         'jeton-reels/1: unknown key "pick_bonus"')
    out["v2_key_in_v1"] = (change(au, lambda m: m.__setitem__("both_ways", True)),
                           'jeton-reels/1: key "both_ways" is a key of jeton-reels/2 (the model says jeton-reels/1)')
    out["keno_fullwidth"] = (change(_model("keno-classique-88"), lambda m: m["pays"].__setitem__(
        "\uff13", m["pays"].pop("3"))), 'pays: key "\\uff13" is not a count (decimal digits 0-9, no leading zero)')
    out["keno_unknown_key"] = (change(_model("keno-etoile-86"), lambda m: m.__setitem__("super_ball", True)),
                               'jeton-keno/1: unknown key "super_ball"')
    out["poker_bet_6_coins"] = (change(_model("jacks-98"), lambda m: m.__setitem__("bets", [1, 2, 3, 4, 5, 6])),
                                "bet 6: a video poker bet is 1 to 5 coins (limits.MAX_POKER_COINS)")
    out["poker_bet_0"] = (change(_model("jacks-98"), lambda m: m.__setitem__("bets", [0, 1, 2, 3, 4])),
                          "bet must be a positive integer")
    out["poker_unknown_key"] = (change(_model("jacks-98"), lambda m: m.__setitem__("double_up", True)),
                                'jeton-poker/1: unknown key "double_up"')
    return out


BAD = _bad()


def _write(path: Path, model: object) -> Path:
    path.write_text(model if isinstance(model, str) else json.dumps(model), encoding="utf-8")
    return path


def _certify(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools.certify", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture(scope="module")
def bad_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("bad")
    for name, (model, _) in BAD.items():
        _write(d / f"{name}.json", model)
    return d


@pytest.mark.parametrize("name", sorted(BAD))
def test_the_certifier_names_the_fault_in_one_line(bad_dir: Path, name: str) -> None:
    path = bad_dir / f"{name}.json"
    p = _certify(str(path))
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "Traceback" not in p.stderr + p.stdout
    lines = p.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{path}: INVALID MODEL: {BAD[name][1]}"), lines[0]


def test_every_model_is_answered_in_one_run(bad_dir: Path) -> None:
    # a lab hands over a folder: every bad model one line, the good one certified, exit status 2
    paths = sorted(str(p) for p in bad_dir.glob("*.json"))
    p = _certify(*paths, str(ROOT / "games" / "models" / "skeleton-88.json"))
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert len(p.stderr.splitlines()) == len(BAD)
    assert "skeleton-88  (hash" in p.stdout


# the device's boot check, as the firmware runs it at power-up: the image's frozen code in the
# board's heap. Prints one JSON line per model: [ok, reason].
PROBE = r'''
import json
from games.certificate import check
for m in %r:
    ok, reason, game = check(m, %r)
    print("CHECK " + json.dumps([ok, reason]))
'''


def _boot_check(models: list[Path], cert: Path) -> list[list]:
    p = subprocess.run([str(firmware.ensure_built()), "-X", f"heapsize={BOARD_HEAP}", "-c",
                        "import sys; sys.path.remove('')\n" + PROBE % ([str(m) for m in models], str(cert))],
                       capture_output=True, text=True, env={"MICROPYPATH": ".frozen"}, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    return [json.loads(li[6:]) for li in p.stdout.splitlines() if li.startswith("CHECK ")]


def test_the_boot_check_names_the_same_fault_in_a_board_heap(bad_dir: Path) -> None:
    names = sorted(BAD)
    got = _boot_check([bad_dir / f"{n}.json" for n in names], ROOT / "games" / "certs" / "skeleton-88.json")
    assert len(got) == len(names)
    for name, (ok, reason) in zip(names, got):
        assert ok is False, name
        prefix = "unreadable model or certificate: " if name in (
            "deep_array", "deep_array_100000", "cap_1e9", "pay_1e400", "count_3_twice") else "invalid model: "
        assert reason.startswith(prefix + BAD[name][1]), (name, reason)


def _heavy(cap: int) -> dict:
    # every bound at its largest where it makes the exact figures long: 5 reels of 65,536 virtual
    # stops, free spins with retriggers at the cap
    strip = ["SC", "A", "B", "A", "B", "C"]
    return {"format": "jeton-reels/1", "id": "heavy", "name": {"fr": "Lourd", "en": "Heavy"}, "rows": 3,
            "symbols": ["SC", "A", "B", "C"], "scatter": "SC",
            "reels": [{"strip": strip, "weights": [9000, 11000, 12000, 13000, 10535, 10001]} for _ in range(5)],
            "lines": [[1] * 5, [0] * 5, [2] * 5], "bets": [3, 6],
            "pays": [{"name": "A", "symbols": ["A"], "pays": {"3": 5, "4": 20, "5": 100}},
                     {"name": "B", "symbols": ["B"], "pays": {"3": 3, "5": 50}}],
            "scatter_pays": {"3": 2, "4": 10},
            "free_spins": {"award": {"3": 10, "4": 20, "5": 30}, "retrigger": {"3": 5, "4": 10}, "multiplier": 2,
                           "cap": cap}}


def test_figures_past_pythons_digit_guard_print_and_boot(tmp_path: Path) -> None:
    # at the cap's bound the variance runs to more than Python's 4,300-digit int -> str guard (aurore-88
    # with a cap of 400 died printing its return): the report prints it whole, the summary its size,
    # and the certificate it writes boots on the device
    model = _write(tmp_path / "heavy.json", _heavy(100))
    certs = tmp_path / "certs"
    p = _certify(str(model), "--write-cert", str(certs))
    assert p.returncode == 0, p.stderr
    assert "RTP (exact, " in p.stdout and "Traceback" not in p.stderr
    p = _certify(str(model), "--json")
    assert p.returncode == 0, p.stderr
    rep = json.loads(p.stdout)
    num, den = rep["bets"]["3"]["variance"].split("/")
    assert len(den) > 4300  # printed whole
    cert = json.loads((certs / "heavy.json").read_text())
    assert 2000 < len(cert["rtp"]["3"].split("/")[1]) < 4300
    got = _boot_check([model], certs / "heavy.json")
    assert got[0][0] is True, got
    assert got[0][1] == "ok: heavy, 2 bet levels, lowest return 15181.398 %"  # a stress test, not a game


def test_a_cap_at_its_bound_certifies_and_boots(tmp_path: Path) -> None:
    m = _model("aurore-88")
    m["free_spins"]["cap"] = 100
    model = _write(tmp_path / "aurore-cap100.json", m)
    p = _certify(str(model), "--write-cert", str(tmp_path))
    assert p.returncode == 0, p.stderr
    assert _boot_check([model], tmp_path / "aurore-88.json")[0][0] is True


def test_exact_figures_print_their_size_not_their_digits() -> None:
    x = Fraction(10 ** 5000 + 1, 3 * 10 ** 4999 + 7)
    assert frac_short(x) == "(exact, 5001/5000 digits)"
    assert frac_short(Fraction(22, 25)) == "22/25"
    assert frac_str(x).startswith("1" + "0" * 4999 + "1/3")  # whole, past the 4,300-digit guard
    assert sys.get_int_max_str_digits() == 4300  # and the guard is back


def test_the_host_programme_is_bounded_too(monkeypatch) -> None:
    # the joint programme (tools/certify/joint.py) works on every line at once: its own bound,
    # checked here at a lowered value on aurore-88 (some 480,000 steps on its free-spin set)
    raw = _model("aurore-88")
    monkeypatch.setattr(joint, "MAX_STEPS", 100_000)
    with pytest.raises(ModelError, match=r"too large to certify exactly: the reel-by-reel programme passes "
                                         r"100000 steps \(tools/certify/joint.py MAX_STEPS\)"):
        certify_model(raw)  # refused in the forked child (the free-spin set) or here: a refusal either way
    monkeypatch.setattr(joint, "MAX_STEPS", 20_000_000)
    monkeypatch.setattr(joint, "MAX_ALIVE", 100)
    with pytest.raises(ModelError, match=r"more than 100 sets of alive lines after one reel"):
        certify_model(raw, jobs=1)


def test_a_hostile_pay_table_is_refused_before_any_long_work() -> None:
    # within every bound of the format, the device's line programme would not end at boot: the host
    # runs the device's recomputation first and refuses in its words (the first one to fail)
    sys.path.insert(0, str(ROOT / "tests" / "device"))
    try:
        from test_games_model_limits import hostile
    finally:
        sys.path.remove(str(ROOT / "tests" / "device"))
    with pytest.raises(ModelError, match=r"more than 256 states of the line programme after one reel"):
        certify_model(hostile(40, 30, 5, 1))
    with pytest.raises(ModelError, match=r"more than 200000 steps of the line programme for one bet level"):
        certify_model(hostile(100, 5, 5, 50))
