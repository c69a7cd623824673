# The security log (audit trail): who did what at the console, and when. It lives with the accounts
# in a critical memory of its own, above the ledger's in the NVRAM part (SEC_BASE), so that a RAM
# clear, which formats the ledger's memory, keeps it: evidence is never wiped by the act it records.
#
#   record: <n u32><t u32><who 8 bytes><code 8 bytes><text 72 bytes>, NUL-padded: 96 bytes, as an
#   event log record (firmware/eventlog.py), 8 to a chunk; the ring recycles a chunk whole.
#
# Sizing: AUDIT_CHUNKS x 8 = 256 records. A console command and its result take one record, a login
# or a logout one: a day of 12 service visits of 15 commands each is 12 x 17 = 204 records
# (docs/console.md "Security log").
#
# Noise (issue 22.7): a line from no session (refused, unknown, or failed) is not a record of its
# own. It is counted in RAM, and the count, the time since when and the last such line are one
# summary in the "log" block, committed at most every NOISE_MS (and with the next record): 10^5
# anonymous lines cost a handful of commits and push no record out. A record is never written over
# while it is not archived: the ring's room is what can be written before an unarchived record would
# have to go; at RESERVE records of room the console stops every privileged operation (the
# auditor's export and archive, logins and logouts go on), and a record that finds no room at all
# is counted in the summary instead (never one written over). `security archive N` marks records
# up to N archived once they were exported (`security json`).
import struct

from board.compat import const, ticks_diff
from firmware import eventlog
from firmware.critmem import CriticalMemory

SEC_BASE = 69632  # 68 KB: the ledger's memory fits below (tests/device/test_firmware_sizes.py; docs/nvram.md)
ACCOUNTS_SIZE = const(1280)  # 8 accounts as JSON (firmware/accounts.py), ~125 bytes each
PER_CHUNK = eventlog.PER_CHUNK  # the same ring as the event log's (eventlog.ring)
RECORD = eventlog.RECORD
CHUNK_BYTES = const(768)  # eventlog.CHUNK_BYTES (a const of another module is not folded into LAYOUT)
AUDIT_CHUNKS = 32
RING = AUDIT_CHUNKS * PER_CHUNK  # 256 records
RESERVE = const(8)  # room kept for logins, logouts, the auditor's archive and the cabinet's own records
NOISE_MS = 60000  # the noise summary is committed at most this often (and with every record)
WHO = const(8)
CODE = const(8)
TEXT = const(72)
_FMT = "<II8s8s72s"
# "log": <archived u32><noise u32><since u32><last t u32><no room u32><last noise line 72>: the
# records archived up to, anonymous lines counted since `since` (the last at `last t`), records
# that found no room, and the last noise line
_LOG_FMT = "<IIIII72s"
LOG_SIZE = const(92)
# "rel": the highest release number that ran here (firmware/authenticate.py), a copy a RAM clear
# does not erase; the ledger keeps the other, which the loss of this memory does not erase.
REL_SIZE = const(4)
# the accounts, the release number, the summary, then the AUDIT_CHUNKS chunks a0..: written out, so that
# a frozen image keeps it and its names in flash, not 1.6 KB of tuples and strings in the heap
# (tests/device/test_firmware_audit.py checks it against those constants)
LAYOUT = (("acct", ACCOUNTS_SIZE), ("rel", REL_SIZE), ("log", LOG_SIZE),
          ("a0", CHUNK_BYTES), ("a1", CHUNK_BYTES), ("a2", CHUNK_BYTES), ("a3", CHUNK_BYTES), ("a4", CHUNK_BYTES),
          ("a5", CHUNK_BYTES), ("a6", CHUNK_BYTES), ("a7", CHUNK_BYTES), ("a8", CHUNK_BYTES), ("a9", CHUNK_BYTES),
          ("a10", CHUNK_BYTES), ("a11", CHUNK_BYTES), ("a12", CHUNK_BYTES), ("a13", CHUNK_BYTES),
          ("a14", CHUNK_BYTES), ("a15", CHUNK_BYTES), ("a16", CHUNK_BYTES), ("a17", CHUNK_BYTES),
          ("a18", CHUNK_BYTES), ("a19", CHUNK_BYTES), ("a20", CHUNK_BYTES), ("a21", CHUNK_BYTES),
          ("a22", CHUNK_BYTES), ("a23", CHUNK_BYTES), ("a24", CHUNK_BYTES), ("a25", CHUNK_BYTES),
          ("a26", CHUNK_BYTES), ("a27", CHUNK_BYTES), ("a28", CHUNK_BYTES), ("a29", CHUNK_BYTES),
          ("a30", CHUNK_BYTES), ("a31", CHUNK_BYTES))
JOURNAL = ACCOUNTS_SIZE + CHUNK_BYTES + LOG_SIZE  # the largest transaction: the accounts, a chunk and the log


def open_security(nvram, secret, counter, buffers=None):
    """The security memory, sealed with the machine's secret and kept in step with a rollback
    counter of its own (board rollback_counter("security")); RamError when the part is too small
    to hold it above the ledger. buffers: the ledger's memory, whose record buffers it builds its
    records in (one commit at a time, and each is larger than it needs: firmware/critmem.py), from
    the start: no 2 KB pieces to find in the heap the boot check fragmented."""
    return CriticalMemory(nvram, LAYOUT, JOURNAL, secret, counter, base=SEC_BASE, buffers=buffers)


def unpack(chunk):
    out = []
    for pos in range(0, len(chunk) - RECORD + 1, RECORD):
        n, t, who, code, text = struct.unpack_from(_FMT, chunk, pos)
        out.append([n, t, eventlog._str(who), eventlog._str(code), eventlog._str(text)])
    return out


class Audit:
    def __init__(self, mem, clock=None):
        self.mem = mem
        self.clock = clock  # the board's ms ticks: when the noise summary may be committed (None: never by time)
        self.n = 0  # records written in all: the next one is n + 1
        self.archived = 0  # records up to this number are archived (exported by an auditor)
        self.noise_n = 0  # lines counted, not journaled, since `since`
        self.since = 0
        self.last_t = 0
        self.no_room = 0  # records that found no room (counted instead of writing over one)
        self.last = ""  # the last noise line (or record without room), as the summary keeps it
        self._pending = False  # the summary changed since its last commit
        self._flushed = None  # ticks of the summary's last commit

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
        raw = self.mem.read("log")
        if len(raw) == LOG_SIZE:
            self.archived, self.noise_n, self.since, self.last_t, self.no_room, last = struct.unpack(_LOG_FMT, raw)
            self.last = eventlog._str(last)
        return self.mem.findings

    def reset(self, why, acct=b""):
        """The memory could not be opened: a fresh one whose first record says why. acct: the
        accounts block it starts with (firmware/accounts.py LOST: the loss is remembered)."""
        blocks = {}
        for name, _ in LAYOUT:
            blocks[name] = b""
        blocks["acct"] = acct
        blocks["a0"] = self._pack(b"", 1, "-", "lost", why)
        self.mem.format(blocks)
        self.n = 1
        self.archived = self.noise_n = self.since = self.last_t = self.no_room = 0
        self.last = ""

    def _pack(self, chunk, n, who, code, text):
        return chunk + struct.pack(_FMT, n & 0xFFFFFFFF, eventlog.now() & 0xFFFFFFFF, eventlog.clean(who, WHO).encode(),
                                   eventlog.clean(code, CODE).encode(), eventlog.clean(text, TEXT).encode())

    def _summary(self):
        return struct.pack(_LOG_FMT, self.archived, self.noise_n & 0xFFFFFFFF, self.since & 0xFFFFFFFF,
                           self.last_t & 0xFFFFFFFF, self.no_room & 0xFFFFFFFF, self.last.encode())

    def _commit(self, updates):
        if self._pending:
            updates["log"] = self._summary()  # the summary rides with the record: no commit of its own
        self.mem.commit(updates)
        if self._pending:
            self._pending = False
            self._flushed = self.clock() if self.clock else None

    def _append(self, updates, who, code, text):
        n = self.n
        if self.room() <= 0:  # it would write over a record not archived: counted instead
            self._remember("%s %s: %s" % (code, who, text))
            self.no_room += 1
            self._commit(updates)
            return False
        name = "a%d" % ((n // PER_CHUNK) % AUDIT_CHUNKS)
        record = self._pack(b"", n + 1, who, code, text)
        mem = self.mem
        keep = n % PER_CHUNK  # else the chunk starts afresh

        def chunk(buf, at, end):
            # the chunk as committed, then the record, built in the journal: not read back as new
            # pieces of a heap that after hours of play may have none of 800 bytes (a console
            # command's record then ran out of memory), nor kept in a buffer of the log's own
            k = mem.read_into(name, buf, at, end) if keep else 0
            if at + k + RECORD <= end:
                buf[at + k:at + k + RECORD] = record
            return k + RECORD

        updates[name] = chunk
        self._commit(updates)
        self.n = n + 1
        return True

    def record(self, who, code, text=""):
        """Append one record in its own commit, before the console answers. False: no room (it is
        counted in the summary; a record not archived is never written over)."""
        return self._append({}, who, code, text)

    # --- noise, room and the archive ----------------------------------------------------------------
    def _remember(self, line):
        t = eventlog.now()
        if not self.noise_n and not self.no_room:
            self.since = t
        self.last_t = t
        self.last = eventlog.clean(line, TEXT)
        self._pending = True

    def noise(self, code, text, who="-"):
        """A line from no session (or refused while the log is full): counted, not journaled; the
        summary is committed at most every NOISE_MS, or with the next record."""
        self._remember("%s %s: %s" % (code, who, text))
        self.noise_n += 1
        if self.clock is None:
            return
        t = self.clock()
        if self._flushed is None or ticks_diff(t, self._flushed) >= NOISE_MS:
            self.flush()

    def flush(self):
        """Commit the summary now, if it changed."""
        if self._pending:
            self._commit({})

    def room(self):
        """Records that can still be written before one not archived would have to go (a chunk is
        recycled whole: the one a new record opens must hold archived records only)."""
        top = (self.archived + RING - PER_CHUNK) // PER_CHUNK * PER_CHUNK + PER_CHUNK
        return top - self.n

    def full(self):
        """Privileged operations stop: the room left is the reserve."""
        return self.room() <= RESERVE

    def first_unarchived(self):
        return max(self.archived + 1, self.n - RING + 1, 1)

    def archive(self, upto, who):
        """Records up to `upto` are archived (an auditor exported them): their room is free again.
        Recorded, with the summary's counts, which start again."""
        if not self.archived <= upto <= self.n:
            raise ValueError("records are archived up to %d; the last is %d" % (self.archived, self.n))
        text = "records up to %d archived; noise %d lines since %d, %d records without room" % (
            upto, self.noise_n, self.since, self.no_room)
        self.archived = upto
        self.noise_n = self.no_room = self.since = self.last_t = 0
        self.last = ""
        self._pending = True
        return self._append({}, who, "archive", text)

    def status(self):
        """{records, archived, room, reserve, noise, since, last_t, no_room, last}: what `security
        status` shows."""
        return {"records": self.n, "archived": self.archived, "room": self.room(), "reserve": RESERVE,
                "noise": self.noise_n, "since": self.since, "last_t": self.last_t, "no_room": self.no_room,
                "last": self.last}

    # --- the release number -------------------------------------------------------------------------
    def release(self):
        """The highest release number recorded here (0: none)."""
        raw = self.mem.read("rel")
        return struct.unpack("<I", raw)[0] if len(raw) == REL_SIZE else 0

    def record_release(self, number, text):
        """A higher release number and the record that says so, in one commit."""
        self._append({"rel": struct.pack("<I", number)}, "-", "release", text)

    # --- reading ------------------------------------------------------------------------------------
    def chunks(self):
        """Names of the chunks in use, oldest first."""
        return eventlog.ring(self.n, AUDIT_CHUNKS, "a")

    def chunk_records(self, name):
        return unpack(self.mem.read_view(name))

    def records(self):
        out = []
        for name in self.chunks():
            out.extend(self.chunk_records(name))
        return out
