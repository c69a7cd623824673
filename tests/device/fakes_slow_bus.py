# A ccTalk wire whose replies come one loop pass later (fakes_board.Wire's devices, replies held until
# the test releases them) and the hand-driven clock the Master then times out on: the drivers'
# service() is driven pass by pass, as the cabinet's loop drives it, with nothing waited for.
from fakes_board import Clock, Wire


class Slow(Wire):
    """The master's own bytes (the echo) are there at once; each reply only once released."""

    def __init__(self, crc=False):
        Wire.__init__(self, crc)
        self.held = b""

    def write(self, data):
        n = len(self.rx)
        r = Wire.write(self, data)
        k = len(data)
        self.held += bytes(self.rx[n + k:])
        self.rx = self.rx[:n + k]
        return r

    def release(self, k=None):
        k = len(self.held) if k is None else k
        self.rx += self.held[:k]
        self.held = self.held[k:]


def master(w, **kw):
    """A Master on w whose clock is a Clock; waits (the waiting form's idle) are counted in .waits."""
    from board.cctalk import Master

    clock = Clock(0)
    waits = []

    def idle(ms):
        waits.append(ms)
        clock.advance(ms)
        w.release()

    m = Master(w, idle, clock=clock, **kw)
    m.waits = waits
    m.now = clock
    return m


def passes(w, m, call, n=40, step=10):
    """call() once a pass for up to n passes (the clock moved `step` ms and the replies released
    between passes) until it returns something else than None; that, and the passes it took."""
    for i in range(n):
        r = call()
        if r is not None:
            return r, i + 1
        m.now.advance(step)
        w.release()
    raise AssertionError("nothing after %d passes" % n)
