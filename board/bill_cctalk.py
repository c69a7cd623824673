# ccTalk bill validator: identification of its bill types, escrow and routing, polling of header 159
# ("read buffered bill events"). Reply to 159: [event counter][A1][B1]...[A5][B5], newest first,
# with the coin acceptor's counter rules (0 after a reset, then 1..255 wrapping to 1): the counter
# logic, its double reading and its faults are board/coin_cctalk.py's, unchanged.
#   A = 1..16 (bill type), B = 0: the note was stacked: ("bill", type, 0)
#   A = 1..16,             B = 1: the note is held in escrow: ("escrow", type, 1); the host routes it
#                                 (header 154: 1 stack, 0 return); the validator returns it by itself
#                                 when not routed within its escrow timeout (code 1)
#   A = 0: B is an event code (board/bill_codes.py): (kind, 0, code)
# plus ("counter", was, now) and ("reset", last, 0) as for coins.
# What a reading proves of one note after the counter's chain broke (a counter fault, then a fresh
# baseline): fate(reading, counter, type) below. A reset or power-up empties the buffer and restarts
# the counter at 0 (ccTalk's rule, as ashaduri/qt-cctalk cctalk/cctalk_device.cpp quotes it: "the
# device lost power (possible loss of credits)"); no event of the 159 table says what became of a
# note held at that moment, so nothing after a reset proves it.
# A barcoded ticket (coupon) is reported as A = 0, B = 20 ("barcode detected", ccTalk generic
# specification part 3's bill validator event table) and held in escrow like a note: its number is
# read with header 129 ("read barcode data", part 2: 18 ASCII digits) and it is routed with 154.
# Bill ids (header 157) are 7 ASCII characters "CCVVVVI": country, value in the country's scaling
# units, issue letter ("CA0020A"); header 156 gives the country's scaling factor and decimal places.
from board import bill_codes
from board.coin_cctalk import EVENTS, CoinAcceptor, new_events
from board.compat import const

ADDR = const(40)  # the bill validator's usual ccTalk address
H_READ_BILL_EVENTS = const(159)
H_BILL_ID = const(157)
H_SCALING = const(156)
H_ROUTE_BILL = const(154)
H_OPERATING_MODE = const(153)
H_READ_BARCODE = const(129)
BARCODE_DIGITS = const(18)
ROUTE_RETURN = const(0)
ROUTE_STACK = const(1)
MODE_STACKER_ESCROW = const(3)  # 153 mask: bit 0 use the stacker, bit 1 use the escrow
TYPES = const(16)
STACKED = "stacked"
RETURNED = "returned"
ESCROW = "escrow"


def parse_bill_id(bid):
    """ccTalk bill id "CCVVVVI" (country, value, issue): ("CA", 20, "A"); None if not a bill."""
    if len(bid) != 7 or not bid[0:2].isalpha() or not bid[2:6].isdigit():
        return None
    return bid[0:2], int(bid[2:6]), bid[6]


def bill_cents(value, factor, places):
    """A bill id's value in cents: value x scaling factor, with `places` decimal places."""
    return value * factor * 100 // 10 ** places


def fate(reading, counter, bill_type):
    """What one 159 reading ([counter][A1][B1]...[A5][B5], newest first) proves of the note of
    `bill_type` whose escrow event had the event counter `counter`: STACKED, RETURNED, ESCROW (still
    held: no later event of it), or None. None when the reading does not reach back to that escrow
    event (a reset, or five events or more since), when the event found at its counter is not that
    note's escrow, or when another note's event comes before its fate: then nothing is proved."""
    now = reading[0]
    if not now or not counter:
        return None
    d = new_events(counter, now)  # how far back the escrow event sits in the buffer
    if d >= EVENTS or reading[1 + 2 * d] != bill_type or reading[2 + 2 * d] != 1:
        return None
    while d:
        d -= 1
        a = reading[1 + 2 * d]
        b = reading[2 + 2 * d]
        if a == bill_type and b == 0:
            return STACKED
        if not a and b == bill_codes.RETURNED:
            return RETURNED
        if a:
            return None  # another note's event first: the buffer does not add up
    return ESCROW


class BillValidator(CoinAcceptor):
    READ = H_READ_BILL_EVENTS
    WHAT = "bill validator"

    def __init__(self, bus, addr=ADDR, log=None):
        super().__init__(bus, addr, log)
        self.base = bytearray(1 + 2 * EVENTS)  # the reading the counter was last baselined from
        self.rebased = False  # set at each fresh baseline; the firmware clears it once it has looked

    def _based(self):
        a = self._a
        for i in range(1 + 2 * EVENTS):
            self.base[i] = a[i]
        self.rebased = True

    def begin(self):
        """Escrow on (every note waits for the host's route), then inhibit and baseline."""
        self._abandon()
        self.bus.request(self.addr, H_OPERATING_MODE, bytes((MODE_STACKER_ESCROW,)))
        super().begin()

    def bill_ids(self):
        """{bill type: bill id string} for the 16 types (header 157); empty ones skipped."""
        ids = {}
        for t in range(1, TYPES + 1):
            bid = bytes(self.bus.request(self.addr, H_BILL_ID, bytes((t,)))).decode()
            if parse_bill_id(bid):
                ids[t] = bid
        return ids

    def scaling(self, country):
        """(scaling factor, decimal places) of a country code (header 156); None: not supported."""
        r = self.bus.request(self.addr, H_SCALING, country.encode())
        if len(r) != 3 or not (r[0] or r[1] or r[2]):
            return None
        return r[0] | r[1] << 8, r[2]

    def barcode(self):
        """The ticket in escrow's number (header 129): 18 decimal digits, or None (none, or garbled)."""
        r = self.bus.request(self.addr, H_READ_BARCODE, b"")
        if len(r) != BARCODE_DIGITS:
            return None
        for x in r:
            if not 0x30 <= x <= 0x39:
                return None
        return bytes(r).decode()

    def route(self, stack):
        """Route the note held in escrow (header 154): None when done, else the error code
        (254 escrow empty, 255 failed to route). A repeat after a lost reply finds the escrow
        empty: the events that follow (stacked, or returned) say what happened."""
        r = self.bus.request(self.addr, H_ROUTE_BILL, bytes((ROUTE_STACK if stack else ROUTE_RETURN,)))
        return r[0] if len(r) else None

    @staticmethod
    def _event(a, b):
        if a:
            if b == 0:
                return ("bill", a, 0)
            if b == 1:
                return ("escrow", a, 1)
            return (bill_codes.FAULT, a, b)  # no such pair in the table: never a credit
        return (bill_codes.kind(b), 0, b)
