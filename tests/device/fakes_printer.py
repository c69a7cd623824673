# An in-memory ticket printer for the device tests (CPython and MicroPython): answers GS z and
# DLE EOT 2 at once, keeps every other byte it is sent, and "prints" a ticket when FF arrives.
# The byte values of the status replies are the ones docs/drivers.md cites (Epic 950 family);
# sim/printer.py is the full peer that decodes and renders tickets.
from fakes_board import Wire


class FakePrinter(Wire):
    """The UART side (any, readinto) is fakes_board.Wire's; write() is the printer's."""

    def __init__(self):
        Wire.__init__(self)
        self.data = bytearray()  # everything but status requests
        self.low = False
        self.out = False
        self.open = False
        self.jam = False
        self.validated = False  # since the last ESC @
        self.barcoded = False
        self.path = False
        self.mute = False  # no reply at all (unplugged)
        self.tickets = 0
        self.fault_at_ff = None  # "out", "jam" or "open": the fault strikes as the ticket prints

    def write(self, data):
        data = bytes(data)
        if data == b"\x1dz":
            if not self.mute:
                z = 0x08 | (0x01 if self.low else 0) | (0x02 if not (self.out or self.open) else 0)
                z |= (0x10 if self.barcoded else 0) | (0x20 if self.validated else 0)
                z |= (0x40 if self.path else 0) | (0x80 if self.jam else 0)
                self.rx.append(z)
            return len(data)
        if data == b"\x10\x04\x02":
            if not self.mute:
                self.rx.append(0x12 | (0x04 if self.open else 0))
            return len(data)
        if data == b"\x1b@":
            self.validated = self.barcoded = False
        self.data += data
        if data == b"\x0c":
            if self.fault_at_ff:
                setattr(self, self.fault_at_ff, True)
                self.path = True  # stopped with the ticket half out
                self.fault_at_ff = None
            else:
                self.validated = self.barcoded = True
                self.tickets += 1
        return len(data)


def tickets_sent(fake):
    """The validation numbers of the tickets sent (GS E number LF), in order."""
    out = []
    d = bytes(fake.data)
    i = d.find(b"\x1dE")
    while i >= 0:
        j = d.index(b"\n", i)
        out.append(d[i + 2:j].decode())
        i = d.find(b"\x1dE", j)
    return out
