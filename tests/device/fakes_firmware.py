# In-memory stand-ins for board objects, for firmware device tests (both runtimes).


class RamNvram:
    """NVRAM in a bytearray; can tear a write after `tear_after` bytes to mimic a power cut, or
    the n-th write from now (cut)."""

    def __init__(self, size=16384):
        self.size = size
        self.mem = bytearray(size)
        self.tear_after = None
        self.writes = 0
        self.bytes_written = 0
        self._cut = None

    def cut(self, n, tear=None):
        """The power goes during the n-th write from now (1: the next), after `tear` of its bytes
        (None: half of them); cut(None): no cut waiting (one set past the last write is let go)."""
        self._cut = None if n is None else (self.writes + n, tear)

    def read(self, off, n):
        return bytes(self.mem[off:off + n])

    def readinto(self, off, buf):  # as the FRAM driver's: no piece of the heap taken
        buf[:] = memoryview(self.mem)[off:off + len(buf)]

    def write(self, off, data):
        n = len(data)
        c = self._cut
        if c is not None and self.writes + 1 >= c[0]:
            self._cut = None
            self.tear_after = n // 2 if c[1] is None else c[1]
        if self.tear_after is not None:
            n = min(n, self.tear_after)
            self.mem[off:off + n] = data[:n]
            self.tear_after = None
            raise PowerCut()
        self.mem[off:off + n] = data
        self.writes += 1
        self.bytes_written += n


def wiped(nv):
    """nv as a new machine's part, zeroed in place (a 64 KB image made per test fragments a small
    heap until no 64 KB is left in one piece), with no anti-rollback counter yet."""
    zero = bytes(256)
    for off in range(0, nv.size, 256):
        nv.mem[off:off + 256] = zero
    nv.counters = None
    nv.floors = None
    nv.writes = nv.bytes_written = 0
    nv._cut = nv.tear_after = None
    return nv


class PowerCut(Exception):
    pass


class FrameUart:
    """The SAS port: rx holds the chunks the line delivers, one per readinto (None: nothing came);
    tx collects what was sent."""

    def __init__(self):
        self.rx = []
        self.tx = bytearray()

    def readinto(self, buf):
        if not self.rx:
            return None
        chunk = self.rx.pop(0)
        buf[:len(chunk)] = chunk
        return len(chunk)

    def write(self, b):
        self.tx += bytes(b)
        return len(b)


TEST_SECRET = bytes(range(32))  # a test machine's secret (a board's machine_secret())


class MemCounter:
    """An anti-rollback counter in RAM (a board's rollback_counter()): never goes back."""

    def __init__(self, value=None):
        self.value = value
        self.writes = 0

    def read(self):
        return self.value

    def write(self, n):
        if self.value is not None and n < self.value:
            raise ValueError("counter at %d cannot go back to %d" % (self.value, n))
        self.value = n
        self.writes += 1


def counter_of(nv, which="books"):
    """The counter that goes with an NVRAM part: kept on it, so a power cycle that reuses the part
    reuses its machine's counter (a new part, a new machine). One per critical memory on the part."""
    counters = getattr(nv, "counters", None)
    if counters is None:
        counters = nv.counters = {}
    if which not in counters:
        counters[which] = MemCounter()
    return counters[which]


def floor_of(nv, which):
    """A board's floor (hal.Board.floor) for the machine whose part nv is: kept beside its counters,
    so a test that wipes the part's bytes keeps it (the board's side outlives the NVRAM part), and a
    new part (wiped(), or a new RamNvram) is a new machine without one."""
    floors = getattr(nv, "floors", None)
    if floors is None:
        floors = nv.floors = {}
    if which not in floors:
        floors[which] = MemCounter()
    return floors[which]


def memory(nv, secret=TEST_SECRET, counter=None):
    """The ledger's critical memory on nv, as firmware.startup opens it on a board."""
    from firmware.ledger import open_memory

    return open_memory(nv, secret, counter if counter is not None else counter_of(nv))


class FixedOutcome:
    """Stands in for a game outcome with a chosen award."""

    def __init__(self, bet, award, draws=(1, 2, 3)):
        self.bet = bet
        self.award = award
        self.draws = list(draws)
        self.stops = list(draws)
        self.window = [["X"]]
        self.wins = []
        self.triggered = 0
        self.free = []
