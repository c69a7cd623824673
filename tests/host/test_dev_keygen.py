"""The development keys are made once however many processes ask at the same time: `make powercut`
on a fresh clone starts eight sessions, each building an image, and seven of them died on
`[Errno 17] File exists: build/keys/operator-dev.pem` (tools/sign.py dev_keygen)."""
from __future__ import annotations

import multiprocessing
from pathlib import Path

from tools import sign


def _make(key: str) -> bytes:
    return sign.dev_keygen(Path(key)).read_bytes()


def test_four_processes_asking_at_once_all_get_the_one_key(tmp_path: Path) -> None:
    key = tmp_path / "keys" / "operator-dev.pem"
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        pubs = pool.map(_make, [str(key)] * 4)
    assert len(set(pubs)) == 1 and pubs[0].startswith(b"-----BEGIN PUBLIC KEY-----")
    assert sign.load_public(sign.pub_path(key)).public_numbers() == \
        sign.load_private(key).public_key().public_numbers()
    assert (key.stat().st_mode & 0o777) == 0o600


def test_a_key_whose_public_half_was_lost_gets_it_again(tmp_path: Path) -> None:
    key = tmp_path / "dev.pem"
    first = sign.dev_keygen(key).read_bytes()
    sign.pub_path(key).unlink()  # a process killed between the two writes
    assert sign.dev_keygen(key).read_bytes() == first
    assert sign.dev_keygen(key).read_bytes() == first  # and kept, never made anew
