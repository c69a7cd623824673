# In-memory stand-ins for board objects, for firmware device tests (both runtimes).


class RamNvram:
    """NVRAM in a bytearray; can tear a write after `tear_after` bytes to mimic a power cut."""

    def __init__(self, size=16384):
        self.size = size
        self.mem = bytearray(size)
        self.tear_after = None
        self.writes = 0
        self.bytes_written = 0

    def read(self, off, n):
        return bytes(self.mem[off:off + n])

    def write(self, off, data):
        n = len(data)
        if self.tear_after is not None:
            n = min(n, self.tear_after)
            self.mem[off:off + n] = data[:n]
            self.tear_after = None
            raise PowerCut()
        self.mem[off:off + n] = data
        self.writes += 1
        self.bytes_written += n


class PowerCut(Exception):
    pass


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
