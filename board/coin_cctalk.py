# ccTalk coin acceptor: set-up and polling of header 229 (read buffered credit or error codes).
# Reply to 229: [event counter][A1][B1]...[A5][B5], newest first. A != 0: coin credit, A = coin
# position (1..16), B = sorter path. A == 0: B is an error/status code. The counter is 0 only after
# power-up or reset and wraps 255 -> 1, so at most 5 events can be told apart between two polls.
from board.compat import const

ADDR = const(2)
H_SIMPLE_POLL = const(254)
H_EQUIPMENT_CATEGORY = const(245)
H_READ_BUFFERED = const(229)
H_MASTER_INHIBIT = const(228)
H_SET_INHIBITS = const(231)
H_RESET = const(1)


def new_events(last, counter):
    """How many events happened between two counter readings (0 -> reset, wraps 255 -> 1)."""
    if counter >= last:
        return counter - last
    return counter + 255 - last


class CoinAcceptor:
    def __init__(self, bus, addr=ADDR):
        self.bus = bus
        self.addr = addr
        self.last = None  # event counter of the previous poll
        self.missed = 0

    def present(self):
        self.bus.request(self.addr, H_SIMPLE_POLL)
        return True

    def category(self):
        return bytes(self.bus.request(self.addr, H_EQUIPMENT_CATEGORY)).decode()

    def begin(self):
        """Inhibit, then read the event counter as the baseline: no coin can slip in between."""
        self.enable(False)
        if self.last is None:
            r = self.bus.request(self.addr, H_READ_BUFFERED)
            self.last = r[0]

    def enable(self, on, mask=0xFFFF):
        self.bus.request(self.addr, H_SET_INHIBITS, bytes((mask & 0xFF, mask >> 8)))
        self.bus.request(self.addr, H_MASTER_INHIBIT, b"\x01" if on else b"\x00")

    def poll(self, out):
        """Append new events as (kind, a, b) to out: ("coin", position, path) or ("error", 0, code).

        Events are returned oldest first. Returns the number appended.
        """
        r = self.bus.request(self.addr, H_READ_BUFFERED)
        if len(r) != 11:
            raise ValueError("229 reply of %d bytes" % len(r))
        counter = r[0]
        if self.last is None or counter == 0:
            # never baselined (call begin() first), or the device was reset: nothing to credit
            self.last = counter
            return 0
        n = new_events(self.last, counter)
        self.last = counter
        if n > 5:
            self.missed += n - 5
            n = 5
        for i in range(n - 1, -1, -1):  # oldest first
            a = r[1 + 2 * i]
            b = r[2 + 2 * i]
            out.append(("coin", a, b) if a else ("error", 0, b))
        return n
