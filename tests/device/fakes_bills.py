# A byte-level fake ccTalk bill validator for device tests (both runtimes): the 159 buffer, escrow
# and routing (154), bill ids (157: Canadian $5-$100), CA scaling (156: factor 100, 2 places),
# operating mode (153) and inhibits (231/228). on_route(code) runs as a 154 arrives (tests check what
# is committed at that instant); `ids` is its bill table; `stacked` the types in its stacker.
# power_cycle(): the cabinet's supply goes: counter 0, buffer empty, inhibited; a note held in escrow
# goes out of the front, or into the cash box with cashbox=True (ITL's validators report either at
# reset under their own protocol; ccTalk's 159 table has no event for it), and no event says which.
# Tickets (barcoded coupons): insert_ticket(number) holds one in escrow with event (0, 20), "barcode
# detected" in ccTalk part 3's bill event table; 129 ("read barcode data", part 2) answers its digits;
# 154 stacks it (`tickets`) or returns it (event (0, 1), `tickets_back`).


IDS = {1: "CA0005A", 2: "CA0010A", 3: "CA0020A", 4: "CA0050A", 5: "CA0100A"}


class Validator:
    """A bill validator's 159 buffer, escrow and inhibits."""

    def __init__(self):
        self.counter = 0
        self.events = []
        self.master = 0
        self.mask = 0
        self.mode = 0
        self.escrow = None
        self.routes = []
        self.on_route = None
        self.full = False
        self.ids = dict(IDS)
        self.stacked = []
        self.returned = 0
        self.ticket = None
        self.tickets = []
        self.tickets_back = []

    def event(self, a, b):
        self.counter = self.counter % 255 + 1
        self.events.insert(0, (a, b))
        del self.events[5:]

    def insert(self, t):
        self.escrow = t
        self.event(t, 1)

    def insert_ticket(self, number):
        self.ticket = number
        self.event(0, 20)

    def power_cycle(self, cashbox=False):
        if self.ticket is not None:
            (self.tickets if cashbox else self.tickets_back).append(self.ticket)
            self.ticket = None
        if self.escrow is not None:
            if cashbox:
                self.stacked.append(self.escrow)
            else:
                self.returned += 1
            self.escrow = None
        self.counter = 0
        self.events = []
        self.master = 0

    def reply(self, header, data):
        if header == 159:
            ev = self.events + [(0, 0)] * (5 - len(self.events))
            return bytes([self.counter] + [x for p in ev for x in p])
        if header == 129:
            return self.ticket.encode() if self.ticket is not None else b""
        if header == 154:
            self.routes.append(data[0])
            if self.on_route is not None:
                self.on_route(data[0])
            if self.ticket is not None:
                if data[0] == 1 and self.full:
                    return bytes([255])
                t, self.ticket = self.ticket, None
                if data[0] == 1:
                    self.tickets.append(t)
                else:
                    self.tickets_back.append(t)
                    self.event(0, 1)
                return b""
            if self.escrow is None:
                return bytes([254])
            if data[0] == 1 and self.full:
                return bytes([255])
            t, self.escrow = self.escrow, None
            if data[0] == 1:
                self.stacked.append(t)
                self.event(t, 0)
            else:
                self.returned += 1
                self.event(0, 1)
            return b""
        if header == 157:
            return self.ids.get(data[0], ".......").encode()
        if header == 156:
            return b"\x64\x00\x02" if bytes(data) == b"CA" else b"\x00\x00\x00"
        if header == 153:
            self.mode = data[0]
            return b""
        if header == 228:
            self.master = data[0]
            return b""
        if header == 231:
            self.mask = data[0] | data[1] << 8
            return b""
        if header == 254:
            return b""
        return None
