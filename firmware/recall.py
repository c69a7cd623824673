# Game recall digests: a SHA-256 over the canonical form (rng/crypto/canon.py, the same bytes under
# MicroPython and CPython) of the whole outcome: stops, window, every win, free spins, award. A host
# replays a recorded game from its draws and proves it bit for bit (python -m sim.replay).
from rng.crypto.canon import sha256


def digest(outcome):
    h = sha256([outcome.bet, outcome.draws, outcome.stops, outcome.window, outcome.wins, outcome.award,
                outcome.triggered, outcome.free])
    return "".join("%02x" % b for b in h[:16])
