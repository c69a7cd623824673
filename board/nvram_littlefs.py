# NVRAM as one fixed-size file on a littlefs filesystem (MicroPython os.VfsLfs2) on the board's
# flash, for boards without FRAM. Same interface as board/emulated.py's FileNvram and
# board/nvram_fram.py: size, read(off, n) -> bytes, write(off, data), close().
#
# Flash wear and atomicity (measured figures in docs/nvram.md):
# - littlefs is copy-on-write: a file update is written to fresh blocks and committed by a metadata
#   commit, so one write() either lands whole or not at all, even if power fails inside it.
# - littlefs stores a file as a backwards-linked list of blocks: changing bytes in the middle
#   rewrites the block holding them and every block after it. The journal at offset 0 makes every
#   commit rewrite the whole file; each write() here is flushed on its own (critmem's ordering
#   needs that), so one commit costs several whole-file rewrites. FRAM has no such cost.
# - The journal in firmware/critmem.py still provides the transaction atomicity (several writes).
import os

from board.nvram_file import prepare

_CHUNK = 256  # fill and compare step: the firmware's heap is fixed


class LfsNvram:
    """NVRAM of `size` bytes in the file `path` (created or zero-extended by
    board.nvram_file.prepare, never re-created). Every write is flushed (a littlefs commit) and,
    where the port has it, followed by os.sync(), before write() returns."""

    def __init__(self, path, size):
        if size <= 0:
            raise ValueError("littlefs NVRAM size must be positive, not %d" % size)
        self.size = size
        self.path = path
        prepare(path, size)
        self._f = open(path, "r+b")
        self._sync = getattr(os, "sync", None)

    def _check(self, off, n):
        if off < 0 or n < 0 or off + n > self.size:
            raise ValueError("littlefs NVRAM: access %d+%d outside %d bytes" % (off, n, self.size))

    def read(self, off, n):
        self._check(off, n)
        self._f.seek(off)
        data = self._f.read(n)
        if len(data) != n:
            raise OSError("littlefs NVRAM: short read %d of %d at %d" % (len(data), n, off))
        return data

    def write(self, off, data):
        n = len(data)
        self._check(off, n)
        if not n:
            return
        self._f.seek(off)
        done = self._f.write(data)
        if done is not None and done != n:
            raise OSError("littlefs NVRAM: short write %d of %d at %d" % (done, n, off))
        self._f.flush()  # littlefs: lfs_file_sync, the copy-on-write commit reaches flash here
        if self._sync:
            self._sync()

    def close(self):
        self._f.close()


class RamBlockDev:
    """A flash chip in RAM for tests: MicroPython's extended block-device protocol, so that
    os.VfsLfs2.mkfs(bdev) and os.VfsLfs2(bdev) work on the unix port. Counts what littlefs asks
    of the flash: program calls and bytes, block erases, and programs over unerased bytes.
    One bytearray per block: a fixed heap finds many small blocks where one big one would fail."""

    def __init__(self, block_size, count):
        self.block_size = block_size
        self.count = count
        self.blocks = [bytearray(block_size) for _ in range(count)]
        self._ff = b"\xff" * _CHUNK  # erased flash reads as 1s; one small pattern, used piecewise
        self.reset_counters()

    def reset_counters(self):
        self.writes = 0  # writeblocks calls (program operations)
        self.programmed = 0  # bytes programmed
        self.erases = 0  # blocks erased
        self.reads = 0
        self.unerased = 0  # programs into bytes not erased first: littlefs never should
        self.trace = None  # a list to record ("e", block) / ("p", block, off, data) for replays

    def snapshot(self):
        return [bytes(b) for b in self.blocks]

    def restore(self, snap):
        for b, s in zip(self.blocks, snap):
            b[:] = s

    def replay(self, ops):
        """Apply recorded operations again: a prefix of a trace is the flash after a power cut."""
        for op in ops:
            if op[0] == "e":
                self.ioctl(6, op[1])
            else:
                self._program(op[1], op[2], op[3])

    def readblocks(self, n, buf, off=0):
        bs = self.block_size
        mv = memoryview(buf)
        i = 0
        while i < len(buf):  # the simple protocol may read several blocks at once
            k = min(len(buf) - i, bs - off)
            mv[i:i + k] = memoryview(self.blocks[n])[off:off + k]
            i += k
            n += 1
            off = 0
        self.reads += 1

    def writeblocks(self, n, buf, off=None):
        if off is None:  # simple protocol: whole blocks, each erased first
            bs = self.block_size
            mv = memoryview(buf)
            for b in range(len(buf) // bs):
                self.ioctl(6, n + b)
                self._program(n + b, 0, mv[b * bs:(b + 1) * bs])
        else:
            self._program(n, off, buf)

    def _program(self, n, off, buf):
        k = len(buf)
        if off + k > self.block_size or not 0 <= n < self.count:
            raise OSError("program of %d bytes at block %d+%d crosses the block" % (k, n, off))
        blk = memoryview(self.blocks[n])
        ff = memoryview(self._ff)
        for i in range(off, off + k, _CHUNK):
            j = min(_CHUNK, off + k - i)
            if blk[i:i + j] != ff[:j]:
                self.unerased += 1
                break
        blk[off:off + k] = buf
        if self.trace is not None:
            self.trace.append(("p", n, off, bytes(buf)))
        self.writes += 1
        self.programmed += k

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.count
        if op == 5:  # block size
            return self.block_size
        if op == 6:  # erase block arg
            blk = memoryview(self.blocks[arg])
            for i in range(0, self.block_size, _CHUNK):
                j = min(_CHUNK, self.block_size - i)
                blk[i:i + j] = memoryview(self._ff)[:j]
            if self.trace is not None:
                self.trace.append(("e", arg))
            self.erases += 1
            return 0
        return 0  # 1 init, 2 deinit, 3 sync: nothing to do in RAM
