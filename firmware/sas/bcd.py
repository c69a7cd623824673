# SAS numbers: BCD, most significant byte first (SAS 6.02 s. 2.2.3: BCD and ASCII fields are sent
# MSB first, binary ones LSB first). A meter of n bytes holds 2n digits and rolls over past them.


def put(out, off, value, nbytes):
    """value as nbytes of BCD at out[off:off + nbytes] (value modulo 10**(2*nbytes)); returns the
    offset after it."""
    end = off + nbytes
    i = end - 1
    while i >= off:
        d = value % 100
        value //= 100
        out[i] = (d // 10) << 4 | d % 10
        i -= 1
    return end


def get(buf, off, nbytes):
    """The number nbytes of BCD at buf[off:] hold; ValueError on a nibble above 9."""
    v = 0
    for i in range(off, off + nbytes):
        b = buf[i]
        hi, lo = b >> 4, b & 15
        if hi > 9 or lo > 9:
            raise ValueError("not BCD: 0x%02x" % b)
        v = v * 100 + hi * 10 + lo
    return v


def ascii(out, off, text, n, pad=0x30):
    """text in n ASCII bytes at out[off:], cut or padded with `pad` (ASCII "0" by default)."""
    b = text.encode()  # bytes: a str's text[i] would be a new object per character
    for i in range(n):
        out[off + i] = b[i] if i < len(b) else pad
    return off + n
