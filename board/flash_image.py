# The firmware image as the microcontroller maps its flash (execute in place), read back for the
# boot check and `verify SEED` from the very addresses the CPU runs it from: not a copy on a file
# system, which a tampered board could keep pristine beside a changed program.
#
# A board's image is one or more regions read in order: the STM32F405 keeps its vector table in
# sector 0 and the rest from sector 5, with the file system's sectors between them. Each region is
# hashed whole, erased flash (0xFF) included: the release's file for that board is the regions
# concatenated, padded as the flash holds them, so nothing can hide in the unused tail.


class MappedImage:
    """readinto(buf) -> n (0 at the end), close(): the bytes of `regions`, ((address, length), ...),
    in order. `at(address, n)`: a buffer over n bytes of memory (uctypes.bytearray_at, no copy)."""

    def __init__(self, regions, at=None):
        if at is None:
            import uctypes

            at = uctypes.bytearray_at
        self._at = at
        self._regions = regions
        self._i = 0
        self._pos = 0

    def readinto(self, buf):
        while self._i < len(self._regions):
            addr, size = self._regions[self._i]
            n = min(len(buf), size - self._pos)
            if n > 0:
                buf[:n] = self._at(addr + self._pos, n)
                self._pos += n
                return n
            self._i += 1
            self._pos = 0
        return 0

    def close(self):
        self._i = len(self._regions)


def size(regions):
    total = 0
    for _, n in regions:
        total += n
    return total


class PartitionImage:
    """The same over an ESP32 app partition (esp32.Partition.RUNNING), which the flash cache maps
    only in part: read through readblocks(block, buf, offset), the whole partition in order."""

    def __init__(self, part, block=4096):
        self._part = part
        self._end = part.ioctl(4, 0) * block  # BLOCK_COUNT
        self._block = block
        self._pos = 0

    def readinto(self, buf):
        n = min(len(buf), self._end - self._pos)
        if n <= 0:
            return 0
        blk, off = divmod(self._pos, self._block)
        n = min(n, self._block - off)  # one block at a time: the extended readblocks stays in it
        mv = memoryview(buf)[:n]
        self._part.readblocks(blk, mv, off)
        self._pos += n
        return n

    def close(self):
        self._pos = self._end
