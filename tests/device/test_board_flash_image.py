# A board's firmware read back from its flash (board/flash_image.py): the mapped regions in order,
# and an ESP32 app partition block by block. The real mapping is read on the Cortex-M3 under qemu
# (tests/host/test_flash_image_qemu.py); here the reading logic, over stand-in memories.
from board.flash_image import MappedImage, PartitionImage, size


def _stream(img, piece):
    buf = bytearray(piece)
    out = bytearray()
    while True:
        n = img.readinto(buf)
        if not n:
            return bytes(out)
        assert n <= piece
        out += buf[:n]


def _memory(base, n):
    mem = bytearray(n)
    for i in range(n):
        mem[i] = (i * 7 + i // 251) & 0xFF
    return mem, (lambda addr, k: mem[addr - base:addr - base + k])


def test_regions_are_read_in_order_whatever_the_piece_size():
    base = 0x08000000
    mem, at = _memory(base, 4096)
    regions = ((base, 100), (base + 1000, 1500), (base + 4000, 96))
    want = bytes(mem[0:100]) + bytes(mem[1000:2500]) + bytes(mem[4000:4096])
    for piece in (1, 7, 64, 512, 5000):
        got = _stream(MappedImage(regions, at), piece)
        assert got == want, piece
    assert size(regions) == len(want) == 1696


def test_the_end_reads_zero_and_close_ends_it():
    base = 0x10000000
    mem, at = _memory(base, 64)
    img = MappedImage(((base, 64),), at)
    buf = bytearray(40)
    assert img.readinto(buf) == 40 and img.readinto(buf) == 24
    assert img.readinto(buf) == 0 and img.readinto(buf) == 0
    img = MappedImage(((base, 64),), at)
    img.close()
    assert img.readinto(buf) == 0


def test_the_pyboard_image_is_sector_0_and_sectors_5_to_11():
    # STM32F405 flash sectors (ST RM0090, Table 5 "Flash module organization"): 0-3 of 16 KB,
    # 4 of 64 KB, 5-11 of 128 KB from 0x08000000; MicroPython keeps its file system in 1-4.
    from board import pyboard

    starts = []
    at = 0x08000000
    for kb in [16] * 4 + [64] + [128] * 7:
        starts.append((at, kb * 1024))
        at += kb * 1024
    name, regions = pyboard.IMAGE
    assert name.endswith(".bin")
    assert regions[0] == starts[0]
    assert regions[1] == (starts[5][0], sum(n for _, n in starts[5:]))
    assert size(regions) == 912 * 1024


class _Partition:
    """esp32.Partition's block protocol: readblocks(block, buf, offset), ioctl(4) = block count."""

    def __init__(self, data, block=4096):
        self.data = data
        self.block = block
        self.reads = []

    def ioctl(self, op, arg):
        assert op == 4
        return len(self.data) // self.block

    def readblocks(self, blk, buf, off=0):
        assert off + len(buf) <= self.block  # the extended read never crosses a block
        self.reads.append((blk, off, len(buf)))
        start = blk * self.block + off
        buf[:] = self.data[start:start + len(buf)]


def test_a_partition_is_read_whole_a_block_at_a_time():
    data = bytes((i * 13 + 5) & 0xFF for i in range(3 * 4096))
    part = _Partition(data)
    assert _stream(PartitionImage(part), 1000) == data
    assert part.reads[4] == (0, 4000, 96)  # the piece that ends a block stops at its end
    assert _stream(PartitionImage(_Partition(data)), 4096) == data
