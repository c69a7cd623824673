"""All SHA-256 HMAC_DRBG NIST CAVP known answers (CAVS 14.3): 240 vectors in each of no_reseed,
pr_false, pr_true = 720, through rng.hmac_drbg under CPython, on both HMAC paths (cached keyed
hash states via copy(), and the MicroPython path of fresh sha256 objects). The vectors live in
tests/fixtures/cavp-drbg/ (source and sums in its README.md); a missing file fails, never skips."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

import rng.hmac_drbg as hd

ROOT = Path(__file__).resolve().parents[2]
CAVP = ROOT / "tests" / "fixtures" / "cavp-drbg"
KINDS = ("no_reseed", "pr_false", "pr_true")


def parse(kind: str) -> list[tuple[str, list[tuple[str, bytes]]]]:
    cases, cur, section = [], None, {}
    for line in (CAVP / f"HMAC_DRBG_SHA256_{kind}.rsp").read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            if "=" in line:
                k, v = line.strip("[]").split("=")
                section[k.strip()] = v.strip()
            elif line == "[SHA-256]":
                section = {"hash": "SHA-256"}
        elif line.startswith("COUNT"):
            assert section.get("hash") == "SHA-256"
            tag = "{}/P{}/A{}/#{}".format(
                kind, section["PersonalizationStringLen"], section["AdditionalInputLen"], line.split("=")[1].strip()
            )
            cur = []
            cases.append((tag, cur))
        elif cur is not None and "=" in line:
            k, v = line.split("=", 1)
            cur.append((k.strip(), bytes.fromhex(v.strip())))
    return cases


def run(kind: str, fields: list[tuple[str, bytes]]) -> tuple[bytes, bytes]:
    d = {k: v for k, v in fields if k not in ("AdditionalInput", "EntropyInputPR")}
    adds = [v for k, v in fields if k == "AdditionalInput"]
    prs = [v for k, v in fields if k == "EntropyInputPR"]
    g = hd.HmacDrbg()
    g.instantiate(d["EntropyInput"], d["Nonce"], d["PersonalizationString"])
    if kind == "pr_false":
        g.reseed(d["EntropyInputReseed"], d["AdditionalInputReseed"])
    out = b""
    for i in range(2):
        if kind == "pr_true":
            g.reseed(prs[i], adds[i])
            out = g.generate(len(d["ReturnedBits"]))
        else:
            out = g.generate(len(d["ReturnedBits"]), adds[i])
    return out, d["ReturnedBits"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("copy_path", [True, False], ids=["cached-states", "fresh-objects"])
def test_all_cavp_vectors(kind, copy_path, monkeypatch):
    monkeypatch.setattr(hd, "_HAS_COPY", copy_path)
    cases = parse(kind)
    assert len(cases) == 240
    bad = [tag for tag, fields in cases if (lambda r: r[0] != r[1])(run(kind, fields))]
    assert not bad, bad


def test_sections_cover_all_parameter_sets():
    tags = {t.rsplit("/", 1)[0] for k in KINDS for t, _ in parse(k)}
    # personalization 0/256 x additional input 0/256, per kind
    assert len(tags) == 12


def test_fixtures_are_the_files_the_readme_cites():
    # README.md lists each file with its sha256: the vectors are NIST's, byte for byte
    sums = dict(re.findall(r"`(HMAC_DRBG_SHA256_\w+\.rsp)` \|[^|]*\| `([0-9a-f]{64})`",
                           (CAVP / "README.md").read_text()))
    assert sorted(sums) == [f"HMAC_DRBG_SHA256_{k}.rsp" for k in KINDS]
    for name, want in sums.items():
        assert hashlib.sha256((CAVP / name).read_bytes()).hexdigest() == want, name
