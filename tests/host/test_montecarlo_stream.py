"""sim/mc_stream.py: the per-game byte streams and the device's scaling, vectorised."""
from __future__ import annotations

import numpy as np
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

import rng
from sim.mc_stream import GameGen, Streams, key_for


def test_game_stream_is_aes256_ctr_from_counter_block_game_then_zero() -> None:
    # independent reference: cryptography's CTR mode, initial counter block = game (64 bits BE) || 0
    key = key_for(9)
    st = Streams(key, 1000, 4, prefix=32, ext=64)
    st.extend(np.array([2]))
    for row in range(4):
        ctr = Cipher(algorithms.AES(key), modes.CTR((1000 + row).to_bytes(8, "big") + bytes(8))).encryptor()
        want = ctr.update(bytes(200))
        got = bytes(st.byte_at(np.full(200, row, dtype=np.int64), np.arange(200, dtype=np.int64)))
        assert got == want, row  # prefix, extension (row 2) and computed-on-demand bytes alike


def test_same_game_same_bytes_whatever_the_chunking() -> None:
    key = key_for(3)
    a = Streams(key, 0, 100)
    b = Streams(key, 40, 10)
    assert bytes(a.buf[45]) == bytes(b.buf[5])
    assert bytes(a.buf[45]) != bytes(a.buf[46])
    assert bytes(Streams(key_for(4), 0, 100).buf[45]) != bytes(a.buf[45])


def test_below_and_weighted_draw_what_rng_scale_draws_from_the_same_bytes() -> None:
    # the device's own rng.below / rng.weighted through GameGen vs the vectorised rejection
    n_rows = 3000
    cases = [1, 2, 3, 7, 8, 37, 51, 64, 65, 255, 256, 257, 300, 5000, 70000]
    st = Streams(key_for(11), 0, n_rows, prefix=16, ext=32)  # small: every byte path is used
    rows = np.arange(n_rows, dtype=np.int64)
    pos = np.zeros(n_rows, dtype=np.int64)
    st.extend(rows[::2])
    got = [st.below(rows, pos, n) for n in cases]
    w = [5, 0, 9, 1, 0, 20]
    got_w = st.weighted(rows, pos, np.cumsum(w))
    for i in range(n_rows):
        g = GameGen(st, i)
        assert [rng.below(g, n) for n in cases] == [int(x[i]) for x in got], i
        assert rng.weighted(g, w) == got_w[i]
        assert g.pos == pos[i]
    for n, x in zip(cases, got):
        assert x.min() >= 0 and x.max() < n
        if n <= 64:
            assert len(set(x.tolist())) == n  # every value comes out over 3000 rows
    assert set(got_w.tolist()) == {0, 2, 3, 5}  # zero weights never
