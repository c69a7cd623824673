"""rng.crypto.canon against an independent implementation: CPython's json with sorted keys, compact
separators and ASCII escapes is, byte for byte, the canonical form the certificates and the recall
digests hash (rng/crypto/canon.py says so; this proves it on arbitrary values)."""
from __future__ import annotations

import hashlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.recall import digest
from games import load
from rng.crypto.canon import canonical, math_hash, sha256

BMP = st.characters(max_codepoint=0xFFFF, exclude_categories=("Cs",))
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.text(BMP, max_size=12),
    lambda kids: st.lists(kids, max_size=5) | st.dictionaries(st.text(BMP, max_size=6), kids, max_size=5),
    max_leaves=30,
)


def reference(v: object) -> bytes:
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_canonical_equals_cpython_json(v: object) -> None:
    assert canonical(v) == reference(v)
    assert sha256(v) == hashlib.sha256(reference(v)).digest()


def test_every_printable_ascii_and_control_character() -> None:
    s = "".join(chr(c) for c in range(0x00, 0x100))
    assert canonical([s, {s: s}]) == reference([s, {s: s}])


def test_recall_digest_of_real_games() -> None:
    import random

    class Gen:  # any bits will do: the digest is checked, not the odds
        def __init__(self) -> None:
            self.r = random.Random(7)

        def randbits(self, k: int) -> int:
            return self.r.getrandbits(k)

    for name in ("sept-royal-87", "aurore-88", "trefle-94"):
        game, gen = load(f"games/models/{name}.json"), Gen()
        for _ in range(50):
            o = game.play(gen, game.bets[-1])
            v = [o.bet, o.draws, o.stops, o.window, o.wins, o.award, o.triggered, o.free]
            # tuples become lists in JSON, as in canon
            assert digest(o) == hashlib.sha256(reference(v)).hexdigest()[:32]


def test_math_hash_of_a_shipped_model() -> None:
    with open("games/models/aurore-93.json") as f:
        m = json.load(f)
    assert math_hash(m) == hashlib.sha256(reference(m)).hexdigest()
