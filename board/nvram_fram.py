# Ferroelectric RAM (FRAM) as the cabinet's NVRAM: I2C parts (MB85RC / FM24 families) and SPI parts
# (MB85RS / FM25 families), behind the interface firmware/critmem.py uses:
#   size, read(off, n) -> bytes, write(off, data), close()
# FRAM writes are byte-addressable with no page limit, no erase and no write delay: a write is in
# the cells when the bus transaction ends, so write() returns only after the data reached the part.
#
# Facts used here, with where they were checked (docs/nvram.md lists them all):
# - I2C device address word 1010 A2 A1 A0 (7-bit 0x50-0x57), then two memory address bytes MSB
#   first, then data; sequential reads and writes roll over at the end of the array
#   (Fujitsu MB85RC256V datasheet DS501-00017-3v0-E, p. 10; Bus Pirate MB85RC256V page).
# - I2C device ID: reserved slave ID F8h (write) carrying the device address word, repeated start,
#   F9h (read), 3 bytes: 12-bit manufacturer (Fujitsu 0x00A), 12-bit product (MB85RC256V 0x510)
#   (MB85RC256V datasheet p. 10). F8h/F9h is 7-bit 0x7C. Not every part has it (FM24CL64 lacks it).
# - 128 KB I2C parts (MB85RC1MT) carry memory address bit A16 in the device address bit A0
#   (sosandroid/FRAM_MB85RC_I2C README): we split transfers at the 64 KB boundary.
# - SPI opcodes WREN 06h, WRDI 04h, RDSR 05h, WRSR 01h, READ 03h, WRITE 02h; the write enable latch
#   is cleared when any write completes, so each WRITE needs its own WREN (Ramtron FM25640 datasheet
#   rev 2.1 p. 5; MB85RS64V opcode table). Status register: WEL bit 1, BP0/BP1 bits 2-3, WPEN bit 7.
# - SPI RDID 9Fh: MB85RS64V answers 04h 7Fh 03h 02h (manufacturer, continuation code, product);
#   FM25V02 answers six 7Fh continuation codes, C2h, then 22h 00h (Adafruit_FRAM_SPI device table).
#   Parts above 64 KB (MB85RS1MT, MB85RS2MTA) take 3 address bytes (same source).
from board.compat import const

# I2C
_I2C_ID = const(0x7C)  # reserved slave ID F8h/F9h as a 7-bit address
_I2C_SEG = const(0x10000)  # 16-bit memory address; higher bits ride in the device address

# SPI opcodes
_WREN = const(0x06)
_WRDI = const(0x04)
_RDSR = const(0x05)
_WRSR = const(0x01)
_READ = const(0x03)
_WRITE = const(0x02)
_RDID = const(0x9F)
# SPI status register bits
SR_WEL = const(0x02)
SR_BP = const(0x0C)
SR_WPEN = const(0x80)

_VCHUNK = const(32)  # read-back verification works through this many bytes at a time


def _check(name, off, n, size):
    if off < 0 or n < 0 or off + n > size:
        raise ValueError("%s: access %d+%d outside %d bytes" % (name, off, n, size))


class _Fram:
    """What both buses share: bounds, the read API critmem uses, read-back verification."""

    def __init__(self, size, verify):
        if size <= 0:
            raise ValueError("FRAM size must be positive, not %d" % size)
        self.size = size
        self.verify = verify
        self._vbuf = bytearray(_VCHUNK)
        self._vmv = memoryview(self._vbuf)

    def read(self, off, n):
        _check(self.NAME, off, n, self.size)
        buf = bytearray(n)
        if n:
            self._read(off, buf)
        return bytes(buf)

    def readinto(self, off, buf):
        """Fill buf from off, without allocating (for callers that keep their own buffer)."""
        _check(self.NAME, off, len(buf), self.size)
        if len(buf):
            self._read(off, buf)

    def write(self, off, data):
        n = len(data)
        _check(self.NAME, off, n, self.size)
        if not n:
            return
        mv = memoryview(data)
        self._write(off, mv)
        if self.verify:
            self._verify(off, mv)

    def _verify(self, off, mv):
        # a stuck cell, a write-protect pin or a protected block must not pass as stored data
        n = len(mv)
        i = 0
        while i < n:
            k = min(_VCHUNK, n - i)
            chunk = self._vmv[:k]
            self._read(off + i, chunk)
            if chunk != mv[i:i + k]:
                for j in range(k):
                    if self._vbuf[j] != mv[i + j]:
                        raise OSError("%s: verify failed at 0x%x: wrote 0x%02x, read 0x%02x"
                                      % (self.NAME, off + i + j, mv[i + j], self._vbuf[j]))
            i += k

    def close(self):
        pass  # the bus belongs to the board; nothing is buffered here


class I2CFram(_Fram):
    """I2C FRAM: i2c is a machine.I2C (or SoftI2C), addr the 7-bit device address 0x50-0x57.

    size is the part's capacity in bytes (MB85RC256V 32768, MB85RC512T 65536, MB85RC1MT 131072).
    verify=True reads every write back and raises OSError on a mismatch.
    """

    NAME = "I2C FRAM"

    def __init__(self, i2c, size, addr=0x50, verify=False):
        if not 0x50 <= addr <= 0x57:
            raise ValueError("I2C FRAM address 0x%02x outside 0x50-0x57" % addr)
        if size > 2 * _I2C_SEG:
            raise ValueError("I2C FRAM above 128 KB is not supported (%d bytes)" % size)
        if size > _I2C_SEG and addr & 1:
            raise ValueError("a 128 KB I2C FRAM uses device address bit 0 for A16: 0x%02x is odd" % addr)
        _Fram.__init__(self, size, verify)
        self.i2c = i2c
        self.addr = addr
        self._abuf = bytearray(2)
        self._id = bytearray(3)
        self._dw = bytearray(1)

    def _seg(self, off):
        # device address for off, the 16-bit address in _abuf, bytes left before the segment ends
        self._abuf[0] = (off >> 8) & 0xFF
        self._abuf[1] = off & 0xFF
        return self.addr | (off >> 16), _I2C_SEG - (off & 0xFFFF)

    def _read(self, off, buf):
        mv = memoryview(buf)
        n = len(buf)
        i = 0
        while i < n:
            dev, room = self._seg(off + i)
            k = min(room, n - i)
            # address write without stop, then a read after the repeated start (random read)
            if self.i2c.writeto(dev, self._abuf, False) != 2:
                raise OSError("I2C FRAM 0x%02x: address not acknowledged" % dev)
            self.i2c.readfrom_into(dev, mv[i:i + k])
            i += k

    def _write(self, off, mv):
        n = len(mv)
        i = 0
        while i < n:
            dev, room = self._seg(off + i)
            k = min(room, n - i)
            # address and data in one transaction, no copy: the part has no page limit
            acks = self.i2c.writevto(dev, (self._abuf, mv[i:i + k]))
            if acks != k + 2:
                raise OSError("I2C FRAM 0x%02x: %d of %d bytes acknowledged at 0x%x" % (dev, acks, k + 2, off + i))
            i += k

    def device_id(self):
        """(manufacturer, product) from the reserved slave ID, e.g. (0x00A, 0x510) for MB85RC256V.

        Parts without the device ID command (FM24CL64) do not answer: OSError.
        """
        self._dw[0] = self.addr << 1
        if self.i2c.writeto(_I2C_ID, self._dw, False) != 1:
            raise OSError("I2C FRAM 0x%02x: no device ID answer" % self.addr)
        self.i2c.readfrom_into(_I2C_ID, self._id)
        b = self._id
        return (b[0] << 4) | (b[1] >> 4), ((b[1] & 0x0F) << 8) | b[2]


class SPIFram(_Fram):
    """SPI FRAM: spi is a machine.SPI (mode 0, MSB first), cs a machine.Pin output (active low).

    size is the part's capacity in bytes; parts above 64 KB get 3 address bytes.
    The constructor proves a part is there (the write enable latch must follow WREN and WRDI) and
    refuses a part whose block protection is set: a protected block ignores writes silently.
    verify=True reads every write back and raises OSError on a mismatch.
    """

    NAME = "SPI FRAM"

    def __init__(self, spi, cs, size, verify=False):
        if size > 1 << 24:
            raise ValueError("SPI FRAM above 16 MB is not supported (%d bytes)" % size)
        _Fram.__init__(self, size, verify)
        self.spi = spi
        self.cs = cs
        self._alen = 3 if size > 0x10000 else 2
        self._cmd = bytearray(1 + self._alen)
        self._op = bytearray(1)
        self._sr = bytearray(1)
        cs.value(1)
        self._probe()

    def _probe(self):
        self._simple(_WREN)
        on = self.status()
        self._simple(_WRDI)
        off = self.status()
        # an absent part reads as a bus stuck at 0x00 or 0xFF: WEL cannot follow both commands
        if not on & SR_WEL or off & SR_WEL:
            raise OSError("SPI FRAM: no part answers (status 0x%02x after WREN, 0x%02x after WRDI)" % (on, off))
        if off & SR_BP:
            raise OSError("SPI FRAM: block protection set (status 0x%02x): clear it with write_status(0)" % off)

    def _simple(self, op):
        self._op[0] = op
        self.cs.value(0)
        try:
            self.spi.write(self._op)
        finally:
            self.cs.value(1)

    def _addr(self, op, off):
        c = self._cmd
        c[0] = op
        for i in range(self._alen, 0, -1):
            c[i] = off & 0xFF
            off >>= 8
        return c

    def _read(self, off, buf):
        self.cs.value(0)
        try:
            self.spi.write(self._addr(_READ, off))
            self.spi.readinto(buf)
        finally:
            self.cs.value(1)

    def _write(self, off, mv):
        self._simple(_WREN)  # the latch cleared itself at the end of the previous write
        self.cs.value(0)
        try:
            self.spi.write(self._addr(_WRITE, off))
            self.spi.write(mv)
        finally:
            self.cs.value(1)  # the write completes on this rising edge

    def status(self):
        self.cs.value(0)
        try:
            self._op[0] = _RDSR
            self.spi.write(self._op)
            self.spi.readinto(self._sr)
        finally:
            self.cs.value(1)
        return self._sr[0]

    def write_status(self, value):
        """WRSR (e.g. 0 clears block protection); ignored by the part while WPEN=1 and /WP is low."""
        self._simple(_WREN)
        self._cmd[0] = _WRSR
        self._cmd[1] = value
        self.cs.value(0)
        try:
            self.spi.write(memoryview(self._cmd)[:2])
        finally:
            self.cs.value(1)

    def device_id(self, n=9):
        """RDID: (manufacturer bytes, product bytes) with the 7Fh continuation codes dropped.

        MB85RS64V gives (b"\\x04", b"\\x03\\x02"), FM25V02 (b"\\xc2", b"\\x22\\x00"). Parts without
        RDID leave the bus floating: check against the part you fitted.
        """
        buf = bytearray(n)
        self.cs.value(0)
        try:
            self._op[0] = _RDID
            self.spi.write(self._op)
            self.spi.readinto(buf)
        finally:
            self.cs.value(1)
        i = 0
        while i < n and buf[i] == 0x7F:
            i += 1
        if i < n and i == 0 and n > 1 and buf[1] == 0x7F:
            # Fujitsu: manufacturer first, then one continuation code, then the product
            return bytes(buf[:1]), bytes(buf[2:4])
        return bytes(buf[i:i + 1]), bytes(buf[i + 1:i + 3])
