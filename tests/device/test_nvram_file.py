# The emulated board's NVRAM file (board/emulated.py FileNvram): an existing file is never
# re-created. A truncated one is extended with zeros, so what it lost is reported by critical memory
# (repaired from the surviving copy, or a RAM error), never silently cleared.
# mp-heap: 384K  (64 KB NVRAM reads in pieces, the ledger's layout, next to the firmware's 256K)
import os

from devtest import raises, rmtree, tmpdir
from fakes_firmware import FixedOutcome, memory

from board.counter_file import CounterFile
from board.emulated import FileNvram
from firmware.critmem import RamError
from firmware.ledger import Ledger


def open_memory(nv, path):
    """The memory in the file at path, with the machine's counter beside it (as on the board)."""
    return memory(nv, counter=CounterFile(path.rpartition("/")[0] + "/counter"))

SIZE = 69632  # the ledger fits below firmware/audit.py SEC_BASE


def _books(path):
    nv = FileNvram(path, SIZE)
    led = Ledger(open_memory(nv, path))
    assert led.open() == ["blank memory formatted"]
    led.accept(12, 1)
    led.wager(1)
    led.settle(FixedOutcome(1, 5), "t")
    nv.close()


def _truncate(path, n):
    with open(path, "rb") as f:
        head = f.read(n)
    with open(path, "wb") as f:
        f.write(head)


def test_the_file_survives_a_restart():
    d = tmpdir("nvfile")
    try:
        path = d + "/nvram.bin"
        _books(path)
        nv = FileNvram(path, SIZE)
        assert os.stat(path)[6] == SIZE
        led = Ledger(open_memory(nv, path))
        assert led.open() == [] and led.credits == 16
        nv.close()
    finally:
        rmtree(d)


def test_a_truncated_file_is_reported_never_silently_cleared():
    d = tmpdir("nvtrunc")
    try:
        path = d + "/nvram.bin"
        for keep in (100, 5000):  # into the journal, or bank A too: both copies of state gone
            _books(path)
            _truncate(path, keep)
            nv = FileNvram(path, SIZE)
            assert os.stat(path)[6] == SIZE  # extended, not re-created
            with raises(RamError):
                Ledger(open_memory(nv, path)).open()
            nv.close()
            os.remove(path)
            os.remove(d + "/counter")  # the next round is a new machine
        # bank B cut off: every block still has its copy A, and B is rebuilt from it
        _books(path)
        nv = FileNvram(path, SIZE)
        bank_b = open_memory(nv, path)._copy_off("state", 1)
        nv.close()
        _truncate(path, bank_b + 10)
        nv = FileNvram(path, SIZE)
        led = Ledger(open_memory(nv, path))
        found = led.open()
        assert led.credits == 16 and "repaired copy B of g1" in found  # state and g0: from the journal
        nv.close()
    finally:
        rmtree(d)


def test_a_file_cut_while_being_created_is_a_new_part():
    # the first power-up dies while zero-filling the file: nothing was ever stored in it, so the
    # next power-up formats it (the one case where blank memory is not a loss)
    d = tmpdir("nvnew")
    try:
        path = d + "/nvram.bin"
        with open(path, "wb") as f:
            f.write(bytes(3000))
        nv = FileNvram(path, SIZE)
        assert os.stat(path)[6] == SIZE
        assert Ledger(open_memory(nv, path)).open() == ["blank memory formatted"]
        nv.close()
    finally:
        rmtree(d)
