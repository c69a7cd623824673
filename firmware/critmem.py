# Critical memory: named blocks, each kept as two identical copies in separate banks, changed only
# by transactions that go through a write-ahead journal, every record sealed with a keyed MAC.
#
#   NVRAM:  [journal][bank A: block 0 .. block n][bank B: block 0 .. block n]
#   block copy: [magic "JB"][id][seq u32][len u16][payload][tag]   (tag over header+payload)
#   journal:    [magic "JJ"][seq u32][count][{id, len u16, payload}...][tag]
#   tag: HMAC-SHA256 keyed by the machine's secret (never in the image nor in NVRAM), cut to 16 bytes
#
# commit(): write the journal, then every block's copy A, then copy B (sealed with A's tag: the
# same bytes), then the anti-rollback counter (a memory apart from NVRAM) to the commit's sequence
# number; with `defer`, everything after the journal is left for settle() (a SAS order's reply
# goes out in between: firmware/sas/machine.py). An exception with the power
# on (out of memory) after the journal is on record leaves a commit that happened: the next commit
# replays it first, as open() would (_finish()); `journals` tells a caller whether its own commit's
# journal was written (a mark taken before, compared after). A power cut at any instant
# leaves either an invalid journal (copies untouched: the old state) or a valid journal that open()
# replays (the new state), with the counter at most one commit behind. A copy that fails its tag is
# rebuilt from its twin and the repair reported; when both copies of a block are bad and the
# journal cannot rebuild it, the memory is unrecoverable: RamError, which only a technician's RAM
# clear ends. So is memory behind its counter (an older copy put back), and blank memory on a
# machine whose counter says it was initialised before: blank is not fresh.
#
# The counter dates the newest commit only. Each block is dated by a directory, one more block
# that every commit writes: the commit number of every block as of that commit. A single block put
# back from an older copy of the memory (its seal valid, its journal spoilt) is not the one the
# directory names, nor is an older directory: a RAM error either way.
import struct

from board.compat import const
from rng.crypto.hmac_sha256 import Hmac, equal, pads

_BLOCK_HEAD = "<2sBIH"
_BLOCK_HEAD_SIZE = const(9)
_JOURNAL_HEAD = "<2sIB"
_JOURNAL_HEAD_SIZE = const(7)
_ENTRY_HEAD = "<BH"
_META_NONE = const(0xFFFF)  # a block's length in the heap before its first commit (a payload is never that long)
_TAG_SIZE = const(16)  # HMAC-SHA256 cut to 128 bits (RFC 2104 s. 5, as RFC 4868's HMAC-SHA-256-128)
_VERIFY_PIECE = const(128)
DIRECTORY = "_dir"  # the last block of every layout: <seq u32> per block, in layout order
KEY_LABEL = b"jeton critical memory v1"  # the MAC key is derived: the secret may key other things


class RamError(Exception):
    """Critical memory cannot be trusted: a RAM-error tilt."""


class CriticalMemory:
    # set: a commit returns once its journal is on record (its commit point), its copies left in the
    # record buffer until settle() or the next use of it by this memory or one sharing it: a SAS
    # order's reply is not kept waiting for them (firmware/sas/machine.py). A class attribute: a
    # memory that never defers keeps no entry for it in its heap
    defer = False

    def __init__(self, nvram, layout, journal_capacity, secret, counter, base=0, buffers=None):
        """layout: tuple of (name, capacity in bytes); order fixes the NVRAM map, never reorder. Kept,
        not copied: written out as a constant, a frozen image holds it and its names in flash.
        journal_capacity: payload bytes of the largest transaction (its blocks' capacities summed).
        secret: the machine's secret (board machine_secret()); counter: its anti-rollback counter
        (board rollback_counter(): read() -> int or None, write(n)). buffers: another
        CriticalMemory whose record buffers this one may build its records in (one commit at a time)."""
        if not secret:
            raise RamError("no machine secret to seal critical memory with")
        self._pads = pads(Hmac(secret, KEY_LABEL).digest())
        if buffers is not None and buffers._pads == self._pads:
            self._pads = buffers._pads  # the same machine's key: one copy of its 128 bytes of pads
        self.counter = counter
        self.nvram = nvram
        # the blocks' names in a tuple (a block's id is its place there), their capacities read from the
        # caller's layout (kept, not copied: the books' is a constant in flash), their offsets in a
        # tuple. Dicts by name took 320-448 bytes of heap each per memory (docs/critical-memory.md)
        self._layout = layout = tuple(layout)
        self.blocks = n = len(layout)  # the caller's blocks; the directory follows them
        self._dir_cap = dir_cap = 4 * n
        names = [DIRECTORY] * (n + 1)
        offsets = [0] * (n + 1)
        bank = 0
        largest = dir_cap
        for i in range(n + 1):
            cap = layout[i][1] if i < n else dir_cap
            if i < n:
                names[i] = layout[i][0]
            offsets[i] = bank
            bank += _BLOCK_HEAD_SIZE + cap + _TAG_SIZE
            if cap > largest:
                largest = cap
        self.names = tuple(names)
        self._offsets = tuple(offsets)
        names = offsets = None
        self.base = base
        journal_capacity += 3 + dir_cap  # every transaction carries the directory
        self.journal_capacity = journal_capacity
        self.journal_size = _JOURNAL_HEAD_SIZE + _TAG_SIZE + 3 * 4 + journal_capacity
        self.bank_size = bank
        self.size = self.journal_size + 2 * bank
        if base + self.size > nvram.size:
            raise RamError("layout needs %d bytes, NVRAM has %d" % (base + self.size, nvram.size))
        # every record is built in this one buffer, in place: the journal, then each block's copy
        # around its payload in the journal (_write_copy); a copy repaired at power-up and a block
        # read by read_view() at its start. No per-commit allocation of a few KB that a fragmented
        # heap may not find, and no second buffer of the largest block's size (3.2 KB of heap)
        size = max(self.journal_size, _BLOCK_HEAD_SIZE + largest + _TAG_SIZE)
        if buffers is not None and len(buffers._jbuf) >= size:
            # a second memory opened late in the boot, in a fragmented heap, takes no new piece
            self._jbuf, self._saved, self._held = buffers._jbuf, buffers._saved, buffers._held
        else:
            self._jbuf = bytearray(size)
            self._saved = bytearray(_BLOCK_HEAD_SIZE + _TAG_SIZE)  # the journal's bytes a copy is built over
            # a commit made with defer whose copies are still to be built from its journal there:
            # [its memory (of those sharing this buffer), its seq, its blocks' (id, at, n), the
            # directory last], settled before anything else uses the buffer (settle)
            self._held = [None, 0, None]
        self.seq = 0
        # per block, by id: the sequence number (u32, 0 before any) and length (u16, _META_NONE before
        # any) of what was last committed in _meta, all the numbers first (as the directory has them),
        # and its tag in _tags: one buffer each, not a dict of tuples (816 bytes of heap in
        # the books' memory) nor a bytes object per block. The payloads stay in NVRAM and are read
        # when needed: a full event log and recall would otherwise keep ~26 KB in the heap.
        self._meta = self._no_meta()
        self._tags = bytearray(_TAG_SIZE * len(self.names))
        self.bytes_written = 0
        self.findings = []  # what open() had to repair or discard, for the event log
        # the sequence number of a commit whose journal is on record but whose copies failed to be
        # written (an exception in them, the power still on): the next commit replays it first
        self._torn = None
        # journals written since power-up: a caller that notes it before a commit knows afterwards
        # whether that commit reached its journal (a torn commit before it leaves _torn set)
        self.journals = 0

    # --- addresses ----------------------------------------------------------------------------------
    def block_id(self, name):
        """A block's id: its place in the layout (the directory's is last). KeyError: no such block."""
        try:
            return self.names.index(name)
        except ValueError:
            raise KeyError(name)

    def capacity_of(self, name):
        return self._cap(self.block_id(name))

    def _cap(self, i):
        return self._dir_cap if i == self.blocks else self._layout[i][1]

    def _copy_off(self, name, bank):
        return self._off(self.block_id(name), bank)

    def _off(self, i, bank):
        return self.base + self.journal_size + bank * self.bank_size + self._offsets[i]

    # --- what was committed -------------------------------------------------------------------------
    def _no_meta(self):
        k = len(self.names)
        meta = bytearray(6 * k)
        meta[4 * k:] = b"\xff" * (2 * k)
        return meta

    def _set_meta(self, meta, i, seq, n):
        struct.pack_into("<I", meta, 4 * i, seq)
        struct.pack_into("<H", meta, 4 * len(self.names) + 2 * i, n)

    def _meta_of(self, i, meta=None):
        """(seq, length) of block i's last commit, None before any (meta: another such buffer)."""
        meta = self._meta if meta is None else meta
        n = struct.unpack_from("<H", meta, 4 * len(self.names) + 2 * i)[0]
        return None if n == _META_NONE else (struct.unpack_from("<I", meta, 4 * i)[0], n)

    def _committed(self, i):
        m = self._meta_of(i)
        if m is None:
            raise KeyError(self.names[i])
        return m

    def committed(self, name):
        """(seq, length) of what the block's last commit wrote, None before any."""
        self.settle()
        return self._meta_of(self.block_id(name))

    # --- seals --------------------------------------------------------------------------------------
    def _mac(self, *parts):
        """A MAC fed with the parts as they are (no joined copy); .update() more, then _tag()."""
        h = Hmac(None, None, self._pads)
        for p in parts:
            h.update(p)
        return h

    @staticmethod
    def _tag(h):
        return h.digest()[:_TAG_SIZE]

    def _keep_tag(self, i, tag):
        i *= _TAG_SIZE
        self._tags[i:i + _TAG_SIZE] = tag

    def _committed_tag(self, i, tag):
        i *= _TAG_SIZE
        return self._tags[i:i + _TAG_SIZE] == tag

    # --- raw copies ---------------------------------------------------------------------------------
    def _read_into(self, off, view):
        """view filled from NVRAM at off, without a new piece of the heap where the part can."""
        readinto = getattr(self.nvram, "readinto", None)
        if readinto is not None:
            readinto(off, view)
        else:  # a part with read() only: one piece, copied in
            view[:] = self.nvram.read(off, len(view))
        return view

    def _read_copy(self, name, bank, into=None):
        """(seq, payload, tag) or None when the copy fails its checks. into: a buffer the payload
        and tag are read into (the payload is then a memoryview of it), not new pieces of the heap."""
        i = self.block_id(name)
        off = self._off(i, bank)
        head = self.nvram.read(off, _BLOCK_HEAD_SIZE)
        magic, bid, seq, n = struct.unpack(_BLOCK_HEAD, head)
        if magic != b"JB" or bid != i or n > self._cap(i):
            return None
        if into is None:
            rest = self.nvram.read(off + _BLOCK_HEAD_SIZE, n + _TAG_SIZE)
        else:
            rest = self._read_into(off + _BLOCK_HEAD_SIZE, memoryview(into)[:n + _TAG_SIZE])
        payload = rest[:n]
        tag = bytes(rest[n:])
        if not equal(tag, self._tag(self._mac(head, payload))):
            return None
        return seq, payload, tag

    def _repair_copy(self, name, bank, seq, payload):
        """A copy of payload (a repair at power-up: the record buffer is free), built at its start."""
        self._jbuf[_BLOCK_HEAD_SIZE:_BLOCK_HEAD_SIZE + len(payload)] = payload
        return self._write_copy(self.block_id(name), bank, seq, _BLOCK_HEAD_SIZE, len(payload))

    def _write_copy(self, i, bank, seq, at, n, tag=None):
        """Block i's copy of the payload at [at, at + n) in the record buffer, written in one piece (a
        littlefs part syncs at each write). A commit's copy is built around its payload in the
        journal, over the 9 bytes before it and the 16 after, which are put back once it is written
        (the next copy is built in the same journal): no second buffer of the largest block's size.
        tag: the seal of its twin just written from the same bytes (the header names no bank, so
        both copies are byte for byte the same): not computed again."""
        buf = self._jbuf
        keep = self._saved
        start = at - _BLOCK_HEAD_SIZE
        end = at + n
        keep[:_BLOCK_HEAD_SIZE] = buf[start:at]
        keep[_BLOCK_HEAD_SIZE:] = buf[end:end + _TAG_SIZE]
        struct.pack_into(_BLOCK_HEAD, buf, start, b"JB", i, seq, n)
        mv = memoryview(buf)
        if tag is None:
            tag = self._tag(self._mac(mv[start:end]))
        buf[end:end + _TAG_SIZE] = tag
        try:
            self.nvram.write(self._off(i, bank), mv[start:end + _TAG_SIZE])
        finally:
            buf[start:at] = keep[:_BLOCK_HEAD_SIZE]
            buf[end:end + _TAG_SIZE] = keep[_BLOCK_HEAD_SIZE:]
        self.bytes_written += end + _TAG_SIZE - start
        return tag

    def _read_journal(self, into=None):
        """(seq, {name: payload}) or None. into: a buffer the whole journal is read into (the
        payloads are then memoryviews of it), not pieces of the heap as large as its blocks."""
        off = self.base
        read = self.nvram.read
        if into is not None:
            whole = self._read_into(off, memoryview(into)[:self.journal_size])

            def read(at, n):
                return whole[at - off:at - off + n]
        head = read(off, _JOURNAL_HEAD_SIZE)
        magic, seq, count = struct.unpack(_JOURNAL_HEAD, head)
        if magic != b"JJ" or count > len(self.names):
            return None
        pos = _JOURNAL_HEAD_SIZE
        h = self._mac(head)
        entries = {}
        for _ in range(count):
            eh = read(off + pos, 3)
            bid, n = struct.unpack(_ENTRY_HEAD, eh)
            if bid >= len(self.names) or n > self._cap(bid):
                return None
            payload = read(off + pos + 3, n)
            h.update(eh)
            h.update(payload)
            entries[self.names[bid]] = payload
            pos += 3 + n
        tag = read(off + pos, _TAG_SIZE)
        if not equal(tag, self._tag(h)):
            return None
        return seq, entries

    # --- power-up -----------------------------------------------------------------------------------
    def blank(self):
        chunk = 256
        zero = bytes(chunk)
        for off in range(self.base, self.base + self.size, chunk):
            n = min(chunk, self.base + self.size - off)
            if self.nvram.read(off, n) != zero[:n]:
                return False
        return True

    def format(self, initial):
        """Fresh memory: every block written with its initial payload (a RAM clear does this too).
        One journaled transaction, numbered above every sequence number still readable and above
        the counter, so that a power cut part-way through is replayed at power-up like any other
        commit, and the cleared memory is never behind its counter. A new machine's counter is set
        to 0 first: from then on the machine counts as initialised."""
        self.settle()  # its look at every copy is read into the record buffer
        count = self.counter.read()
        if count is None:
            self.counter.write(0)
        seq, meta, mark = self.seq, self._meta, self.journals
        try:
            self.seq = max(self._highest_seq(), count or 0)
            self._meta = self._no_meta()
            self.commit(initial)
        except BaseException:
            # failed before its journal (out of memory; the replay of an earlier torn commit, which
            # leaves _torn set, too): nothing changed
            if self.journals == mark:
                self.seq, self._meta = seq, meta
            raise

    def _highest_seq(self):
        """Read into the record buffer: a RAM clear's look at every copy (recall blocks of 1.5 KB,
        the 3 KB state) took pieces the board's heap in pieces did not have (make powercut:
        'out of memory for ramclear (30864 bytes free)')."""
        best = 0
        j = self._read_journal(self._jbuf)
        if j:
            best = j[0]
        for name in self.names:
            for bank in (0, 1):
                cp = self._read_copy(name, bank, self._jbuf)
                if cp and cp[0] > best:
                    best = cp[0]
        return best

    def open(self):
        """Validate everything, replay an interrupted transaction, repair single bad copies, and
        check the result against the anti-rollback counter.

        Returns False for a new machine's memory (caller formats it): blank with no counter, or at
        counter 0 (a first format cut short). Raises RamError when unrecoverable, behind or too far
        ahead of the counter, or blank on a machine initialised before.
        """
        self.settle()
        self.findings = []
        count = self.counter.read()
        if self.blank():
            if count:
                raise RamError("blank critical memory on a machine initialised before (counter at %d)" % count)
            return False
        try:
            self._open()
        except RamError:
            if count == 0:
                return False  # the first format was cut short: nothing was ever kept here
            raise
        if count is None:
            raise RamError("critical memory holds records but the anti-rollback counter was never set (lost)")
        if self.seq < count:
            raise RamError("rolled back: critical memory at commit %d, its counter at %d" % (self.seq, count))
        if self.seq > count + 1:
            raise RamError("critical memory at commit %d is ahead of its counter (%d)" % (self.seq, count))
        if self.seq == count + 1:  # a power cut between a commit and its counter: caught up
            self.counter.write(self.seq)
        return True

    def _any_sealed(self):
        if self._read_journal():
            return True
        for name in self.names:
            for bank in (0, 1):
                if self._read_copy(name, bank):
                    return True
        return False

    def _open(self):
        journal = self._read_journal()
        jseq, jentries = journal if journal else (None, {})
        if journal is None:
            self.findings.append("journal discarded (incomplete or corrupt)")
        best = 0
        meta = self._no_meta()  # this memory's only when all of it is proven
        for i in range(len(self.names)):
            name = self.names[i]
            a = self._read_copy(name, 0)
            b = self._read_copy(name, 1)
            if name in jentries and (a is None or a[0] != jseq or b is None or b[0] != jseq):
                # the journal is newer than (or rebuilds) the copies: replay it
                if (a and a[0] > jseq) or (b and b[0] > jseq):
                    raise RamError("block %s newer than the journal" % name)
                payload = jentries[name]
                tag = None
                for bank, cp in ((0, a), (1, b)):
                    if cp is None or cp[0] != jseq or cp[1] != payload:
                        tag = self._repair_copy(name, bank, jseq, payload)
                    else:
                        tag = cp[2]
                self.findings.append("replayed %s from journal" % name)
                a = b = (jseq, payload, tag)
            if a is None and b is None:
                if not self._any_sealed():
                    raise RamError("no record is sealed with this machine's key (another machine's memory, "
                                   "or records written without the key)")
                raise RamError("both copies of %s are bad" % name)
            if a is None or b is None:
                good = a or b
                self._repair_copy(name, 0 if a is None else 1, good[0], good[1])
                self.findings.append("repaired copy %s of %s" % ("A" if a is None else "B", name))
                a = b = good
            if a != b:
                raise RamError("copies of %s disagree" % name)
            self._set_meta(meta, i, a[0], len(a[1]))
            self._keep_tag(i, a[2])
            if name == DIRECTORY:
                directory = a[1]
            if a[0] > best:
                best = a[0]
        if jseq is not None and jseq > best:
            best = jseq
        self._check_directory(meta, best, directory)
        self.seq = best
        self._meta = meta

    def _check_directory(self, meta, newest, d):
        """Every block is the one the newest commit's directory names (see the header)."""
        dseq = self._meta_of(self.blocks, meta)[0]
        if dseq != newest or len(d) != 4 * self.blocks:
            raise RamError("directory at commit %d, memory at commit %d: a block put back from an older copy"
                           % (dseq, newest))
        for i in range(self.blocks):
            want = struct.unpack_from("<I", d, 4 * i)[0]
            seq = self._meta_of(i, meta)[0]
            if seq != want:
                raise RamError("%s at commit %d, its directory says %d: a block put back from an older copy"
                               % (self.names[i], seq, want))

    # --- use ----------------------------------------------------------------------------------------
    def read(self, name):
        """The committed payload of a block, read back from NVRAM (copy A, else its twin)."""
        self._finish()
        i = self.block_id(name)
        seq = self._committed(i)[0]
        for bank in (0, 1):
            cp = self._read_copy(name, bank)
            if cp is not None and cp[0] == seq and self._committed_tag(i, cp[2]):
                return cp[1]
        raise RamError("both copies of %s changed under us" % name)

    def read_view(self, name):
        """read(), into this memory's record buffer: a memoryview valid until the next read_view or
        commit (of this memory or one sharing its buffer), for a caller that parses or copies it at
        once, never a payload to commit (an event chunk: 768 bytes twice over that a heap in pieces
        may not have, read for every chunk of `events json`)."""
        self._finish()
        i = self.block_id(name)
        seq = self._committed(i)[0]
        for bank in (0, 1):
            cp = self._read_copy(name, bank, self._jbuf)
            if cp is not None and cp[0] == seq and self._committed_tag(i, cp[2]):
                return cp[1]
        raise RamError("both copies of %s changed under us" % name)

    def read_into(self, name, buf, at, end):
        """read(), into buf from at (never past end): the payload's length. A commit's payload
        written from the block as committed plus what it adds (the security log's chunk and its new
        record: firmware/audit.py), in the journal itself, not first copied out in a piece of the heap."""
        self._finish()
        i = self.block_id(name)
        seq, n = self._committed(i)
        if n > end - at:
            raise RamError("%s: %d bytes exceed the %d given" % (name, n, end - at))
        view = memoryview(buf)[at:at + n]
        for bank in (0, 1):
            off = self._off(i, bank)
            head = self.nvram.read(off, _BLOCK_HEAD_SIZE)
            if struct.unpack(_BLOCK_HEAD, head) != (b"JB", i, seq, n):
                continue
            tag = self._tag(self._mac(head, self._read_into(off + _BLOCK_HEAD_SIZE, view)))
            if self._committed_tag(i, tag) and equal(self.nvram.read(off + _BLOCK_HEAD_SIZE + n, _TAG_SIZE), tag):
                return n
        raise RamError("both copies of %s changed under us" % name)

    def salvage(self, name):
        """The newest intact payload of one block, even when the memory as a whole failed to open
        (a RAM clear keeps what can still be proven, e.g. the hard meters' positions); None when
        neither copy nor the journal holds it."""
        if self.committed(name) is not None:
            try:
                return self.read(name)
            except RamError:
                pass
        best = None
        j = self._read_journal()
        if j and name in j[1]:
            best = (j[0], j[1][name])
        for bank in (0, 1):
            cp = self._read_copy(name, bank)
            if cp and (best is None or cp[0] > best[0]):
                best = cp
        return best[1] if best else None

    def _finish(self):
        """A commit on record whose copies failed to be written is finished first, as a power-up
        would (the copies follow their journal), before anything reads or writes a block: read
        before it, a block was the one before that commit (an event appended after a torn one was
        appended to the chunk without it, and the torn event was lost). A deferred commit's copies
        (this memory's or another's in the same record buffer) are written first."""
        self.settle()
        if self._torn is not None:
            self._open()
            self._torn = None

    def commit(self, updates, then=None):
        """Atomically replace the payloads of the named blocks. then(), if given, runs at the commit
        point: the journal is on record, the copies are not yet written (an output that must change
        exactly when the record does, e.g. a meter coil released when its stroke is counted).
        A payload is bytes, or a function write(buf, at, end) that writes it into buf from at (never
        past end) and returns its length, more than end - at when it does not fit: a block's text
        built in the journal itself, not first in a piece of the heap as long as it.
        With `defer` set the copies and the counter are left to settle() (or the next use of the
        record buffer): the commit has happened once this returns, as after a cut at the same point."""
        self._finish()
        seq = (self.seq + 1) & 0xFFFFFFFF
        buf = self._jbuf
        k = self._dir_cap
        limit = self.journal_size - _TAG_SIZE - 3 - k  # the directory's entry and the tag follow
        pos = _JOURNAL_HEAD_SIZE
        at = []  # (id, where its payload is in the journal, its length), for the copies
        for name in updates:
            payload = updates[name]
            i = self.block_id(name)
            cap = self._cap(i) if i != self.blocks else -1
            start = pos + 3
            if callable(payload):
                n = payload(buf, start, min(start + cap, limit))
            else:
                n = len(payload)
                if n <= cap and start + n <= limit:
                    buf[start:start + n] = payload
            if n > cap:
                raise RamError("%s: %d bytes exceed its %d" % (name, n, cap))
            if start + n > limit:
                raise RamError("transaction of %d bytes exceeds the journal" % (start + n + k + 3 + _TAG_SIZE))
            struct.pack_into(_ENTRY_HEAD, buf, pos, i, n)
            at.append((i, start, n))
            pos = start + n
        # the directory, built in the journal after the blocks: every block's last commit (0: none),
        # then this commit's blocks at this one
        struct.pack_into(_JOURNAL_HEAD, buf, 0, b"JJ", seq, len(at) + 1)
        struct.pack_into(_ENTRY_HEAD, buf, pos, self.blocks, k)
        dir_at = pos + 3
        buf[dir_at:dir_at + k] = memoryview(self._meta)[:k]
        for i, _, _ in at:
            struct.pack_into("<I", buf, dir_at + 4 * i, seq)
        pos = dir_at + k
        mv = memoryview(buf)
        buf[pos:pos + _TAG_SIZE] = self._tag(self._mac(mv[:pos]))
        self._torn = seq  # from here the commit is on record, whatever fails
        self.journals += 1
        self.nvram.write(self.base, mv[:pos + _TAG_SIZE])
        self.bytes_written += pos + _TAG_SIZE
        at.append((self.blocks, dir_at, k))
        try:
            if then is not None:
                then()
        finally:  # the copies follow their journal whatever then() did: the next commit overwrites it
            held = self._held
            held[0], held[1], held[2] = self, seq, at
            if not self.defer:  # else settled later, before the record buffer is used again
                self.settle()

    def settle(self):
        """The copies of a commit made with defer (this memory's or one sharing its record buffer),
        written now from its journal in the buffer; nothing when none waits. Every copy A, then
        every copy B with A's seal, then the counter. An exception leaves that memory's commit torn
        (_torn): its next use replays the journal from NVRAM (_finish)."""
        held = self._held
        m = held[0]
        if m is None:
            return
        seq, at = held[1], held[2]
        held[0] = held[2] = None
        tags = [None] * len(at)
        for bank in (0, 1):
            for j in range(len(at)):
                i, start, n = at[j]
                tags[j] = m._write_copy(i, bank, seq, start, n, tags[j])  # as journaled: then() may not change them
        for j in range(len(at)):
            m._keep_tag(at[j][0], tags[j])
        m.seq = seq
        meta = m._meta
        for i, _, n in at:
            m._set_meta(meta, i, seq, n)
        m._torn = None
        # last: the counter. A cut before it leaves NVRAM one commit ahead, which open() accepts
        m.counter.write(seq)

    def verify(self):
        """Before and after each play: both copies of every block still match what we committed."""
        self._finish()
        for i in range(len(self.names)):
            meta = self._committed(i)
            for bank in (0, 1):
                if not self._same(i, bank, meta):
                    raise RamError("copy %s of %s changed under us" % ("AB"[bank], self.names[i]))

    def _same(self, i, bank, meta):
        # the copy is intact and is the one committed: its sequence, length and tag (over header
        # and payload, recomputed from the bytes in NVRAM) are those of the last commit. Read in
        # small pieces: this runs twice a game, and small pieces fit a fragmented heap
        seq0, n0 = meta
        off = self._off(i, bank)
        head = self.nvram.read(off, _BLOCK_HEAD_SIZE)
        magic, bid, seq, n = struct.unpack(_BLOCK_HEAD, head)
        if magic != b"JB" or bid != i or seq != seq0 or n != n0:
            return False
        h = self._mac(head)
        off += _BLOCK_HEAD_SIZE
        for pos in range(0, n, _VERIFY_PIECE):
            h.update(self.nvram.read(off + pos, min(_VERIFY_PIECE, n - pos)))
        tag = self._tag(h)
        return self._committed_tag(i, tag) and equal(self.nvram.read(off + n, _TAG_SIZE), tag)
