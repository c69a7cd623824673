# The security memory, accounts and a logged-in console for device tests (both runtimes).
from fakes_firmware import TEST_SECRET, RamNvram, counter_of

from firmware import config
from firmware.accounts import Accounts
from firmware.audit import JOURNAL, LAYOUT, Audit
from firmware.critmem import CriticalMemory

SEC_SIZE = 56302  # firmware/audit.py LAYOUT with its journal, sealed (CriticalMemory.size)
ITER = 16  # PBKDF2 rounds in these tests: the derivation has its own vectors (test_rng_pbkdf2.py)
ADMIN, ADMIN_PIN = "admin1", "correct horse"


class Counter:
    """Salts for tests: distinct, from a counter (the firmware takes them from the machine's RNG)."""

    def __init__(self):
        self.n = 0

    def __call__(self, k):
        self.n += 1
        return bytes([self.n & 0xFF]) * k


_IMAGE = []  # one image, wiped for each test: 54 KB blocks fragment a fixed heap


def blank():
    if not _IMAGE:
        _IMAGE.append(RamNvram(SEC_SIZE))
    nv = _IMAGE[0]
    zero = bytes(256)
    for off in range(0, nv.size, 256):
        nv.mem[off:off + 256] = zero[:min(256, nv.size - off)]
    nv.counters = None  # a new machine's part: no rollback counter yet
    nv.floors = None  # nor floors
    return nv


def security(nvram=None, buffers=None):
    """A fresh security memory (on the shared image unless nvram is given), opened; buffers: the
    memory whose record buffers it builds its records in (firmware/audit.py open_security)."""
    nv = nvram or blank()
    audit = Audit(CriticalMemory(nv, LAYOUT, JOURNAL, TEST_SECRET, counter_of(nv, "security"), buffers=buffers))
    audit.open()
    return audit


def accounts(audit, clock, random=None, iterations=ITER):
    return Accounts(lambda: audit.mem.read("acct"), lambda raw: audit.mem.commit({"acct": raw}),
                    random or Counter(), clock, config.PIN_TRIES, config.PIN_LOCK_S, iterations)
