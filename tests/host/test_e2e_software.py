"""Power-up authentication of the software, end to end on the real firmware image: every tamper
case is refused with a "software" tilt naming the file, logged, and no game offered; credits
already on the meter are still cashed out; an older signed release is refused (anti-rollback).

Each test boots a copy of the image with a copy of its signed release record
(build/firmware/unix32/release/, signed with the build's development key), tampered as the case says."""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from sim.harness import ROOT, EmulatedCabinet
from tools import firmware as fwbuild
from tools import sign

SUMS = "SHA256SUMS"
SIG = "SHA256SUMS.sig"


@pytest.fixture
def rig(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp/fw/micropython + tmp/fw/release/: the cabinet boots this copy (and nothing rebuilds it)."""
    image = fwbuild.ensure_built()
    fw = tmp_path / "fw"
    fw.mkdir()
    shutil.copy2(image, fw / "micropython")
    shutil.copytree(image.parent / fwbuild.BOOT_RELEASE, fw / "release")
    monkeypatch.setattr(fwbuild, "FIRMWARE", fw / "micropython")
    monkeypatch.setattr(fwbuild, "ensure_built", lambda *a, **k: fw / "micropython")
    return fw


def boot(tmp: Path, *args: str) -> tuple[EmulatedCabinet, str | None, list[str]]:
    """Boot; return the cabinet, its software tilt's reason (None when there is none) and its events."""
    cab = EmulatedCabinet(tmp / "state", extra_args=list(args)).boot()
    tilt = [ln.split("TILT software: ", 1)[1] for ln in cab.firmware.lines if "TILT software: " in ln]
    assert cab.console is not None
    return cab, (tilt[0] if tilt else None), cab.console.command("events")


def refused(tmp: Path, *args: str) -> tuple[str, list[str]]:
    cab, why, events = boot(tmp, *args)
    try:
        assert why is not None, cab.firmware.lines
        assert cab.firmware.ready["game"] is None and cab.firmware.ready["state"] == "tilt"
        assert cab.firmware.ready["software"] == "refused"
        assert any("tilt" in e and "software: " + why[:40] in e for e in events), events  # logged
        assert not any(" certified" in ln for ln in cab.firmware.lines)  # no game was even loaded
    finally:
        cab.shutdown()
    return why, events


def flip(path: Path, at: int, bit: int = 0x01) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= bit
    path.write_bytes(bytes(data))


def resign(fw: Path, text: str, key: Path = fwbuild.DEV_KEY) -> None:
    (fw / "release" / SUMS).write_text(text)
    (fw / "release" / SIG).write_bytes(sign.sign_bytes(sign.load_private(key), text.encode()))


def data_copy(tmp: Path, kind: str) -> Path:
    d = tmp / kind
    shutil.copytree(ROOT / "games" / kind, d)
    return d


def test_the_untampered_image_boots_authentic_and_records_its_release(tmp_path: Path, rig: Path) -> None:
    cab, why, events = boot(tmp_path)
    try:
        assert why is None
        assert cab.firmware.ready["game"] == "sept-royal-87" and cab.firmware.ready["state"] == "idle"
        assert cab.firmware.ready["software"] == "release 0.1.0 (number 1000) authentic, development key"
        assert any("release 0.1.0 (number 1000) runs" in e for e in events), events
    finally:
        cab.shutdown()


def test_one_byte_appended_to_the_image(tmp_path: Path, rig: Path) -> None:
    with open(rig / "micropython", "ab") as f:
        f.write(b"\0")
    why, _ = refused(tmp_path)
    assert why == "firmware/micropython-unix: SHA-256 differs from the signed manifest"


def test_one_byte_of_a_model_inside_the_image(tmp_path: Path, rig: Path) -> None:
    # the frozen ROMFS holds the model's JSON text: change one digit of it in the image itself
    data = bytearray((rig / "micropython").read_bytes())
    at = data.find(b'"id": "sept-royal-87"')
    assert at > 0
    at = data.find(b"1", at)
    data[at] = ord("2")
    (rig / "micropython").write_bytes(bytes(data))
    why, _ = refused(tmp_path)
    assert why.startswith("firmware/micropython-unix: SHA-256 differs")


def test_one_byte_in_a_model_on_the_file_system(tmp_path: Path, rig: Path) -> None:
    models = data_copy(tmp_path, "models")
    text = (models / "sept-royal-87.json").read_text()
    (models / "sept-royal-87.json").write_text(text.replace(" ", "  ", 1))  # one byte more, same JSON
    why, _ = refused(tmp_path, "--models", str(models))
    assert why == "models/sept-royal-87.json: SHA-256 differs from the signed manifest"


def test_one_byte_in_a_certificate(tmp_path: Path, rig: Path) -> None:
    certs = data_copy(tmp_path, "certs")
    flip(certs / "sept-royal-87.json", 30)
    why, _ = refused(tmp_path, "--certs", str(certs))
    assert why == "certs/sept-royal-87.json: SHA-256 differs from the signed manifest"


def test_another_games_files_swapped_in(tmp_path: Path, rig: Path) -> None:
    # the issue's attack: sept-royal-84 (84.9 %) copied over sept-royal-87's model and certificate
    models, certs = data_copy(tmp_path, "models"), data_copy(tmp_path, "certs")
    shutil.copy(models / "sept-royal-84.json", models / "sept-royal-87.json")
    shutil.copy(certs / "sept-royal-84.json", certs / "sept-royal-87.json")
    why, _ = refused(tmp_path, "--models", str(models), "--certs", str(certs))
    assert why == "models/sept-royal-87.json: SHA-256 differs from the signed manifest"


def test_one_byte_in_the_manifest(tmp_path: Path, rig: Path) -> None:
    sums = rig / "release" / SUMS
    text = sums.read_text()
    at = text.index("  certs/aurore-85.json") - 1  # the last hex digit of a game the cabinet does not offer
    sums.write_text(text[:at] + ("0" if text[at] != "0" else "1") + text[at + 1:])
    why, _ = refused(tmp_path)
    assert why == "SHA256SUMS.sig: not a signature of SHA256SUMS by the release key"


def test_one_bit_of_the_signature(tmp_path: Path, rig: Path) -> None:
    flip(rig / "release" / SIG, 200, 0x40)
    why, _ = refused(tmp_path)
    assert why == "SHA256SUMS.sig: not a signature of SHA256SUMS by the release key"


def test_a_manifest_signed_with_another_key(tmp_path: Path, rig: Path) -> None:
    sign.keygen(tmp_path / "other.pem")
    resign(rig, (rig / "release" / SUMS).read_text(), tmp_path / "other.pem")
    why, _ = refused(tmp_path)
    assert why == "SHA256SUMS.sig: not a signature of SHA256SUMS by the release key"


def test_a_file_the_release_does_not_list(tmp_path: Path, rig: Path) -> None:
    # a release (signed with the right key) that has no sept-royal-87 certificate: the cabinet's is an added file
    text = "".join(ln for ln in (rig / "release" / SUMS).read_text().splitlines(True)
                   if not ln.endswith("  certs/sept-royal-87.json\n"))
    resign(rig, text)
    why, _ = refused(tmp_path)
    assert why == "certs/sept-royal-87.json: not in the signed manifest"


def test_a_file_removed(tmp_path: Path, rig: Path) -> None:
    # a configured game's certificate gone: the configuration check (firmware/settings.py) refuses
    # the configuration, and the software check, run on the files it asked for, names the file
    certs = data_copy(tmp_path, "certs")
    (certs / "sept-royal-87.json").unlink()
    cab, why, _ = boot(tmp_path, "--certs", str(certs))
    try:
        assert why == "certs/sept-royal-87.json: listed in SHA256SUMS, missing"
        assert cab.firmware.ready["game"] is None and cab.firmware.ready["software"] == "refused"
        assert any("TILT config: GAMES: sept-royal-87 has no %s/sept-royal-87.json" % certs in ln
                   for ln in cab.firmware.lines), cab.firmware.lines
    finally:
        cab.shutdown()


def test_no_release_record_at_all(tmp_path: Path, rig: Path) -> None:
    shutil.rmtree(rig / "release")
    why, _ = refused(tmp_path)
    assert why == "SHA256SUMS: missing"


def test_an_older_signed_release_is_refused_where_a_newer_one_ran(tmp_path: Path, rig: Path) -> None:
    cab, why, _ = boot(tmp_path)  # release number 1000 runs here first
    cab.shutdown()
    assert why is None
    text = (rig / "release" / SUMS).read_text()
    old = text.replace("version=0.1.0 counter=1000", "version=0.0.999 counter=999", 1)
    assert old != text
    resign(rig, old)  # a genuine, correctly signed older release
    why, _ = refused(tmp_path)
    assert why == "SHA256SUMS: release 0.0.999 (number 999) is older than number 1000, which ran here"
    # the same older release on a machine where no newer one ran is accepted: it is the number that refuses
    (tmp_path / "fresh").mkdir()
    cab, why, _ = boot(tmp_path / "fresh")
    cab.shutdown()
    assert why is None


def test_a_ram_clear_does_not_reopen_the_door_to_an_older_release(tmp_path: Path, rig: Path) -> None:
    # the release number is kept in the security memory as well as in the books: the RAM clear,
    # which formats the books, does not let an older signed release in afterwards
    cab, why, _ = boot(tmp_path)
    try:
        assert why is None
        cab.panel.set_pin("key_audit", 1)
        deadline = time.monotonic() + 10
        while (out := cab.console.command("ramclear"))[0] == "error: turn the audit key first":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert out[0].startswith("critical memory cleared"), out
        log = json.loads(cab.console.command("events json")[0])["security"]
        assert [r for r in log if r[3] == "release" and r[4] == "release 0.1.0 (number 1000) runs"], log
    finally:
        cab.shutdown()
    text = (rig / "release" / SUMS).read_text()
    resign(rig, text.replace("version=0.1.0 counter=1000", "version=0.0.999 counter=999", 1))
    why, _ = refused(tmp_path)
    assert why == "SHA256SUMS: release 0.0.999 (number 999) is older than number 1000, which ran here"


def test_credits_on_the_meter_are_still_cashed_out_under_a_software_tilt(tmp_path: Path, rig: Path) -> None:
    cab, why, _ = boot(tmp_path)
    try:
        assert why is None
        cab.insert_token()
        cab.insert_token()
        assert cab.meters()["acceptor_in"] == 8
    finally:
        cab.shutdown()
    flip(rig / "release" / SIG, 10)
    cab, why, _ = boot(tmp_path)
    try:
        assert why is not None and cab.firmware.ready["credits"] == 8
        s = cab.cash_out()
        assert s["credits"] == 0
        m = cab.meters()
        assert m["cashout"] == 8 and m["hopper_out"] == 8
        assert cab.hopper is not None
    finally:
        cab.shutdown()


def test_a_signed_release_folder_boots_its_own_image(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # make release, signed (here with the build's development key, which this image carries): the
    # image finds SHA256SUMS in the release folder it sits in, and the whole release's manifest checks
    from release_once import release_copy

    rel = release_copy(tmp_path_factory, "release")  # built once per session
    sign.sign(rel, fwbuild.DEV_KEY)
    image = rel / "firmware" / "micropython-unix"
    monkeypatch.setattr(fwbuild, "FIRMWARE", image)
    monkeypatch.setattr(fwbuild, "ensure_built", lambda *a, **k: image)
    cab, why, _ = boot(tmp_path)
    cab.shutdown()
    assert why is None and cab.firmware.ready["game"] == "sept-royal-87"
    assert cab.firmware.ready["software"] == "release 0.1.0 (number 1000) authentic, development key"
    flip(rel / SIG, 7)
    why, _ = refused(tmp_path)
    assert why == "SHA256SUMS.sig: not a signature of SHA256SUMS by the release key"


# --- code from .mpy files (a board installed by `make deploy`; JETON_CODE=mpy on the emulated board)

@pytest.fixture
def mpy_rig(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of build/mpy (the .mpy, jeton_key.mpy, SHA256SUMS and its signature) the cabinet loads."""
    from tools import image

    image.build()
    code = tmp_path / "mpy"
    shutil.copytree(image.OUT, code)
    monkeypatch.setattr(image, "build", lambda *a, **k: [])
    monkeypatch.setattr(image, "micropypath", lambda *a, **k: f"{code}:.frozen:{ROOT}")
    return code


def boot_mpy(tmp: Path) -> tuple[EmulatedCabinet, str | None, list[str]]:
    cab = EmulatedCabinet(tmp / "state", code="mpy").boot()
    tilt = [ln.split("TILT software: ", 1)[1] for ln in cab.firmware.lines if "TILT software: " in ln]
    assert cab.console is not None
    return cab, (tilt[0] if tilt else None), cab.console.command("events")


def mpy_refused(tmp: Path) -> str:
    cab, why, events = boot_mpy(tmp)
    try:
        assert why is not None, cab.firmware.lines
        assert cab.firmware.ready["game"] is None and cab.firmware.ready["software"] == "refused"
        assert any("software: " + why[:40] in e for e in events), events
    finally:
        cab.shutdown()
    return why


def test_signed_mpy_files_boot_authentic(tmp_path: Path, mpy_rig: Path) -> None:
    cab, why, _ = boot_mpy(tmp_path)
    cab.shutdown()
    assert why is None and cab.firmware.ready["code"] == "mpy"
    assert cab.firmware.ready["software"] == "release 0.1.0 (number 1000) authentic, development key"


def test_a_replaced_mpy_is_refused(tmp_path: Path, mpy_rig: Path) -> None:
    # the attack: only build/mpy/games/floor.mpy replaced, by one compiled with the s. 93 floor at 50 %
    from tools import image

    src = tmp_path / "games" / "floor.py"
    src.parent.mkdir()
    text = (ROOT / "games" / "floor.py").read_text()
    assert "RTP_FLOOR_NUM = const(83)" in text
    src.write_text(text.replace("RTP_FLOOR_NUM = const(83)", "RTP_FLOOR_NUM = const(50)"))
    image.compile_one(src, mpy_rig / "games" / "floor.mpy", tmp_path)
    assert mpy_refused(tmp_path) == "mpy/games/floor.mpy: SHA-256 differs from the signed manifest"


def test_one_byte_of_an_mpy(tmp_path: Path, mpy_rig: Path) -> None:
    # a module this (casino) cabinet never imports, so the manifest refuses it, not a failed import: byte
    # 40 of a module imported at power-up can fall in the name of what it imports (hopper_out.mpy's did)
    flip(mpy_rig / "firmware" / "coupon_out.mpy", 40)
    assert mpy_refused(tmp_path) == "mpy/firmware/coupon_out.mpy: SHA-256 differs from the signed manifest"


def test_an_mpy_added(tmp_path: Path, mpy_rig: Path) -> None:
    shutil.copy(mpy_rig / "games" / "exact.mpy", mpy_rig / "games" / "extra.mpy")
    assert mpy_refused(tmp_path) == "mpy/games/extra.mpy: not in the signed manifest"


def test_an_mpy_removed(tmp_path: Path, mpy_rig: Path) -> None:
    (mpy_rig / "games" / "text.mpy").unlink()  # the paytable text, imported late: the cabinet still boots
    assert mpy_refused(tmp_path) == "mpy/games/text.mpy: listed in SHA256SUMS, missing"


def test_a_wiped_nvram_part_does_not_reopen_the_door_to_an_older_release(tmp_path: Path, rig: Path) -> None:
    # issue 22.8's attack: release 1000 ran and an administrator was made; the NVRAM part is wiped
    # (STATE/nvram.bin deleted: both copies of the release number with it) and a correctly signed
    # older release booted. It must be the software tilt (the release floor is kept where the board
    # keeps its anti-rollback counter), and the audit key alone must not make a new administrator
    # (so no RAM clear, no play)
    cab, why, _ = boot(tmp_path)  # the harness makes its administrator with the audit key
    cab.shutdown()
    assert why is None
    (tmp_path / "state" / "nvram.bin").unlink()
    text = (rig / "release" / SUMS).read_text()
    resign(rig, text.replace("version=0.1.0 counter=1000", "version=0.0.999 counter=999", 1))
    cab = EmulatedCabinet(tmp_path / "state").boot(login=False)
    try:
        assert cab.firmware.ready["software"] == "refused" and cab.firmware.ready["game"] is None
        tilt = [ln for ln in cab.firmware.lines if "TILT software: " in ln]
        assert tilt and tilt[0].endswith(
            "SHA256SUMS: release 0.0.999 (number 999) is older than number 1000, which ran here"), cab.firmware.lines
        assert cab.firmware.ready["state"] == "ramerror"
        cab.panel.set_pin("key_audit", 1)
        deadline = time.monotonic() + 10
        while (out := cab.console.setup("evil", "evil-pin-1"))[0] == "error: turn the audit key first":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert out[0].startswith("error: this machine had accounts or lost its security memory: "
                                 "enrolment needs the operator's signature"), out
        assert cab.console.command("ramclear")[0].startswith("refused: "), "no session, no RAM clear"
    finally:
        cab.shutdown()
