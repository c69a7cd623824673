# The emulated board's anti-rollback counter (board/counter_file.py, STATE/counter) and machine
# secret (board/secret_file.py, STATE/secret): files apart from nvram.bin.
import os
import struct

from devtest import raises, rmtree, tmpdir

from board.counter_file import CounterFile
from board.secret_file import SecretFile


def _slots(path):
    with open(path, "rb") as f:
        return f.read()


def test_a_counter_never_written_reads_none_then_every_value_written():
    d = tmpdir("ctr")
    try:
        path = d + "/counter"
        c = CounterFile(path)
        assert c.read() is None
        for n in range(0, 7):
            c.write(n)
            assert c.read() == n
            assert CounterFile(path).read() == n  # a new power-up reads it back
        c.write(7)
        c.write(7)  # the same value again is no step back
        assert CounterFile(path).read() == 7
        assert os.stat(path)[6] == 16  # two 8-byte slots
        c.close()
    finally:
        rmtree(d)


def test_a_counter_refuses_to_go_back():
    d = tmpdir("ctrback")
    try:
        path = d + "/counter"
        CounterFile(path).write(9)
        c = CounterFile(path)  # a fresh object: it learns the value from the file first
        with raises(ValueError):
            c.write(8)
        assert CounterFile(path).read() == 9
        c.close()
    finally:
        rmtree(d)


def test_a_torn_counter_write_leaves_the_value_before_it():
    d = tmpdir("ctrtorn")
    try:
        path = d + "/counter"
        c = CounterFile(path)
        for n in range(0, 6):
            c.write(n)
        c.close()
        raw = bytearray(_slots(path))
        # value 5 sits in slot 1 (5 & 1), value 4 in slot 0; the layout is [n u32][~n u32] each
        assert struct.unpack("<II", raw[8:16]) == (5, 5 ^ 0xFFFFFFFF)
        assert struct.unpack("<II", raw[0:8]) == (4, 4 ^ 0xFFFFFFFF)
        raw[12] ^= 0x40  # the write of 5 cut half-way: its check half does not match
        with open(path, "wb") as f:
            f.write(raw)
        assert CounterFile(path).read() == 4  # one behind: critical memory accepts that (ahead by one)
        raw[0] ^= 0x01  # both slots spoilt: no value at all
        with open(path, "wb") as f:
            f.write(raw)
        assert CounterFile(path).read() is None
        with open(path, "wb") as f:
            f.write(b"")  # an empty file, too
        assert CounterFile(path).read() is None
    finally:
        rmtree(d)


class _Entropy:
    def __init__(self):
        self.calls = 0

    def __call__(self, n):
        self.calls += 1
        return bytes((self.calls * 7 + i) & 0xFF for i in range(n))


def test_the_secret_is_made_once_from_entropy_and_kept():
    d = tmpdir("secret")
    try:
        path = d + "/secret"
        ent = _Entropy()
        s = SecretFile(path, ent)
        assert s.read() is None
        key = s.get()
        assert len(key) == 32 and ent.calls == 1 and key == ent.__class__()(32)
        assert SecretFile(path, ent).get() == key and ent.calls == 1  # never made again
        assert _slots(path) == key
        assert sorted(os.listdir(d)) == ["secret"]  # written beside and renamed: nothing left over
    finally:
        rmtree(d)


def test_a_damaged_secret_is_replaced_and_never_used_short():
    d = tmpdir("secretbad")
    try:
        path = d + "/secret"
        with open(path, "wb") as f:
            f.write(b"only 13 bytes")
        ent = _Entropy()
        s = SecretFile(path, ent)
        assert s.read() is None
        key = s.get()
        assert len(key) == 32 and ent.calls == 1 and _slots(path) == key
    finally:
        rmtree(d)
