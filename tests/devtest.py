"""Tiny helpers for device tests, importable under CPython and MicroPython.

Device tests are plain `def test_*():` functions using `assert`; pytest runs them under CPython
and tests/mprun.py runs the same module under the MicroPython unix port with a fixed heap.
"""
import os
import sys

MICROPYTHON = sys.implementation.name == "micropython"


class SkipTest(Exception):
    pass


def skip(reason):
    if not MICROPYTHON:
        import pytest  # only on the host

        pytest.skip(reason)
    raise SkipTest(reason)


class raises:
    """`with raises(ValueError):` — fails unless the block raises that exception type."""

    def __init__(self, exc):
        self.exc = exc
        self.value = None

    def __enter__(self):
        return self

    def __exit__(self, typ, value, tb):
        if typ is None:
            raise AssertionError("did not raise %s" % self.exc.__name__)
        if not issubclass(typ, self.exc):
            return False  # propagate the unexpected exception
        self.value = value
        return True


_tmp_count = [0]


def tmpdir(tag="t"):
    """A fresh directory under var/tmp/ (both runtimes; no pytest fixtures under MicroPython)."""
    base = "var/tmp"
    for d in ("var", base):
        try:
            os.mkdir(d)
        except OSError:
            pass
    _tmp_count[0] += 1
    stamp = "%s-%d-%d" % (tag, os.getpid() if hasattr(os, "getpid") else 0, _tmp_count[0])
    if MICROPYTHON:
        stamp += "-%s" % "".join("%02x" % b for b in os.urandom(4))
    path = base + "/" + stamp
    try:
        os.mkdir(path)
    except OSError:
        pass
    return path


def rmtree(path):
    for name in os.listdir(path):
        p = path + "/" + name
        try:
            os.remove(p)
        except OSError:
            rmtree(p)
    os.rmdir(path)


def big_win(award):
    """A one-line 3-reel outcome at bet 1 paying `award`: the game's play() replaced by a test that
    needs a win of a given size (a hand-pay lock, or a vlt's credited big win)."""

    class Win:
        bet = 1
        wins = []
        draws = [0, 0, 0]
        stops = [0, 0, 0]
        window = [["SEVEN"]]
        triggered = 0
        free = []

    w = Win()
    w.award = award
    return w
