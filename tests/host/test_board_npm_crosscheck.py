"""Framing cross-checked against an independent parser: the npm package @serialport/parser-cctalk
(pinned in tests/host/npm/package.json + package-lock.json, installed here with `npm ci`).

Both sides split the same byte streams (valid frames of every length, CRC and simple, cut into
random chunks; and pure garbage) by the length byte; frame boundaries must be identical. Our
resynchronising scanner must also return exactly those frames from clean streams.
"""
from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from board.cctalk_frame import Scanner, build

NPM_DIR = Path(__file__).resolve().parent / "npm"
SCRIPT = r"""
const { CCTalkParser } = require('@serialport/parser-cctalk');
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const results = [];
for (const chunks of cases) {
  const p = new CCTalkParser(0);  // no inter-byte timer: the stream is fed at once
  const frames = [];
  p.on('data', (f) => frames.push(Array.from(f)));
  for (const c of chunks) p.write(Buffer.from(c));
  results.push(frames);
}
process.stdout.write(JSON.stringify(results));
"""


@pytest.fixture(scope="session")
def npm_parser():
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("npm/node not installed: the cross-check needs them (apt-get install npm)")
    if not (NPM_DIR / "node_modules" / "@serialport" / "parser-cctalk").exists():
        r = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=NPM_DIR,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, f"npm ci failed:\n{r.stdout}\n{r.stderr}"

    def run(cases: list[list[bytes]]) -> list[list[bytes]]:
        payload = json.dumps([[list(c) for c in chunks] for chunks in cases])
        r = subprocess.run(["node", "-e", SCRIPT], cwd=NPM_DIR, input=payload,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        return [[bytes(f) for f in frames] for frames in json.loads(r.stdout)]

    return run


def _ours(chunks: list[bytes], resync: bool, crc: bool = False) -> list[bytes]:
    sc = Scanner(size=1024, crc=crc, resync=resync)
    frames = []
    for c in chunks:
        sc.feed(c)
        while True:
            t = sc.next()
            if not t:
                break
            frames.append(bytes(sc.buf[sc.start:sc.start + t]))
            sc.skip(t)
    return frames


def _chop(rng: random.Random, stream: bytes) -> list[bytes]:
    out, i = [], 0
    while i < len(stream):
        k = rng.randint(1, 40)
        out.append(stream[i:i + k])
        i += k
    return out


def _valid_stream(rng: random.Random, crc: bool) -> tuple[bytes, list[bytes]]:
    frames = []
    buf = bytearray(260)
    for _ in range(rng.randint(1, 8)):
        data = bytes(rng.randrange(256) for _ in range(rng.choice((0, 1, 2, 11, rng.randint(0, 255)))))
        n = build(buf, rng.randint(1, 255), rng.randint(1, 255), rng.randrange(256), data, crc)
        frames.append(bytes(buf[:n]))
    return b"".join(frames), frames


def test_valid_streams_same_boundaries(npm_parser):
    rng = random.Random(1)
    cases, expect, modes = [], [], []
    for i in range(300):
        crc = i % 2 == 1
        stream, frames = _valid_stream(rng, crc)
        cases.append(_chop(rng, stream))
        expect.append(frames)
        modes.append(crc)
    theirs = npm_parser(cases)
    for chunks, frames, npm_frames, crc in zip(cases, expect, theirs, modes):
        assert npm_frames == frames
        assert _ours(chunks, resync=False) == frames
        assert _ours(chunks, resync=True, crc=crc) == frames  # clean stream: nothing skipped


def test_garbage_streams_same_boundaries(npm_parser):
    rng = random.Random(2)
    cases = []
    for _ in range(300):
        stream = bytes(rng.randrange(256) for _ in range(rng.randint(0, 700)))
        cases.append(_chop(rng, stream))
    theirs = npm_parser(cases)
    for chunks, npm_frames in zip(cases, theirs):
        assert _ours(chunks, resync=False) == npm_frames


def test_spec_vectors_through_npm(npm_parser):
    k1 = bytes((2, 2, 1, 231, 255, 255, 22))
    k3 = bytes((40, 0, 182, 254, 33)) + bytes((1, 0, 48, 0, 55))
    (a, b) = npm_parser([[k1], [k3[:3], k3[3:7], k3[7:]]])
    assert a == [k1] and b == [k3[:5], k3[5:]]
