"""End to end: the real firmware under the MicroPython unix port, driven through the sim's cables."""
from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from sim import demo
from sim.harness import DEFAULT_HEAP, READ_COMMANDS, ROOT, EmulatedCabinet
from tools.firmware import FIRMWARE, sha256_file

TOKEN_CREDITS = 4  # firmware/config.py: $1 token, 25-cent credit


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


def boot(state: Path) -> EmulatedCabinet:
    return EmulatedCabinet(state).boot()


def test_firmware_process_is_the_micropython_binary(state: Path) -> None:
    cab = boot(state)
    try:
        pid = cab.firmware.proc.pid
        # the Jeton firmware image (make firmware: MicroPython's unix port) is the process
        assert Path(f"/proc/{pid}/comm").read_text().strip() == "micropython"
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert argv[0] == str(FIRMWARE).encode() and b"heapsize=128K" in argv
        # a 32-bit image, as the boards are (ELF class 1): object sizes in its heap are a board's
        assert FIRMWARE.read_bytes()[:5] == b"\x7fELF\x01"
        # and the firmware itself reports which runtime executes it, and its fixed heap: a board's
        assert cab.firmware.ready["runtime"] == "micropython"
        assert cab.firmware.ready["heap"] <= 128 * 1024
        # its modules are frozen in the image, as on a board: no compiler peak in that heap, no
        # bytecode in it; and it names the image it runs by the file's SHA-256
        assert cab.firmware.ready["code"] == "frozen"
        assert cab.firmware.ready["image"] == sha256_file(FIRMWARE)
        assert "runtime micropython" in cab.console.command("version")[0]
    finally:
        cab.shutdown()


def test_meters_and_credits_survive_a_kill(state: Path) -> None:
    cab = boot(state)
    try:
        for _ in range(3):
            cab.insert_token()
        screens = [cab.play() for _ in range(4)]
        before = cab.meters()
    finally:
        cab.power_cut()
    assert before["acceptor_in"] == 3 * TOKEN_CREDITS
    assert before["games_played"] == 4
    assert before["coin_in"] == sum(s["bet"] for s in screens)
    assert before["coin_out"] == sum(s["win"] for s in screens)
    assert before["credits"] == screens[-1]["credits"]

    cab = boot(state)  # power back on, same NVRAM file
    try:
        after = cab.meters()
        assert cab.panel.screen["credits"] == before["credits"]
        assert after["power_resets"] == before["power_resets"] + 1
        for name in ("coin_in", "coin_out", "acceptor_in", "cashout", "games_played", "games_won", "credits"):
            assert after[name] == before[name], name
        cab.cash_out()
        final = cab.meters()
    finally:
        cab.shutdown()
    assert final["credits"] == 0
    assert final["cashout"] == before["credits"]
    assert final["credits"] == final["acceptor_in"] + final["coin_out"] - final["coin_in"] - final["cashout"]


def test_play_without_credit_is_refused(state: Path) -> None:
    cab = boot(state)
    try:
        cab.panel.press("play")
        s = cab.panel.wait_for(lambda s: s.get("msg") == "insert")
        assert s["games"] == 0 and s["credits"] == 0
        assert cab.meters()["coin_in"] == 0
    finally:
        cab.shutdown()


def test_console_help_and_meters(state: Path) -> None:
    cab = boot(state)
    try:
        assert cab.console is not None
        help_text = "\n".join(cab.console.command("help"))
        for cmd in ("help", "meters", "state", "paytable", "version"):
            assert cmd in help_text
        table = cab.console.command("meters")
        assert any(line.split()[0] == "coin_in" for line in table)
        assert "unknown command" in cab.console.command("frobnicate")[0]
        fr = "\n".join(cab.console.command("paytable fr"))
        assert "Sept Royal" in fr and "Mise" in fr  # s. 89, in French first
        assert "PLAYING" in cab.console.command("games")[0]
        assert cab.panel is not None and cab.panel.screen["jackpot"] == 1500  # shown continuously (s. 91)
        assert cab.panel.screen["rules"] == "sept-royal-87"  # s. 89: the rules page, before play
        from sim.cabinet import rules_page

        page = rules_page(cab.panel.screen["rules"])
        assert page.describe("fr")[0] == "Sept Royal" and page.describe("en")[0] == "Royal Sevens"
        # firmware/console.py cmd_mem: "heap: N used, N free", then the NVRAM line
        mem = cab.console.command("mem")
        heap = re.fullmatch(r"heap: (\d+) used, (\d+) free", mem[0])
        assert heap, mem
        used, free = int(heap.group(1)), int(heap.group(2))
        assert used > 0 and free > 0 and used + free <= 256 * 1024  # the fixed heap it runs in
        assert re.fullmatch(r"nvram: \d+ bytes written since power-up, 0 games played in all", mem[1]), mem
        state = cab.console.command("state")
        assert any(line.startswith("progressive: 1500") for line in state)
        assert not [line for line in state if line.startswith("error")]
    finally:
        cab.shutdown()


def test_demo_meters_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert demo.main([]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    m = json.loads(last)
    assert m["credits"] == m["acceptor_in"] + m["coin_out"] - m["coin_in"] - m["cashout"]
    assert m["credits"] == 0
    assert m["acceptor_in"] == 10 * TOKEN_CREDITS
    assert m["games_played"] == 5


def _swap_first_two_stops(model: dict) -> None:
    strip = model["reels"][0]["strip"]
    assert strip[0] != strip[1]
    strip[0], strip[1] = strip[1], strip[0]  # same symbols, same weights list: a symbol's odds change


def _raise_top_pay(model: dict) -> None:
    model["pays"][0]["pays"]["3"][0] += 50


@pytest.mark.parametrize("tamper", [_raise_top_pay, _swap_first_two_stops], ids=["pay", "reel-stop"])
def test_tampered_model_is_refused_at_boot(state: Path, tamper) -> None:
    """A certified game's math edited in place, its id kept: the signed release's digest of
    models/<id>.json refuses it before any game is loaded (a software tilt naming the file; the
    certificate's math hash, which would disable that game alone, is tests/device/test_games_certificate.py's)."""
    # a short path: the firmware refuses a models folder over 64 characters (firmware/settings.py)
    models = Path(tempfile.mkdtemp(prefix="jeton-models-"))
    for gid in ("sept-royal-87", "sept-royal-91"):
        (models / f"{gid}.json").write_text((ROOT / f"games/models/{gid}.json").read_text())
    model = json.loads((models / "sept-royal-87.json").read_text())
    tamper(model)
    assert model["id"] == "sept-royal-87"  # same id, same certificate file: the math alone differs
    (models / "sept-royal-87.json").write_text(json.dumps(model))
    args = ["--games", "sept-royal-87,sept-royal-91", "--models", str(models)]
    cab = EmulatedCabinet(state, extra_args=args).boot()
    try:
        assert "jeton: TILT software: models/sept-royal-87.json: SHA-256 differs from the signed manifest" \
            in cab.firmware.lines
        assert cab.firmware.ready["game"] is None and cab.firmware.ready["state"] == "tilt"
        events = "\n".join(cab.console.command("events"))
        assert "tilt" in events and "software: models/sept-royal-87.json" in events
        assert not [line for line in cab.firmware.lines if "configuration:" in line]  # our folder was read
    finally:
        cab.shutdown()
        shutil.rmtree(models)


# the harness's heap for code compiled from source (sim/harness.py DEFAULT_HEAP): at 384K the boot's
# first journal buffer (5 KB in one piece) or a console command's found no room once the compiled
# modules had cut the heap up (the console's reading commands, the operator's configuration and the
# enrolment all came in): a tuned figure, not a bound
SOURCE_HEAP = DEFAULT_HEAP["py"]


def test_run_straight_from_the_checkout(state: Path) -> None:
    """`micropython firmware/main.py` with no image (modules compiled on the device): a session and
    every read-only console command still fit, late imports included. From source every module's
    bytecode and the compiler's work sit in the heap of the stock 64-bit wheel (about 347 KB in use
    after boot, against about 76 KB for the frozen 32-bit image the emulated board runs, whose code
    stays in flash as on a board: `make bench`), so this form gets SOURCE_HEAP, not a board's heap."""
    cab = EmulatedCabinet(state, heap=SOURCE_HEAP, compiled=False).boot()
    try:
        assert cab.firmware.ready["code"] == "py"
        for _ in range(3):
            cab.insert_token()
        for _ in range(8):
            cab.play()
        assert cab.console is not None
        for c in READ_COMMANDS:
            out = cab.console.command(c)
            assert out and not [line for line in out if line.startswith("error")], (c, out[:3])
        cab.cash_out()
        assert not [line for line in cab.firmware.lines if "restarting the cabinet" in line or "board reset" in line]
        assert cab.meters()["credits"] == 0
    finally:
        cab.shutdown()
