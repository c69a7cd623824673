# The security log (audit trail): who did what at the console, and when. It lives with the accounts
# in a critical memory of its own, above the ledger's in the NVRAM part (SEC_BASE), so that a RAM
# clear, which formats the ledger's memory, keeps it: evidence is never wiped by the act it records.
#
#   record: <n u32><t u32><who 8 bytes><code 8 bytes><text 72 bytes>, NUL-padded: 96 bytes, as an
#   event log record (firmware/eventlog.py), 8 to a chunk; the ring recycles a chunk whole.
#
# Sizing: AUDIT_CHUNKS x 8 = 256 records, of which at least 248 are kept. A console command and its
# result take one record, a login or a logout one: a day of 12 service visits of 15 commands each is
# 12 x 17 = 204 records (docs/firmware.md "Audit trail").
import struct

from board.compat import const
from firmware import eventlog
from firmware.books import now
from firmware.critmem import CriticalMemory

SEC_BASE = 69632  # 68 KB: the ledger's memory fits below (firmware/ledger.py LAYOUT: ~65 KB); a 128 KB part
ACCOUNTS_SIZE = 1280  # 8 accounts as JSON (firmware/accounts.py), ~125 bytes each
PER_CHUNK = eventlog.PER_CHUNK  # the same ring as the event log's (eventlog.ring)
RECORD = eventlog.RECORD
CHUNK_BYTES = eventlog.CHUNK_BYTES
AUDIT_CHUNKS = 32
WHO = const(8)
CODE = const(8)
TEXT = const(72)
_FMT = "<II8s8s72s"
# "rel": the highest release number that ran here (firmware/authenticate.py), a copy a RAM clear
# does not erase; the ledger keeps the other, which the loss of this memory does not erase.
REL_SIZE = 4
LAYOUT = (("acct", ACCOUNTS_SIZE), ("rel", REL_SIZE)) + tuple(("a%d" % i, CHUNK_BYTES) for i in range(AUDIT_CHUNKS))
JOURNAL = ACCOUNTS_SIZE + CHUNK_BYTES  # the largest transaction: the accounts and one chunk


def open_security(nvram, secret, counter, buffers=None):
    """The security memory, sealed with the machine's secret and kept in step with a rollback
    counter of its own (board rollback_counter("security")); RamError when the part is too small
    to hold it above the ledger. buffers: the ledger's memory, whose record buffers it shares
    (share_buffers) from the start: no 2 KB pieces to find in the heap the boot check fragmented."""
    return CriticalMemory(nvram, LAYOUT, JOURNAL, secret, counter, base=SEC_BASE, buffers=buffers)


def share_buffers(mem, ledger_mem):
    """One commit at a time: the security memory builds its records in the ledger memory's buffers
    (each larger than its own need) and gives its own back to the heap (3.4 KB of a 112K board heap).
    Skipped when they are not there or too small."""
    for name in ("_jbuf", "_cbuf"):
        mine = getattr(mem, name, None)
        theirs = getattr(ledger_mem, name, None)
        if mine is None or theirs is None or len(theirs) < len(mine):
            return False
    mem._jbuf = ledger_mem._jbuf
    mem._cbuf = ledger_mem._cbuf
    return True


def unpack(chunk):
    out = []
    for pos in range(0, len(chunk) - RECORD + 1, RECORD):
        n, t, who, code, text = struct.unpack_from(_FMT, chunk, pos)
        out.append([n, t, eventlog._str(who), eventlog._str(code), eventlog._str(text)])
    return out


class Audit:
    def __init__(self, mem):
        self.mem = mem
        self.n = 0  # records written in all: the next one is n + 1

    def open(self):
        """Open the memory (RamError when unrecoverable); returns what had to be repaired."""
        if not self.mem.open():
            blocks = {}
            for name, _ in LAYOUT:
                blocks[name] = b""
            self.mem.format(blocks)
            return ["blank security memory formatted"]
        n = 0
        for i in range(AUDIT_CHUNKS):
            raw = self.mem.read("a%d" % i)
            if len(raw) >= RECORD:
                last = struct.unpack_from("<I", raw, len(raw) - RECORD)[0]
                if last > n:
                    n = last
        self.n = n
        return self.mem.findings

    def reset(self, why):
        """The memory could not be opened: a fresh one whose first record says why."""
        blocks = {}
        for name, _ in LAYOUT:
            blocks[name] = b""
        blocks["a0"] = self._pack(b"", 1, "-", "lost", why)
        self.mem.format(blocks)
        self.n = 1

    def _pack(self, chunk, n, who, code, text):
        return chunk + struct.pack(_FMT, n & 0xFFFFFFFF, now() & 0xFFFFFFFF, eventlog.clean(who, WHO).encode(),
                                   eventlog.clean(code, CODE).encode(), eventlog.clean(text, TEXT).encode())

    def _append(self, updates, who, code, text):
        n = self.n
        name = "a%d" % ((n // PER_CHUNK) % AUDIT_CHUNKS)
        chunk = self.mem.read(name) if n % PER_CHUNK else b""
        updates[name] = self._pack(chunk, n + 1, who, code, text)
        self.mem.commit(updates)
        self.n = n + 1

    def record(self, who, code, text=""):
        """Append one record in its own commit, before the console answers."""
        self._append({}, who, code, text)

    def release(self):
        """The highest release number recorded here (0: none)."""
        raw = self.mem.read("rel")
        return struct.unpack("<I", raw)[0] if len(raw) == REL_SIZE else 0

    def record_release(self, number, text):
        """A higher release number and the record that says so, in one commit."""
        self._append({"rel": struct.pack("<I", number)}, "-", "release", text)

    def chunks(self):
        """Names of the chunks in use, oldest first."""
        return eventlog.ring(self.n, AUDIT_CHUNKS, "a")

    def chunk_records(self, name):
        return unpack(self.mem.read(name))

    def records(self):
        out = []
        for name in self.chunks():
            out.extend(self.chunk_records(name))
        return out
