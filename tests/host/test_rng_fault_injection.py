"""RNG failure injected on the emulated board (board/emulated.py EntropyWire): the host makes the
board's entropy source stuck at one value, at power-up (STATE/entropy reads "stuck") or at run time
(panel line "entropy stuck"), and the SP 800-90B health tests trip for real in the firmware
process: the start-up test, or the repetition count test at the reseed. Play stops on the `rng`
tilt; once the source is healthy again the attendant key clears it (a fresh generator passes its
start-up test), and not before."""
from __future__ import annotations

import time
from pathlib import Path

from sim.harness import EmulatedCabinet


def rng_tilt(cab: EmulatedCabinet) -> str | None:
    assert cab.console is not None
    for line in cab.console.command("state"):
        if line.startswith("tilt rng: "):
            return line[len("tilt rng: "):]
    return None


def wait_for_tilt(cab: EmulatedCabinet, present: bool, timeout: float = 10.0) -> str | None:
    """The display says why play is stopped ('TILT rng: ...'): wait for it to show or to go."""
    assert cab.panel is not None
    cab.panel.wait_for(lambda s: ("rng:" in str(s.get("msg"))) == present, timeout)
    return rng_tilt(cab)


def key_refused(cab: EmulatedCabinet, timeout: float = 10.0) -> None:
    """Turn the key while the source is still stuck: the firmware tries a fresh generator, which
    fails its start-up test, and says so; the tilt stays."""
    seen = sum("rng still failing" in line for line in cab.firmware.lines)
    cab.attendant_key()
    deadline = time.monotonic() + timeout
    while sum("rng still failing" in line for line in cab.firmware.lines) == seen:
        assert time.monotonic() < deadline, "the key never tried the generator again"
        time.sleep(0.02)  # the firmware's stdout is read by the harness's thread
    assert rng_tilt(cab) is not None


def turn_key_until_cleared(cab: EmulatedCabinet, timeout: float = 30.0) -> None:
    """The panel's `entropy ok` and the key reach the firmware by two wires: under load the key can
    come first and be refused (the source still stuck), as a technician's would; so turn it again,
    as a technician would, until the tilt goes or the deadline passes."""
    assert cab.panel is not None
    deadline = time.monotonic() + timeout
    while True:
        cab.attendant_key()
        try:
            cab.panel.wait_for(lambda s: "rng:" not in str(s.get("msg")), 2.0)
            break
        except TimeoutError:  # the key came before the healthy source
            assert time.monotonic() < deadline, "the key never cleared the rng tilt once the source was healthy"
    assert rng_tilt(cab) is None


def test_a_source_stuck_at_power_up_tilts_rng_and_the_key_clears_it_once_it_is_healthy(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "entropy").write_text("stuck\n")  # written while the firmware is off
    cab = EmulatedCabinet(state).boot()
    try:
        why = rng_tilt(cab)
        assert why is not None and "startup" in why, why  # the start-up test over 1024 samples
        assert cab.console.command("state")[0].startswith("state tilt")
        key_refused(cab)
        cab.panel.tap.send_line("entropy ok")
        turn_key_until_cleared(cab)
        cab.insert_token()
        cab.play()  # the cabinet plays again, from the fresh generator
        assert cab.meters()["games_played"] == 1
    finally:
        cab.shutdown()


def test_a_source_stuck_at_run_time_tilts_rng_at_the_reseed(tmp_path: Path) -> None:
    cab = EmulatedCabinet(tmp_path / "state").boot()
    try:
        cab.insert_token()
        assert rng_tilt(cab) is None
        cab.panel.tap.send_line("entropy stuck")
        why = wait_for_tilt(cab, True)
        assert why is not None and "rct" in why, why  # repetition count: a value repeated 7 times (C for the 7-bit claim)
        credits = cab.meters()["credits"]
        cab.panel.press("play")
        assert cab.meters()["games_played"] == 0 and cab.meters()["credits"] == credits  # no play on an rng tilt
        key_refused(cab)
        cab.panel.tap.send_line("entropy ok")
        turn_key_until_cleared(cab)
        cab.play()
        assert cab.meters()["games_played"] == 1
    finally:
        cab.shutdown()
