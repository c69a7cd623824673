# Game recall digests: a SHA-256 over the canonical form (games/canon.py, the same bytes under
# MicroPython and CPython) of the whole outcome: stops, window, every win, free spins, award. A host
# replays a recorded game from its draws and proves it bit for bit (python -m sim.replay).
import hashlib

from games.canon import canonical


def digest(outcome):
    h = hashlib.sha256(canonical([outcome.bet, outcome.draws, outcome.stops, outcome.window, outcome.wins,
                                  outcome.award, outcome.triggered, outcome.free])).digest()
    return "".join("%02x" % b for b in h[:16])
