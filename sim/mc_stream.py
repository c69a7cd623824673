"""Draws for the vectorised Monte-Carlo: a host DRBG's bytes, scaled exactly as the device scales.

The bytes. The cabinet's generator (rng/generator.py) calls idle() between games, which drops its
buffered output, so every game starts on fresh DRBG output and reads it byte by byte. Here every
game has its own byte stream from a host DRBG, AES-256 in counter mode: block c of game g is
AES_K(g || c), g and c 64-bit big-endian, K = SHA-256("jeton-mc/1" || seed). Fast (one ECB call
encrypts the counter blocks of a whole chunk) and reproducible: game g reads the same bytes whatever
the chunking or the number of workers.

The scaling is rng/scale.py's, integer for integer: randbits(k) takes the next ceil(k/8) bytes
big-endian and keeps the top k bits (rng/generator.py); below(n) draws bitlen(n-1) bits and rejects
values >= n (no draw at all when n == 1); weighted(w) is below(sum w) then the first index whose
running sum exceeds it. GameGen hands one game's stream to the device engine (games/reels.py plays
through rng.below / rng.weighted), so the cross-check compares the scaling too, not only the pays.
"""
from __future__ import annotations

import hashlib

import numpy as np
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

PREFIX = 32  # bytes per game computed up front: a 5-reel base spin reads about 7 of them
EXT = 512  # more bytes per game computed when it enters its free spins (50 spins read ~400)


def key_for(seed: int) -> bytes:
    return hashlib.sha256(b"jeton-mc/1" + str(seed).encode()).digest()


class Streams:
    """The byte streams of games first .. first+n-1 (rows 0 .. n-1), each unbounded."""

    def __init__(self, key: bytes, first: int, n: int, prefix: int = PREFIX, ext: int = EXT) -> None:
        self._ecb = Cipher(algorithms.AES(key), modes.ECB())
        self.first = first
        self.n = n
        self.prefix = prefix
        per = prefix // 16
        games = np.repeat(np.arange(first, first + n, dtype=np.uint64), per)
        ctr = np.tile(np.arange(per, dtype=np.uint64), n)
        self.buf = self._blocks(games, ctr).reshape(n, prefix)
        self._flat = self.buf.reshape(-1)
        self.ext_of = np.full(n, -1, dtype=np.int64)  # row -> row of self.ext, -1: none
        self.ext = np.empty((0, ext), dtype=np.uint8)
        self.ext_bytes = ext

    def _blocks(self, games: np.ndarray, ctr: np.ndarray) -> np.ndarray:
        ctrs = np.empty((len(games), 2), dtype=">u8")
        ctrs[:, 0] = games
        ctrs[:, 1] = ctr
        enc = self._ecb.encryptor()
        out = enc.update(ctrs.tobytes()) + enc.finalize()
        return np.frombuffer(out, dtype=np.uint8).reshape(len(games), 16)

    def extend(self, rows: np.ndarray) -> None:
        """Compute bytes prefix .. prefix+ext-1 of these rows now, in one call (the games that
        enter their free spins: they read hundreds of bytes)."""
        rows = rows[self.ext_of[rows] < 0]
        if not rows.size:
            return
        per = self.ext_bytes // 16
        first = self.prefix // 16
        games = np.repeat((rows + self.first).astype(np.uint64), per)
        ctr = np.tile(np.arange(first, first + per, dtype=np.uint64), len(rows))
        blk = self._blocks(games, ctr).reshape(len(rows), per * 16)
        self.ext_of[rows] = np.arange(len(self.ext), len(self.ext) + len(rows))
        self.ext = blk if not len(self.ext) else np.concatenate([self.ext, blk])

    def byte_at(self, rows: np.ndarray, off: np.ndarray) -> np.ndarray:
        """Byte off of each row's stream (int64 arrays of one shape)."""
        if off.size == 0 or off.max() < self.prefix:
            return self._flat[rows * self.prefix + off]
        shape = off.shape
        rows, off = np.broadcast_to(rows, shape).reshape(-1), off.reshape(-1)
        out = np.empty(len(off), dtype=np.uint8)
        near = off < self.prefix
        out[near] = self._flat[rows[near] * self.prefix + off[near]]
        far = np.nonzero(~near)[0]
        e = self.ext_of[rows[far]]
        o = off[far] - self.prefix
        inext = (e >= 0) & (o < self.ext_bytes)
        if inext.any():
            out[far[inext]] = self.ext[e[inext], o[inext]]
        far = far[~inext]
        if far.size:
            r, o = rows[far], off[far]
            blk = self._blocks((r + self.first).astype(np.uint64), (o // 16).astype(np.uint64))
            out[far] = blk[np.arange(len(r)), o % 16]
        return out.reshape(shape)

    def randbits(self, rows: np.ndarray, pos: np.ndarray, k: int) -> np.ndarray:
        """rng/generator.py randbits(k) at byte positions pos (not advanced here)."""
        nb = (k + 7) >> 3
        v = self.byte_at(rows, pos).astype(np.int64)
        for b in range(1, nb):
            v = (v << 8) | self.byte_at(rows, pos + b)
        return v >> ((nb << 3) - k)

    def below(self, rows: np.ndarray, pos: np.ndarray, n: int) -> np.ndarray:
        """rng.below(gen, n) for every row; pos (int64, one per row) advances in place. Reads a
        few candidates per row at once and keeps the first accepted one: the same draw as the
        device's one-at-a-time rejection, without a numpy pass per rejected candidate."""
        out = np.zeros(len(rows), dtype=np.int64)
        if n == 1:
            return out  # the device draws nothing for a one-outcome choice
        k = (n - 1).bit_length()
        nb = (k + 7) >> 3
        reject = 1 - n / (1 << k)
        # first pass: one candidate per row (most are accepted); then several per remaining row
        v = self.randbits(rows, pos, k)
        ok = v < n
        out[ok] = v[ok]
        pos += nb
        idx = np.nonzero(~ok)[0]
        w = 1
        while reject ** w > 0.01 and w < 8:
            w += 1
        step = nb * np.arange(w, dtype=np.int64)
        while idx.size:
            p = pos[idx]
            v = self.randbits(rows[idx][:, None], p[:, None] + step, k)  # (rows, w) candidates
            ok = v < n
            hit = ok.any(1)
            first = ok.argmax(1)
            got = idx[hit]
            out[got] = v[hit, first[hit]]
            pos[got] = p[hit] + nb * (first[hit] + 1)
            idx = idx[~hit]
            pos[idx] = p[~hit] + nb * w
        return out

    def weighted(self, rows: np.ndarray, pos: np.ndarray, cum: np.ndarray) -> np.ndarray:
        """rng.weighted(gen, w) with cum = running sums of w: below(total), then the first index
        whose running sum exceeds the draw (zero weights are never chosen)."""
        r = self.below(rows, pos, int(cum[-1]))
        return np.searchsorted(cum, r, side="right")


class GameGen:
    """One game's stream as a generator object (randbits(k)) for the device engine."""

    def __init__(self, streams: Streams, row: int) -> None:
        self.s = streams
        self.row = row
        self.head = bytes(streams.buf[row])
        self.pos = 0  # bytes read so far

    def _byte(self, i: int) -> int:
        head = self.head
        if i >= len(head):  # a feature game: the next 256 bytes in one call
            n = len(head)
            more = self.s.byte_at(np.full(256, self.row, dtype=np.int64), np.arange(n, n + 256, dtype=np.int64))
            self.head = head = head + bytes(more)
        return head[i]

    def randbits(self, k: int) -> int:
        if k <= 0:
            return 0
        nb = (k + 7) >> 3
        v = 0
        for _ in range(nb):
            v = (v << 8) | self._byte(self.pos)
            self.pos += 1
        return v >> ((nb << 3) - k)
