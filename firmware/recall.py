# Game recall digests: a SHA-256 over a canonical text of the whole outcome (stops, window, every win,
# free spins, award). The text is built by hand, identical on MicroPython and CPython, so a host can
# replay a recorded game from its draws and prove it bit for bit (python -m sim.replay).
import hashlib


def _canon(v, out):
    if isinstance(v, (list, tuple)):
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(",")
            _canon(x, out)
        out.append("]")
    elif isinstance(v, bool):
        out.append("1" if v else "0")
    elif isinstance(v, int):
        out.append("%d" % v)
    elif isinstance(v, str):
        out.append('"%s"' % v.replace("\\", "\\\\").replace('"', '\\"'))
    elif v is None:
        out.append("n")
    else:
        raise ValueError("cannot canonicalise %r" % (v,))


def canonical(outcome):
    out = []
    _canon([outcome.bet, outcome.draws, outcome.stops, outcome.window, outcome.wins, outcome.award,
            outcome.triggered, outcome.free], out)
    return "".join(out)


def digest(outcome):
    h = hashlib.sha256(canonical(outcome).encode()).digest()
    return "".join("%02x" % b for b in h[:16])
