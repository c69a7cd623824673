"""board/flash_image.py on a real Cortex-M memory map: the image under qemu (MPS2-AN385, make
firmware-arm) reads its own program back from the addresses it runs from, and what it reads is
firmware.bin, the file that was loaded, byte for byte up to `_etext` (the .data after it is
written while it runs on this machine, whose program memory is RAM; a flash MCU copies .data out)."""
from __future__ import annotations

import hashlib
import re

from tools import firmware, qemu

PROBE = r'''
import hashlib, binascii
from board.flash_image import MappedImage
img = MappedImage(((0, %d),))
h = hashlib.sha256()
buf = bytearray(512)
mv = memoryview(buf)
n = 0
while True:
    k = img.readinto(buf)
    if not k:
        break
    h.update(mv[:k])
    n += k
print("IMAGE", n, binascii.hexlify(h.digest()).decode())
'''


def test_the_cortex_m_image_reads_its_own_program_from_flash() -> None:
    elf = firmware.ensure_built_arm()
    with firmware._locked():  # not while another test's build_arm (the benches') makes them again
        data = (elf.parent / "firmware.bin").read_bytes()
        m = re.search(r"0x([0-9a-f]+)\s+_etext = \.", (elf.parent / "firmware.map").read_text())
    assert m, "no _etext in firmware.map"
    etext = int(m.group(1), 16)
    assert 100_000 < etext <= len(data)
    repl = qemu.RawRepl(elf, icount=False)
    try:
        out = repl.exec(PROBE % etext)
    finally:
        repl.close()
    line = next(li for li in out.splitlines() if li.startswith("IMAGE "))
    _, n, digest = line.split()
    assert int(n) == etext
    assert digest == hashlib.sha256(data[:etext]).hexdigest()
