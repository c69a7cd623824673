# The file behind a file-backed NVRAM (the emulated board's FileNvram, littlefs's LfsNvram).
import os

_CHUNK = 256  # zero-fill step: the firmware's heap is fixed, never allocate `size` bytes


def prepare(path, size):
    """Make `path` at least `size` bytes. A missing file is created zero-filled (a new part). An
    existing one is never re-created: one that is too short (truncated, or cut while being created)
    is only extended with zeros, so what it lost shows up as corruption that critical memory
    reports, never as a silent RAM clear."""
    try:
        have = os.stat(path)[6]
    except OSError:
        have = None
    if have is not None and have >= size:
        return
    zero = bytes(_CHUNK)
    with open(path, "wb" if have is None else "r+b") as f:
        off = have or 0
        f.seek(off)
        while off < size:
            n = min(_CHUNK, size - off)
            f.write(zero if n == _CHUNK else zero[:n])
            off += n
    if os.stat(path)[6] < size:
        raise OSError("NVRAM file %s is not %d bytes after zero-filling" % (path, size))
