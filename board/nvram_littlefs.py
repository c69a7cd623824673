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

    def readinto(self, off, buf):
        """Fill buf from off, without allocating (critical memory reads a chunk into its own buffer)."""
        n = len(buf)
        self._check(off, n)
        self._f.seek(off)
        if self._f.readinto(buf) != n:
            raise OSError("littlefs NVRAM: short read %d at %d" % (n, off))

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

