"""`verify SEED` on the console of the real firmware equals `python -m tools.verify` over the
release, for several seeds; one changed byte in the release's image, or in the image the cabinet
runs, makes them differ."""
from __future__ import annotations

import base64
import hashlib
import shutil
from pathlib import Path

import pytest
from release_once import release_copy

from sim.harness import EmulatedCabinet
from tools import firmware as fwbuild
from tools import release, sign, verify

SEEDS = ("00", "5eed", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef")


@pytest.fixture(scope="module")
def rel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return release_copy(tmp_path_factory, "release")  # built once per session (release_once.py)


def _tool(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = verify.main(list(argv))
    out = capsys.readouterr()
    return code, (out.out + out.err).strip()


def _machine(cab: EmulatedCabinet, seed: str) -> str:
    assert cab.console is not None
    lines = cab.console.command(f"verify {seed}")
    assert len(lines) == 1, lines
    return lines[0]


def test_the_cabinet_and_the_inspectors_tool_agree(tmp_path: Path, rel: Path, capsys) -> None:
    cab = EmulatedCabinet(tmp_path / "state").boot()
    try:
        answers = {seed: _machine(cab, seed) for seed in SEEDS}
        events = cab.console.command("events")
    finally:
        cab.shutdown()
    size = (rel / verify.IMAGE).stat().st_size
    for seed, answer in answers.items():
        code, out = _tool(capsys, "--seed", seed, str(rel))
        assert code == 0 and out == answer, (seed, out, answer)
        assert answer.endswith(f"over {size} bytes of the firmware image")
    assert len(set(answers.values())) == len(SEEDS)  # each seed its own answer: nothing precomputable
    assert sum(" verify " in e or "verify seed" in e for e in events) == len(SEEDS), events

    # one byte changed in the release's image: the tool's answer no longer matches the cabinet's
    img = rel / verify.IMAGE
    data = bytearray(img.read_bytes())
    data[len(data) // 2] ^= 0x01
    img.write_bytes(bytes(data))
    try:
        code, out = _tool(capsys, "--seed", SEEDS[1], str(rel))
        assert code == 0 and out != answers[SEEDS[1]]
    finally:
        data[len(data) // 2] ^= 0x01
        img.write_bytes(bytes(data))


def test_a_cabinet_running_an_image_one_byte_different_answers_differently(tmp_path: Path, rel: Path, capsys,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # the image the cabinet runs, with one byte appended (an ELF loader never reads it: it still boots)
    changed = tmp_path / "micropython"
    shutil.copy2(fwbuild.ensure_built(), changed)
    with open(changed, "ab") as f:
        f.write(b"\x00")
    monkeypatch.setattr(fwbuild, "FIRMWARE", changed)
    cab = EmulatedCabinet(tmp_path / "state").boot()
    try:
        answer = _machine(cab, SEEDS[1])
    finally:
        cab.shutdown()
    code, out = _tool(capsys, "--seed", SEEDS[1], str(rel))
    assert code == 0 and out != answer
    assert answer.endswith(f"over {(rel / verify.IMAGE).stat().st_size + 1} bytes of the firmware image")


def test_the_tool_checks_the_signature_first_when_given_a_key_and_refuses_bad_seeds(tmp_path: Path, rel: Path,
                                                                                    capsys) -> None:
    sign.keygen(tmp_path / "k.pem")
    d = tmp_path / "signed"
    shutil.copytree(rel, d)
    sign.sign(d, tmp_path / "k.pem")
    code, out = _tool(capsys, "--seed", "00", str(d), "--pub", str(tmp_path / "k.pub.pem"))
    # which key signed it, by its fingerprint: SHA-256 of the DER SubjectPublicKeyInfo, which is the
    # base64 body of a "PUBLIC KEY" PEM (RFC 7468 section 13)
    pem = (tmp_path / "k.pub.pem").read_text().splitlines()
    der = base64.b64decode("".join(pem[pem.index("-----BEGIN PUBLIC KEY-----") + 1:pem.index("-----END PUBLIC KEY-----")]))
    first, last = out.splitlines()
    assert first == (f"release {release.version()} (number {release.counter(release.version())}) signed by "
                     f"{tmp_path / 'k.pub.pem'} (key SHA-256 {hashlib.sha256(der).hexdigest()}); every file checked")
    assert code == 0 and last.startswith("hmac-sha256 ")
    (d / "models" / "sept-royal-87.json").write_bytes(b"{}")
    code, out = _tool(capsys, "--seed", "00", str(d), "--pub", str(tmp_path / "k.pub.pem"))
    assert code == 1 and "models/sept-royal-87.json" in out
    for bad in ("0", "xyz1", "ab" * 33):
        code, out = _tool(capsys, "--seed", bad, str(rel))
        assert code == 1 and out.startswith("verify: "), out
