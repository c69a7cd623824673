# A flash chip in RAM for the littlefs NVRAM tests (tests/device/test_nvram_backends.py, the wear
# figures of docs/nvram.md): test scaffolding, so it lives with the tests and no firmware image
# carries it. MicroPython's extended block-device protocol (docs/library/vfs.rst, "Block devices").

_CHUNK = 256  # fill and compare step: the test heap is fixed


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
