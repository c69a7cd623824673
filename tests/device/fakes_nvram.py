# FRAM chips and the buses they hang on, for board/nvram_fram.py tests (both runtimes).
# They behave like the parts byte for byte: the I2C chip takes its address from the first two
# bytes of a write transaction, the SPI chip decodes opcodes per chip-select session and honours
# the write enable latch (a WRITE without WREN is ignored, and the latch clears when a write ends).
# Either can be told to fail: stuck bits, a write-protect pin, an absent part.

ENODEV = 19  # MicroPython's machine.I2C raises OSError(ENODEV) when no device acknowledges


class _Cells:
    """The ferroelectric array: wraps at its end like the parts; stuck bits spoil stored bytes."""

    def __init__(self, size, mem=None):
        """mem: the array to use, wiped (a test that makes many parts keeps one taken early, before
        its heap is cut into pieces no 128 KB part fits in); None: a new one."""
        self.size = size
        if mem is None:
            mem = bytearray(size)
        else:
            zero = bytes(1024)
            for i in range(0, size, 1024):
                mem[i:i + 1024] = zero
        self.mem = mem
        self.stuck = {}  # offset -> (mask, level): those bits keep `level` whatever is written

    def stick(self, off, bit, level):
        mask, lv = self.stuck.get(off, (0, 0))
        self.stuck[off] = (mask | (1 << bit), (lv & ~(1 << bit)) | ((level & 1) << bit))
        self._apply(off)

    def _apply(self, off):
        mask, lv = self.stuck[off]
        self.mem[off] = (self.mem[off] & ~mask & 0xFF) | lv

    def store(self, ptr, data):
        """Write data from ptr on, wrapping; returns the next pointer."""
        n = len(data)
        i = 0
        while i < n:
            k = min(n - i, self.size - ptr)
            self.mem[ptr:ptr + k] = data[i:i + k]
            for off in self.stuck:
                if ptr <= off < ptr + k:
                    self._apply(off)
            ptr = (ptr + k) % self.size
            i += k
        return ptr

    def load(self, ptr, buf):
        n = len(buf)
        i = 0
        while i < n:
            k = min(n - i, self.size - ptr)
            buf[i:i + k] = self.mem[ptr:ptr + k]
            ptr = (ptr + k) % self.size
            i += k
        return ptr


class I2CFramChip(_Cells):
    """MB85RC-style I2C FRAM. device_id: the 3 ID bytes (MB85RC256V: manufacturer 0x00A and
    product 0x510 packed as 00h A5h 10h); None: the part has no ID command (FM24CL64).
    A 128 KB part answers on addr and addr|1 (device address bit 0 carries A16)."""

    def __init__(self, size, addr=0x50, device_id=(0x00, 0xA5, 0x10), mem=None):
        _Cells.__init__(self, size, mem)
        self.addr = addr
        self.device_id = device_id
        self.ptr = 0
        self.wp = False  # write-protect pin high: data acknowledged, not stored
        self.id_armed = False

    def addresses(self):
        return (self.addr, self.addr | 1) if self.size > 0x10000 else (self.addr,)

    def i2c_write(self, dev, data):
        """One write transaction after the device address: returns the ACKed data bytes."""
        if len(data) >= 2:
            self.ptr = (((dev & 1) << 16) | (data[0] << 8) | data[1]) % self.size
            if not self.wp:
                self.ptr = self.store(self.ptr, data[2:])
            else:
                self.ptr = (self.ptr + len(data) - 2) % self.size
        elif len(data) == 1:  # half an address: the part keeps the upper byte, nothing else
            self.ptr = ((data[0] << 8) | (self.ptr & 0xFF)) % self.size
        return len(data)

    def i2c_read(self, dev, buf):
        self.ptr = self.load(self.ptr, buf)


class FakeI2C:
    """machine.I2C as far as the FRAM driver uses it; logs (addr, bytes, stop) per transaction."""

    def __init__(self, *chips):
        self.devices = {}
        self.chips = chips
        self.log = None  # set to [] to keep every transaction (wire-level tests)
        for c in chips:
            for a in c.addresses():
                self.devices[a] = c

    def _dev(self, addr):
        d = self.devices.get(addr)
        if d is None:
            raise OSError(ENODEV)
        return d

    def _id_write(self, data):
        # reserved slave ID F8h: every part with the ID command acknowledges it; only the part whose
        # device address word follows acknowledges that byte and arms its ID for the F9h read
        ids = [c for c in self.chips if c.device_id]
        if not ids:
            raise OSError(ENODEV)
        acks = 0
        for c in ids:
            c.id_armed = len(data) == 1 and (data[0] >> 1) in c.addresses()
            acks = acks or int(c.id_armed)
        return acks

    def writeto(self, addr, buf, stop=True):
        return self.writevto(addr, (buf,), stop)

    def writevto(self, addr, vector, stop=True):
        data = b"".join([bytes(v) for v in vector])
        if self.log is not None:
            self.log.append(("w", addr, data, stop))
        if addr == 0x7C:
            return self._id_write(data)
        return self._dev(addr).i2c_write(addr, data)

    def readfrom_into(self, addr, buf, stop=True):
        if self.log is not None:
            self.log.append(("r", addr, len(buf), stop))
        if addr == 0x7C:
            for c in self.chips:
                if c.device_id and c.id_armed:
                    for i in range(len(buf)):
                        buf[i] = c.device_id[i % 3]
                    return
            raise OSError(ENODEV)
        self._dev(addr).i2c_read(addr, buf)

    def readfrom(self, addr, n, stop=True):
        buf = bytearray(n)
        self.readfrom_into(addr, buf, stop)
        return bytes(buf)


# --- SPI ---------------------------------------------------------------------------------------------
_WREN, _WRDI, _RDSR, _WRSR, _READ, _WRITE, _RDID = 0x06, 0x04, 0x05, 0x01, 0x03, 0x02, 0x9F
MB85RS64V_ID = b"\x04\x7f\x03\x02"
FM25V02_ID = b"\x7f\x7f\x7f\x7f\x7f\x7f\xc2\x22\x00"


class SPIFramChip(_Cells):
    """MB85RS / FM25V-style SPI FRAM, decoded one byte at a time within a chip-select session."""

    def __init__(self, size, device_id=MB85RS64V_ID, present=True):
        _Cells.__init__(self, size)
        self.alen = 3 if size > 0x10000 else 2
        self.device_id = device_id
        self.present = present
        self.sr = 0  # WPEN(7) BP1(3) BP0(2) WEL(1)
        self.selected = False
        self.sessions = None  # set to [] to keep every CS session's bytes in (wire-level tests)
        self.ignored_writes = 0

    # chip select edges
    def select(self):
        self.selected = True
        self.op = None
        self.abytes = 0
        self.addr = 0
        self.nbytes = 0
        self.wrote = False
        if self.sessions is not None:
            self.sessions.append(bytearray())

    def deselect(self):
        if not self.selected:
            return
        self.selected = False
        if self.op == _WREN and self.nbytes == 1:
            self.sr |= 0x02
        elif self.op == _WRDI and self.nbytes == 1:
            self.sr &= ~0x02
        elif self.op in (_WRITE, _WRSR) and self.wrote:
            self.sr &= ~0x02  # the latch clears when a write completes

    def _protected(self, off):
        bp = (self.sr >> 2) & 3
        if bp == 0:
            return False
        return off >= self.size - (self.size >> (3 - bp) if bp < 3 else self.size)

    def clock(self, mosi, miso):
        """Shift len(mosi) bytes in, the answers into miso (or nowhere)."""
        if not self.present:
            if miso is not None:
                for i in range(len(miso)):
                    miso[i] = 0xFF  # MISO pulled up, nobody drives it
            return
        if not self.selected:
            return
        if self.sessions is not None:
            self.sessions[-1].extend(mosi)
        n = len(mosi)
        i = 0
        while i < n:
            b = mosi[i]
            self.nbytes += 1
            out = 0xFF
            if self.op is None:
                self.op = b
            elif self.op == _RDSR:
                out = self.sr
            elif self.op == _WRSR:
                if self.nbytes == 2 and self.sr & 0x02:
                    self.sr = (self.sr & 0x03) | (b & 0x8C)
                    self.wrote = True
            elif self.op == _RDID:
                k = self.nbytes - 2
                out = self.device_id[k] if k < len(self.device_id) else 0x00
            elif self.op in (_READ, _WRITE) and self.abytes < self.alen:
                self.addr = ((self.addr << 8) | b) % self.size
                self.abytes += 1
            elif self.op == _READ:
                # data phase: the rest of this transfer streams out at once
                k = n - i
                if miso is not None:
                    tmp = bytearray(k)
                    self.addr = self.load(self.addr, tmp)
                    miso[i:i + k] = tmp
                else:
                    self.addr = (self.addr + k) % self.size
                self.nbytes += k - 1
                return
            elif self.op == _WRITE:
                k = n - i
                if not self.sr & 0x02:
                    self.ignored_writes += 1  # no WREN: the part ignores the data
                else:
                    data = bytes(mosi[i:i + k])
                    for j in range(k):
                        off = (self.addr + j) % self.size
                        if self._protected(off):
                            data = data[:j] + bytes([self.mem[off]]) + data[j + 1:]
                    self.addr = self.store(self.addr, data)
                    self.wrote = True
                self.nbytes += k - 1
                return
            if miso is not None:
                miso[i] = out
            i += 1


class FakeCS:
    """machine.Pin output driving the chip's /CS: value(0) selects, value(1) ends the command."""

    def __init__(self, chip):
        self.chip = chip
        self.level = 1

    def value(self, v=None):
        if v is None:
            return self.level
        v = 1 if v else 0
        if v == 0 and self.level == 1:
            self.chip.select()
        elif v == 1 and self.level == 0:
            self.chip.deselect()
        self.level = v


class FakeSPI:
    """machine.SPI as far as the FRAM driver uses it."""

    def __init__(self, chip):
        self.chip = chip

    def write(self, buf):
        self.chip.clock(bytes(buf), None)

    def readinto(self, buf, write=0x00):
        self.chip.clock(bytes([write]) * len(buf), buf)

    def write_readinto(self, wbuf, rbuf):
        self.chip.clock(bytes(wbuf), rbuf)


def spi_fram(size, **kw):
    chip = SPIFramChip(size, **kw)
    return chip, FakeSPI(chip), FakeCS(chip)
