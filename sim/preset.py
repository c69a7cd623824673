"""A test bench's preset of an emulated cabinet's critical memory while it is powered off: the
progressive's meter where a campaign needs it, e.g. a few games short of its ceiling (3 SEVEN comes
once in some 340,000 games and the meter would need some 800,000 games at bet 3 to get there).

    python -m sim.preset STATE --units N [--rolled N]

The firmware's own Ledger writes it (firmware/ledger.py, one commit with a `preset` event), sealed
with the machine's secret file and dated on its anti-rollback counter as any commit is, so the
firmware opens it as its own; a cabinet running on STATE is refused by name (board/state_lock.py).
Not a firmware feature: nothing on a cabinet can set a meter. Amounts are in units of 1/q credit,
q the denominator of the model's rate: at "1/1000", --units 3999997 is one bet-3 game short of
sept-royal's ceiling of 4000 credits.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from board import state_lock
from board.counter_file import CounterFile
from board.emulated import FileNvram
from board.secret_file import SecretFile
from firmware.critmem import RamError
from firmware.ledger import Ledger, open_memory
from firmware.main import NVRAM_SIZE


def set_progressive(state: Path, units: int, rolled: int = 0) -> dict:
    """The progressive's meter at `units` (1/q credit) and its roll-over at `rolled`, committed in
    the cabinet's critical memory at STATE. The cabinet must have run once (its memory formatted)."""
    state_lock.check(str(state))
    if units < 0 or rolled < 0:
        raise ValueError("a meter is never negative")
    secret = SecretFile(str(state / "secret"), os.urandom).read()
    if secret is None:
        raise ValueError("%s has no machine secret: boot the cabinet once first" % state)
    nv = FileNvram(str(state / "nvram.bin"), NVRAM_SIZE)
    try:
        led = Ledger(open_memory(nv, secret, CounterFile(str(state / "counter"))))
        try:
            led.open()
        except RamError as e:
            raise ValueError("%s: critical memory: %s" % (state, e)) from None
        led.st["prog_n"] = units
        if rolled:
            led.st["prog_r"] = rolled
        else:
            led.st.pop("prog_r", None)
        led.event("preset", "test bench: progressive meter %d, roll-over %d (1/q credit)" % (units, rolled))
        return {"prog_n": units, "prog_r": rolled}
    finally:
        nv.close()


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m sim.preset", description=__doc__.splitlines()[0])
    ap.add_argument("state", type=Path, help="the cabinet's state directory (powered off)")
    ap.add_argument("--units", type=int, required=True, help="the progressive's meter, in units of 1/q credit")
    ap.add_argument("--rolled", type=int, default=0, help="its roll-over, in units of 1/q credit")
    a = ap.parse_args(argv)
    try:
        print(set_progressive(a.state, a.units, a.rolled))
    except (ValueError, OSError, state_lock.Busy) as e:
        print("sim.preset: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
